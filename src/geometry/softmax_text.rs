//! The softmax of one weight worked out with numbers, e.g.
//! `α′₁₂ = e^0.61 / Σₖ e^α₁ₖ = 1.84 / 3.68 = 0.50`, built from the trace's
//! scaled scores, its terms and their total made by the core's softmax kernel
//! (`kernels::softmax_terms`). Exponents are separate pieces so the view can
//! raise them.

use crate::geometry::dot_text::pair_subscript;
use crate::geometry::format::{scientific, subscript, superscript, two_decimals};
use attention_core::kernels::softmax_terms;

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

/// The scores of a row's allowed keys, in key order.
fn allowed_scores<'a>(scores: &'a [f64], allowed: &'a [bool]) -> impl Iterator<Item = f64> + 'a {
    scores
        .iter()
        .zip(allowed)
        .filter(|(_, &ok)| ok)
        .map(|(s, _)| *s)
}

/// The shift m that keeps a row's exponents finite: its largest allowed
/// score when any allowed score is past [`SHIFT_ABOVE`], else 0.
fn shift_of(scores: &[f64], allowed: &[bool]) -> Option<f64> {
    allowed_scores(scores, allowed)
        .any(|s| s.abs() > SHIFT_ABOVE)
        .then(|| allowed_scores(scores, allowed).fold(f64::NEG_INFINITY, f64::max))
}

/// Each key's e^(α − m) (0 for a masked key) and their total, from the
/// core's softmax kernel.
fn terms_of(scores: &[f64], allowed: &[bool], shift: Option<f64>) -> (Vec<f64>, f64) {
    let allowed = |k: usize| allowed.get(k).copied().unwrap_or(false);
    softmax_terms(scores, allowed, shift.unwrap_or(0.0))
}

/// `x − m` as an exponent, with a negative m in parentheses (`0.61 − (−3.20)`),
/// or `x` alone when the row is not shifted.
fn shifted_power(x: &str, shift: Option<f64>) -> String {
    match shift {
        Some(m) if m < 0.0 => format!("{x} \u{2212} ({})", two_decimals(m)),
        Some(m) => format!("{x} \u{2212} {}", two_decimals(m)),
        None => x.to_owned(),
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
    let (Some(&score), Some(true)) = (scores.get(j), allowed.get(j).copied()) else {
        return WeightStep::Masked;
    };
    let shift = shift_of(scores, allowed);
    let (terms, denominator) = terms_of(scores, allowed, shift);
    let numerator = terms[j];
    let pieces = vec![
        Piece::Text(format!("α′{} = e", pair_subscript(i, j))),
        Piece::Sup(shifted_power(&two_decimals(score), shift)),
        Piece::Text(" / Σₖ e".into()),
        Piece::Sup(shifted_power(&format!("α{}", row_and_k(i)), shift)),
        Piece::Text(format!(
            " = {} / {} = {}",
            readable(numerator),
            readable(denominator),
            two_decimals(weight)
        )),
    ];
    WeightStep::Formula {
        pieces,
        shifted: shift.is_some(),
    }
}

/// The softmax denominator of row i written out over its allowed keys:
/// `Σₖ e^α₁ₖ = e^1.04 + e^0.13 + … = 2.84 + 1.14 + … = 5.68`, with at most
/// `max_terms` terms (the middle ones elided as `…`), so a learner can add
/// it up by hand. `None` for a row with no allowed key.
pub fn denominator(
    i: usize,
    scores: &[f64],
    allowed: &[bool],
    max_terms: usize,
) -> Option<Vec<Piece>> {
    let shift = shift_of(scores, allowed);
    let (exponentials, total) = terms_of(scores, allowed, shift);
    // Each allowed key's score and e^(score − m), in key order.
    let terms: Vec<(f64, f64)> = (0..scores.len())
        .filter(|&k| allowed.get(k) == Some(&true))
        .map(|k| (scores[k], exponentials[k]))
        .collect();
    if terms.is_empty() {
        return None;
    }
    let keep = max_terms.max(3);
    let shown: Vec<Option<(f64, f64)>> = if terms.len() > keep {
        let mut shown: Vec<Option<(f64, f64)>> =
            terms[..keep - 1].iter().copied().map(Some).collect();
        shown.push(None);
        shown.push(terms.last().copied());
        shown
    } else {
        terms.iter().copied().map(Some).collect()
    };
    let mut pieces = vec![
        Piece::Text("Σₖ e".into()),
        Piece::Sup(shifted_power(&format!("α{}", row_and_k(i)), shift)),
        Piece::Text(" =".into()),
    ];
    for (n, term) in shown.iter().enumerate() {
        let plus = if n > 0 { " +" } else { "" };
        match term {
            Some((score, _)) => {
                pieces.push(Piece::Text(format!("{plus} e")));
                pieces.push(Piece::Sup(shifted_power(&two_decimals(*score), shift)));
            }
            None => pieces.push(Piece::Text(format!("{plus} …"))),
        }
    }
    let values: Vec<String> = shown
        .iter()
        .map(|term| term.map_or_else(|| "…".to_owned(), |(_, e)| readable(e)))
        .collect();
    pieces.push(Piece::Text(format!(
        " = {} = {}",
        values.join(" + "),
        readable(total)
    )));
    Some(pieces)
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
    fn the_denominator_is_written_out_term_by_term() {
        let flat = |pieces: Vec<Piece>| -> String {
            pieces
                .iter()
                .map(|p| match p {
                    Piece::Text(t) => t.clone(),
                    Piece::Sup(s) => format!("^({s})"),
                })
                .collect()
        };
        let sum = denominator(0, &[0.61, 0.0, -1.0], &[true, true, false], 6).expect("a row");
        assert_eq!(
            flat(sum),
            "Σₖ e^(α₁ₖ) = e^(0.61) + e^(0.00) = 1.84 + 1.00 = 2.84"
        );
        let long = denominator(1, &[0.5; 10], &[true; 10], 4).expect("a row");
        assert_eq!(
            flat(long),
            "Σₖ e^(α₂ₖ) = e^(0.50) + e^(0.50) + e^(0.50) + … + e^(0.50) = 1.65 + 1.65 + 1.65 + … + 1.65 = 16.49"
        );
        assert!(denominator(0, &[1.0], &[false], 6).is_none());
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
