//! Multi-head attention: several heads side by side over the same input,
//! their outputs joined, and an optional output projection W_O.

use crate::error::AttentionError;
use crate::limits;
use crate::positions;
use crate::trace::{
    check_input, ensure_finite, first_non_finite, forward_checked, products, sequences, Biases,
    Head, Options, Trace,
};
use ndarray::{Array1, Array2, Array3, ArrayView2, ArrayView3};

impl Head {
    /// Head `i` of `heads`: columns `i·d_k … (i+1)·d_k − 1` of W_Q and W_K,
    /// and `i·d_v … (i+1)·d_v − 1` of W_V, where d_k and d_v are the widths
    /// divided by `heads`. Callers check first that `heads` divides them
    /// ([`forward_heads`] does).
    ///
    /// ```
    /// use attention_core::Head;
    /// use ndarray::{array, Array2};
    ///
    /// let w = array![[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]];
    /// let all = Head { w_q: w.clone(), w_k: w.clone(), w_v: w };
    /// assert_eq!(all.part(1, 2).w_q, array![[3.0, 4.0], [7.0, 8.0]]);
    /// ```
    pub fn part(&self, i: usize, heads: usize) -> Head {
        let columns = |w: &Array2<f64>| {
            let width = w.ncols() / heads;
            Array2::from_shape_fn((w.nrows(), width), |(r, c)| w[[r, i * width + c]])
        };
        Head {
            w_q: columns(&self.w_q),
            w_k: columns(&self.w_k),
            w_v: columns(&self.w_v),
        }
    }
}

/// Checks that there are 1 to [`limits::MAX_HEADS`] heads and that they
/// divide each named width (of W_Q, whose width W_K shares, and of W_V) into
/// equal parts.
pub(crate) fn check_split(heads: usize, widths: [(&str, usize); 2]) -> Result<(), AttentionError> {
    limits::check_range("heads", "heads", heads, 1, limits::MAX_HEADS)?;
    for (field, width) in widths {
        if width % heads != 0 {
            return Err(AttentionError::ShapeMismatch {
                field: field.into(),
                expected: format!("a multiple of {heads} columns (an equal part for each head)"),
                found: crate::scenario::count(width, "column"),
            });
        }
    }
    Ok(())
}

/// Every intermediate of one multi-head attention layer.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerTrace {
    /// One trace per head, over that head's columns of W_Q, W_K and W_V
    /// ([`Head::part`]); each head's `output` is its B.
    pub heads: Vec<Trace>,
    /// The output projection, (h·d_v)×d_out, if the layer has one.
    pub w_o: Option<Array2<f64>>,
    /// `Concat(head_1, …, head_h)`, B×T×(h·d_v): head i's output in columns
    /// `i·d_v … (i+1)·d_v − 1`.
    pub concat: Array3<f64>,
    /// The layer's output, B×T×d_out: `concat·W_O`, or `concat` itself
    /// without W_O.
    pub output: Array3<f64>,
    /// The T×d positions added to every sequence of the input before the
    /// projections (sinusoidal or learned; each head's `x` is the sum), or
    /// None when nothing was added (no positions, or RoPE).
    pub added_positions: Option<Array2<f64>>,
}

impl LayerTrace {
    /// The layer of one head without W_O, whose output is that head's B,
    /// with nothing added to its input.
    pub fn single(trace: Trace) -> Self {
        Self {
            concat: trace.output.clone(),
            output: trace.output.clone(),
            heads: vec![trace],
            w_o: None,
            added_positions: None,
        }
    }

    /// Whether this is one head without an output projection, the layer of
    /// the lessons, whose output is that head's B.
    pub fn is_single_head(&self) -> bool {
        self.heads.len() == 1 && self.w_o.is_none()
    }

    /// Head `i`'s trace, taken out of the layer.
    ///
    /// # Panics
    /// If there is no head `i`.
    pub fn into_head(mut self, i: usize) -> Trace {
        self.heads.swap_remove(i)
    }
}

