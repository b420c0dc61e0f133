//! Browser tests, run by `wasm-pack test --headless --chrome`: they mount the
//! app in a real page and compare its DOM with attention-core's trace.
#![cfg(target_arch = "wasm32")]

#[path = "browser/block.rs"]
mod block;
#[path = "browser/generation.rs"]
mod generation;
#[path = "../crates/attention-core/tests/shared/golden.rs"]
mod golden;
#[path = "browser/interaction.rs"]
mod interaction;
#[path = "browser/numbers.rs"]
mod numbers;
#[path = "browser/page.rs"]
mod page;
#[path = "browser/training.rs"]
mod training;
#[path = "browser/walkthrough.rs"]
mod walkthrough;

use attention_core::presets;
use attention_core::random::{fingerprint, normal_matrix, uniform_matrix};
use page::LabPage;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn weights_heatmap_shows_the_core_trace() {
    let lab = LabPage::mount().await;
    let expected = presets::sentence()
        .run()
        .expect("the default scenario runs")
        .into_head(0);
    let shown = lab.matrix("weights");
    let (_, t, _) = expected.weights.dim();
    assert_eq!(shown.len(), t, "one row per token");
    for (i, row) in shown.iter().enumerate() {
        assert_eq!(row.len(), t);
        for (j, &value) in row.iter().enumerate() {
            // data-value is printed with round-trip precision, so it is exact.
            assert_eq!(value, expected.weights[[0, i, j]], "weights[{i}][{j}]");
        }
        let sum: f64 = row.iter().sum();
        assert!((sum - 1.0).abs() < 1e-12, "row {i} sums to {sum}");
    }
    let labels = lab.texts("[data-testid=weights] text.row-label");
    assert_eq!(labels, ["我", "喜欢", "打", "篮球"]);
}

#[wasm_bindgen_test]
async fn every_card_of_the_registry_is_on_the_page_in_its_order() {
    use attention_lab::cards::Card;
    let lab = LabPage::mount().await;
    let expected: Vec<&str> = Card::ALL.iter().map(|card| card.panel()).collect();
    assert_eq!(lab.attributes(".slot", "data-card"), expected);
    // Each slot holds its card, and only the cards below the diagrams wait
    // for the first frame.
    assert_eq!(
        lab.all(".slot")
            .iter()
            .filter(|s| s.child_element_count() == 0)
            .count(),
        0,
        "an empty slot"
    );
    let later: Vec<String> = Card::ALL
        .iter()
        .filter(|card| card.spec().later)
        .map(|card| card.panel().to_owned())
        .collect();
    assert_eq!(lab.attributes(".slot[data-later]", "data-card"), later);
    // Outside the walkthrough no card is singled out.
    assert!(lab
        .all(".slot[data-focused], .slot[data-unpicked]")
        .is_empty());
}

#[wasm_bindgen_test]
async fn every_walkthrough_step_singles_out_the_card_the_registry_names() {
    use attention_lab::walkthrough::Step;
    let lab = LabPage::mount().await;
    lab.click("walkthrough-toggle").await;
    for (i, step) in Step::ALL.into_iter().enumerate() {
        if i > 0 {
            lab.click("step-next").await;
        }
        let panel = step.card().panel();
        assert_eq!(
            lab.attribute(".app", "data-step").as_deref(),
            Some(step.id())
        );
        assert_eq!(
            lab.attribute(".app", "data-focus").as_deref(),
            Some(panel),
            "{step:?}"
        );
        // Every slot of the panel, and no other (the positions and RoPE cards share one).
        let focused = lab.attributes(".slot[data-focused]", "data-card");
        assert!(
            !focused.is_empty() && focused.iter().all(|card| card == panel),
            "{step:?}: {focused:?}"
        );
    }
}

