//! Every message's two languages, read from the sources themselves, so a
//! string added anywhere in `i18n` is checked without being listed here.

use super::Lang;

/// The i18n sources, as written: `i18n.rs` and every file of `i18n/`, read
/// from the folder so that a new file is checked without being listed.
fn sources() -> Vec<(String, String)> {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/i18n");
    let mut files = vec![folder.with_extension("rs")];
    let entries = std::fs::read_dir(&folder).expect("src/i18n is readable");
    files.extend(entries.map(|e| e.expect("an entry").path()));
    files.retain(|f| f.extension().is_some_and(|e| e == "rs") && !f.ends_with("tests.rs"));
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let name = f
                .file_name()
                .expect("a file name")
                .to_string_lossy()
                .into_owned();
            let text = std::fs::read_to_string(&f).expect("a readable source");
            (name, text)
        })
        .collect()
}

/// Messages whose two languages are the same on purpose: code without comments.
const SAME_IN_BOTH: [&str; 3] = [
    "q = x @ W_q  # (T, d_k)\\nk = x @ W_k  # (T, d_k)\\nv = x @ W_v  # (T, d_k)",
    "scores = q @ k.transpose(-2, -1)  # (T, T)",
    "scores = scores / math.sqrt(d_k)",
];

/// The language switch names the language it switches to, in that language,
/// as language menus do, so its two texts are each other's language.
const SWITCH: (&str, &str) = ("English", "中文");

/// Punctuation, which each language writes its own way, with no word in either.
const PUNCTUATION: [(&str, &str); 1] = [("；", "; ")];

/// The string literal at the start of `text` (after its opening quote), as written.
fn literal(text: &str) -> &str {
    let mut escaped = false;
    for (at, c) in text.char_indices() {
        match c {
            '\\' if !escaped => escaped = true,
            '"' if !escaped => return &text[..at],
            _ => escaped = false,
        }
    }
    text
}

/// Every (file, zh, en) pair written as `zh: "…", en: "…"`.
fn messages() -> Vec<(String, String, String)> {
    let mut found = Vec::new();
    for (file, source) in sources() {
        for (at, _) in source.match_indices("zh: \"") {
            let zh = literal(&source[at + 5..]);
            let rest = &source[at + 5 + zh.len()..];
            let en_at = rest.find("en: \"").expect("every zh is followed by its en");
            found.push((
                file.clone(),
                zh.to_owned(),
                literal(&rest[en_at + 5..]).to_owned(),
            ));
        }
    }
    found
}

fn has_chinese(text: &str) -> bool {
    text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

#[test]
fn every_message_has_both_languages_and_neither_is_empty() {
    let all = messages();
    assert!(all.len() > 150, "found only {} messages", all.len());
    for (file, zh, en) in &all {
        let (zh, en) = (zh.as_str(), en.as_str());
        assert!(
            !zh.trim().is_empty() && !en.trim().is_empty(),
            "{file}: an empty message"
        );
        if (zh, en) == SWITCH || PUNCTUATION.contains(&(zh, en)) {
            continue;
        }
        if SAME_IN_BOTH.contains(&zh) {
            assert_eq!(zh, en);
            continue;
        }
        assert!(has_chinese(zh), "{file}: untranslated zh {zh:?}");
        assert_ne!(zh, en, "{file}: {en:?} is the same in both languages");
        // English text may quote the user's or the lessons' Chinese tokens, but
        // is mostly English words.
        let latin = en.chars().filter(char::is_ascii_alphabetic).count();
        let chinese = en.chars().filter(|&c| has_chinese(&c.to_string())).count();
        assert!(latin > chinese, "{file}: en looks untranslated: {en:?}");
    }
}

#[test]
fn a_link_may_name_either_language_and_nothing_else() {
    assert_eq!(Lang::from_link("zh"), Some(Lang::Zh));
    assert_eq!(Lang::from_link("en"), Some(Lang::En));
    assert_eq!(Lang::from_link("fr"), None);
    assert_eq!(Lang::from_link("<script>"), None);
}
