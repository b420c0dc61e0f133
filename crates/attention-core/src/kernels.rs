//! The kernels of one attention head, as plain functions over ndarray.
//!
//! Each kernel assumes shapes that fit together; [`crate::forward`] checks them
//! first and turns bad input into an [`crate::AttentionError`] before any kernel runs.
//!
//! Every kernel adds its products one by one in a fixed order with plain `+`
//! and `×` (never a fused multiply-add, which a general matrix product may use
//! on one processor and not on another), and takes `exp` from the `libm`
//! crate rather than the platform's maths library. So the same input gives
//! the same bits natively and in WebAssembly, and the training pass, which
//! calls these same kernels, computes bit for bit what [`crate::forward`] does.

use ndarray::{Array1, Array2, ArrayView1, ArrayView2, ArrayViewMut1, ArrayViewMut2, Zip};

/// Projects every row of `x` through a weight matrix: `P = X·W`.
///
/// With `x` of shape T×d and `w` of shape d×d_k, row i of the result is
/// `P_i = Σ_c X_ic · W_c·`, the token's vector seen through `w`. This is how
/// Q = X·W_Q, K = X·W_K and V = X·W_V are made.
///
/// ```
/// use attention_core::kernels::project;
/// use ndarray::array;
///
/// let x = array![[1.0, 2.0], [0.0, 1.0]];
/// let w = array![[1.0, 0.5, 0.0], [0.0, 1.0, 2.0]];
/// assert_eq!(project(x.view(), w.view()), array![[1.0, 2.5, 4.0], [0.0, 1.0, 2.0]]);
/// ```
pub fn project(x: ArrayView2<f64>, w: ArrayView2<f64>) -> Array2<f64> {
    let mut out = Array2::zeros((x.nrows(), w.ncols()));
    project_into(x, w, out.view_mut());
    out
}

/// [`project`] into `out`, which has the result's shape: `out = X·W`, each
/// entry summed over c = 0, 1, … in order.
pub fn project_into(x: ArrayView2<f64>, w: ArrayView2<f64>, mut out: ArrayViewMut2<f64>) {
    for (mut out, x) in out.rows_mut().into_iter().zip(x.rows()) {
        out.fill(0.0);
        for (&a, w) in x.iter().zip(w.rows()) {
            // Contiguous rows (the usual case) as plain slices, which the
            // compiler vectorizes; the order of the additions is the same.
            match (out.as_slice_mut(), w.as_slice()) {
                (Some(out), Some(w)) => out.iter_mut().zip(w).for_each(|(o, &b)| *o += a * b),
                _ => Zip::from(&mut out).and(&w).for_each(|o, &b| *o += a * b),
            }
        }
    }
}

/// `Σ_c a_c · b_c`, summed over c = 0, 1, … in order.
///
/// ```
/// use attention_core::kernels::dot;
/// use ndarray::array;
///
/// assert_eq!(dot(array![1.0, 2.0].view(), array![3.0, -1.0].view()), 1.0);
/// ```
pub fn dot(a: ArrayView1<f64>, b: ArrayView1<f64>) -> f64 {
    Zip::from(&a).and(&b).fold(0.0, |sum, &x, &y| sum + x * y)
}

/// Raw attention scores `S = Q·Kᵀ`: `S_ij = Σ_c Q_ic · K_jc`, how well query i
/// matches key j.
///
/// ```
/// use attention_core::kernels::dot_scores;
/// use ndarray::array;
///
/// let q = array![[1.0, 0.0], [0.5, 2.0]];
/// let k = array![[1.0, 1.0], [0.0, 3.0]];
/// assert_eq!(dot_scores(q.view(), k.view()), array![[1.0, 0.0], [2.5, 6.0]]);
/// ```
pub fn dot_scores(q: ArrayView2<f64>, k: ArrayView2<f64>) -> Array2<f64> {
    // As Q·(Kᵀ): each score still sums Q_ic·K_jc over c = 0, 1, … in order,
    // so it has the bits of `dot(Q_i, K_j)`, but a whole row of scores is
    // built at once, which the compiler vectorizes.
    project(q, k.t().as_standard_layout().view())
}

/// The factor the scores are multiplied by: `1/√d_k` when scaling is on, else 1.
///
/// ```
/// use attention_core::kernels::scale_factor;
///
/// assert_eq!(scale_factor(16, true), 0.25);
/// assert_eq!(scale_factor(16, false), 1.0);
/// ```
pub fn scale_factor(d_k: usize, scale: bool) -> f64 {
    if scale {
        1.0 / (d_k as f64).sqrt()
    } else {
        1.0
    }
}

