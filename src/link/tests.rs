use super::*;
use attention_core::presets::{self, Preset};

#[test]
fn every_preset_survives_the_round_trip_exactly() {
    for preset in Preset::ALL {
        let scenario = preset.scenario();
        let text = encode(&scenario);
        assert_eq!(decode(&text), Ok(scenario), "{preset:?}");
    }
}

#[test]
fn awkward_numbers_and_tokens_come_back_bit_for_bit() {
    let mut s = presets::sentence();
    s.x[[0, 0, 0]] = 1.0 / 3.0;
    s.x[[0, 0, 1]] = -0.0;
    s.x[[0, 0, 2]] = 0.1 + 0.2;
    s.head.w_q[[0, 0]] = 999.999_999_999_999_9;
    s.tokens = Some(
        ["a,b", "c|d", "e\\f", "<img src=x>"]
            .map(String::from)
            .to_vec(),
    );
    s.options.causal = true;
    let back = decode(&encode(&s)).expect("round trip");
    assert_eq!(back.tokens, s.tokens);
    for (a, b) in back.x.iter().zip(s.x.iter()) {
        assert_eq!(a.to_bits(), b.to_bits());
    }
    assert_eq!(back, s);
}

#[test]
fn the_default_scenario_fits_in_a_short_link() {
    let text = encode(&presets::sentence());
    assert!(text.len() < 600, "{} characters: {text}", text.len());
}

#[test]
fn damaged_links_are_refused_with_the_part_named() {
    let good = encode(&presets::sentence());
    let cases = [
        ("", "s"),
        ("2|1,4,4,4|100||||||", "s"),
        (&good[..good.len() / 2], "s"),
        (&good.replacen("1,4,4,4", "1,4,4", 1), "sizes"),
        (&good.replacen("1,4,4,4", "1,9999,4,4", 1), "sizes"),
        (&good.replacen("|100|", "|1x0|", 1), "flags"),
        (&good.replacen("-0.9", "NaN", 1), "X"),
        (&good.replacen("-0.9", "1e999", 1), "X"),
        (&good.replacen("-0.9", "5000", 1), "X"),
    ];
    for (text, part) in cases {
        assert_eq!(decode(text), Err(LabError::BadLink(part.into())), "{text}");
    }
}

#[test]
fn readable_parameters_round_trip_and_garbage_is_ignored() {
    let nav = Navigation {
        query: 2,
        sequence: 1,
        step: Some(Step::Softmax),
        lang: Some(Lang::Zh),
        tables: true,
    };
    let written = write_navigation(&nav);
    let get = |name: &str| {
        written
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.clone())
    };
    assert_eq!(read_navigation(get), nav);
    let junk = |name: &str| Some(format!("<script>{name}"));
    let read = read_navigation(junk);
    assert_eq!(
        (read.query, read.step, read.lang, read.tables),
        (0, None, None, false)
    );
}

#[test]
fn embeddings_show_the_named_panels_or_the_four_diagrams() {
    let link = |pairs: &'static [(&'static str, &'static str)]| {
        read_embedding(move |name| {
            pairs
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        })
    };
    assert_eq!(
        link(&[]),
        Embedding {
            embed: false,
            lock: false,
            panels: None
        }
    );
    assert_eq!(
        link(&[("embed", "1")]).panels.as_deref(),
        Some("projection dot-products softmax fusion")
    );
    let chosen = link(&[
        ("embed", "1"),
        ("lock", "1"),
        ("panels", "fusion,<b>,softmax"),
    ]);
    assert_eq!(
        chosen,
        Embedding {
            embed: true,
            lock: true,
            panels: Some("softmax fusion".into())
        }
    );
}

#[test]
fn unreadable_parameters_are_named_and_good_ones_pass() {
    let link = |pairs: &'static [(&'static str, &'static str)]| {
        unreadable_navigation(move |name| {
            pairs
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        })
    };
    assert_eq!(
        link(&[
            ("q", "2"),
            ("seq", "1"),
            ("step", "softmax"),
            ("lang", "en")
        ]),
        None
    );
    assert_eq!(link(&[("q", "NaN")]), Some("q"));
    assert_eq!(link(&[("q", "1"), ("seq", "1e999")]), Some("seq"));
    assert_eq!(link(&[("step", "99")]), Some("step"));
    assert_eq!(link(&[("lang", "<b>")]), Some("lang"));
}

#[cfg(not(target_arch = "wasm32"))]
proptest::proptest! {
    /// Any text at all in `s` decodes to a scenario that runs or to an error, never a panic.
    #[test]
    fn arbitrary_state_never_panics(text in "\\PC{0,300}") {
        if let Ok(scenario) = decode(&text) {
            proptest::prop_assert!(scenario.run().is_ok());
        }
    }

    /// Damaged versions of a real link (cut short, or with a character
    /// changed) decode to a scenario that runs or to an error.
    #[test]
    fn damaged_links_never_panic(cut in 0usize..400, at in 0usize..400, c in proptest::char::any()) {
        let good = encode(&attention_core::presets::pronoun());
        let mut chars: Vec<char> = good.chars().take(cut.max(1)).collect();
        if let Some(slot) = chars.get_mut(at) {
            *slot = c;
        }
        let damaged: String = chars.into_iter().collect();
        if let Ok(scenario) = decode(&damaged) {
            proptest::prop_assert!(scenario.run().is_ok());
        }
    }
}
