//! One forward pass of a single attention head, keeping every intermediate.

use crate::error::AttentionError;
use crate::kernels::{may_attend, project_uninit, scale_factor, softmax_masked, written};
use crate::limits;
use crate::positions::{self, rope_in_place, Positions};
use ndarray::{Array1, Array2, Array3, ArrayView, ArrayView2, ArrayView3, Axis, Dimension};

/// The learned parameters of one head: `W_Q` and `W_K` are d×d_k, `W_V` is d×d_v.
#[derive(Clone, Debug, PartialEq)]
pub struct Head {
    pub w_q: Array2<f64>,
    pub w_k: Array2<f64>,
    pub w_v: Array2<f64>,
}

impl Head {
    /// No weights at all: a block scenario's top-level head, whose layers
    /// hold their own ([`crate::Scenario::block`]).
    pub fn empty() -> Self {
        Self {
            w_q: Array2::zeros((0, 0)),
            w_k: Array2::zeros((0, 0)),
            w_v: Array2::zeros((0, 0)),
        }
    }
}

/// The biases added to a head's projections, `Q = X·W_Q + b_q`, `K = X·W_K +
/// b_k`, `V = X·W_V + b_v`: PyTorch's `in_proj_bias` in three parts. A
/// transformer block's attention has them ([`crate::block`]); the lessons'
/// layer has none.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Biases {
    pub b_q: Option<Array1<f64>>,
    pub b_k: Option<Array1<f64>>,
    pub b_v: Option<Array1<f64>>,
}

impl Biases {
    /// Head `i` of `heads`: its entries of each bias, the columns of the
    /// weights it adds to ([`Head::part`]).
    pub(crate) fn part(&self, i: usize, heads: usize) -> Biases {
        let part = |b: &Option<Array1<f64>>| {
            b.as_ref().map(|b| {
                let width = b.len() / heads;
                b.slice(ndarray::s![i * width..(i + 1) * width]).to_owned()
            })
        };
        Biases {
            b_q: part(&self.b_q),
            b_k: part(&self.b_k),
            b_v: part(&self.b_v),
        }
    }
}

/// How the positions enter and how the scores are treated before the softmax.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Query i ignores every later position j > i.
    pub causal: bool,
    /// Divide the scores by √d_k.
    pub scale: bool,
    /// How the tokens' positions enter ([`crate::positions`]).
    pub positions: Positions,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            causal: false,
            scale: true,
            positions: Positions::None,
        }
    }
}

/// Every intermediate of one forward pass over a batch of B sequences of T positions.
///
/// A single sequence is a batch of one. All 3-D arrays are indexed `[sequence, row, column]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    /// The X that was projected, B×T×d: the input, plus the positions when
    /// they are added to it (sinusoidal or learned).
    pub x: Array3<f64>,
    /// The head's weights, as given.
    pub head: Head,
    /// The options used.
    pub options: Options,
    /// Q = X·W_Q (+ b_q in a block's layer), B×T×d_k; with RoPE, each row p turned as at position p.
    pub q: Array3<f64>,
    /// K = X·W_K (+ b_k in a block's layer), B×T×d_k; with RoPE, each row p turned as at position p.
    pub k: Array3<f64>,
    /// With RoPE, X·W_Q before the rotation; None otherwise.
    pub q_unrotated: Option<Array3<f64>>,
    /// With RoPE, X·W_K before the rotation; None otherwise.
    pub k_unrotated: Option<Array3<f64>>,
    /// V = X·W_V (+ b_v in a block's layer), B×T×d_v.
    pub v: Array3<f64>,
    /// Raw scores Q·Kᵀ, B×T×T.
    pub scores: Array3<f64>,
    /// The factor applied to the scores: 1/√d_k, or 1 with scaling off.
    pub scale_factor: f64,
    /// `scores × scale_factor`, B×T×T, before any mask.
    pub scaled: Array3<f64>,
    /// The key padding mask, B×T: true for a real position, false for padding.
    pub key_is_real: Array2<bool>,
    /// The masks combined, B×T×T: whether query i may attend to key j.
    pub allowed: Array3<bool>,
    /// The softmax weights α′, B×T×T; exactly 0 where a key is not allowed.
    pub weights: Array3<f64>,
    /// The output B = α′·V, B×T×d_v.
    pub output: Array3<f64>,
    /// `(sequence, row)` of every query that had no key to attend to; its
    /// weights and output row are all zero.
    pub empty_rows: Vec<(usize, usize)>,
}