/// Which keys each query may see in one sequence: `allowed_ij = real_j ∧ (¬causal ∨ j ≤ i)`.
///
/// `key_is_real[j]` is false for a padding position; with `causal`, query i also
/// ignores every later position j > i.
///
/// ```
/// use attention_core::kernels::allowed_keys;
/// use ndarray::array;
///
/// let allowed = allowed_keys(array![true, true, false].view(), true);
/// assert_eq!(
///     allowed,
///     array![[true, false, false], [true, true, false], [true, true, false]]
/// );
/// ```
pub fn allowed_keys(key_is_real: ArrayView1<bool>, causal: bool) -> Array2<bool> {
    let t = key_is_real.len();
    Array2::from_shape_fn((t, t), |(i, j)| key_is_real[j] && (!causal || j <= i))
}

/// Softmax of one row of scores over the allowed keys:
/// `α′_j = e^{α_j − m} / Σ_k e^{α_k − m}` for allowed j, where m is the row's
/// largest allowed score, and exactly 0 for every key that is not allowed.
///
/// Subtracting m keeps every exponent ≤ 0, so scores of ±1e6 neither overflow
/// nor turn into NaN. A row with no allowed key at all gets all-zero weights.
///
/// ```
/// use attention_core::kernels::masked_softmax;
/// use ndarray::array;
///
/// let w = masked_softmax(array![1e6, 1e6, -1e6].view(), array![true, true, true].view());
/// assert_eq!(w, array![0.5, 0.5, 0.0]);
///
/// let w = masked_softmax(array![0.0, 5.0].view(), array![true, false].view());
/// assert_eq!(w, array![1.0, 0.0]);
///
/// let w = masked_softmax(array![0.0, 5.0].view(), array![false, false].view());
/// assert_eq!(w, array![0.0, 0.0]);
/// ```
pub fn masked_softmax(scores: ArrayView1<f64>, allowed: ArrayView1<bool>) -> Array1<f64> {
    let mut weights = scores.to_owned();
    softmax_in_place(weights.view_mut(), |j| allowed[j]);
    weights
}

/// [`masked_softmax`] in place: `row` holds the scores and becomes the
/// weights; key j is allowed when `allowed(j)`. The one softmax of the crate:
/// the forward pass, the training pass and the √d_k experiment all call it.
///
/// ```
/// use attention_core::kernels::softmax_in_place;
/// use ndarray::array;
///
/// let mut row = array![2.0, 2.0, 7.0];
/// softmax_in_place(row.view_mut(), |j| j < 2);
/// assert_eq!(row, array![0.5, 0.5, 0.0]);
/// ```
pub fn softmax_in_place(mut row: ArrayViewMut1<f64>, allowed: impl Fn(usize) -> bool) {
    let largest = row
        .indexed_iter()
        .filter(|&(j, _)| allowed(j))
        .fold(f64::NEG_INFINITY, |m, (_, &s)| m.max(s));
    if largest == f64::NEG_INFINITY {
        row.fill(0.0);
        return;
    }
    // The largest allowed score contributes e^0 = 1, so the sum is at least 1.
    let mut total = 0.0;
    for (j, w) in row.indexed_iter_mut() {
        *w = if allowed(j) {
            libm::exp(*w - largest)
        } else {
            0.0
        };
        total += *w;
    }
    row.mapv_inplace(|e| e / total);
}

/// Row-wise [`masked_softmax`]: row i of the result is query i's attention
/// budget, shared among the keys that `allowed` lets it see.
///
/// ```
/// use attention_core::kernels::softmax_rows;
/// use ndarray::array;
///
/// let scores = array![[0.0, 0.0], [3.0, -2.0]];
/// let allowed = array![[true, true], [true, false]];
/// assert_eq!(softmax_rows(scores.view(), allowed.view()), array![[0.5, 0.5], [1.0, 0.0]]);
/// ```
pub fn softmax_rows(scores: ArrayView2<f64>, allowed: ArrayView2<bool>) -> Array2<f64> {
    let mut weights = scores.to_owned();
    for (row, ok) in weights.rows_mut().into_iter().zip(allowed.rows()) {
        softmax_in_place(row, |j| ok[j]);
    }
    weights
}

/// The fused output `B = α′·V`: `B_i = Σ_j α′_ij · V_j`, each token's new vector
/// as a weighted mix of every value it attends to.
///
/// ```
/// use attention_core::kernels::mix_values;
/// use ndarray::array;
///
/// let weights = array![[0.5, 0.5], [1.0, 0.0]];
/// let v = array![[2.0, 0.0], [0.0, 4.0]];
/// assert_eq!(mix_values(weights.view(), v.view()), array![[1.0, 2.0], [2.0, 0.0]]);
/// ```
pub fn mix_values(weights: ArrayView2<f64>, v: ArrayView2<f64>) -> Array2<f64> {
    project(weights, v)
}
