//! The forward and backward pass that training runs every step, over
//! preallocated row-major buffers.
//!
//! The matrices are tiny (T = 6, d = 8 by default), so plain loops over slices
//! beat a general matrix product, and allocating nothing per step keeps the
//! browser's garbage-free. The loops use only `+` and `×`, never a fused
//! multiply-add, so a step gives the same bits natively and in WebAssembly.

use crate::kernels::{dot, scale_factor, softmax_in_place};
use crate::trace::{Head, Options};
use ndarray::{Array2, ArrayView1, ArrayView2, ArrayViewMut1};

/// The sizes of one pass: T positions, d features, d_k and d_v columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Dims {
    pub t: usize,
    pub d: usize,
    pub d_k: usize,
    pub d_v: usize,
}

/// One sequence's head, its intermediates and their gradients, row-major.
#[derive(Clone, Debug)]
pub(crate) struct Pass {
    pub dims: Dims,
    factor: f64,
    /// Whether every scaled score of the last forward pass was finite.
    scores_finite: bool,
    /// X, T×d.
    pub x: Vec<f64>,
    /// W_Q, W_K (d×d_k) and W_V (d×d_v).
    pub w: [Vec<f64>; 3],
    /// Whether query i may attend to key j, T×T.
    allowed: Vec<bool>,
    q: Vec<f64>,
    k: Vec<f64>,
    v: Vec<f64>,
    /// α′, T×T.
    pub weights: Vec<f64>,
    /// B = α′·V, T×d_v.
    pub output: Vec<f64>,
    /// Upstream dL/dα′ (T×T) and dL/dB (T×d_v), filled by the loss.
    pub d_weights: Vec<f64>,
    pub d_output: Vec<f64>,
    d_scores: Vec<f64>,
    d_q: Vec<f64>,
    d_k: Vec<f64>,
    d_v: Vec<f64>,
    /// dL/dW_Q, dL/dW_K, dL/dW_V.
    pub d_w: [Vec<f64>; 3],
    /// dL/dX, T×d.
    pub d_x: Vec<f64>,
}

/// The entries of a matrix in row-major order, whatever its memory layout.
pub(crate) fn flat(a: ArrayView2<f64>) -> Vec<f64> {
    a.iter().copied().collect()
}

/// A rows×cols matrix from row-major `data` (which holds exactly that many).
pub(crate) fn matrix(rows: usize, cols: usize, data: &[f64]) -> Array2<f64> {
    Array2::from_shape_fn((rows, cols), |(r, c)| data[r * cols + c])
}

impl Pass {
    /// A pass for `x` (T×d) and `head`, whose shapes fit together; the key
    /// mask, if given, has T entries.
    pub fn new(
        x: ArrayView2<f64>,
        head: &Head,
        key_is_real: Option<&[bool]>,
        options: Options,
    ) -> Self {
        let (t, d) = x.dim();
        let dims = Dims {
            t,
            d,
            d_k: head.w_q.ncols(),
            d_v: head.w_v.ncols(),
        };
        let real = |j: usize| key_is_real.is_none_or(|m| m.get(j).copied().unwrap_or(false));
        let zeros = |n: usize| vec![0.0; n];
        Self {
            dims,
            factor: scale_factor(dims.d_k, options.scale),
            scores_finite: true,
            x: flat(x),
            w: [
                flat(head.w_q.view()),
                flat(head.w_k.view()),
                flat(head.w_v.view()),
            ],
            allowed: (0..t * t)
                .map(|n| real(n % t) && (!options.causal || n % t <= n / t))
                .collect(),
            q: zeros(t * dims.d_k),
            k: zeros(t * dims.d_k),
            v: zeros(t * dims.d_v),
            weights: zeros(t * t),
            output: zeros(t * dims.d_v),
            d_weights: zeros(t * t),
            d_output: zeros(t * dims.d_v),
            d_scores: zeros(t * t),
            d_q: zeros(t * dims.d_k),
            d_k: zeros(t * dims.d_k),
            d_v: zeros(t * dims.d_v),
            d_w: [
                zeros(d * dims.d_k),
                zeros(d * dims.d_k),
                zeros(d * dims.d_v),
            ],
            d_x: zeros(t * d),
        }
    }

