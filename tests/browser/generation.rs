//! Generation with a KV cache in WebAssembly: step by step, each output row
//! equals the whole causal pass's, row by row, in one head and several,
//! with every kind of positions.

use attention_core::generate::Generation;
use attention_core::positions::Positions;
use attention_core::presets::Preset;
use attention_core::Scenario;
use ndarray::Axis;
use wasm_bindgen_test::wasm_bindgen_test;

/// Decodes sequence 0 of `s` and compares every step with the causal pass.
fn check(s: &Scenario) {
    let mut causal = s.clone();
    causal.options.causal = true;
    let full = causal.run().expect("the causal pass runs");
    let rows = full.output.index_axis(Axis(0), 0);
    let mut steps = 0;
    for (t, step) in Generation::new(s, 0).expect("generates").enumerate() {
        let step = step.expect("a step");
        assert_eq!(step.position, t);
        for (c, (&got, &want)) in step.output.iter().zip(rows.row(t)).enumerate() {
            assert!((got - want).abs() < 1e-12, "step {t}[{c}]: {got} vs {want}");
        }
        for (h, head) in step.heads.iter().enumerate() {
            let weights = full.heads[h].weights.index_axis(Axis(0), 0);
            for (j, &w) in head.weights.iter().enumerate() {
                assert!(
                    (w - weights[[t, j]]).abs() < 1e-12,
                    "head {h} step {t} key {j}"
                );
            }
        }
        steps += 1;
    }
    assert_eq!(steps, s.x.dim().1, "a step per token");
}

#[wasm_bindgen_test]
fn cached_steps_equal_the_causal_pass_in_one_head_and_two() {
    for heads in [1, 2] {
        for positions in Positions::ALL {
            let mut s = Preset::Generation.scenario();
            if heads > 1 {
                s.heads = heads;
                s.w_o = Some(ndarray::Array2::from_shape_fn((4, 4), |(r, c)| {
                    (r as f64 - c as f64) / 8.0
                }));
            }
            s.options.positions = positions;
            s.p = (positions == Positions::Learned).then(|| {
                ndarray::Array2::from_shape_fn((5, 4), |(r, c)| (r * 4 + c) as f64 / 20.0)
            });
            check(&s);
        }
    }
}
