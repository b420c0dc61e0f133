//! The kernels of one attention head, as plain functions over ndarray.
//!
//! Each kernel assumes shapes that fit together; [`crate::forward`] checks them
//! first and turns bad input into an [`crate::AttentionError`] before any kernel runs.

use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Zip};

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
    x.dot(&w)
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
    q.dot(&k.t())
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
    let largest =
        Zip::from(&scores).and(&allowed).fold(
            f64::NEG_INFINITY,
            |m, &s, &ok| if ok { m.max(s) } else { m },
        );
    if largest == f64::NEG_INFINITY {
        return Array1::zeros(scores.len());
    }
    let mut weights =
        Zip::from(&scores)
            .and(&allowed)
            .map_collect(|&s, &ok| if ok { (s - largest).exp() } else { 0.0 });
    // The largest allowed score contributes e^0 = 1, so the sum is at least 1.
    let total = weights.sum();
    weights.mapv_inplace(|e| e / total);
    weights
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
    let mut weights = Array2::zeros(scores.raw_dim());
    Zip::from(weights.rows_mut())
        .and(scores.rows())
        .and(allowed.rows())
        .for_each(|mut out, row, ok| out.assign(&masked_softmax(row, ok)));
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
    weights.dot(&v)
}
