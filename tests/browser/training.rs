//! Training in the browser: the loss curves computed in WebAssembly equal the
//! native ones in `tests/data/training_golden.json` bit for bit, and the
//! training card's Step, Reset, optimizer and learning rate drive the same
//! `Trainer` a test builds here, with the four diagrams following its head.

use crate::page::LabPage;
use attention_core::train::{default_optimizer, forward_values, task, Optimizer, TaskId, Trainer};
use attention_lab::training::{markup::lr_of, OptimizerKind};
use ndarray::{Array2, Axis};
use wasm_bindgen_test::wasm_bindgen_test;

/// The seed the training card always starts from (`SEED` in src/training.rs).
const SEED: u64 = 1;
/// Steps the UI test clicks through.
const STEPS: usize = 25;

/// Asserts `a` equals `b` entry by entry within `tolerance`.
fn assert_close(a: &Array2<f64>, b: &Array2<f64>, tolerance: f64, what: &str) {
    assert_eq!(a.dim(), b.dim(), "{what}: shape");
    for ((at, x), y) in a.indexed_iter().zip(b) {
        assert!(
            (x - y).abs() <= tolerance,
            "{what}{at:?}: page {x}, core {y}"
        );
    }
}

/// The loss curve's step count and its last loss, read from the chart.
fn curve(lab: &LabPage) -> (usize, f64) {
    let read = |name: &str| {
        lab.attribute("[data-testid=loss-curve]", name)
            .unwrap_or_else(|| panic!("loss-curve has no {name}"))
    };
    let steps = read("data-steps").parse().expect("a step count");
    let loss = read("data-last-loss").parse().expect("a loss");
    (steps, loss)
}

/// The page shows `trainer`: its step count and last loss (bit for bit), its
/// head in the W matrices, its gradient heatmaps, and its head's trace in
/// every diagram.
fn assert_page_shows(lab: &LabPage, trainer: &Trainer) {
    let (steps, loss) = curve(lab);
    assert_eq!(steps, trainer.steps(), "data-steps");
    assert_eq!(
        loss.to_bits(),
        trainer.loss().to_bits(),
        "data-last-loss after {steps} steps: page {loss:?}, core {:?}",
        trainer.loss()
    );
    let head = trainer.head();
    assert_eq!(lab.array("x"), trainer.task().x(), "x");
    assert_eq!(lab.array("w-q"), head.w_q, "w-q");
    assert_eq!(lab.array("w-k"), head.w_k, "w-k");
    assert_eq!(lab.array("w-v"), head.w_v, "w-v");
    let g = trainer.gradients();
    assert_eq!(lab.array("grad-w-q"), g.w_q, "grad-w-q");
    assert_eq!(lab.array("grad-w-k"), g.w_k, "grad-w-k");
    assert_eq!(lab.array("grad-w-v"), g.w_v, "grad-w-v");

    let trace = trainer
        .scenario()
        .run()
        .expect("the trainer's head runs")
        .into_head(0);
    let first = |a: &ndarray::Array3<f64>| a.index_axis(Axis(0), 0).to_owned();
    for (testid, expected) in [
        ("q", first(&trace.q)),
        ("k", first(&trace.k)),
        ("v", first(&trace.v)),
        ("scores", first(&trace.scaled)),
        ("weights", first(&trace.weights)),
        ("output", first(&trace.output)),
    ] {
        assert_close(&lab.array(testid), &expected, 1e-12, testid);
    }
    // And the weights are what training's own forward pass optimised.
    let task = trainer.task();
    let attended = forward_values(task.x().view(), head, task.mask(), task.options())
        .expect("the task's input is valid");
    assert_close(
        &lab.array("weights"),
        &attended.weights,
        1e-12,
        "weights vs training",
    );
    let labels = lab.texts("[data-testid=weights] text.row-label");
    assert_eq!(labels, task.tokens(), "the diagrams show the task's tokens");
}

/// The same seed gives the same loss curve natively and in wasm, to the last
/// printed digit: the native test `crates/attention-core/tests/training_golden.rs`
/// keeps the golden file equal to the native computation.
#[wasm_bindgen_test]
fn loss_curves_equal_the_native_golden_bit_for_bit() {
    let golden: serde_json::Value =
        serde_json::from_str(include_str!("../data/training_golden.json"))
            .expect("golden file is JSON");
    let seed = golden["seed"].as_u64().expect("seed");
    let steps = golden["steps"].as_u64().expect("steps") as usize;
    assert_eq!(golden["optimizer"], "adam");
    assert_eq!(golden["lr"], "0.02");
    assert_eq!(default_optimizer(), Optimizer::adam(0.02));
    for id in TaskId::ALL {
        let expected = golden["losses"][id.id()]
            .as_array()
            .unwrap_or_else(|| panic!("losses of {}", id.id()));
        assert_eq!(
            expected.len(),
            steps + 1,
            "{id:?}: one loss per step and the start"
        );
        let mut trainer = Trainer::new(task(id), default_optimizer(), seed);
        for _ in 0..steps {
            trainer.step();
        }
        for (n, (text, &loss)) in expected.iter().zip(trainer.losses()).enumerate() {
            let text = text.as_str().expect("losses are strings");
            let native: f64 = text.parse().expect("a float");
            assert_eq!(
                loss.to_bits(),
                native.to_bits(),
                "{id:?} step {n}: wasm {loss:?}, native {text}"
            );
            assert_eq!(format!("{loss:?}"), text, "{id:?} step {n}");
        }
    }
}

