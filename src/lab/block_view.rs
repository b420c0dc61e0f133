//! One sequence and one layer of a block's trace, as the plain matrices the
//! block's cards draw.

use attention_core::block::{Activation, Block, BlockTrace, Norm, NormTrace};
use ndarray::{Array1, Array2, Array3, Axis};

/// One LayerNorm of the shown sequence.
#[derive(Clone, Debug, PartialEq)]
pub struct NormView {
    /// Each token's mean and √(var + ε).
    pub mean: Vec<f64>,
    pub std: Vec<f64>,
    /// (x − mean) / std, before γ and β, T×d.
    pub normalised: Array2<f64>,
    /// normalised·γ + β, T×d.
    pub output: Array2<f64>,
    /// γ and β as one row each, 1×d (β zeros when the norm has none).
    pub gamma: Array2<f64>,
    pub beta: Array2<f64>,
}

/// One layer of the block, for the shown sequence.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockView {
    /// Which layer this is, from 0, and how many the block has.
    pub layer: usize,
    pub layers: usize,
    pub norm_first: bool,
    pub activation: Activation,
    pub labels: Vec<String>,
    /// The residual stream coming in, T×d.
    pub input: Array2<f64>,
    /// The attention's output, MHA(·), T×d.
    pub attention: Array2<f64>,
    pub sum_1: Array2<f64>,
    pub norm_1: NormView,
    /// The FFN's input (LN₁'s output post-norm, LN₂'s pre-norm), T×d.
    pub ffn_input: Array2<f64>,
    pub w_1: Array2<f64>,
    /// x·W₁ + b₁ and its activation, T×d_ff.
    pub hidden: Array2<f64>,
    pub activated: Array2<f64>,
    pub w_2: Array2<f64>,
    pub ffn: Array2<f64>,
    pub sum_2: Array2<f64>,
    pub norm_2: NormView,
    /// The layer's output, T×d.
    pub output: Array2<f64>,
    /// Whether the FFN or the attention adds biases the lab does not draw
    /// (an imported block's), which the card then says.
    pub has_biases: bool,
}

impl BlockView {
    /// Layer `layer` (clamped) of sequence `b` (clamped) of `trace`, the
    /// trace of `block`, labelled with `labels`.
    pub fn new(
        block: &Block,
        trace: &BlockTrace,
        layer: usize,
        b: usize,
        labels: Vec<String>,
    ) -> Option<Self> {
        let layer = layer.min(trace.layers.len().checked_sub(1)?);
        let (l, weights) = (&trace.layers[layer], block.layers.get(layer)?);
        let b = b.min(l.input.dim().0.saturating_sub(1));
        let take = |a: &Array3<f64>| a.index_axis(Axis(0), b).to_owned();
        let norm = |n: &NormTrace, params: &Norm| NormView {
            mean: n.mean.row(b).to_vec(),
            std: n.std.row(b).to_vec(),
            normalised: take(&n.normalised),
            output: take(&n.output),
            gamma: as_row(&params.gamma),
            beta: as_row(
                &params
                    .beta
                    .clone()
                    .unwrap_or_else(|| Array1::zeros(params.gamma.len())),
            ),
        };
        let norm_2 = norm(&l.norm_2, &weights.norm_2);
        let norm_1 = norm(&l.norm_1, &weights.norm_1);
        let ffn_input = if block.norm_first {
            norm_2.output.clone()
        } else {
            norm_1.output.clone()
        };
        let biases = &weights.biases;
        let has_biases = [
            &biases.projections.b_q,
            &biases.projections.b_k,
            &biases.projections.b_v,
            &biases.b_o,
            &weights.b_1,
            &weights.b_2,
        ]
        .iter()
        .any(|b| b.is_some());
        Some(BlockView {
            layer,
            layers: trace.layers.len(),
            norm_first: block.norm_first,
            activation: block.activation,
            labels,
            input: take(&l.input),
            attention: take(&l.attention.output),
            sum_1: take(&l.sum_1),
            norm_1,
            ffn_input,
            w_1: weights.w_1.clone(),
            hidden: take(&l.hidden),
            activated: take(&l.activated),
            w_2: weights.w_2.clone(),
            ffn: take(&l.ffn),
            sum_2: take(&l.sum_2),
            norm_2,
            output: take(&l.output),
            has_biases,
        })
    }

    /// Number of tokens T.
    pub fn len(&self) -> usize {
        self.input.nrows()
    }

    /// True when there is no token (never, for a trace the core produced).
    pub fn is_empty(&self) -> bool {
        self.input.nrows() == 0
    }
}

/// A vector as a matrix of one row.
fn as_row(v: &Array1<f64>) -> Array2<f64> {
    v.clone().insert_axis(Axis(0))
}