    /// The forward pass: Q, K, V, the weights α′ = softmax(Q·Kᵀ·c) over the
    /// allowed keys (c = 1/√d_k or 1), exactly 0 elsewhere and all zero in a
    /// row with no allowed key, and B = α′·V, as [`crate::forward`] computes them.
    pub fn forward(&mut self) {
        let Dims { t, d, d_k, d_v } = self.dims;
        matmul(&self.x, &self.w[0], &mut self.q, d, d_k);
        matmul(&self.x, &self.w[1], &mut self.k, d, d_k);
        matmul(&self.x, &self.w[2], &mut self.v, d, d_v);
        self.scores_finite = true;
        let rows = self.weights.chunks_exact_mut(t);
        for ((row, allowed), q) in rows
            .zip(self.allowed.chunks_exact(t))
            .zip(self.q.chunks_exact(d_k))
        {
            for (w, k) in row.iter_mut().zip(self.k.chunks_exact(d_k)) {
                *w = dot(ArrayView1::from(q), ArrayView1::from(k)) * self.factor;
                self.scores_finite &= w.is_finite();
            }
            softmax_in_place(ArrayViewMut1::from(row), |j| allowed[j]);
        }
        matmul(&self.weights, &self.v, &mut self.output, t, d_v);
    }

    /// Whether the last forward pass is one [`crate::forward`] accepts: Q, K,
    /// V, every score and the output finite (the weights always are).
    pub fn forward_is_finite(&self) -> bool {
        self.scores_finite
            && [&self.q, &self.k, &self.v, &self.output]
                .iter()
                .all(|m| m.iter().all(|x| x.is_finite()))
    }

    /// The backward pass from the upstream `d_weights` (dL/dα′) and `d_output`
    /// (dL/dB) after [`Pass::forward`]; see [`super::backward`] for the formulas.
    /// dL/dX is computed only when `with_x` is set.
    pub fn backward(&mut self, with_x: bool) {
        let Dims { t, d, d_k, d_v } = self.dims;
        // dV = α′ᵀ·dB.
        matmul_tn(&self.weights, &self.d_output, &mut self.d_v, t, d_v);
        // G = dL/dα′ + dB·Vᵀ, then dS_ij = c·α′_ij·(G_ij − Σ_l α′_il·G_il).
        let rows = self.d_scores.chunks_exact_mut(t);
        let upstream = self
            .d_weights
            .chunks_exact(t)
            .zip(self.d_output.chunks_exact(d_v));
        for ((g, (d_w, d_b)), alpha) in rows.zip(upstream).zip(self.weights.chunks_exact(t)) {
            let mut mean = 0.0;
            for (((g, &d_w), v), &a) in g
                .iter_mut()
                .zip(d_w)
                .zip(self.v.chunks_exact(d_v))
                .zip(alpha)
            {
                *g = d_w + dot(ArrayView1::from(d_b), ArrayView1::from(v));
                mean += a * *g;
            }
            for (g, &a) in g.iter_mut().zip(alpha) {
                *g = self.factor * (a * (*g - mean));
            }
        }
        // dQ = dS·K, dK = dSᵀ·Q.
        matmul(&self.d_scores, &self.k, &mut self.d_q, t, d_k);
        matmul_tn(&self.d_scores, &self.q, &mut self.d_k, t, d_k);
        // dW = Xᵀ·d(XW).
        matmul_tn(&self.x, &self.d_q, &mut self.d_w[0], d, d_k);
        matmul_tn(&self.x, &self.d_k, &mut self.d_w[1], d, d_k);
        matmul_tn(&self.x, &self.d_v, &mut self.d_w[2], d, d_v);
        if with_x {
            // dX = dQ·W_Qᵀ + dK·W_Kᵀ + dV·W_Vᵀ.
            self.d_x.fill(0.0);
            add_matmul_nt(&self.d_q, &self.w[0], &mut self.d_x, d_k, d);
            add_matmul_nt(&self.d_k, &self.w[1], &mut self.d_x, d_k, d);
            add_matmul_nt(&self.d_v, &self.w[2], &mut self.d_x, d_v, d);
        }
    }
}

