//! The documented size limits. They keep a browser tab responsive; every size
//! up to them works, and anything past them is an [`AttentionError::TooLarge`].
//! Positions add no limit of their own: learned positions `p` have the shape
//! of one sequence of x (T×d), so x's limits bound them.

use crate::error::AttentionError;

/// Most positions (tokens, frames) in one sequence.
pub const MAX_TOKENS: usize = 512;
/// Most features in X, and most columns in W_Q, W_K and W_V.
pub const MAX_DIM: usize = 512;
/// Most heads in one multi-head layer ([`crate::layer`]).
pub const MAX_HEADS: usize = 8;
/// Most layers in a transformer block ([`crate::block`]).
pub const MAX_LAYERS: usize = 4;
/// Most sequences in one batch.
pub const MAX_BATCH: usize = 64;
/// Most score cells, B×T×T (B×heads×T×T with several heads), in one pass
/// (four sequences of 512 positions).
pub const MAX_SCORE_CELLS: usize = 4 * 512 * 512;

/// Largest d_k the scaling experiment ([`crate::experiment`]) tries, like [`MAX_DIM`].
pub const MAX_EXPERIMENT_DIM: usize = 512;
/// Fewest keys per softmax row in the scaling experiment: one key always gets weight 1.
pub const MIN_EXPERIMENT_KEYS: usize = 2;
/// Most keys per softmax row in the scaling experiment.
pub const MAX_EXPERIMENT_KEYS: usize = 64;
/// Most draws per d_k in the scaling experiment.
pub const MAX_EXPERIMENT_DRAWS: usize = 10_000;
/// Most normal numbers one scaling experiment may draw, `draws × (keys + 1) × the largest d_k`.
/// Drawing dominates its cost, so this bounds its running time; the app's usual
/// setting (200 draws, 8 keys, d_k up to 512) draws 0.9 million.
pub const MAX_EXPERIMENT_NUMBERS: usize = 20_000_000;

pub(crate) fn check(
    field: &str,
    what: &'static str,
    found: usize,
    limit: usize,
) -> Result<(), AttentionError> {
    if found > limit {
        Err(AttentionError::TooLarge {
            field: field.into(),
            what,
            limit,
            found,
        })
    } else {
        Ok(())
    }
}

/// Checks that `found` lies in `min..=max`.
pub(crate) fn check_range(
    field: &str,
    what: &'static str,
    found: usize,
    min: usize,
    max: usize,
) -> Result<(), AttentionError> {
    if (min..=max).contains(&found) {
        Ok(())
    } else {
        Err(AttentionError::OutOfRange {
            field: field.into(),
            what,
            min,
            max,
            found,
        })
    }
}
