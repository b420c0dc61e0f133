//! How positions enter a scenario, as the learner switches them: none,
//! sinusoidal or learned vectors added to X, or RoPE turning Q and K. Pure,
//! so tested natively.

use super::{fresh, head_width, resized, LabError};
use attention_core::positions::Positions;
use attention_core::Scenario;

/// Switches how positions enter. Learned positions get a T×d matrix P of
/// fresh numbers from `seed` (one already there of the right shape stays);
/// any other choice drops P. RoPE turns pairs of columns, so it is refused
/// while a head's d_k is odd.
pub fn set_positions(s: &mut Scenario, positions: Positions, seed: u64) -> Result<(), LabError> {
    if positions == Positions::Rope {
        check_rope_width(head_width(s))?;
    }
    let (_, t, d) = s.x.dim();
    s.p = match (positions, s.p.take()) {
        (Positions::Learned, Some(p)) if p.dim() == (t, d) => Some(p),
        (Positions::Learned, _) => Some(fresh(t, d, seed)),
        _ => None,
    };
    s.options.positions = positions;
    Ok(())
}

/// Refuses an odd d_k for RoPE, which turns each pair of columns.
pub fn check_rope_width(d_k: usize) -> Result<(), LabError> {
    if d_k.is_multiple_of(2) {
        Ok(())
    } else {
        Err(LabError::OddForRope(d_k))
    }
}

/// Keeps P one row per position and one column per feature after the
/// tokens or d_model changed: P belongs to positions, not to tokens, so a
/// removed token takes the last position's row, and a new position gets
/// fresh numbers from `seed`.
pub fn fit_positions(s: &mut Scenario, seed: u64) {
    let (_, t, d) = s.x.dim();
    if let Some(p) = &mut s.p {
        if p.dim() != (t, d) {
            *p = resized(p, t, d, seed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::{add_token, remove_token, set_d_k, set_d_model};
    use attention_core::presets::sentence;

    #[test]
    fn learned_positions_bring_a_matrix_that_follows_the_positions() {
        let mut s = sentence();
        set_positions(&mut s, Positions::Learned, 3).expect("learned");
        let p = s.p.clone().expect("a P");
        assert_eq!(p.dim(), (4, 4));
        assert!(s.run().is_ok());
        add_token(&mut s, "。", 5).expect("adds");
        let grown = s.p.clone().expect("still a P");
        assert_eq!(grown.dim(), (5, 4));
        assert_eq!(
            grown.slice(ndarray::s![..4, ..]),
            p,
            "earlier positions keep theirs"
        );
        remove_token(&mut s, 0).expect("removes");
        assert_eq!(s.p.as_ref().map(|p| p.dim()), Some((4, 4)));
        assert_eq!(
            s.p.as_ref().map(|p| p.row(0).to_vec()),
            Some(p.row(0).to_vec()),
            "position 0 keeps its row"
        );
        set_d_model(&mut s, 6, 2).expect("resizes");
        assert_eq!(s.p.as_ref().map(|p| p.dim()), Some((4, 6)));
        assert!(s.run().is_ok());
        set_positions(&mut s, Positions::Sinusoidal, 3).expect("sinusoidal");
        assert!(s.p.is_none());
        assert!(s.run().is_ok());
    }

    #[test]
    fn rope_needs_an_even_head_width() {
        let mut s = sentence();
        set_d_k(&mut s, 3, 1).expect("d_k 3");
        assert_eq!(
            set_positions(&mut s, Positions::Rope, 1),
            Err(LabError::OddForRope(3))
        );
        assert_eq!(s.options.positions, Positions::None, "refused, unchanged");
        set_d_k(&mut s, 4, 1).expect("d_k 4");
        set_positions(&mut s, Positions::Rope, 1).expect("rope");
        assert_eq!(set_d_k(&mut s, 5, 1), Err(LabError::OddForRope(5)));
        assert!(s.run().is_ok());
    }
}