/// Runs one head over a single sequence `x` (T×d); see [`forward`].
///
/// ```
/// use attention_core::{forward_sequence, Head, Options};
/// use ndarray::{array, Array2};
///
/// let x = array![[1.0, 0.0], [0.0, 1.0]];
/// let head = Head { w_q: Array2::eye(2), w_k: Array2::eye(2), w_v: Array2::eye(2) };
/// let trace = forward_sequence(x.view(), &head, None, Options::default()).unwrap();
/// let row_sum: f64 = trace.weights.slice(ndarray::s![0, 0, ..]).sum();
/// assert!((row_sum - 1.0).abs() < 1e-12);
/// ```
pub fn forward_sequence(
    x: ArrayView2<f64>,
    head: &Head,
    key_is_real: Option<&[bool]>,
    options: Options,
) -> Result<Trace, AttentionError> {
    let mask = key_is_real.map(|m| Array2::from_shape_fn((1, m.len()), |(_, j)| m[j]));
    forward(
        x.insert_axis(Axis(0)),
        head,
        mask.as_ref().map(|m| m.view()),
        options,
    )
}

/// Runs one head of scaled dot-product self-attention over a batch `x` (B×T×d):
///
/// `Q = X·W_Q`, `K = X·W_K`, `V = X·W_V`, `α = Q·Kᵀ/√d_k`,
/// `α′ = softmax(α)` over the allowed keys of each row, `B = α′·V`.
///
/// `key_is_real` (B×T) marks padding positions with false: no query attends to
/// them, and the other weights of the row still sum to 1. Every input is
/// checked first; bad shapes, empty or non-finite input and sizes past
/// [`crate::limits`] are errors, never panics.
///
/// With sinusoidal positions, X + PE is projected instead of X
/// ([`positions::sinusoidal`]); with RoPE, row p of Q and of K is turned as
/// at position p ([`rope_in_place`]) before the scores, which needs an even
/// d_k. Learned positions need their matrix `p`, which only
/// [`crate::forward_heads`] takes: here they are an error.
///
/// ```
/// use attention_core::{forward, Head, Options};
/// use ndarray::{array, Array2, Array3};
///
/// let x = Array3::from_shape_fn((2, 3, 2), |(b, t, c)| (b + t + c) as f64 / 4.0);
/// let head = Head { w_q: Array2::eye(2), w_k: Array2::eye(2), w_v: Array2::eye(2) };
/// let mask = array![[true, true, true], [true, true, false]];
/// let trace = forward(x.view(), &head, Some(mask.view()), Options::default()).unwrap();
/// assert_eq!(trace.weights[[1, 0, 2]], 0.0);
/// assert!((trace.weights.slice(ndarray::s![1, 0, ..]).sum() - 1.0).abs() < 1e-12);
/// ```
pub fn forward(
    x: ArrayView3<f64>,
    head: &Head,
    key_is_real: Option<ArrayView2<bool>>,
    options: Options,
) -> Result<Trace, AttentionError> {
    let (_, t, d) = check_input(x, head, key_is_real)?;
    if options.positions == Positions::Learned {
        return Err(AttentionError::WrongType {
            field: "positions".into(),
            row: "the value".into(),
            expected:
                "none, sinusoidal or rope here: forward takes no p (use forward_heads with p)",
        });
    }
    match positions::added(options.positions, None, (t, d), head.w_q.ncols())? {
        Some(added) => forward_checked(
            positions::plus(x, &added).view(),
            head,
            &Biases::default(),
            key_is_real,
            options,
        ),
        None => forward_checked(x, head, &Biases::default(), key_is_real, options),
    }
}

