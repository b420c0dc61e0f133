//! The forward pass in WebAssembly in headless Chromium, at the sizes of the
//! native throughput example (`crates/attention-core/examples/throughput.rs`,
//! the same head and input): a measurement for `cargo xtask bench`, not a test
//! to pass (it asserts nothing about time).
//!
//! ```text
//! wasm-pack test --headless --chrome --release . -p attention-lab --test forward_speed -- --nocapture
//! ```
//!
//! prints `forward-speed T=<t> d=<d> us=<µs per pass>`, which
//! `xtask/src/bench.rs` sets beside the native median. `cargo xtask test`
//! does not run it.
#![cfg(target_arch = "wasm32")]

use attention_core::random::normal_matrix;
use attention_core::{forward_sequence, Head, Options};
use wasm_bindgen_test::{console_log, wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

const D: usize = 64;
/// Each size runs for at least this long …
const MIN_MILLIS: f64 = 1_500.0;
/// … in blocks of passes that take at least this long each: with a clock
/// that counts whole milliseconds, a block of 100 ms puts a pass's time within
/// 1% (a block of 20 ms held only two passes at T = 512, within 4%).
const BLOCK_MILLIS: f64 = 100.0;

#[wasm_bindgen_test]
fn forward_pass_times() {
    let head = Head {
        w_q: normal_matrix(D, D, 0.125, 1),
        w_k: normal_matrix(D, D, 0.125, 2),
        w_v: normal_matrix(D, D, 0.125, 3),
    };
    let now = js_sys::Date::now;
    for t in [16, 64, 256, 512] {
        let x = normal_matrix(t, D, 1.0, 4);
        let run = || forward_sequence(x.view(), &head, None, Options::default());
        assert!(run().is_ok(), "T = {t}");
        // The clock counts whole milliseconds, so passes are timed in blocks
        // of at least BLOCK_MILLIS each and the median block is reported,
        // as the native example reports its median pass.
        let warm = now();
        let mut per_block = 0usize;
        while now() - warm < BLOCK_MILLIS {
            std::hint::black_box(run().ok());
            per_block += 1;
        }
        let start = now();
        let mut times = Vec::new();
        // Like the app's memo (and the native example), the last trace is
        // kept until the next one replaces it.
        let mut shown = None;
        while now() - start < MIN_MILLIS {
            let block = now();
            for _ in 0..per_block {
                shown = std::hint::black_box(run().ok());
            }
            times.push((now() - block) / per_block as f64);
        }
        drop(shown);
        times.sort_by(f64::total_cmp);
        let median = times[times.len() / 2];
        console_log!("forward-speed T={t} d={D} us={:.1}", median * 1_000.0);
    }
}
