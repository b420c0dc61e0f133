//! The worked dot product of one score, as the text the learner reads:
//! `Q₁·K₂ = 0.31×1.20 + … = 1.73`, then `α₁₂ = 1.73 ÷ √8 = 0.61`.

use crate::geometry::format::{subscript, sum_of_products, two_decimals};

/// Most terms written out before the middle of a long dot product is elided.
const MAX_TERMS: usize = 8;

/// The 1-based index pair of entry (i, j) as subscripts, e.g. `₁₂`; with a
/// comma once an index has two digits, so `₁,₁₂` cannot be misread as `₁₁,₂`.
pub fn pair_subscript(i: usize, j: usize) -> String {
    if i < 9 && j < 9 {
        format!("{}{}", subscript(i + 1), subscript(j + 1))
    } else {
        format!("{},{}", subscript(i + 1), subscript(j + 1))
    }
}

/// `Q_i·K_j` written term by term with its total, the trace's `raw` score,
/// for 0-based `i` and `j`.
pub fn dot_expansion(i: usize, j: usize, q_row: &[f64], k_row: &[f64], raw: f64) -> String {
    format!(
        "Q{}·K{} = {}",
        subscript(i + 1),
        subscript(j + 1),
        sum_of_products(q_row, k_row, raw, MAX_TERMS)
    )
}

/// The scaling step `α_ij = raw ÷ √d_k = scaled`, for 0-based `i` and `j`.
pub fn scaling_step(i: usize, j: usize, raw: f64, d_k: usize, scaled: f64) -> String {
    format!(
        "α{} = {} ÷ √{d_k} = {}",
        pair_subscript(i, j),
        two_decimals(raw),
        two_decimals(scaled)
    )
}

/// The score without scaling, `α_ij = Q_i·K_j = raw`, for 0-based `i` and `j`.
pub fn unscaled_step(i: usize, j: usize, raw: f64) -> String {
    format!(
        "α{} = Q{}·K{} = {}",
        pair_subscript(i, j),
        subscript(i + 1),
        subscript(j + 1),
        two_decimals(raw)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_pairs_get_a_comma_only_when_they_could_be_misread() {
        assert_eq!(pair_subscript(0, 1), "₁₂");
        assert_eq!(pair_subscript(8, 8), "₉₉");
        assert_eq!(pair_subscript(0, 11), "₁,₁₂");
        assert_eq!(pair_subscript(9, 0), "₁₀,₁");
    }

    #[test]
    fn the_expansion_names_both_rows_and_writes_every_term() {
        assert_eq!(
            dot_expansion(0, 1, &[0.31, -0.52], &[1.2, 0.44], 0.1432),
            "Q₁·K₂ = 0.31×1.20 + (\u{2212}0.52)×0.44 = 0.14"
        );
    }

    #[test]
    fn the_scaling_step_shows_the_root_and_both_values() {
        assert_eq!(
            scaling_step(0, 1, 1.73, 8, 0.6116),
            "α₁₂ = 1.73 ÷ √8 = 0.61"
        );
        assert_eq!(
            scaling_step(2, 0, -2.0, 4, -1.0),
            "α₃₁ = \u{2212}2.00 ÷ √4 = \u{2212}1.00"
        );
    }

    #[test]
    fn without_scaling_the_score_is_the_dot_product() {
        assert_eq!(unscaled_step(1, 0, 1.734), "α₂₁ = Q₂·K₁ = 1.73");
    }
}
