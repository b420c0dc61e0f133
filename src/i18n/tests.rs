//! Every message's two languages, read from the sources themselves, so a
//! string added anywhere in `i18n` is checked without being listed here.

use super::Lang;

/// The i18n sources, as written.
const SOURCES: [(&str, &str); 10] = [
    ("i18n.rs", include_str!("../i18n.rs")),
    ("controls.rs", include_str!("controls.rs")),
    ("experiment.rs", include_str!("experiment.rs")),
    ("mistakes.rs", include_str!("mistakes.rs")),
    ("projection.rs", include_str!("projection.rs")),
    ("raster.rs", include_str!("raster.rs")),
    ("share.rs", include_str!("share.rs")),
    ("training.rs", include_str!("training.rs")),
    ("errors.rs", include_str!("errors.rs")),
    ("walkthrough.rs", include_str!("walkthrough.rs")),
];

/// Messages whose two languages are the same on purpose: code without comments.
const SAME_IN_BOTH: [&str; 3] = [
    "q = x @ W_q  # (T, d_k)\\nk = x @ W_k  # (T, d_k)\\nv = x @ W_v  # (T, d_k)",
    "scores = q @ k.transpose(-2, -1)  # (T, T)",
    "scores = scores / math.sqrt(d_k)",
];

/// The language switch names the language it switches to, in that language,
/// as language menus do, so its two texts are each other's language.
const SWITCH: (&str, &str) = ("English", "中文");

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
fn messages() -> Vec<(&'static str, &'static str, &'static str)> {
    let mut found = Vec::new();
    for (file, source) in SOURCES {
        for (at, _) in source.match_indices("zh: \"") {
            let zh = literal(&source[at + 5..]);
            let rest = &source[at + 5 + zh.len()..];
            let en_at = rest.find("en: \"").expect("every zh is followed by its en");
            found.push((file, zh, literal(&rest[en_at + 5..])));
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
    for (file, zh, en) in all {
        assert!(
            !zh.trim().is_empty() && !en.trim().is_empty(),
            "{file}: an empty message"
        );
        if (zh, en) == SWITCH {
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
