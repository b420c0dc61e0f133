//! The live numbers of the transformer block's two mistakes, from the core:
//! LayerNorm makes each token's own row standard, not each feature across
//! the tokens; and the feed-forward network gives a token the same output
//! whatever the other tokens are.

use crate::geometry::format::rounded;
use crate::i18n::{mistakes as text, Lang};
use crate::lab::{row_of, BlockView};
use attention_core::block::{feed_forward, mean_and_variance, BlockLayer};
use ndarray::{Array2, Axis};

/// LayerNorm₁'s normalised numbers, along token i's row and down feature 1.
#[derive(Clone, Debug, PartialEq)]
pub struct NormCheck {
    /// The shown layer, counted from 1.
    pub layer: usize,
    pub token: String,
    /// Mean and standard deviation (biased) of the token's normalised row.
    pub row: (f64, f64),
    /// The same of feature 1 over the tokens.
    pub column: (f64, f64),
}

/// Token i's FFN output as the layer computes it, and again with the other
/// tokens' inputs in reverse order.
#[derive(Clone, Debug, PartialEq)]
pub struct FfnCheck {
    pub token: String,
    pub before: Vec<f64>,
    pub shuffled: Vec<f64>,
}

fn mean_and_std(values: ndarray::ArrayView1<f64>) -> (f64, f64) {
    let (mean, variance) = mean_and_variance(values);
    (mean, variance.sqrt())
}

impl NormCheck {
    pub fn new(b: &BlockView, i: usize) -> Option<Self> {
        let normalised = &b.norm_1.normalised;
        let i = i.min(normalised.nrows().checked_sub(1)?);
        Some(NormCheck {
            layer: b.layer + 1,
            token: b.labels.get(i)?.clone(),
            row: mean_and_std(normalised.row(i)),
            column: mean_and_std(normalised.column(0)),
        })
    }

    pub fn sentence(&self, lang: Lang) -> String {
        text::NORM_CHECK
            .get(lang)
            .replace("{l}", &self.layer.to_string())
            .replace("{t}", &self.token)
            .replace("{rm}", &rounded(self.row.0, 2))
            .replace("{rs}", &rounded(self.row.1, 2))
            .replace("{cm}", &rounded(self.column.0, 2))
            .replace("{cs}", &rounded(self.column.1, 2))
    }
}

impl FfnCheck {
    /// Token i's FFN output, and the same FFN over the layer's FFN input
    /// with every other token's row moved (their order reversed).
    pub fn new(b: &BlockView, layer: &BlockLayer, i: usize) -> Option<Self> {
        let input = &b.ffn_input;
        let t = input.nrows();
        let i = i.min(t.checked_sub(1)?);
        let others: Vec<usize> = (0..t).filter(|&j| j != i).rev().collect();
        let mut next = others.into_iter();
        let order: Vec<usize> = (0..t)
            .map(|j| if j == i { i } else { next.next().unwrap_or(j) })
            .collect();
        let shuffled = Array2::from_shape_fn(input.dim(), |(r, c)| input[[order[r], c]]);
        let out = feed_forward(shuffled.insert_axis(Axis(0)).view(), layer, b.activation).output;
        Some(FfnCheck {
            token: b.labels.get(i)?.clone(),
            before: row_of(&b.ffn, i),
            shuffled: out.index_axis(Axis(0), 0).row(i).to_vec(),
        })
    }

    pub fn sentence(&self, lang: Lang) -> String {
        let vector = |v: &[f64]| {
            let numbers: Vec<String> = v.iter().map(|&x| rounded(x, 2)).collect();
            format!("[{}]", numbers.join(", "))
        };
        let same = if self.before == self.shuffled {
            text::FFN_SAME
        } else {
            text::FFN_DIFFERENT
        };
        format!(
            "{}{}",
            text::FFN_CHECK
                .get(lang)
                .replace("{t}", &self.token)
                .replace("{before}", &vector(&self.before))
                .replace("{after}", &vector(&self.shuffled)),
            same.get(lang)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use attention_core::presets::block;

    fn view() -> (BlockView, BlockLayer) {
        let s = block();
        let trace = s.run_block().expect("runs").expect("a block");
        let block = s.block.as_ref().expect("a block");
        let labels = crate::lab::token_labels(&s);
        let v = BlockView::new(block, &trace, 0, 0, labels).expect("layer 1");
        (v, block.layers[0].clone())
    }

    #[test]
    fn layer_norm_standardises_rows_not_columns() {
        let (v, _) = view();
        let check = NormCheck::new(&v, 1).expect("a check");
        assert!(check.row.0.abs() < 1e-12 && (check.row.1 - 1.0).abs() < 1e-4);
        assert!(check.column.0.abs() > 0.05 || (check.column.1 - 1.0).abs() > 0.05);
        let said = check.sentence(Lang::En);
        assert!(
            said.contains("喜欢") && said.contains("0.00") && said.contains("1.00"),
            "{said}"
        );
    }

    #[test]
    fn a_tokens_ffn_output_does_not_see_the_other_tokens() {
        let (v, layer) = view();
        let check = FfnCheck::new(&v, &layer, 2).expect("a check");
        assert_eq!(check.before, check.shuffled, "bit for bit");
        assert_eq!(check.before, row_of(&v.ffn, 2));
        assert!(check.sentence(Lang::Zh).contains("完全相同"));
    }
}
