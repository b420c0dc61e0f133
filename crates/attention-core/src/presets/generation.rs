//! 我 / 喜欢 / 打 / 篮球 / 。 decoded one token at a time, with RoPE.

use super::sentence;
use crate::positions::Positions;
use crate::scenario::Scenario;
use ndarray::Array3;

/// [`sentence`] and a full stop, 我 / 喜欢 / 打 / 篮球 / 。, causal, with
/// rotary positions (d = d_k = d_v = 4, two pairs of columns to turn) and
/// [`sentence`]'s weights: a sentence to generate step by step
/// ([`crate::generate`]). The full stop's row was set by hand to be unlike
/// the words.
///
/// The KV cache gives every step's row exactly as the whole causal pass
/// gives it, with less work.
///
/// ```
/// use attention_core::{generate::Generation, presets::generation};
///
/// let scenario = generation();
/// let full = scenario.run().unwrap();
/// let mut decoding = Generation::new(&scenario, 0).unwrap();
/// let total = decoding.sizes().total_work(decoding.steps());
/// for step in decoding.by_ref() {
///     let step = step.unwrap();
///     let t = step.position;
///     for (j, w) in step.heads[0].weights.iter().enumerate() {
///         assert!((w - full.heads[0].weights[[0, t, j]]).abs() < 1e-12);
///     }
///     for (c, out) in step.output.iter().enumerate() {
///         assert!((out - full.output[[0, t, c]]).abs() < 1e-12);
///     }
/// }
/// assert_eq!(decoding.cache(0).unwrap().0.nrows(), 5);
/// assert!(total.cached < total.uncached);
/// ```
pub fn generation() -> Scenario {
    let mut scenario = sentence();
    scenario.tokens = Some(
        ["我", "喜欢", "打", "篮球", "。"]
            .map(String::from)
            .to_vec(),
    );
    let (words, stop) = (&scenario.x, [0.2, 0.3, -0.7, -0.4]);
    scenario.x = Array3::from_shape_fn(
        (1, 5, 4),
        |(_, t, c)| {
            if t < 4 {
                words[[0, t, c]]
            } else {
                stop[c]
            }
        },
    );
    scenario.options.causal = true;
    scenario.options.positions = Positions::Rope;
    scenario
}