/// Runs multi-head self-attention over a batch `x` (B×T×d):
///
/// `head_i = Attention(X·W_Q^i, X·W_K^i, X·W_V^i)`, each head over its own
/// columns of the weights ([`Head::part`]) with its own √d_k scaling and the
/// same masks, then `MultiHead(X) = Concat(head_1, …, head_h)·W_O`, or the
/// concatenation itself without `w_o`. This is PyTorch's
/// `nn.MultiheadAttention` without biases, with `w_q`, `w_k` and `w_v` the
/// three thirds of its `in_proj_weight` transposed and `w_o` its
/// `out_proj.weight` transposed.
///
/// The positions (`options.positions`) enter once for the whole layer:
/// sinusoidal ones ([`positions::sinusoidal`]) or learned ones, `p` (T×d, the
/// same for every sequence), are added to X before every head's
/// projections, `X + P`; RoPE turns each head's Q and K with that head's d_k,
/// which must be even. `p` is for learned positions only.
///
/// ```
/// use attention_core::{layer::forward_heads, positions::Positions, Head, Options};
/// use ndarray::{array, Array2, Array3};
///
/// let x = Array3::from_shape_fn((1, 3, 4), |(_, t, c)| (t * 4 + c) as f64 / 8.0);
/// let weights = Head { w_q: Array2::eye(4), w_k: Array2::eye(4), w_v: Array2::eye(4) };
/// let w_o = Array2::from_elem((4, 1), 1.0);
/// let layer = forward_heads(x.view(), &weights, 2, Some(w_o.view()), None, None, Options::default()).unwrap();
/// assert_eq!(layer.heads[1].q.dim(), (1, 3, 2));
/// // The output row sums the joined heads' outputs (W_O is a column of ones).
/// let joined: f64 = layer.concat.slice(ndarray::s![0, 2, ..]).sum();
/// assert!((layer.output[[0, 2, 0]] - joined).abs() < 1e-12);
///
/// // Learned positions: p is added to x before the projections.
/// let p = Array2::from_elem((3, 4), 0.5);
/// let learned = Options { positions: Positions::Learned, ..Options::default() };
/// let layer = forward_heads(x.view(), &weights, 2, None, None, Some(p.view()), learned).unwrap();
/// assert_eq!(layer.heads[0].x[[0, 1, 2]], x[[0, 1, 2]] + 0.5);
/// assert_eq!(layer.added_positions, Some(p));
/// ```
pub fn forward_heads(
    x: ArrayView3<f64>,
    weights: &Head,
    heads: usize,
    w_o: Option<ArrayView2<f64>>,
    key_is_real: Option<ArrayView2<bool>>,
    p: Option<ArrayView2<f64>>,
    options: Options,
) -> Result<LayerTrace, AttentionError> {
    attend(
        x,
        weights,
        &LayerBiases::default(),
        heads,
        w_o,
        key_is_real,
        p,
        options,
    )
}

/// The biases of a multi-head layer: each head's projections' ([`Biases`],
/// over the columns of all heads side by side) and the output projection's,
/// `Concat(…)·W_O + b_o`. PyTorch's `in_proj_bias` and `out_proj.bias`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LayerBiases {
    pub projections: Biases,
    pub b_o: Option<Array1<f64>>,
}

/// [`forward_heads`] with biases, whose lengths the caller has checked
/// against the weights' widths (a block's layer does, [`crate::block`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn attend(
    x: ArrayView3<f64>,
    weights: &Head,
    biases: &LayerBiases,
    heads: usize,
    w_o: Option<ArrayView2<f64>>,
    key_is_real: Option<ArrayView2<bool>>,
    p: Option<ArrayView2<f64>>,
    options: Options,
) -> Result<LayerTrace, AttentionError> {
    let added = check_layer(x, weights, heads, w_o, key_is_real, p, options)?;
    let encoded = added.as_ref().map(|added| positions::plus(x, added));
    let x = encoded.as_ref().map_or(x, |x| x.view());
    let mut layer = if heads == 1 && w_o.is_none() {
        LayerTrace::single(forward_checked(
            x,
            weights,
            &biases.projections,
            key_is_real,
            options,
        )?)
    } else {
        // Each head's columns are within the whole layer's checks.
        let traces = (0..heads)
            .map(|i| {
                let part = biases.projections.part(i, heads);
                forward_checked(x, &weights.part(i, heads), &part, key_is_real, options)
            })
            .collect::<Result<Vec<_>, _>>()?;
        joined(traces, w_o, biases.b_o.as_ref(), x.dim())?
    };
    layer.added_positions = added;
    Ok(layer)
}

/// The heads' traces joined, `Concat(head_1, …, head_h)`, and projected by
/// `w_o` if there is one (plus `b_o` if there is one), over x of shape
/// (B, T, d).
fn joined(
    traces: Vec<Trace>,
    w_o: Option<ArrayView2<f64>>,
    b_o: Option<&Array1<f64>>,
    (batch, t, _): (usize, usize, usize),
) -> Result<LayerTrace, AttentionError> {
    let concat_width = traces.iter().map(|trace| trace.v.dim().2).sum();
    let concat = concatenated(&traces, (batch, t, concat_width));
    let output = match w_o {
        None => concat.clone(),
        Some(w_o) => {
            let projected = products(concat.view(), w_o.ncols(), |_| w_o);
            let mut output = sequences(projected, (batch, t, w_o.ncols()));
            if let Some(b_o) = b_o {
                output += b_o;
            }
            ensure_finite("output", &output)?;
            output
        }
    };
    Ok(LayerTrace {
        heads: traces,
        w_o: w_o.map(|w| w.to_owned()),
        concat,
        output,
        added_positions: None,
    })
}