/// [`forward`] on input [`check_input`] and [`positions::added`] have
/// already accepted, with any positions already added to `x`: the heads of a
/// layer are checked once, as the whole layer ([`crate::forward_heads`]).
/// RoPE, which acts on each head's Q and K, is applied here, after the
/// biases (`biases`, of the head's widths, already checked).
pub(crate) fn forward_checked(
    x: ArrayView3<f64>,
    head: &Head,
    biases: &Biases,
    key_is_real: Option<ArrayView2<bool>>,
    options: Options,
) -> Result<Trace, AttentionError> {
    let (batch, t, _) = x.dim();
    let d_k = head.w_q.ncols();
    let factor = scale_factor(d_k, options.scale);
    let key_is_real = key_is_real.map_or_else(
        || Array2::from_elem((batch, t), true),
        |mask| mask.to_owned(),
    );

    // Every array below is written once, straight from the computation, with
    // no zeros written first and no T×T temporary the trace does not keep: at
    // T = 512 the T×T arrays are 2 MB each, and writing memory twice, or
    // memory the allocator has just handed back to the system, costs as
    // much as the arithmetic.
    let d_v = head.w_v.ncols();
    let [q, k, v] = [
        (&head.w_q, &biases.b_q, d_k),
        (&head.w_k, &biases.b_k, d_k),
        (&head.w_v, &biases.b_v, d_v),
    ]
    .map(|(w, bias, width)| {
        let mut projected = sequences(products(x, width, |_| w.view()), (batch, t, width));
        if let Some(bias) = bias {
            projected += bias;
        }
        projected
    });
    ensure_finite("q", &q)?;
    ensure_finite("k", &k)?;
    ensure_finite("v", &v)?;
    // The unrotated Q and K are kept for the lesson, which draws each pair
    // before and after its turn.
    let (q, k, q_unrotated, k_unrotated) = if options.positions == Positions::Rope {
        let [q_turned, k_turned] = [&q, &k].map(|a| {
            let mut turned = a.clone();
            turned.outer_iter_mut().for_each(rope_in_place);
            turned
        });
        // A turn keeps each pair's length, but a·cos φ − b·sin φ can still
        // overflow for entries near the largest double.
        ensure_finite("q", &q_turned)?;
        ensure_finite("k", &k_turned)?;
        (q_turned, k_turned, Some(q), Some(k))
    } else {
        (q, k, None, None)
    };
    // As Q·(Kᵀ): each score sums Q_ic·K_jc over c in order.
    let scores = products(q.view(), t, |b| k.index_axis(Axis(0), b).reversed_axes());

    // Then row by row, while the row is in cache: which keys the query may
    // see, the scaled scores, and the weights from a copy of them with −∞
    // for the keys it may not see (softmax in place), checking the scores
    // on the way rather than in a pass of their own.
    let cells = batch * t * t;
    let (mut allowed, mut scaled, mut weights) = (
        Vec::with_capacity(cells),
        Vec::with_capacity(cells),
        Vec::with_capacity(cells),
    );
    let mut empty_rows = Vec::new();
    let mut finite = true;
    let mut rows = scores.chunks_exact(t);
    for (b, real) in key_is_real.rows().into_iter().enumerate() {
        // As a slice, so that each row of flags is written in one stretch.
        let real = real.to_vec();
        for (i, raw) in rows.by_ref().take(t).enumerate() {
            let start = scaled.len();
            allowed.extend(
                real.iter()
                    .enumerate()
                    .map(|(j, &real)| may_attend(real, options.causal, i, j)),
            );
            let seen = &allowed[start..];
            if !seen.contains(&true) {
                empty_rows.push((b, i));
            }
            // Without stopping at the first bad entry, so the loop
            // vectorizes; bad input is rare. The scaled scores are finite
            // whenever the scores are: the factor is at most 1.
            scaled.extend(raw.iter().map(|&s| {
                finite &= s.is_finite();
                s * factor
            }));
            let scaled = &scaled[start..];
            weights.extend(
                scaled
                    .iter()
                    .zip(seen)
                    .map(|(&s, &ok)| if ok { s } else { f64::NEG_INFINITY }),
            );
            softmax_masked(&mut weights[start..]);
        }
    }
    if !finite {
        return Err(overflow("scores"));
    }
    let shape = (batch, t, t);
    let [scores, scaled, weights] = [scores, scaled, weights].map(|e| sequences(e, shape));
    let allowed = sequences(allowed, shape);
    let output = products(weights.view(), d_v, |b| v.index_axis(Axis(0), b));
    let output = sequences(output, (batch, t, d_v));
    ensure_finite("output", &output)?;

    Ok(Trace {
        x: x.to_owned(),
        head: head.clone(),
        options,
        q,
        k,
        q_unrotated,
        k_unrotated,
        v,
        scores,
        scale_factor: factor,
        scaled,
        key_is_real,
        allowed,
        weights,
        output,
        empty_rows,
    })
}

/// For each sequence b, the product `a_b · w(b)` (T×width), written once
/// into new memory, sequence after sequence and row by row.
pub(crate) fn products<'w>(
    a: ArrayView3<f64>,
    width: usize,
    w: impl Fn(usize) -> ArrayView2<'w, f64>,
) -> Vec<f64> {
    let (batch, t, _) = a.dim();
    // SAFETY: `project_uninit` writes all T×width entries of each sequence.
    unsafe {
        written(batch * t * width, |out| {
            let sequences = a.outer_iter().zip(out.chunks_exact_mut(t * width));
            for (b, (a, out)) in sequences.enumerate() {
                project_uninit(a, w(b), out);
            }
        })
    }
}

