//! The loss curves of every task from seed 1 with the default optimizer,
//! pinned to the last printed digit in the workspace's
//! `tests/data/training_golden.json`. The app's browser tests
//! (`tests/browser/training.rs`) compute the same curves in WebAssembly and
//! compare them with the same file, bit for bit: the same seed gives the same
//! loss curve natively and in wasm.
//!
//! The file is this native computation; `cargo xtask golden` rewrites it
//! (a test run only reads it).

use attention_core::train::{default_optimizer, task, TaskId, Trainer};
use serde_json::{json, Map, Value};

const PATH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/data/training_golden.json"
);
/// The seed the app's training card always starts from.
const SEED: u64 = 1;
/// Steps recorded per task; the curve holds the loss after 0 to STEPS steps.
const STEPS: usize = 60;

/// The loss after 0, 1, …, STEPS steps, each written as Rust's shortest
/// round-trip decimal (`{:?}`), which reads back as exactly the same f64.
fn curve(id: TaskId) -> Vec<String> {
    let mut trainer = Trainer::new(task(id), default_optimizer(), SEED);
    for _ in 0..STEPS {
        trainer.step();
    }
    trainer.losses().iter().map(|v| format!("{v:?}")).collect()
}

fn native() -> Value {
    let losses: Map<String, Value> = TaskId::ALL
        .into_iter()
        .map(|id| (id.id().to_owned(), json!(curve(id))))
        .collect();
    json!({
        "about": "Loss after 0..=steps full-batch steps of each training task from `seed` with \
                  train::default_optimizer() (Adam, lr 0.02), as Rust's shortest round-trip \
                  decimal. Written by crates/attention-core/tests/training_golden.rs \
                  (cargo xtask golden rewrites it); tests/browser/training.rs checks wasm against it.",
        "seed": SEED,
        "optimizer": "adam",
        "lr": "0.02",
        "steps": STEPS,
        "losses": losses,
    })
}

/// Rewrites the golden file from the native computation: `cargo xtask golden`
/// runs it, never a test run.
#[test]
#[ignore = "writes the golden file: cargo xtask golden"]
fn write_golden() {
    let text = serde_json::to_string_pretty(&native()).expect("serialisable");
    std::fs::write(PATH, text + "\n").expect("writable");
}

#[test]
fn the_golden_loss_curves_are_the_native_computation() {
    let computed = native();
    let golden: Value = serde_json::from_str(&std::fs::read_to_string(PATH).expect("golden file"))
        .expect("valid JSON");
    // Every number is a string, so equal JSON means equal digits, and equal
    // shortest digits mean equal bits.
    for id in TaskId::ALL {
        assert_eq!(
            golden["losses"][id.id()],
            computed["losses"][id.id()],
            "{id:?}: the golden file is stale: rewrite it with cargo xtask golden"
        );
    }
    assert_eq!(
        golden, computed,
        "the golden file is stale: rewrite it with cargo xtask golden"
    );
}

#[test]
fn the_golden_digits_read_back_as_the_same_bits() {
    let mut trainer = Trainer::new(task(TaskId::Pronoun), default_optimizer(), SEED);
    for _ in 0..STEPS {
        trainer.step();
    }
    for (text, &loss) in curve(TaskId::Pronoun).iter().zip(trainer.losses()) {
        let back: f64 = text.parse().expect("a float");
        assert_eq!(back.to_bits(), loss.to_bits(), "{text}");
    }
    // The curves fall: each task is learning, not standing still.
    for id in TaskId::ALL {
        let c: Vec<f64> = curve(id).iter().map(|t| t.parse().unwrap()).collect();
        assert!(c[STEPS] < c[0], "{id:?}: {} → {}", c[0], c[STEPS]);
    }
}
