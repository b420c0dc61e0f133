//! The text under the bars: the softmax of one weight with its numbers, or
//! why it is 0, and the row's sum. Which key is explained follows the pointer
//! or keyboard focus, else the selected key.

use super::bars::QueryRow;
use crate::geometry::format::{js_number, two_decimals};
use crate::geometry::softmax_text::{denominator, explain_weight, Piece, WeightStep};
use crate::i18n::{self, Lang};
use crate::svg::Markup;

/// Terms of the denominator written out before it is elided.
const DENOMINATOR_TERMS: usize = 6;

/// A paragraph of formula pieces, exponents raised with `<sup>`.
fn pieces_paragraph(m: &mut Markup, attrs: &[(&str, &str)], pieces: &[Piece]) {
    m.open("p", attrs);
    for piece in pieces {
        match piece {
            Piece::Text(text) => m.text(text),
            Piece::Sup(text) => m.element("sup", &[], text),
        };
    }
    m.close("p");
}

/// `α′_ij = e^α_ij / Σₖ e^α_ik = … = weight` for key `key` of `row` (exponents
/// raised with `<sup>`), or why it is 0; the denominator written out term by
/// term; its notes; then the row sum Σ with its full-precision `data-value`,
/// and a word that the numbers shown are rounded.
pub fn readout(row: &QueryRow, key: usize, lang: Lang) -> String {
    let step = row
        .weights
        .get(key)
        .map(|&weight| explain_weight(row.query, key, &row.scores, &row.allowed, weight));
    let mut m = Markup::new();
    let formula = [("class", "formula"), ("data-testid", "softmax-formula")];
    match step {
        Some(WeightStep::Formula { pieces, shifted }) => {
            pieces_paragraph(&mut m, &formula, &pieces);
            if let Some(sum) = denominator(row.query, &row.scores, &row.allowed, DENOMINATOR_TERMS)
            {
                let attrs = [("class", "formula"), ("data-testid", "softmax-denominator")];
                pieces_paragraph(&mut m, &attrs, &sum);
            }
            if shifted {
                let note = [("class", "note"), ("data-testid", "softmax-shifted")];
                m.element("p", &note, i18n::SOFTMAX_SHIFTED.get(lang));
            }
            // Only worth saying when some key of the row is really left out.
            if row.allowed.contains(&false) {
                m.element("p", &[("class", "note")], i18n::SUM_OVER_ALLOWED.get(lang));
            }
        }
        Some(WeightStep::Masked) => {
            let note = [
                ("class", "formula note"),
                ("data-testid", "softmax-formula"),
            ];
            m.element("p", &note, i18n::WEIGHT_MASKED.get(lang));
        }
        None => {
            m.element("p", &formula, "");
        }
    }
    let sum: f64 = row.weights.iter().sum();
    let total = js_number(sum);
    m.start("p")
        .attr("class", "row-sum-line")
        .attr("data-testid", "softmax-row-sum")
        .attr("data-value", &total)
        .end()
        .text(&format!(
            "{}: Σ = {}",
            i18n::ROW_SUM.get(lang),
            two_decimals(sum)
        ))
        .close("p");
    let rounded = [("class", "note"), ("data-testid", "rounded-note")];
    m.element("p", &rounded, i18n::ROUNDED.get(lang));
    // Σ = 0 is no mistake when there is nothing to share the weight among.
    if !row.allowed.contains(&true) {
        let note = [("class", "note"), ("data-testid", "softmax-empty-row")];
        m.element("p", &note, i18n::walkthrough::ALL_MASKED.get(lang));
    }
    m.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(scores: Vec<f64>, allowed: Vec<bool>) -> QueryRow {
        // Shifted by the largest score, as the core does, so 800 stays finite.
        let top = scores.iter().fold(f64::NEG_INFINITY, |a, &b| a.max(b));
        let e: Vec<f64> = scores
            .iter()
            .zip(&allowed)
            .map(|(s, &ok)| if ok { (s - top).exp() } else { 0.0 })
            .collect();
        let seen: f64 = e.iter().sum();
        let weights = e.iter().map(|x| x / seen).collect();
        QueryRow {
            query: 0,
            labels: vec!["a".into(); scores.len()],
            scores,
            allowed,
            weights,
        }
    }

    #[test]
    fn a_row_with_every_key_masked_explains_its_zero_sum() {
        let empty = QueryRow {
            query: 0,
            labels: vec!["a".into(); 2],
            scores: vec![0.3, -0.2],
            allowed: vec![false, false],
            weights: vec![0.0, 0.0],
        };
        let html = readout(&empty, 0, Lang::En);
        assert!(html.contains("Σ = 0.00"), "{html}");
        assert!(html.contains("data-testid=\"softmax-empty-row\""), "{html}");
        let full = row(vec![0.3, -0.2], vec![true, false]);
        assert!(!readout(&full, 0, Lang::En).contains("softmax-empty-row"));
    }

    #[test]
    fn the_formula_raises_its_exponents_and_the_sum_is_exact() {
        let row = row(vec![0.61, 0.0, -1.0], vec![true; 3]);
        let html = readout(&row, 0, Lang::En);
        assert!(html.starts_with(
            "<p class=\"formula\" data-testid=\"softmax-formula\">α′₁₁ = e<sup>0.61</sup> / Σₖ e<sup>α₁ₖ</sup> = 1.84 / 3.21 = 0.57</p>"
        ));
        let sum: f64 = row.weights.iter().sum();
        assert!(html.contains(&format!(
            "data-testid=\"softmax-row-sum\" data-value=\"{}\">Row sum: Σ = 1.00</p>",
            js_number(sum)
        )));
        // The denominator written out, and the word about rounding; no other note.
        assert!(html.contains(
            "data-testid=\"softmax-denominator\">Σₖ e<sup>α₁ₖ</sup> = e<sup>0.61</sup> + e<sup>0.00</sup> + e<sup>\u{2212}1.00</sup> = 1.84 + 1.00 + 0.37 = 3.21</p>"
        ), "{html}");
        assert!(html.contains("data-testid=\"rounded-note\""));
        assert!(!html.contains("softmax-shifted") && !html.contains(i18n::SUM_OVER_ALLOWED.en));
    }

    #[test]
    fn a_masked_key_is_explained_without_numbers() {
        let row = row(vec![0.5, 2.0], vec![true, false]);
        let html = readout(&row, 1, Lang::En);
        assert!(html.starts_with("<p class=\"formula note\" data-testid=\"softmax-formula\">"));
        let text = html
            .split("</p>")
            .next()
            .unwrap()
            .rsplit('>')
            .next()
            .unwrap();
        assert_eq!(text, i18n::WEIGHT_MASKED.en);
        assert!(!readout(&row, 0, Lang::En).contains("softmax-shifted"));
        assert!(readout(&row, 0, Lang::Zh).contains(i18n::SUM_OVER_ALLOWED.zh));
    }

    #[test]
    fn huge_scores_add_the_shift_note_and_a_missing_key_an_empty_formula() {
        let row = row(vec![800.0, 799.0], vec![true, true]);
        assert!(readout(&row, 1, Lang::En).contains("data-testid=\"softmax-shifted\""));
        assert!(readout(&row, 5, Lang::En)
            .starts_with("<p class=\"formula\" data-testid=\"softmax-formula\"></p>"));
    }
}