#[wasm_bindgen_test]
async fn the_lesson_menu_opens_each_lesson_on_its_scenario_and_step() {
    use attention_lab::lessons::Lesson;
    let lab = LabPage::mount().await;
    let ids: Vec<&str> = Lesson::ALL.iter().map(|l| l.spec().id).collect();
    assert_eq!(
        lab.attributes("[data-testid=lesson-menu] button", "data-lesson"),
        ids
    );
    let current = |lab: &LabPage| {
        lab.attributes(
            "[data-testid=lesson-menu] [aria-current=true]",
            "data-lesson",
        )
    };
    assert_eq!(
        current(&lab),
        ["one-head"],
        "a visit starts on the first lesson"
    );
    for (i, lesson) in Lesson::ALL.into_iter().enumerate().rev() {
        let spec = lesson.spec();
        lab.click_matching("[data-testid=lesson-menu] button", i)
            .await;
        assert_eq!(current(&lab), [spec.id]);
        assert_eq!(
            lab.attribute(".app", "data-step").as_deref(),
            Some(spec.step.id())
        );
        if let Some(preset) = spec.preset {
            assert_eq!(
                lab.input_value("scenario").as_deref(),
                Some(preset.id()),
                "{lesson:?}"
            );
        }
        // One tab stop: the current lesson's button.
        let stops = lab.attributes("[data-testid=lesson-menu] [tabindex='0']", "data-lesson");
        assert_eq!(stops, [spec.id]);
    }
}

#[wasm_bindgen_test]
async fn language_switch_changes_every_heading_and_the_page_lang() {
    let lab = LabPage::mount().await;
    let before = lab.texts("h1, h2");
    let lang_before = lab.document_lang();
    lab.click("lang-switch").await;
    let after = lab.texts("h1, h2");
    assert_eq!(before.len(), after.len());
    for (a, b) in before.iter().zip(&after) {
        assert_ne!(a, b, "heading did not change language");
    }
    assert_ne!(lab.document_lang(), lang_before);
    lab.click("lang-switch").await;
    assert_eq!(lab.texts("h1, h2"), before);
}

/// Seeded matrices must be bit-for-bit the same as natively, whose
/// fingerprints the core's native tests pin in this file.
#[wasm_bindgen_test]
fn seeded_matrices_match_the_native_fingerprints() {
    let file = random_golden();
    let read = |key: &str| golden::number(&file, key);
    let (seed, rows, cols) = (read("seed"), read("rows") as usize, read("cols") as usize);
    assert_eq!(
        fingerprint(&uniform_matrix(rows, cols, -1.0, 1.0, seed)),
        read("uniform_fingerprint")
    );
    assert_eq!(
        fingerprint(&normal_matrix(rows, cols, 1.0, seed)),
        read("normal_fingerprint")
    );
}

/// The core's native tests pin fingerprints in this file.
fn random_golden() -> serde_json::Value {
    serde_json::from_str(include_str!(
        "../crates/attention-core/tests/data/random_golden.json"
    ))
    .expect("golden file is JSON")
}

/// The forward pass in WebAssembly (its SIMD blocks and exponentials, and
/// the scalar entries outside whole blocks) gives the native bits, pinned
/// by the core's `forward_pass_matches_the_golden_file`.
#[wasm_bindgen_test]
fn forward_pass_matches_the_native_fingerprints() {
    let (computed, pinned) = golden::forward_fingerprints(&random_golden()["forward"]);
    assert_eq!(computed, pinned);
}

/// A transformer block in WebAssembly (LayerNorm's sums and square root,
/// GELU's erf) gives the native bits, pinned by the core's
/// `block_matches_the_golden_file`.
#[wasm_bindgen_test]
fn block_matches_the_native_fingerprints() {
    let (computed, pinned) = golden::block_fingerprints(&random_golden()["block"]);
    assert_eq!(computed, pinned);
}

/// In the browser, numbers are written by JavaScript's own `String(x)`; every
/// kind of number must still read back bit for bit.
#[wasm_bindgen_test]
fn numbers_written_in_the_browser_read_back_exactly() {
    use attention_lab::geometry::format::{js_number, two_decimals};
    for v in [
        0.1,
        -0.52,
        1.0 / 3.0,
        1e21,
        1e-7,
        5e-324,
        f64::MAX,
        0.0,
        -0.0,
    ] {
        let text = js_number(v);
        let back: f64 = text.parse().expect("a number literal");
        assert_eq!(back.to_bits(), v.to_bits(), "{v} was written {text}");
    }
    assert_eq!(two_decimals(-0.456), "\u{2212}0.46");
    // Too large for two decimals: written whole, as JavaScript writes it.
    assert_eq!(two_decimals(1e20).parse::<f64>(), Ok(1e20));
}