/// `out = a·b` for a (n×m, n = out.len()/p) and b (m×p), each entry summed in
/// the order [`crate::kernels::project`] sums it, so Q, K, V and B come out
/// bit for bit as [`crate::forward`] computes them.
fn matmul(a: &[f64], b: &[f64], out: &mut [f64], m: usize, p: usize) {
    for (out, a) in out.chunks_exact_mut(p).zip(a.chunks_exact(m)) {
        out.fill(0.0);
        for (&a, b) in a.iter().zip(b.chunks_exact(p)) {
            for (o, &b) in out.iter_mut().zip(b) {
                *o += a * b;
            }
        }
    }
}

/// `out = aᵀ·b` for a (m×n) and b (m×p), so out is n×p.
fn matmul_tn(a: &[f64], b: &[f64], out: &mut [f64], n: usize, p: usize) {
    out.fill(0.0);
    for (a, b) in a.chunks_exact(n).zip(b.chunks_exact(p)) {
        for (&a, out) in a.iter().zip(out.chunks_exact_mut(p)) {
            for (o, &b) in out.iter_mut().zip(b) {
                *o += a * b;
            }
        }
    }
}

/// `out += a·bᵀ` for a (n×m) and b (p×m), so out is n×p.
fn add_matmul_nt(a: &[f64], b: &[f64], out: &mut [f64], m: usize, p: usize) {
    for (out, a) in out.chunks_exact_mut(p).zip(a.chunks_exact(m)) {
        for (o, b) in out.iter_mut().zip(b.chunks_exact(m)) {
            *o += dot(ArrayView1::from(a), ArrayView1::from(b));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::uniform_matrix;
    use crate::trace::forward_sequence;
    use ndarray::Axis;

    /// The training pass's forward values are `forward`'s, bit for bit: the
    /// same kernels, summed in the same order, with the same `exp`.
    #[test]
    fn the_training_pass_computes_what_forward_computes_bit_for_bit() {
        let same = |name: &str, pass: &[f64], trace: ndarray::ArrayView2<f64>| {
            let trace: Vec<u64> = trace.iter().map(|v| v.to_bits()).collect();
            let pass: Vec<u64> = pass.iter().map(|v| v.to_bits()).collect();
            assert_eq!(pass, trace, "{name}");
        };
        for (seed, (t, d, d_k, d_v)) in [(1, (4, 4, 4, 4)), (2, (7, 5, 3, 6)), (3, (16, 8, 8, 8))] {
            let x = uniform_matrix(t, d, -3.0, 3.0, seed);
            let head = Head {
                w_q: uniform_matrix(d, d_k, -2.0, 2.0, seed + 10),
                w_k: uniform_matrix(d, d_k, -2.0, 2.0, seed + 20),
                w_v: uniform_matrix(d, d_v, -2.0, 2.0, seed + 30),
            };
            let mask: Vec<bool> = (0..t).map(|j| j + 1 < t || seed != 2).collect();
            for (scale, causal) in [(true, false), (false, true)] {
                let options = Options {
                    scale,
                    causal,
                    ..Options::default()
                };
                let mut pass = Pass::new(x.view(), &head, Some(&mask), options);
                pass.forward();
                let trace =
                    forward_sequence(x.view(), &head, Some(&mask), options).expect("valid input");
                let first = |a: &ndarray::Array3<f64>| a.index_axis(Axis(0), 0).to_owned();
                same("q", &pass.q, first(&trace.q).view());
                same("k", &pass.k, first(&trace.k).view());
                same("v", &pass.v, first(&trace.v).view());
                same("weights", &pass.weights, first(&trace.weights).view());
                same("output", &pass.output, first(&trace.output).view());
            }
        }
    }
}
