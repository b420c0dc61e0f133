//! 我 / 喜欢 / 打 / 篮球 with sinusoidal positions: the order of the words counts.

use super::sentence;
use crate::positions::Positions;
use crate::scenario::Scenario;

/// [`sentence`]'s tokens, X and weights (d = d_k = d_v = 4) with sinusoidal
/// positions added to X.
///
/// Without positions attention reads a set: shuffled into 篮球 / 喜欢 / 打 /
/// 我, the sentence gives the same output rows, only reordered, so "I like
/// basketball" and "basketball likes me" look alike. With the positions
/// each token's vector also says where it stands, and the shuffled sentence's
/// rows are new numbers.
///
/// ```
/// use attention_core::{presets::word_order, Positions};
/// use ndarray::{Array3, Axis};
///
/// // 篮球 / 喜欢 / 打 / 我: row r of the shuffled sentence is word shuffle[r].
/// let shuffle = [3, 1, 2, 0];
/// let outputs = |positions| -> (Array3<f64>, Array3<f64>) {
///     let mut s = word_order();
///     s.options.positions = positions;
///     let plain = s.run().unwrap().output;
///     s.x = s.x.select(Axis(1), &shuffle);
///     (plain, s.run().unwrap().output)
/// };
/// // No positions: the same rows, reordered.
/// let (plain, shuffled) = outputs(Positions::None);
/// for (r, &word) in shuffle.iter().enumerate() {
///     for c in 0..4 {
///         assert!((shuffled[[0, r, c]] - plain[[0, word, c]]).abs() < 1e-12);
///     }
/// }
/// // Sinusoidal positions: 我 at the end is not 我 at the start.
/// let (plain, shuffled) = outputs(Positions::Sinusoidal);
/// let moved = (0..4).map(|c| (shuffled[[0, 3, c]] - plain[[0, 0, c]]).abs());
/// assert!(moved.fold(0.0, f64::max) > 0.1);
/// ```
pub fn word_order() -> Scenario {
    let mut scenario = sentence();
    scenario.options.positions = Positions::Sinusoidal;
    scenario
}
