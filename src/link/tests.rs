use super::*;
use crate::controls::scenarios::Choice;
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

/// `nav` written into a link's parameters and read back.
fn round_trip(nav: &Navigation) -> Navigation {
    let written = write_navigation(nav);
    read_navigation(|name: &str| {
        written
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.clone())
    })
}

#[test]
fn readable_parameters_round_trip_and_garbage_is_ignored() {
    let nav = Navigation {
        query: 2,
        key: 1,
        sequence: 1,
        head: 3,
        layer: 2,
        step: Some(Step::Softmax),
        lang: Some(Lang::Zh),
        tables: true,
        scenario: Some(Choice::Preset(Preset::Pronoun)),
        shuffle: 7,
        lesson: Some(Lesson::Training),
    };
    assert_eq!(round_trip(&nav), nav);
    let junk = |name: &str| Some(format!("<script>{name}"));
    let read = read_navigation(junk);
    assert_eq!(
        (
            read.query,
            read.key,
            read.head,
            read.step,
            read.lang,
            read.tables,
            read.scenario,
            read.shuffle,
            read.lesson
        ),
        (0, 0, 0, None, None, false, None, 1, None)
    );
    for choice in Choice::ALL {
        let nav = Navigation {
            scenario: Some(choice),
            ..nav
        };
        assert_eq!(round_trip(&nav).scenario, Some(choice), "{choice:?}");
    }
    for lesson in Lesson::ALL {
        let nav = Navigation {
            lesson: Some(lesson),
            ..nav
        };
        assert_eq!(round_trip(&nav).lesson, Some(lesson), "{lesson:?}");
    }
}

#[test]
fn a_link_opens_the_lesson_it_names_or_else_its_scenario_s() {
    let link = |pairs: &'static [(&str, &str)]| {
        read_navigation(move |name: &str| {
            pairs
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        })
    };
    let named = link(&[("lesson", "training"), ("scenario", "word-order")]);
    assert_eq!(named.opened_lesson(), Some(Lesson::Training));
    let by_scenario = link(&[("scenario", "word-order")]);
    assert_eq!(by_scenario.opened_lesson(), Some(Lesson::WordOrder));
    assert_eq!(link(&[]).opened_lesson(), None);
    for name in ["lesson", "k"] {
        let garbage = |asked: &str| (asked == name).then(|| "nope".to_string());
        assert_eq!(unreadable_navigation(garbage), Some(name), "{name}");
    }
    // `tables` reads anything: `1` is on, the rest off.
    let tables = |asked: &str| (asked == "tables").then(|| "yes".to_string());
    assert_eq!(unreadable_navigation(tables), None);
}

#[test]
fn the_full_app_link_keeps_the_state_and_drops_the_embedding() {
    assert_eq!(
        without_embedding("?s=1%7C2&embed=1&q=2&panels=softmax%2Cfusion&lock=1&lang=zh"),
        "?s=1%7C2&q=2&lang=zh"
    );
    assert_eq!(without_embedding("?embed=1"), "?");
    // A parameter that merely starts with a dropped name is kept.
    assert_eq!(
        without_embedding("?embedded=2&lockstep=1"),
        "?embedded=2&lockstep=1"
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
    assert_eq!(link(&[("scenario", "audio")]), None);
    assert_eq!(link(&[("scenario", "nope")]), Some("scenario"));
}

#[test]
fn hex_coded_nan_and_infinities_are_refused_by_name() {
    let link = encode(&presets::sentence());
    for bits in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY].map(f64::to_bits) {
        for (field, name) in [(4, "X"), (5, "W_Q"), (7, "W_V")] {
            let mut parts: Vec<String> = link.split('|').map(str::to_owned).collect();
            parts[field] = parts[field].replacen("0.5", &format!("x{bits:x}"), 1);
            assert_ne!(parts.join("|"), link, "{name} holds 0.5");
            assert_eq!(
                decode(&parts.join("|")),
                Err(LabError::BadLink(name.into())),
                "{name} with x{bits:x}"
            );
        }
    }
    // Hex that reads as an ordinary number is fine: that is how awkward numbers travel.
    let exact = link.replacen("0.5", &format!("x{:x}", 0.5f64.to_bits()), 1);
    assert_eq!(decode(&exact), decode(&link));
}

/// The names a damaged link's notice gives its parts, after the version.
#[cfg(not(target_arch = "wasm32"))]
const PARTS: [&str; 8] = ["sizes", "flags", "tokens", "X", "W_Q", "W_K", "W_V", "mask"];

/// Whether `text` is a sizes part the decoder accepts: four whole numbers.
#[cfg(not(target_arch = "wasm32"))]
fn well_formed_sizes(text: &str) -> bool {
    let sizes: Vec<Option<usize>> = text.split(',').map(|n| n.parse().ok()).collect();
    sizes.len() == 4 && sizes.iter().all(|n| n.is_some_and(|n| n >= 1))
}