#[wasm_bindgen_test]
async fn stepping_shows_the_core_trainer_and_reset_starts_over() {
    let lab = LabPage::mount().await;
    let mut trainer = Trainer::new(task(TaskId::Pronoun), default_optimizer(), SEED);
    let start = trainer.clone();
    assert_eq!(curve(&lab), (0, start.loss()), "a fresh card");
    for n in 1..=STEPS {
        lab.click("train-step").await;
        trainer.step();
        // Every step lands on the curve, bit for bit.
        let (steps, loss) = curve(&lab);
        assert_eq!(steps, n);
        assert_eq!(loss.to_bits(), trainer.loss().to_bits(), "step {n}");
        if n == 1 {
            assert_eq!(
                lab.attribute("[data-testid=app]", "data-query").as_deref(),
                Some("2"),
                "the first Step selects the pronoun's query"
            );
        }
    }
    assert_page_shows(&lab, &trainer);
    assert!(
        trainer.loss() < start.loss(),
        "the loss fell: {} → {}",
        start.loss(),
        trainer.loss()
    );
    let progress = lab.texts("[data-testid=train-progress]").concat();
    assert!(progress.contains(&STEPS.to_string()), "{progress}");
    // The second 他 already gives the first more than it did.
    let weights = lab.array("weights");
    let before = start.scenario().run().expect("runs").into_head(0).weights[[0, 2, 0]];
    assert!(weights[[2, 0]] > before, "{} ≤ {before}", weights[[2, 0]]);

    lab.click("train-reset").await;
    assert_page_shows(&lab, &start);
    assert_eq!(lab.array("w-q"), start.head().w_q, "Reset restores W_Q");
    assert_eq!(
        lab.attribute("[data-testid=app]", "data-query").as_deref(),
        Some("2"),
        "Reset selects the pronoun's query"
    );
    assert!(lab.texts("[data-testid=train-reached]").is_empty());
}

#[wasm_bindgen_test]
async fn the_optimizer_and_learning_rate_reach_the_trainer() {
    let lab = LabPage::mount().await;
    lab.set_input("train-optimizer", "sgd", "change").await;
    assert_eq!(
        lab.texts("[data-testid=train-lr-value]").concat(),
        "1.000",
        "SGD's usual rate"
    );
    // Slider position −200 is lr 10^−2.
    lab.set_input("train-lr", "-200", "input").await;
    assert_eq!(lab.texts("[data-testid=train-lr-value]").concat(), "0.010");
    lab.click("train-reset").await;
    let lr = lr_of(-200);
    let mut sgd = Trainer::new(task(TaskId::Pronoun), OptimizerKind::Sgd.with(lr), SEED);
    let mut adam = Trainer::new(task(TaskId::Pronoun), default_optimizer(), SEED);
    for _ in 0..10 {
        lab.click("train-step").await;
        sgd.step();
        adam.step();
    }
    assert_page_shows(&lab, &sgd);
    let start = sgd.losses()[0];
    assert!(
        start - sgd.loss() < 0.2 * (start - adam.loss()),
        "SGD at lr {lr}: {start} → {}; Adam: → {}",
        sgd.loss(),
        adam.loss()
    );

    // A new rate mid-run keeps the head and goes on from it.
    lab.set_input("train-lr", "0", "input").await;
    sgd.set_optimizer(Optimizer::sgd(lr_of(0)));
    for _ in 0..3 {
        lab.click("train-step").await;
        sgd.step();
    }
    assert_page_shows(&lab, &sgd);

    // Another task starts afresh from the usual seed with the chosen optimizer.
    lab.set_input("train-task", "retrieve", "change").await;
    let retrieve = Trainer::new(task(TaskId::Retrieve), Optimizer::sgd(lr_of(0)), SEED);
    assert_page_shows(&lab, &retrieve);
    assert_eq!(
        lab.attribute("[data-testid=app]", "data-query").as_deref(),
        Some("4"),
        "the first question is selected"
    );
}