/// `entries`, sequence by sequence and row by row, as an array of `shape`
/// (B×T×width). The pass writes exactly that many entries; the length is
/// still checked (once per array), so a miscount stops the pass rather than
/// making an array of the wrong shape.
pub(crate) fn sequences<T>(entries: Vec<T>, shape: (usize, usize, usize)) -> Array3<T> {
    assert_eq!(
        entries.len(),
        shape.0 * shape.1 * shape.2,
        "B×T×width entries"
    );
    // SAFETY: as many entries as the shape holds, just checked.
    unsafe { Array3::from_shape_vec_unchecked(shape, entries) }
}

/// Checks shapes, sizes and finiteness, and returns (B, T, d).
pub(crate) fn check_input(
    x: ArrayView3<f64>,
    head: &Head,
    key_is_real: Option<ArrayView2<bool>>,
) -> Result<(usize, usize, usize), AttentionError> {
    let (batch, t, d) = x.dim();
    if batch == 0 || t == 0 || d == 0 {
        return Err(AttentionError::Empty { field: "x".into() });
    }
    limits::check("x", "sequences", batch, limits::MAX_BATCH)?;
    limits::check("x", "positions", t, limits::MAX_TOKENS)?;
    limits::check("x", "features", d, limits::MAX_DIM)?;
    limits::check(
        "x",
        "score cells (B×T×T)",
        batch * t * t,
        limits::MAX_SCORE_CELLS,
    )?;
    let d_k = head.w_q.ncols();
    for (field, w, cols) in [
        ("w_q", &head.w_q, d_k),
        ("w_k", &head.w_k, d_k),
        ("w_v", &head.w_v, head.w_v.ncols()),
    ] {
        if w.is_empty() {
            return Err(AttentionError::Empty {
                field: field.into(),
            });
        }
        if w.dim() != (d, cols) {
            return Err(AttentionError::ShapeMismatch {
                field: field.into(),
                expected: format!("{d}×{cols} (its rows must match the {d} features of x)"),
                found: format!("{}×{}", w.nrows(), w.ncols()),
            });
        }
        limits::check(field, "columns", cols, limits::MAX_DIM)?;
        if let Some((r, _)) = first_non_finite(w.view()) {
            return Err(AttentionError::NonFinite {
                field: field.into(),
                row: format!("row [{r}]"),
            });
        }
    }
    let mut bad = (!all_finite(x))
        .then(|| x.indexed_iter())
        .into_iter()
        .flatten();
    if let Some(((b, r, _), _)) = bad.find(|(_, v)| !v.is_finite()) {
        return Err(AttentionError::NonFinite {
            field: "x".into(),
            row: format!("row [{b}][{r}]"),
        });
    }
    if let Some(mask) = key_is_real {
        if mask.dim() != (batch, t) {
            return Err(AttentionError::ShapeMismatch {
                field: "mask".into(),
                expected: format!("{batch}×{t} (one flag per position of x)"),
                found: format!("{}×{}", mask.nrows(), mask.ncols()),
            });
        }
    }
    Ok((batch, t, d))
}

pub(crate) fn ensure_finite(field: &str, values: &Array3<f64>) -> Result<(), AttentionError> {
    if all_finite(values.view()) {
        Ok(())
    } else {
        Err(overflow(field))
    }
}

fn overflow(field: &str) -> AttentionError {
    AttentionError::Overflow {
        field: field.into(),
    }
}

/// The index of the first entry that is not finite, if any. Almost every
/// input is all finite, which [`all_finite`]'s plain loop finds fastest.
pub(crate) fn first_non_finite<D: Dimension>(values: ArrayView<f64, D>) -> Option<D::Pattern> {
    if all_finite(values.view()) {
        return None;
    }
    values
        .indexed_iter()
        .find(|(_, v)| !v.is_finite())
        .map(|(i, _)| i)
}

/// Whether every entry is finite. In memory order when there is one (always,
/// for the arrays `forward` makes): a plain loop rather than an index walk.
fn all_finite<D: Dimension>(values: ArrayView<f64, D>) -> bool {
    // Without stopping at the first bad entry (a rare case not worth a
    // branch per entry), so the loop can be vectorized.
    let finite = |all: bool, v: &f64| all & v.is_finite();
    match values.as_slice_memory_order() {
        Some(values) => values.iter().fold(true, finite),
        None => values.iter().fold(true, finite),
    }
}
