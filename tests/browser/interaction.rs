//! Drives the controls like a learner and checks, after each step, that every
//! matrix in the DOM equals attention-core's trace for the inputs on screen.

use crate::page::LabPage;
use attention_core::{presets, Head, Options, Scenario};
use attention_lab::lab;
use ndarray::{Array2, Axis};
use wasm_bindgen_test::wasm_bindgen_test;

/// Runs the core on the inputs the page shows (X and the W matrices) with the
/// given mask and options, and asserts every derived matrix on the page equals it.
fn assert_page_matches_core(lab: &LabPage, key_is_real: &[bool], options: Options) {
    let scenario = Scenario {
        tokens: None,
        x: lab.array("x").insert_axis(Axis(0)),
        batched: false,
        head: Head {
            w_q: lab.array("w-q"),
            w_k: lab.array("w-k"),
            w_v: lab.array("w-v"),
        },
        heads: 1,
        w_o: None,
        mask: Some(Array2::from_shape_fn((1, key_is_real.len()), |(_, j)| {
            key_is_real[j]
        })),
        options,
        p: None,
        block: None,
    };
    let trace = scenario.run().expect("the page's inputs run").into_head(0);
    let view = lab::SequenceTrace::new(&trace, 0, vec![]);
    for (testid, expected) in [
        ("q", &view.q),
        ("k", &view.k),
        ("v", &view.v),
        ("scores", &view.scaled),
        ("weights", &view.weights),
        ("output", &view.output),
    ] {
        assert_eq!(
            &lab.array(testid),
            expected,
            "{testid} differs from the core's trace"
        );
    }
    for (i, row) in view.weights.rows().into_iter().enumerate() {
        if view.allowed.row(i).iter().any(|&ok| ok) {
            assert!(
                (row.sum() - 1.0).abs() < 1e-12,
                "weights row {i} sums to {}",
                row.sum()
            );
        }
        for (j, &w) in row.iter().enumerate() {
            if !view.allowed[[i, j]] {
                assert_eq!(w, 0.0, "masked weight [{i}][{j}]");
            }
        }
    }
}

#[wasm_bindgen_test]
async fn the_default_page_matches_the_core() {
    let lab = LabPage::mount().await;
    let default = presets::sentence();
    assert_eq!(lab.array("x"), default.x.index_axis(Axis(0), 0));
    assert_eq!(lab.array("w-q"), default.head.w_q);
    assert_page_matches_core(&lab, &[true; 4], Options::default());
}

#[wasm_bindgen_test]
async fn clicking_a_token_selects_the_query_everywhere() {
    let lab = LabPage::mount().await;
    lab.click_nth("token", 2).await;
    assert_eq!(
        lab.attribute("[data-testid=app]", "data-query").as_deref(),
        Some("2")
    );
    let weights = lab.array("weights");
    let bars = lab.values("[data-testid=softmax-bars] [data-col]");
    assert_eq!(
        bars,
        weights.row(2).to_vec(),
        "the bars show the selected query's row"
    );
}

#[wasm_bindgen_test]
async fn changing_d_k_resizes_and_recomputes() {
    let lab = LabPage::mount().await;
    lab.set_input("d-k", "6", "input").await;
    assert_eq!(lab.array("w-q").dim(), (4, 6));
    assert_eq!(lab.array("q").dim(), (4, 6));
    assert_page_matches_core(&lab, &[true; 4], Options::default());
    lab.set_input("d-model", "3", "input").await;
    assert_eq!(lab.array("x").dim(), (4, 3));
    assert_page_matches_core(&lab, &[true; 4], Options::default());
}

#[wasm_bindgen_test]
async fn padding_and_causal_masks_zero_their_weights() {
    let lab = LabPage::mount().await;
    lab.click_nth("token-pad", 3).await;
    assert_eq!(
        lab.attribute(
            "[data-testid=weights] [data-row='0'][data-col='3']",
            "data-masked"
        )
        .as_deref(),
        Some("true")
    );
    assert_page_matches_core(&lab, &[true, true, true, false], Options::default());
    lab.click("causal").await;
    let causal = Options {
        causal: true,
        scale: true,
        ..Options::default()
    };
    assert_page_matches_core(&lab, &[true, true, true, false], causal);
    lab.click("scale").await;
    assert_page_matches_core(
        &lab,
        &[true, true, true, false],
        Options {
            causal: true,
            scale: false,
            ..Options::default()
        },
    );
}

#[wasm_bindgen_test]
async fn randomize_draws_the_weights_of_the_shown_seed() {
    let lab = LabPage::mount().await;
    lab.click("randomize").await;
    let seed: u64 = lab
        .input_value("seed")
        .and_then(|s| s.parse().ok())
        .expect("a numeric seed is shown");
    let mut expected = presets::sentence();
    lab::randomize_weights(&mut expected, 0, seed);
    assert_eq!(lab.array("w-q"), expected.head.w_q);
    assert_eq!(lab.array("w-k"), expected.head.w_k);
    assert_eq!(lab.array("w-v"), expected.head.w_v);
    assert_page_matches_core(&lab, &[true; 4], Options::default());
}

#[wasm_bindgen_test]
async fn a_typed_number_edits_x_and_a_bad_one_is_refused() {
    let lab = LabPage::mount().await;
    lab.click_cell("x", 1, 2).await;
    lab.set_input("cell-editor", "0.75", "change").await;
    assert_eq!(lab.array("x")[[1, 2]], 0.75);
    assert_page_matches_core(&lab, &[true; 4], Options::default());
    lab.set_input("cell-editor", "abc", "change").await;
    assert!(lab.texts("[data-testid=cell-editor-problem]")[0].contains("abc"));
    assert_eq!(
        lab.array("x")[[1, 2]],
        0.75,
        "a refused number changes nothing"
    );
}