/// Decodes `link` with part `field` (1 to 8) damaged by `damage`, and checks
/// that it either runs or is refused with a notice naming that very part.
#[cfg(not(target_arch = "wasm32"))]
fn refused_by_name(
    link: &str,
    field: usize,
    damage: impl Fn(&str) -> String,
) -> Result<(), String> {
    let mut parts: Vec<String> = link.split('|').map(str::to_owned).collect();
    parts[field] = damage(&parts[field]);
    let damaged = parts.join("|");
    match decode(&damaged) {
        Ok(scenario) if scenario.run().is_ok() => Ok(()),
        Ok(_) => Err(format!(
            "{damaged}: decoded into a scenario that does not run"
        )),
        // Other sizes that still read as sizes make another part the wrong length.
        Err(_) if field == 1 && well_formed_sizes(&parts[1]) => Ok(()),
        Err(LabError::BadLink(name)) if name == PARTS[field - 1] => Ok(()),
        Err(other) => Err(format!(
            "{damaged}: damaged {}, but the notice says {other:?}",
            PARTS[field - 1]
        )),
    }
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

    /// One part of a real link replaced by other text (without `|`): the link
    /// runs, or its notice names exactly that part.
    #[test]
    fn a_replaced_part_is_named(field in 1usize..=8, text in "[^|]{0,40}", preset in 0usize..5) {
        let presets = Preset::ALL;
        let link = encode(&presets[preset % presets.len()].scenario());
        let checked = refused_by_name(&link, field, |_| text.clone());
        proptest::prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
    }

    /// One character of one part of a real link changed: the link runs, or
    /// its notice names exactly that part.
    #[test]
    fn a_damaged_part_is_named(field in 1usize..=8, at in 0usize..400, c in proptest::char::any(), preset in 0usize..5) {
        proptest::prop_assume!(c != '|');
        let presets = Preset::ALL;
        let link = encode(&presets[preset % presets.len()].scenario());
        let checked = refused_by_name(&link, field, |part| {
            let mut chars: Vec<char> = part.chars().collect();
            let index = at % chars.len().max(1);
            match chars.get_mut(index) {
                Some(slot) => *slot = c,
                None => chars.push(c),
            }
            chars.into_iter().collect()
        });
        proptest::prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
    }

    /// A part of a real link cut short: the link runs, or its notice names
    /// exactly that part.
    #[test]
    fn a_cut_part_is_named(field in 1usize..=8, keep in 0usize..400) {
        let link = encode(&attention_core::presets::pronoun());
        let checked = refused_by_name(&link, field, |part| part.chars().take(keep).collect());
        proptest::prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
    }
}

#[test]
fn heads_and_w_o_round_trip_exactly_and_one_head_links_are_unchanged() {
    let single = presets::sentence();
    let link = encode(&single);
    assert_eq!(link.split('|').count(), 9, "{link}");
    let mut two = single.clone();
    crate::lab::set_heads(&mut two, 2, 5).unwrap();
    // A number no short decimal reads back as travels as its bits.
    crate::lab::set_entry(
        &mut two,
        crate::lab::Editable::WO,
        Default::default(),
        (1, 2),
        0.1 + 0.2,
    )
    .unwrap();
    let link = encode(&two);
    assert_eq!(link.split('|').nth(9), Some("2,4"), "{link}");
    assert_eq!(decode(&link), Ok(two.clone()));
    // One head with W_O keeps its W_O.
    let mut projected = single.clone();
    crate::lab::set_w_o(&mut projected, true, 3).expect("no block");
    assert_eq!(decode(&encode(&projected)), Ok(projected));
    // Damaged head sections are refused.
    let parts: Vec<&str> = link.split('|').collect();
    for (at, junk) in [
        (9, "9,4"),
        (9, "2"),
        (9, "3,4"),
        (10, "1,2"),
        (9, "2,0"),
        (9, "1,0"),
    ] {
        let mut damaged = parts.clone();
        damaged[at] = junk;
        assert!(decode(&damaged.join("|")).is_err(), "{at}: {junk}");
    }
}