/// Checks a layer's whole input as [`forward_heads`] takes it, and returns
/// the T×d positions to add to every sequence of x, if any
/// ([`positions::added`]).
pub(crate) fn check_layer(
    x: ArrayView3<f64>,
    weights: &Head,
    heads: usize,
    w_o: Option<ArrayView2<f64>>,
    key_is_real: Option<ArrayView2<bool>>,
    p: Option<ArrayView2<f64>>,
    options: Options,
) -> Result<Option<Array2<f64>>, AttentionError> {
    let (batch, t, d) = check_input(x, weights, key_is_real)?;
    check_split(
        heads,
        [("w_q", weights.w_q.ncols()), ("w_v", weights.w_v.ncols())],
    )?;
    if heads > 1 {
        limits::check(
            "x",
            "score cells (B×heads×T×T)",
            batch * heads * t * t,
            limits::MAX_SCORE_CELLS,
        )?;
    }
    if let Some(w_o) = w_o {
        check_projection(w_o, weights.w_v.ncols())?;
    }
    positions::added(options.positions, p, (t, d), weights.w_q.ncols() / heads)
}

/// Checks W_O against the concatenation's width: one row per column of it,
/// finite, and no more columns than [`limits::MAX_DIM`].
fn check_projection(w_o: ArrayView2<f64>, concat_width: usize) -> Result<(), AttentionError> {
    if w_o.is_empty() {
        return Err(AttentionError::Empty {
            field: "w_o".into(),
        });
    }
    if w_o.nrows() != concat_width {
        return Err(AttentionError::ShapeMismatch {
            field: "w_o".into(),
            expected: format!(
                "{concat_width} rows, one per column of the joined heads (the columns of w_v)"
            ),
            found: crate::scenario::count(w_o.nrows(), "row"),
        });
    }
    limits::check("w_o", "columns", w_o.ncols(), limits::MAX_DIM)?;
    match first_non_finite(w_o) {
        Some((r, _)) => Err(AttentionError::NonFinite {
            field: "w_o".into(),
            row: format!("row [{r}]"),
        }),
        None => Ok(()),
    }
}

/// The heads' outputs side by side, B×T×(h·d_v): column `n·d_v + c` is
/// column c of head n.
fn concatenated(traces: &[Trace], shape: (usize, usize, usize)) -> Array3<f64> {
    let width = shape.2 / traces.len().max(1);
    Array3::from_shape_fn(shape, |(b, t, column)| {
        traces[column / width].output[[b, t, column % width]]
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{json, Scenario};
    use ndarray::{concatenate, s, Axis};

    fn two_heads() -> Scenario {
        Scenario::from_json(
            r#"{"tokens": ["a", "b", "c"], "x": [[1, 0.5], [0, 1], [-1, 2]],
            "w_q": [[1, 0, 0.5, 1], [0, 1, 2, 0]], "w_k": [[0.5, 1, 0, 1], [1, 0, 1, -1]],
            "w_v": [[1, 2], [3, 4]], "heads": 2, "w_o": [[1, 0, 2], [0, 1, -1]],
            "causal": true}"#,
        )
        .expect("a two-head scenario")
    }

    #[test]
    fn the_parts_side_by_side_are_the_whole() {
        let s = two_heads();
        let parts: Vec<Head> = (0..2).map(|i| s.head.part(i, 2)).collect();
        for (whole, part) in [
            (
                &s.head.w_q,
                parts.iter().map(|p| p.w_q.view()).collect::<Vec<_>>(),
            ),
            (&s.head.w_v, parts.iter().map(|p| p.w_v.view()).collect()),
        ] {
            assert_eq!(concatenate(Axis(1), &part).expect("same rows"), whole);
        }
        assert_eq!(parts[1].w_k, ndarray::array![[0.0, 1.0], [1.0, -1.0]]);
    }

    #[test]
    fn heads_and_w_o_round_trip_in_json() {
        let s = two_heads();
        let text = json::scenario_json(&s, |v| format!("{v:?}"));
        assert!(text.contains("\"heads\": 2"), "{text}");
        assert_eq!(Scenario::from_json(&text).expect("reads back"), s);
        let single = crate::presets::sentence();
        let text = json::scenario_json(&single, |v| format!("{v:?}"));
        assert!(!text.contains("heads") && !text.contains("w_o"), "{text}");
    }

    #[test]
    fn the_layer_output_is_each_heads_part_through_its_rows_of_w_o() {
        // Concat(head_1, head_2)·W_O = head_1·W_O[0..d_v] + head_2·W_O[d_v..]:
        // each head writes through its own rows of W_O.
        let s = two_heads();
        let layer = s.run().expect("runs");
        let w_o = s.w_o.as_ref().expect("has W_O");
        let mut sum = Array2::<f64>::zeros((3, 3));
        for (i, head) in layer.heads.iter().enumerate() {
            let rows = w_o.slice(s![i..i + 1, ..]);
            sum += &head.output.index_axis(Axis(0), 0).dot(&rows);
        }
        for (got, want) in layer.output.index_axis(Axis(0), 0).iter().zip(&sum) {
            assert!((got - want).abs() < 1e-12, "{got} vs {want}");
        }
        assert_eq!(
            layer.heads[0].weights[[0, 0, 1]],
            0.0,
            "causal in every head"
        );
    }
}
