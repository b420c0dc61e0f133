//! 我 / 喜欢 / 打 / 篮球 through a whole transformer block of two layers.

use super::sentence;
use crate::block::{Activation, Block, BlockLayer, Norm, DEFAULT_EPS};
use crate::layer::LayerBiases;
use crate::random::{normal_matrix, rounded};
use crate::scenario::Scenario;
use crate::trace::Head;
use ndarray::Array1;

/// Hidden units per feature of the example's feed-forward networks.
const FFN_RATIO: usize = 2;

/// [`sentence`]'s tokens and X, its attention as the first layer's, in a
/// post-norm block of two layers (ReLU, d_ff = 8, no biases), the rest of
/// the weights seeded normals rounded to two decimals; each LayerNorm
/// starts as a plain normalisation (γ = 1, β = 0).
///
/// What to notice: the residual keeps each token's own vector (the first
/// sum minus the attention's output is x itself); LayerNorm gives each
/// token's features mean 0; the feed-forward network works on one token at
/// a time, and ReLU zeroes the negative hidden numbers.
///
/// ```
/// use attention_core::presets::block;
///
/// let s = block();
/// let trace = s.run_block().unwrap().unwrap();
/// let first = &trace.layers[0];
/// // x + MHA(x) − MHA(x) = x: the token keeps its own vector.
/// let kept = &first.sum_1 - &first.attention.output;
/// assert!(kept.iter().zip(&s.x).all(|(k, x)| (k - x).abs() < 1e-12));
/// // Each normalised row has mean 0.
/// for row in first.norm_1.normalised.rows() {
///     assert!(row.sum().abs() < 1e-12);
/// }
/// // ReLU zeroes some of 我's hidden numbers, the negative ones.
/// let hidden = first.hidden.slice(ndarray::s![0, 0, ..]);
/// let activated = first.activated.slice(ndarray::s![0, 0, ..]);
/// assert!(hidden.iter().any(|&h| h < 0.0));
/// assert!(hidden.iter().zip(activated).all(|(&h, &a)| if h < 0.0 { a == 0.0 } else { a == h }));
/// ```
pub fn block() -> Scenario {
    let mut scenario = sentence();
    let d = scenario.x.dim().2;
    let normal = |rows: usize, cols: usize, seed: u64| {
        rounded(
            normal_matrix(rows, cols, 1.0 / (rows as f64).sqrt(), seed),
            2,
        )
    };
    let layer = |attention: Head, seed: u64| BlockLayer {
        w_o: normal(attention.w_v.ncols(), d, seed),
        attention,
        biases: LayerBiases::default(),
        norm_1: plain_norm(d),
        norm_2: plain_norm(d),
        w_1: normal(d, FFN_RATIO * d, seed + 1),
        b_1: None,
        w_2: normal(FFN_RATIO * d, d, seed + 2),
        b_2: None,
    };
    let second = Head {
        w_q: normal(d, d, 24),
        w_k: normal(d, d, 25),
        w_v: normal(d, d, 26),
    };
    let first = std::mem::replace(&mut scenario.head, Head::empty());
    scenario.block = Some(Block {
        norm_first: false,
        activation: Activation::Relu,
        eps: DEFAULT_EPS,
        layers: vec![layer(first, 20), layer(second, 30)],
        final_norm: None,
    });
    scenario
}

/// A LayerNorm that only normalises: γ = 1, β = 0.
fn plain_norm(d: usize) -> Norm {
    Norm {
        gamma: Array1::ones(d),
        beta: Some(Array1::zeros(d)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_block_has_two_layers_with_the_sentences_attention_first() {
        let s = block();
        assert_eq!(s.attention(0).0, &sentence().head);
        assert_eq!(s.layer_count(), 2);
        let w_o = s.attention(1).1.expect("a W_O");
        assert_eq!(w_o.dim(), (4, 4));
        assert!(s.run_block().is_ok());
    }
}