#[test]
fn positions_and_learned_p_travel_in_the_link() {
    use crate::lab::{set_heads, set_positions};
    for positions in Positions::ALL {
        for heads in [1, 2] {
            let mut s = presets::sentence();
            set_heads(&mut s, heads, 1).expect("heads");
            set_positions(&mut s, positions, 9).expect("positions");
            s.p.iter_mut().for_each(|p| p[[1, 2]] = 1.0 / 3.0);
            let text = encode(&s);
            assert_eq!(
                decode(&text),
                Ok(s.clone()),
                "{positions:?}, {heads} heads: {text}"
            );
        }
    }
    let mut s = presets::sentence();
    set_positions(&mut s, Positions::Learned, 9).expect("learned");
    let good = encode(&s);
    for (text, part) in [
        (good.replacen("|learned|", "|spiral|", 1), "positions"),
        (good.replacen("|learned|", "|none|", 1), "positions"),
        (good.replacen("|learned|", "|rope|", 1), "P"),
        (format!("{}|", &good[..good.rfind('|').unwrap_or(0)]), "P"),
    ] {
        assert_eq!(decode(&text), Err(LabError::BadLink(part.into())), "{text}");
    }
    // One head without W_O and without positions keeps the short form.
    assert_eq!(encode(&presets::sentence()).split('|').count(), 9);
}

/// The two shared PyTorch blocks (biases, GELU, pre-norm, a final norm), as
/// a link: every number back bit for bit.
fn torch_blocks() -> Vec<Scenario> {
    let data: serde_json::Value = serde_json::from_str(include_str!(
        "../../crates/attention-core/tests/data/torch_block_cases.json"
    ))
    .expect("JSON");
    data.as_object()
        .expect("cases")
        .values()
        .map(|case| Scenario::from_value(&case["input"]).expect("a block scenario"))
        .collect()
}

#[test]
fn a_block_survives_the_round_trip_exactly() {
    let mut made = crate::lab::block::with_block(&presets::sentence(), 3, 5).expect("a block");
    crate::lab::block::set_norm_first(&mut made, true);
    made.options.positions = Positions::Rope;
    let blocks = torch_blocks();
    assert_eq!(blocks.len(), 2);
    for s in blocks.into_iter().chain([made]) {
        let text = encode(&s);
        let back = decode(&text).expect("a block's link reads back");
        assert_eq!(back, s, "{text}");
        let eps = back.block.as_ref().map(|b| b.eps.to_bits());
        assert_eq!(eps, s.block.as_ref().map(|b| b.eps.to_bits()));
    }
}

#[test]
fn a_damaged_block_section_is_refused() {
    let good = encode(&crate::lab::block::with_block(&presets::sentence(), 2, 5).expect("block"));
    let section = good
        .rsplit('|')
        .next()
        .expect("a block section")
        .to_string();
    let with = |section: &str| {
        let mut parts: Vec<&str> = good.split('|').collect();
        parts.pop();
        parts.push(section);
        parts.join("|")
    };
    let damaged = [
        section.replacen("0,relu", "2,relu", 1),
        section.replacen("relu", "tanh", 1),
        {
            let (_, rest) = section.split_once(';').expect("layers");
            format!("0,relu,0;{rest}")
        },
        // A layer with a field too few.
        section.replacen('/', "", 1),
        // Five layers.
        {
            let layer = section.split(';').nth(1).expect("a layer").to_string();
            let mut groups: Vec<String> = vec!["0,relu,0.00001".into()];
            groups.extend(std::iter::repeat_n(layer, 5));
            groups.push(String::new());
            groups.join(";")
        },
    ];
    for section in damaged {
        assert_eq!(
            decode(&with(&section)),
            Err(LabError::BadLink("block".into())),
            "{section}"
        );
    }
    // W_Q's section must be empty: the layers hold the weights.
    assert!(decode(&good.replacen("|||", "|1|||", 1)).is_err());
}

#[test]
fn suspend_data_keeps_what_fits_and_says_when_it_cut() {
    let small = "?s=abc&step=3&lang=en";
    assert_eq!(suspend_data(small, false), (small.to_owned(), false));
    let big = format!("?s={}&scenario=pronoun&step=3", "x".repeat(5000));
    assert_eq!(
        suspend_data(&big, false),
        ("?scenario=pronoun&step=3".to_owned(), true)
    );
    let exactly = format!("?s={}", "y".repeat(SUSPEND_DATA_LIMIT - 3));
    assert_eq!(suspend_data(&exactly, false), (exactly.clone(), false));
    let hopeless = format!("?tokens={}", "z".repeat(5000));
    assert_eq!(suspend_data(&hopeless, false), (String::new(), true));
}

#[test]
fn a_listed_scenario_is_kept_by_its_pick_alone_and_nothing_is_lost() {
    let small = "?s=abc&step=3&scenario=pronoun";
    assert_eq!(
        suspend_data(small, true),
        ("?step=3&scenario=pronoun".to_owned(), false)
    );
    let big = format!("?s={}&scenario=diarization-long", "x".repeat(5000));
    assert_eq!(
        suspend_data(&big, true),
        ("?scenario=diarization-long".to_owned(), false)
    );
}
