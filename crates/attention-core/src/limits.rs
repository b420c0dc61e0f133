//! The documented size limits. They keep a browser tab responsive; every size
//! up to them works, and anything past them is an [`AttentionError::TooLarge`].

use crate::error::AttentionError;

/// Most positions (tokens, frames) in one sequence.
pub const MAX_TOKENS: usize = 512;
/// Most features in X, and most columns in W_Q, W_K and W_V.
pub const MAX_DIM: usize = 512;
/// Most sequences in one batch.
pub const MAX_BATCH: usize = 64;
/// Most score cells, B×T×T, in one pass (four sequences of 512 positions).
pub const MAX_SCORE_CELLS: usize = 4 * 512 * 512;

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
