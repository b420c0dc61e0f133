//! Short audio clips as a padded batch: two sequences of five frames.

use crate::random::{normal_matrix, rounded};
use crate::scenario::Scenario;
use crate::trace::{Head, Options};
use ndarray::{Array2, Array3};

/// Frames per clip, including padding.
const FRAMES: usize = 5;
/// Features per frame.
const FEATURES: usize = 4;
/// The attention dimension d_k = d_v.
const ATTENTION_DIM: usize = 8;
/// Real frames in the second, shorter clip.
const SHORT_CLIP: usize = 3;

/// A batch of two audio clips of five frames × four features, with attention
/// dimension d_k = d_v = 8. The first clip has five real frames; the second
/// has only three, followed by two padding frames, so its key mask is
/// `[1, 1, 1, 0, 0]`.
///
/// How the numbers were chosen. X and the weights are seeded draws from
/// [`crate::random::normal_matrix`], rounded to two decimals so they are short
/// to read: X has standard deviation 1, and the weights 0.5 = 1/√4, which keeps
/// Q, K and V entries near standard deviation 1 as well. Padding frames are
/// silence, all zeros, as a batching step would fill them. The labels t1 … t5
/// name the frame positions and are shared by both clips.
///
/// ```
/// use attention_core::presets::audio_frames;
/// use ndarray::s;
///
/// let scenario = audio_frames();
/// let trace = scenario.run().unwrap().into_head(0);
/// assert_eq!(trace.weights.dim(), (2, 5, 5));
/// // No frame of the short clip attends to its padding…
/// for i in 0..5 {
///     assert_eq!(trace.weights[[1, i, 3]], 0.0);
///     assert_eq!(trace.weights[[1, i, 4]], 0.0);
/// }
/// // …and every row still shares out exactly one unit of attention.
/// for row in trace.weights.rows() {
///     assert!((row.sum() - 1.0).abs() < 1e-12);
/// }
/// // The full clip has no padding, so every weight there is positive.
/// assert!(trace.weights.slice(s![0, .., ..]).iter().all(|&w| w > 0.0));
/// ```
pub fn audio_frames() -> Scenario {
    let frames = rounded(normal_matrix(2 * FRAMES, FEATURES, 1.0, 20), 2);
    let x = Array3::from_shape_fn((2, FRAMES, FEATURES), |(b, t, c)| {
        if b == 1 && t >= SHORT_CLIP {
            0.0
        } else {
            frames[[b * FRAMES + t, c]]
        }
    });
    let weights = |seed| rounded(normal_matrix(FEATURES, ATTENTION_DIM, 0.5, seed), 2);
    Scenario {
        tokens: Some((1..=FRAMES).map(|t| format!("t{t}")).collect()),
        x,
        batched: true,
        head: Head {
            w_q: weights(21),
            w_k: weights(22),
            w_v: weights(23),
        },
        heads: 1,
        w_o: None,
        mask: Some(Array2::from_shape_fn((2, FRAMES), |(b, t)| {
            b == 0 || t < SHORT_CLIP
        })),
        options: Options::default(),
        p: None,
        block: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn the_mask_is_the_lessons_one() {
        let mask = audio_frames().mask.expect("the batch is padded");
        assert_eq!(
            mask,
            array![
                [true, true, true, true, true],
                [true, true, true, false, false]
            ]
        );
    }
}
