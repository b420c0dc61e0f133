//! One sequence of a trace, as the plain matrices every diagram draws.

use attention_core::positions::Positions;
use attention_core::{LayerTrace, Trace};
use ndarray::{Array2, Array3, Axis};

/// Row `i` of `m` as a plain vector, empty when there is no such row, so a
/// selection that is briefly out of range never panics.
pub fn row_of(m: &Array2<f64>, i: usize) -> Vec<f64> {
    m.outer_iter()
        .nth(i)
        .map(|r| r.to_vec())
        .unwrap_or_default()
}

/// One sequence of a trace as plain matrices, the form every diagram draws.
#[derive(Clone, Debug, PartialEq)]
pub struct SequenceTrace {
    /// Which sequence of the batch this is.
    pub sequence: usize,
    pub labels: Vec<String>,
    pub x: Array2<f64>,
    pub w_q: Array2<f64>,
    pub w_k: Array2<f64>,
    pub w_v: Array2<f64>,
    pub q: Array2<f64>,
    pub k: Array2<f64>,
    pub v: Array2<f64>,
    /// Raw scores Q·Kᵀ.
    pub scores: Array2<f64>,
    /// Scores times `scale_factor` (÷√d_k, or ×1 with scaling off).
    pub scaled: Array2<f64>,
    pub scale_factor: f64,
    /// Whether query i may attend to key j.
    pub allowed: Array2<bool>,
    /// Whether each position is a real token (false for padding).
    pub key_is_real: Vec<bool>,
    pub weights: Array2<f64>,
    pub output: Array2<f64>,
    /// How positions entered: with sinusoidal or learned ones, `x` is X + P.
    pub positions: Positions,
    /// With RoPE, Q and K as projected, before their turn (`q` and `k` are
    /// turned); `None` otherwise.
    pub unrotated: Option<(Array2<f64>, Array2<f64>)>,
}

impl SequenceTrace {
    /// Sequence `b` of `trace` (clamped to the batch), labelled with `labels`.
    pub fn new(trace: &Trace, b: usize, labels: Vec<String>) -> Self {
        let b = b.min(trace.x.dim().0.saturating_sub(1));
        let take = |a: &Array3<f64>| a.index_axis(Axis(0), b).to_owned();
        Self {
            sequence: b,
            labels,
            x: take(&trace.x),
            w_q: trace.head.w_q.clone(),
            w_k: trace.head.w_k.clone(),
            w_v: trace.head.w_v.clone(),
            q: take(&trace.q),
            k: take(&trace.k),
            v: take(&trace.v),
            scores: take(&trace.scores),
            scaled: take(&trace.scaled),
            scale_factor: trace.scale_factor,
            allowed: trace.allowed.index_axis(Axis(0), b).to_owned(),
            key_is_real: trace.key_is_real.row(b).to_vec(),
            weights: take(&trace.weights),
            output: take(&trace.output),
            positions: trace.options.positions,
            unrotated: trace
                .q_unrotated
                .as_ref()
                .zip(trace.k_unrotated.as_ref())
                .map(|(q, k)| (take(q), take(k))),
        }
    }

    /// Q as X·W_Q gives it, before any turn by RoPE.
    pub fn q_projected(&self) -> &Array2<f64> {
        self.unrotated.as_ref().map_or(&self.q, |(q, _)| q)
    }

    /// K as X·W_K gives it, before any turn by RoPE.
    pub fn k_projected(&self) -> &Array2<f64> {
        self.unrotated.as_ref().map_or(&self.k, |(_, k)| k)
    }

    /// Whether positions were added to X (sinusoidal or learned), so that
    /// `x` is X + P.
    pub fn adds_positions(&self) -> bool {
        matches!(self.positions, Positions::Sinusoidal | Positions::Learned)
    }

    /// Number of tokens T.
    pub fn len(&self) -> usize {
        self.x.nrows()
    }

    /// True when there is no token (never, for a trace the core produced).
    pub fn is_empty(&self) -> bool {
        self.x.nrows() == 0
    }

    /// d_k, the width of Q and K.
    pub fn d_k(&self) -> usize {
        self.q.ncols()
    }
}

/// One sequence of a multi-head layer: what the heads card and the output
/// projection draw beside the one head the four diagrams show.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerView {
    /// Each head's weights α′, T×T.
    pub weights: Vec<Array2<f64>>,
    /// Concat(head₁, …, head_h), T×(h·d_v).
    pub concat: Array2<f64>,
    /// The output projection, (h·d_v)×d_out, if any.
    pub w_o: Option<Array2<f64>>,
    /// The layer's output, T×d_out.
    pub output: Array2<f64>,
}

impl LayerView {
    /// Sequence `b` of `layer` (clamped to the batch).
    pub fn new(layer: &LayerTrace, b: usize) -> Self {
        let b = b.min(layer.concat.dim().0.saturating_sub(1));
        let take = |a: &Array3<f64>| a.index_axis(Axis(0), b).to_owned();
        Self {
            weights: layer.heads.iter().map(|h| take(&h.weights)).collect(),
            concat: take(&layer.concat),
            w_o: layer.w_o.clone(),
            output: take(&layer.output),
        }
    }

    /// How many heads the layer has.
    pub fn heads(&self) -> usize {
        self.weights.len()
    }
}
