//! The softmax of one weight worked out with numbers, e.g.
//! `α′₁₂ = e^0.61 / Σₖ e^α₁ₖ = 1.84 / 3.68 = 0.50`, built from the trace's
//! scaled scores. Exponents are separate pieces so the view can raise them.

use crate::geometry::dot_text::pair_subscript;
use crate::geometry::format::{scientific, subscript, superscript, two_decimals};

/// Above this magnitude a score is shown in the stable form e^(α − m), since
/// e^α itself would be unreadably large (and overflows past about 709).
pub const SHIFT_ABOVE: f64 = 50.0;

/// One run of formula text: on the line, or raised as an exponent.
#[derive(Clone, Debug, PartialEq)]
pub enum Piece {
    Text(String),
    Sup(String),
}

/// How weight α′_ij comes about.
#[derive(Clone, Debug, PartialEq)]
pub enum WeightStep {
    /// Key j is masked: softmax leaves it out and its weight is exactly 0.
    Masked,
    /// The formula with numbers. `shifted` says both parts were divided by e^m,
    /// m being the row's largest allowed score, to keep them finite.
    Formula { pieces: Vec<Piece>, shifted: bool },
}

/// A positive quantity such as e^α: two decimals in the readable range,
/// otherwise `1.23×10⁻⁵`, so neither a tiny nor a huge number loses its meaning.
pub fn readable(value: f64) -> String {
    if value == 0.0 || !value.is_finite() || (0.01..100_000.0).contains(&value.abs()) {
        return two_decimals(value);
    }
    let (mantissa, exponent) = scientific(value, 2);
    format!(
        "{}×10{}",
        mantissa.replace('-', "\u{2212}"),
        superscript(exponent)
    )
}

/// The 1-based row index with a running key index k, as in `α₁ₖ`.
fn row_and_k(i: usize) -> String {
    if i < 9 {
        format!("{}ₖ", subscript(i + 1))
    } else {
        format!("{},ₖ", subscript(i + 1))
    }
}

/// Explains weight α′_ij (0-based `i`, `j`) of a row with `scores` (scaled),
/// `allowed` keys and the trace's resulting `weight`.
pub fn explain_weight(
    i: usize,
    j: usize,
    scores: &[f64],
    allowed: &[bool],
    weight: f64,
) -> WeightStep {
    let visible = || {
        scores
            .iter()
            .zip(allowed)
            .filter(|(_, &ok)| ok)
            .map(|(s, _)| *s)
    };
    let (Some(&score), Some(true)) = (scores.get(j), allowed.get(j).copied()) else {
        return WeightStep::Masked;
    };
    let shifted = visible().any(|s| s.abs() > SHIFT_ABOVE);
    let shift = if shifted {
        visible().fold(f64::NEG_INFINITY, f64::max)
    } else {
        0.0
    };
    let numerator = (score - shift).exp();
    let denominator: f64 = visible().map(|s| (s - shift).exp()).sum();
    let (power, sum_power) = if shifted {
        // A negative m goes in parentheses, as in `0.61 − (−3.20)`.
        let m = if shift < 0.0 {
            format!("({})", two_decimals(shift))
        } else {
            two_decimals(shift)
        };
        (
            format!("{} \u{2212} {m}", two_decimals(score)),
            format!("α{} \u{2212} {m}", row_and_k(i)),
        )
    } else {
        (two_decimals(score), format!("α{}", row_and_k(i)))
    };
    let pieces = vec![
        Piece::Text(format!("α′{} = e", pair_subscript(i, j))),
        Piece::Sup(power),
        Piece::Text(" / Σₖ e".into()),
        Piece::Sup(sum_power),
        Piece::Text(format!(
            " = {} / {} = {}",
            readable(numerator),
            readable(denominator),
            two_decimals(weight)
        )),
    ];
    WeightStep::Formula { pieces, shifted }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The formula on one line, exponents written as ^(…).
    fn flat(step: &WeightStep) -> String {
        match step {
            WeightStep::Masked => "masked".into(),
            WeightStep::Formula { pieces, .. } => pieces
                .iter()
                .map(|p| match p {
                    Piece::Text(t) => t.clone(),
                    Piece::Sup(s) => format!("^({s})"),
                })
                .collect(),
        }
    }

    #[test]
    fn an_ordinary_row_shows_e_to_the_score_over_the_sum() {
        let scores = [0.61, 0.0, -1.0];
        let sum: f64 = scores.iter().map(|s: &f64| s.exp()).sum();
        let weight = 0.61_f64.exp() / sum;
        let step = explain_weight(0, 0, &scores, &[true; 3], weight);
        assert_eq!(
            flat(&step),
            "α′₁₁ = e^(0.61) / Σₖ e^(α₁ₖ) = 1.84 / 3.21 = 0.57"
        );
        assert!(matches!(step, WeightStep::Formula { shifted: false, .. }));
    }

    #[test]
    fn masked_keys_leave_the_sum_and_get_no_formula() {
        let scores = [0.0, 5.0];
        assert_eq!(
            explain_weight(1, 1, &scores, &[true, false], 0.0),
            WeightStep::Masked
        );
        let step = explain_weight(1, 0, &scores, &[true, false], 1.0);
        assert_eq!(
            flat(&step),
            "α′₂₁ = e^(0.00) / Σₖ e^(α₂ₖ) = 1.00 / 1.00 = 1.00"
        );
    }

    #[test]
    fn a_key_outside_the_row_counts_as_masked() {
        assert_eq!(
            explain_weight(0, 5, &[1.0], &[true], 1.0),
            WeightStep::Masked
        );
    }

    #[test]
    fn huge_scores_use_the_stable_form_and_stay_finite() {
        let scores = [800.0, 799.0];
        let step = explain_weight(0, 1, &scores, &[true, true], 0.2689);
        assert_eq!(
            flat(&step),
            "α′₁₂ = e^(799.00 \u{2212} 800.00) / Σₖ e^(α₁ₖ \u{2212} 800.00) = 0.37 / 1.37 = 0.27"
        );
        assert!(matches!(step, WeightStep::Formula { shifted: true, .. }));
    }

    #[test]
    fn a_negative_maximum_is_subtracted_in_parentheses() {
        let step = explain_weight(0, 0, &[-60.0], &[true], 1.0);
        assert_eq!(
            flat(&step),
            "α′₁₁ = e^(\u{2212}60.00 \u{2212} (\u{2212}60.00)) / Σₖ e^(α₁ₖ \u{2212} (\u{2212}60.00)) = 1.00 / 1.00 = 1.00"
        );
    }

    #[test]
    fn a_huge_masked_score_does_not_force_the_stable_form() {
        let step = explain_weight(0, 0, &[1.0, 900.0], &[true, false], 1.0);
        assert!(matches!(step, WeightStep::Formula { shifted: false, .. }));
    }

    #[test]
    fn very_small_and_very_large_values_use_powers_of_ten() {
        assert_eq!(readable(1.84), "1.84");
        assert_eq!(readable(0.0), "0.00");
        assert_eq!(readable(1.234e-26), "1.23×10⁻²⁶");
        assert_eq!(readable(5.18e21), "5.18×10²¹");
        assert_eq!(readable(123_456.0), "1.23×10⁵");
        assert_eq!(readable(-0.001), "\u{2212}1.00×10⁻³");
    }

    #[test]
    fn rows_past_nine_are_separated_by_a_comma() {
        let step = explain_weight(9, 0, &[0.0], &[true], 1.0);
        assert!(flat(&step).starts_with("α′₁₀,₁ = e^(0.00) / Σₖ e^(α₁₀,ₖ)"));
    }
}
