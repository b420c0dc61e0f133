//! Training speed in WebAssembly in headless Chromium: a measurement for
//! `cargo xtask bench`, not a test to pass (it asserts nothing about time).
//!
//! ```text
//! wasm-pack test --headless --chrome --release . -p attention-lab --test train_speed -- --nocapture
//! ```
//!
//! prints one line per task, `train-speed <task> T=<t> d=<d> steps/s=<rate>`,
//! which `xtask/src/bench.rs` reads. It times what the training card's Play
//! runs: [`Trainer::step`] with the default optimizer, one full-batch step of
//! forward, loss, backward and update. `cargo xtask test` does not run it.
#![cfg(target_arch = "wasm32")]

use attention_core::train::{default_optimizer, task, TaskId, Trainer};
use wasm_bindgen_test::{console_log, wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// Each task trains for at least this long …
const MIN_MILLIS: f64 = 1_000.0;
/// … restarting every this many steps, as `examples/train_bench.rs` does, so
/// the loss curve does not grow without bound.
const RESTART: usize = 2_000;

#[wasm_bindgen_test]
fn training_steps_per_second() {
    for id in TaskId::ALL {
        let task = task(id);
        let (t, d) = task.x().dim();
        // Warm up: the first steps compile and fill caches.
        let mut warm = Trainer::new(task.clone(), default_optimizer(), 1);
        for _ in 0..200 {
            warm.step();
        }
        let start = js_sys::Date::now();
        let (mut steps, mut seed) = (0usize, 1);
        let mut sink = 0.0;
        while js_sys::Date::now() - start < MIN_MILLIS {
            let mut trainer = Trainer::new(task.clone(), default_optimizer(), seed);
            for _ in 0..RESTART {
                sink += trainer.step();
            }
            steps += RESTART;
            seed += 1;
        }
        let seconds = (js_sys::Date::now() - start) / 1_000.0;
        assert!(sink.is_finite());
        console_log!(
            "train-speed {} T={t} d={d} steps/s={:.0}",
            id.id(),
            steps as f64 / seconds
        );
    }
}
