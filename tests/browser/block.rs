//! The transformer block's cards in WebAssembly: opened from the lesson
//! menu, every matrix the cards draw (LayerNorm's outputs, the hidden layer,
//! the layer's output) and the followed token's stream equal the core's
//! block trace; the layer picker makes the four diagrams show that layer's
//! attention; an edit of W₁ reaches the layer's numbers; the switches change
//! the block.

use crate::page::LabPage;
use attention_core::block::BlockTrace;
use attention_core::presets::Preset;
use attention_core::Scenario;
use ndarray::{Array2, Array3, Axis};
use wasm_bindgen_test::wasm_bindgen_test;

fn first(a: &Array3<f64>) -> Array2<f64> {
    a.index_axis(Axis(0), 0).to_owned()
}

fn assert_close(got: &Array2<f64>, want: &Array2<f64>, what: &str) {
    assert_eq!(got.dim(), want.dim(), "{what}: shape");
    for (g, w) in got.iter().zip(want) {
        assert!(
            (g - w).abs() <= 1e-12 * w.abs().max(1.0),
            "{what}: {g} vs {w}"
        );
    }
}

fn run(s: &Scenario) -> BlockTrace {
    s.run_block().expect("runs").expect("a block")
}

/// Every grid of the matrices card against layer `layer` of the core's trace.
fn check_layer(lab: &LabPage, trace: &BlockTrace, layer: usize) {
    let l = &trace.layers[layer];
    assert_close(&lab.array("norm-1"), &first(&l.norm_1.output), "norm-1");
    assert_close(&lab.array("norm-2"), &first(&l.norm_2.output), "norm-2");
    assert_close(&lab.array("ffn-hidden"), &first(&l.hidden), "ffn-hidden");
    assert_close(
        &lab.array("ffn-activated"),
        &first(&l.activated),
        "ffn-activated",
    );
    assert_close(
        &lab.array("block-output"),
        &first(&l.output),
        "block-output",
    );
    // The four diagrams show this layer's attention.
    assert_close(&lab.array("q"), &first(&l.attention.heads[0].q), "q");
    assert_close(
        &lab.array("weights"),
        &first(&l.attention.heads[0].weights),
        "weights",
    );
}

#[wasm_bindgen_test]
async fn the_block_lesson_shows_each_layer_as_the_core_computes_it() {
    let lab = LabPage::mount().await;
    lab.click_matching("[data-testid=lesson-menu] [data-lesson=block]", 0)
        .await;
    let s = Preset::Block.scenario();
    let trace = run(&s);
    assert_eq!(
        lab.attributes("[data-testid=layer-picker] [data-layer]", "data-layer"),
        ["0", "1"]
    );
    check_layer(&lab, &trace, 0);
    // The followed token's stream: its sum and its hidden numbers.
    let stream = |testid: &str| -> Vec<f64> {
        lab.attribute(&format!("[data-testid=stream-{testid}]"), "data-values")
            .expect("a vector")
            .split(' ')
            .map(|v| v.parse().expect("a number"))
            .collect()
    };
    assert_eq!(
        stream("sum-1"),
        trace.layers[0].sum_1.slice(ndarray::s![0, 0, ..]).to_vec()
    );
    lab.click_matching("[data-testid=layer-picker] [data-layer='1']", 0)
        .await;
    check_layer(&lab, &trace, 1);
    assert_eq!(
        stream("output"),
        trace.output.slice(ndarray::s![0, 0, ..]).to_vec()
    );
    assert_eq!(
        lab.attribute(
            "[data-testid=layer-picker] [data-layer='1']",
            "aria-pressed"
        )
        .as_deref(),
        Some("true")
    );
}

#[wasm_bindgen_test]
async fn an_edit_of_w_1_and_the_switches_change_the_block() {
    let lab = LabPage::mount().await;
    lab.click_matching("[data-testid=lesson-menu] [data-lesson=block]", 0)
        .await;
    let mut s = Preset::Block.scenario();
    lab.click_cell("w-1", 1, 2).await;
    lab.set_input("cell-editor", "0.75", "change").await;
    if let Some(block) = &mut s.block {
        block.layers[0].w_1[[1, 2]] = 0.75;
    }
    check_layer(&lab, &run(&s), 0);
    lab.set_input("norm", "pre", "change").await;
    lab.set_input("activation", "gelu", "change").await;
    if let Some(block) = &mut s.block {
        block.norm_first = true;
        block.activation = attention_core::block::Activation::Gelu;
    }
    check_layer(&lab, &run(&s), 0);
    lab.set_input("layers", "3", "change").await;
    assert_eq!(lab.all("[data-testid=layer-picker] [data-layer]").len(), 3);
    // The controls keep the block's sizes, and the block can be taken away.
    assert!(lab.attribute("[data-testid=d-model]", "disabled").is_some());
    lab.click("use-block").await;
    assert!(lab.all("[data-testid=layer-picker]").is_empty());
    assert_close(
        &lab.array("w-q"),
        &s.attention(0).0.w_q.clone(),
        "the first layer's W_Q is the layer's again",
    );
}
