//! A transformer encoder block around the multi-head layer: the residual
//! connections, LayerNorm and the position-wise feed-forward network, stacked
//! one to [`limits::MAX_LAYERS`] times, each layer with its own weights.
//! This is PyTorch's `nn.TransformerEncoderLayer` (and `nn.TransformerEncoder`
//! of such layers, with its optional final norm) without dropout.

use crate::error::AttentionError;
use crate::layer::{attend, LayerBiases, LayerTrace};
use crate::limits;
use crate::positions::{self, Positions};
use crate::trace::{ensure_finite, first_non_finite, products, sequences, Biases, Head, Options};
use ndarray::{s, Array1, Array2, Array3, ArrayView1, ArrayView2, ArrayView3};

/// The feed-forward network's non-linearity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Activation {
    /// max(0, x).
    #[default]
    Relu,
    /// The exact GELU, x·Φ(x) = ½·x·(1 + erf(x/√2)) (PyTorch's default form).
    Gelu,
}

impl Activation {
    /// Both, in the order a picker lists them.
    pub const ALL: [Activation; 2] = [Activation::Relu, Activation::Gelu];

    /// The name in scenarios and links.
    pub fn id(self) -> &'static str {
        match self {
            Self::Relu => "relu",
            Self::Gelu => "gelu",
        }
    }

    pub fn from_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|a| a.id() == id)
    }

    /// The activation of one number.
    ///
    /// ```
    /// use attention_core::block::Activation;
    ///
    /// assert_eq!(Activation::Relu.apply(-2.0), 0.0);
    /// assert_eq!(Activation::Relu.apply(1.5), 1.5);
    /// // GELU lets a little of a negative input through: −0.5·Φ(−0.5).
    /// assert!((Activation::Gelu.apply(-0.5) + 0.154_268_8).abs() < 1e-7);
    /// ```
    pub fn apply(self, x: f64) -> f64 {
        match self {
            Self::Relu => x.max(0.0),
            Self::Gelu => 0.5 * x * (1.0 + libm::erf(x * std::f64::consts::FRAC_1_SQRT_2)),
        }
    }
}

/// A LayerNorm's learned scale γ and shift β, one entry per feature; no β
/// is a shift of 0 (PyTorch's `bias=False`).
#[derive(Clone, Debug, PartialEq)]
pub struct Norm {
    pub gamma: Array1<f64>,
    pub beta: Option<Array1<f64>>,
}

/// The weights of one encoder layer. W_Q, W_K and W_V hold every head's
/// columns side by side ([`Head::part`]); W_O maps the joined heads back to
/// the d features of the residual stream; W₁ is d×d_ff and W₂ d_ff×d. Every
/// bias is optional (none is a bias of 0).
#[derive(Clone, Debug, PartialEq)]
pub struct BlockLayer {
    pub attention: Head,
    pub w_o: Array2<f64>,
    pub biases: LayerBiases,
    pub norm_1: Norm,
    pub norm_2: Norm,
    pub w_1: Array2<f64>,
    pub b_1: Option<Array1<f64>>,
    pub w_2: Array2<f64>,
    pub b_2: Option<Array1<f64>>,
}

/// A stack of encoder layers and how each is wired.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// Pre-norm (GPT-2): LayerNorm before attention and before the FFN,
    /// inside the residual branch. Post-norm (the original Transformer,
    /// PyTorch's default): LayerNorm after each residual sum.
    pub norm_first: bool,
    pub activation: Activation,
    /// The ε under each LayerNorm's square root.
    pub eps: f64,
    pub layers: Vec<BlockLayer>,
    /// A LayerNorm after the last layer (`nn.TransformerEncoder(norm=…)`).
    pub final_norm: Option<Norm>,
}

/// PyTorch's default ε for LayerNorm.
pub const DEFAULT_EPS: f64 = 1e-5;

/// Every intermediate of one LayerNorm over a batch, B×T×d.
#[derive(Clone, Debug, PartialEq)]
pub struct NormTrace {
    /// Each token's mean over its features, B×T.
    pub mean: Array2<f64>,
    /// Each token's √(var + ε), var the biased variance of its features, B×T.
    pub std: Array2<f64>,
    /// (x − mean) / std, before γ and β: each row has mean 0.
    pub normalised: Array3<f64>,
    /// normalised·γ + β.
    pub output: Array3<f64>,
}

/// Every intermediate of one encoder layer.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockLayerTrace {
    /// The residual stream coming in, B×T×d.
    pub input: Array3<f64>,
    /// Multi-head attention over `input` (post-norm) or over `norm_1` (pre-norm).
    pub attention: LayerTrace,
    /// The first residual sum: input + attention output.
    pub sum_1: Array3<f64>,
    /// LN₁: of `sum_1` (post-norm) or of `input` (pre-norm).
    pub norm_1: NormTrace,
    /// The FFN's hidden layer before the activation, x·W₁ + b₁, B×T×d_ff.
    pub hidden: Array3<f64>,
    /// act(hidden).
    pub activated: Array3<f64>,
    /// The FFN's output, activated·W₂ + b₂, B×T×d.
    pub ffn: Array3<f64>,
    /// The second residual sum: the FFN's input's residual + its output.
    pub sum_2: Array3<f64>,
    /// LN₂: of `sum_2` (post-norm) or of `sum_1` (pre-norm).
    pub norm_2: NormTrace,
    /// The layer's output: `norm_2` (post-norm) or `sum_2` (pre-norm).
    pub output: Array3<f64>,
}

/// Every intermediate of a block.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockTrace {
    /// How the positions entered.
    pub positions: Positions,
    /// The T×d positions added to every sequence before the first layer
    /// (sinusoidal or learned), if any.
    pub added_positions: Option<Array2<f64>>,
    pub layers: Vec<BlockLayerTrace>,
    /// The final LayerNorm of the last layer's output, if the block has one.
    pub final_norm: Option<NormTrace>,
    /// The block's output: the last layer's, after the final norm if any.
    pub output: Array3<f64>,
}

impl BlockTrace {
    /// The first layer's input: x, plus the positions when they are added.
    pub fn input(&self) -> &Array3<f64> {
        &self.layers[0].input
    }

    /// `(sequence, row)` of every query that had no key to attend to, the
    /// same in every layer and head (they share the masks).
    pub fn empty_rows(&self) -> &[(usize, usize)] {
        self.layers
            .first()
            .and_then(|l| l.attention.heads.first())
            .map_or(&[], |head| &head.empty_rows)
    }
}

/// The mean of some numbers and their biased variance (divided by their
/// count), summed in order: LayerNorm's statistics of a token's features,
/// and the same statistics of any row or column a lesson compares them with.
///
/// ```
/// use attention_core::block::mean_and_variance;
/// use ndarray::array;
///
/// assert_eq!(mean_and_variance(array![1.0, 2.0, 3.0, 6.0].view()), (3.0, 3.5));
/// ```
pub fn mean_and_variance(values: ArrayView1<f64>) -> (f64, f64) {
    let n = values.len().max(1) as f64;
    let mean = values.iter().sum::<f64>() / n;
    let variance = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n;
    (mean, variance)
}

/// LayerNorm over each token's features:
/// `(x − mean) / √(var + ε) · γ + β`, var the biased variance (divided by d).
/// The mean and the variance are summed feature by feature in order, so the
/// bits are the same natively and in WebAssembly.
///
/// ```
/// use attention_core::block::{layer_norm, Norm};
/// use ndarray::{array, Array3};
///
/// let x = Array3::from_shape_vec((1, 1, 4), vec![1.0, 2.0, 3.0, 6.0]).unwrap();
/// let norm = Norm { gamma: array![1.0, 1.0, 1.0, 2.0], beta: Some(array![0.0, 0.0, 0.0, 0.5]) };
/// let trace = layer_norm(x.view(), &norm, 1e-5);
/// assert_eq!(trace.mean[[0, 0]], 3.0);
/// // var = (4 + 1 + 0 + 9) / 4 = 3.5
/// assert!((trace.std[[0, 0]] - (3.5f64 + 1e-5).sqrt()).abs() < 1e-15);
/// assert!((trace.output[[0, 0, 3]] - (2.0 * 3.0 / trace.std[[0, 0]] + 0.5)).abs() < 1e-15);
/// ```
pub fn layer_norm(x: ArrayView3<f64>, norm: &Norm, eps: f64) -> NormTrace {
    let (batch, t, d) = x.dim();
    let mut mean = Array2::zeros((batch, t));
    let mut std = Array2::zeros((batch, t));
    let mut normalised = Array3::zeros((batch, t, d));
    for b in 0..batch {
        for i in 0..t {
            let row = x.slice(s![b, i, ..]);
            let (mu, var) = mean_and_variance(row);
            let sigma = libm::sqrt(var + eps);
            mean[[b, i]] = mu;
            std[[b, i]] = sigma;
            for (out, v) in normalised.slice_mut(s![b, i, ..]).iter_mut().zip(row) {
                *out = (v - mu) / sigma;
            }
        }
    }
    let mut output = &normalised * &norm.gamma;
    if let Some(beta) = &norm.beta {
        output += beta;
    }
    NormTrace {
        mean,
        std,
        normalised,
        output,
    }
}

/// Runs a block over a batch `x` (B×T×d), layer after layer:
///
/// - post-norm: `h = LN₁(x + MHA(x))`, `y = LN₂(h + FFN(h))`;
/// - pre-norm: `h = x + MHA(LN₁(x))`, `y = h + FFN(LN₂(h))`;
///
/// with `FFN(x) = act(x·W₁ + b₁)·W₂ + b₂` and `MHA` the layer's multi-head
/// attention (its biases, `heads`, masks and scaling as [`crate::forward_heads`]).
/// Sinusoidal or learned positions are added once, before the first layer;
/// RoPE turns Q and K in every layer's attention. A final LayerNorm, if the
/// block has one, follows the last layer.
///
/// ```
/// use attention_core::block::{forward_block, Activation, Block, BlockLayer, Norm};
/// use attention_core::{layer::LayerBiases, Head, Options};
/// use ndarray::{array, Array2, Array3};
///
/// let norm = || Norm { gamma: array![1.0, 1.0], beta: None };
/// let layer = BlockLayer {
///     attention: Head { w_q: Array2::eye(2), w_k: Array2::eye(2), w_v: Array2::eye(2) },
///     w_o: Array2::eye(2),
///     biases: LayerBiases::default(),
///     norm_1: norm(),
///     norm_2: norm(),
///     w_1: Array2::eye(2),
///     b_1: None,
///     w_2: Array2::eye(2),
///     b_2: None,
/// };
/// let block = Block { norm_first: false, activation: Activation::Relu, eps: 1e-5, layers: vec![layer], final_norm: None };
/// let x = Array3::from_shape_vec((1, 2, 2), vec![1.0, 0.0, 0.0, 3.0]).unwrap();
/// let trace = forward_block(x.view(), &block, 1, None, None, Options::default()).unwrap();
/// // Post-norm: every output row is normalised, so its two entries are ±1 (nearly).
/// assert!((trace.output[[0, 1, 0]] + trace.output[[0, 1, 1]]).abs() < 1e-12);
/// assert!((trace.output[[0, 1, 1]] - 1.0).abs() < 1e-5);
/// ```
pub fn forward_block(
    x: ArrayView3<f64>,
    block: &Block,
    heads: usize,
    key_is_real: Option<ArrayView2<bool>>,
    p: Option<ArrayView2<f64>>,
    options: Options,
) -> Result<BlockTrace, AttentionError> {
    check_block(x, block, heads, key_is_real, options)?;
    let (_, t, d) = x.dim();
    let d_k = block.layers[0].attention.w_q.ncols() / heads;
    let added = positions::added(options.positions, p, (t, d), d_k)?;
    let mut stream = match &added {
        Some(added) => positions::plus(x, added),
        None => x.to_owned(),
    };
    let mut layers = Vec::with_capacity(block.layers.len());
    for (i, weights) in block.layers.iter().enumerate() {
        let layer = forward_layer(stream, block, weights, heads, key_is_real, options)
            .map_err(in_layer(i))?;
        stream = layer.output.clone();
        layers.push(layer);
    }
    let final_norm = block
        .final_norm
        .as_ref()
        .map(|norm| layer_norm(stream.view(), norm, block.eps));
    let output = final_norm.as_ref().map_or(stream, |n| n.output.clone());
    ensure_finite("block.output", &output)?;
    Ok(BlockTrace {
        positions: options.positions,
        added_positions: added,
        layers,
        final_norm,
        output,
    })
}

/// One encoder layer over the residual stream `input`.
fn forward_layer(
    input: Array3<f64>,
    block: &Block,
    weights: &BlockLayer,
    heads: usize,
    key_is_real: Option<ArrayView2<bool>>,
    options: Options,
) -> Result<BlockLayerTrace, AttentionError> {
    let attention = |x: ArrayView3<f64>| {
        attend(
            x,
            &weights.attention,
            &weights.biases,
            heads,
            Some(weights.w_o.view()),
            key_is_real,
            None,
            layer_options(options),
        )
    };
    let norm = |x: &Array3<f64>, norm: &Norm, field: &str| {
        let trace = layer_norm(x.view(), norm, block.eps);
        ensure_finite(field, &trace.output).map(|()| trace)
    };
    let (attention, sum_1, norm_1) = if block.norm_first {
        let norm_1 = norm(&input, &weights.norm_1, "norm_1")?;
        let attention = attention(norm_1.output.view())?;
        let sum_1 = &input + &attention.output;
        (attention, sum_1, norm_1)
    } else {
        let attention = attention(input.view())?;
        let sum_1 = &input + &attention.output;
        let norm_1 = norm(&sum_1, &weights.norm_1, "norm_1")?;
        (attention, sum_1, norm_1)
    };
    ensure_finite("sum_1", &sum_1)?;
    // The FFN reads the residual stream as it stands: LN₁'s output
    // (post-norm) or LN₂ of the first sum (pre-norm).
    let (ffn_input, norm_2_first) = if block.norm_first {
        let norm_2 = norm(&sum_1, &weights.norm_2, "norm_2")?;
        (norm_2.output.clone(), Some(norm_2))
    } else {
        (norm_1.output.clone(), None)
    };
    let FeedForward {
        hidden,
        activated,
        output: ffn,
    } = feed_forward(ffn_input.view(), weights, block.activation);
    ensure_finite("hidden", &hidden)?;
    ensure_finite("ffn", &ffn)?;
    let residual = if block.norm_first {
        &sum_1
    } else {
        &norm_1.output
    };
    let sum_2 = residual + &ffn;
    ensure_finite("sum_2", &sum_2)?;
    let (norm_2, output) = match norm_2_first {
        Some(norm_2) => (norm_2, sum_2.clone()),
        None => {
            let norm_2 = norm(&sum_2, &weights.norm_2, "norm_2")?;
            let output = norm_2.output.clone();
            (norm_2, output)
        }
    };
    Ok(BlockLayerTrace {
        input,
        attention,
        sum_1,
        norm_1,
        hidden,
        activated,
        ffn,
        sum_2,
        norm_2,
        output,
    })
}

/// The position-wise feed-forward network's intermediates over B×T×d.
#[derive(Clone, Debug, PartialEq)]
pub struct FeedForward {
    /// x·W₁ + b₁, B×T×d_ff.
    pub hidden: Array3<f64>,
    /// act(hidden).
    pub activated: Array3<f64>,
    /// act(hidden)·W₂ + b₂, B×T×d.
    pub output: Array3<f64>,
}

/// The feed-forward network of `layer`, `FFN(x) = act(x·W₁ + b₁)·W₂ + b₂`,
/// row by row: each token's output reads only its own row of x. The caller
/// checks the shapes ([`forward_block`] does) and the result's finiteness.
///
/// ```
/// use attention_core::block::{feed_forward, Activation, BlockLayer, Norm};
/// use attention_core::{layer::LayerBiases, Head};
/// use ndarray::{array, Array2, Array3};
///
/// let norm = Norm { gamma: array![1.0, 1.0], beta: None };
/// let layer = BlockLayer {
///     attention: Head { w_q: Array2::eye(2), w_k: Array2::eye(2), w_v: Array2::eye(2) },
///     w_o: Array2::eye(2),
///     biases: LayerBiases::default(),
///     norm_1: norm.clone(),
///     norm_2: norm,
///     w_1: array![[1.0, -1.0], [0.0, 1.0]],
///     b_1: Some(array![0.5, 0.0]),
///     w_2: Array2::eye(2),
///     b_2: None,
/// };
/// let x = Array3::from_shape_vec((1, 1, 2), vec![1.0, 3.0]).unwrap();
/// let ffn = feed_forward(x.view(), &layer, Activation::Relu);
/// // hidden = [1 + 0.5, −1 + 3] = [1.5, 2]; ReLU keeps both.
/// assert_eq!(ffn.output.into_raw_vec_and_offset().0, vec![1.5, 2.0]);
/// ```
pub fn feed_forward(x: ArrayView3<f64>, layer: &BlockLayer, activation: Activation) -> FeedForward {
    let hidden = affine(x, &layer.w_1, layer.b_1.as_ref());
    let activated = hidden.mapv(|v| activation.apply(v));
    let output = affine(activated.view(), &layer.w_2, layer.b_2.as_ref());
    FeedForward {
        hidden,
        activated,
        output,
    }
}

/// `x·w + b` for every sequence of x.
fn affine(x: ArrayView3<f64>, w: &Array2<f64>, b: Option<&Array1<f64>>) -> Array3<f64> {
    let (batch, t, _) = x.dim();
    let mut out = sequences(products(x, w.ncols(), |_| w.view()), (batch, t, w.ncols()));
    if let Some(b) = b {
        out += b;
    }
    out
}

/// The options of each layer's attention: positions that are added enter
/// once, before the first layer, so only RoPE remains inside.
fn layer_options(options: Options) -> Options {
    let positions = match options.positions {
        Positions::Rope => Positions::Rope,
        _ => Positions::None,
    };
    Options {
        positions,
        ..options
    }
}

/// Names an error about one of layer `i`'s weights from the top of the
/// scenario (`block.layers[1].w_1`); errors about x, the mask and the
/// positions stay as they are.
fn in_layer(i: usize) -> impl Fn(AttentionError) -> AttentionError {
    move |error| {
        let shared = |field: &str| {
            field == "x"
                || field.starts_with("x[")
                || field.starts_with("mask")
                || field == "p"
                || field == "positions"
                || field == "heads"
                || field.starts_with("block.")
        };
        if error.field().is_some_and(|f| shared(&f)) {
            error
        } else {
            error.within(&format!("block.layers[{i}]"))
        }
    }
}

/// Checks a block as [`forward_block`] takes it: 1 to
/// [`limits::MAX_LAYERS`] layers, a positive ε, and each layer's shapes
/// against x's d features.
fn check_block(
    x: ArrayView3<f64>,
    block: &Block,
    heads: usize,
    key_is_real: Option<ArrayView2<bool>>,
    options: Options,
) -> Result<(), AttentionError> {
    limits::check_range(
        "block.layers",
        "layers",
        block.layers.len(),
        1,
        limits::MAX_LAYERS,
    )?;
    if !(block.eps.is_finite() && block.eps > 0.0) {
        return Err(AttentionError::WrongType {
            field: "block.eps".into(),
            row: "the value".into(),
            expected: "a positive number",
        });
    }
    let d = x.dim().2;
    for (i, layer) in block.layers.iter().enumerate() {
        check_layer_weights(x, layer, heads, key_is_real, options, d).map_err(in_layer(i))?;
    }
    if let Some(norm) = &block.final_norm {
        check_norm(norm, d, "block.final_norm.gamma", "block.final_norm.beta")?;
    }
    Ok(())
}

fn check_layer_weights(
    x: ArrayView3<f64>,
    layer: &BlockLayer,
    heads: usize,
    key_is_real: Option<ArrayView2<bool>>,
    options: Options,
    d: usize,
) -> Result<(), AttentionError> {
    // The attention's own checks: x, the mask, the widths' split into heads, W_O's rows.
    let head = &layer.attention;
    crate::layer::check_layer(
        x,
        head,
        heads,
        Some(layer.w_o.view()),
        key_is_real,
        None,
        layer_options(options),
    )?;
    if layer.w_o.ncols() != d {
        return Err(AttentionError::ShapeMismatch {
            field: "w_o".into(),
            expected: format!("{d} columns (one per feature of x: the residual adds them)"),
            found: crate::scenario::count(layer.w_o.ncols(), "column"),
        });
    }
    let Biases { b_q, b_k, b_v } = &layer.biases.projections;
    check_vector(b_q.as_ref(), "b_q", head.w_q.ncols(), "column of w_q")?;
    check_vector(b_k.as_ref(), "b_k", head.w_k.ncols(), "column of w_k")?;
    check_vector(b_v.as_ref(), "b_v", head.w_v.ncols(), "column of w_v")?;
    check_vector(layer.biases.b_o.as_ref(), "b_o", d, "feature of x")?;
    check_norm(&layer.norm_1, d, "gamma_1", "beta_1")?;
    check_norm(&layer.norm_2, d, "gamma_2", "beta_2")?;
    check_matrix(layer.w_1.view(), "w_1", d, None)?;
    let d_ff = layer.w_1.ncols();
    limits::check("w_1", "columns", d_ff, limits::MAX_DIM)?;
    check_vector(layer.b_1.as_ref(), "b_1", d_ff, "column of w_1")?;
    check_matrix(layer.w_2.view(), "w_2", d_ff, Some(d))?;
    check_vector(layer.b_2.as_ref(), "b_2", d, "feature of x")
}

fn check_norm(norm: &Norm, d: usize, gamma: &str, beta: &str) -> Result<(), AttentionError> {
    check_vector(Some(&norm.gamma), gamma, d, "feature of x")?;
    check_vector(norm.beta.as_ref(), beta, d, "feature of x")
}

/// A weight matrix of `rows` rows (and `cols` columns, if fixed), finite.
fn check_matrix(
    w: ArrayView2<f64>,
    field: &str,
    rows: usize,
    cols: Option<usize>,
) -> Result<(), AttentionError> {
    if w.is_empty() {
        return Err(AttentionError::Empty {
            field: field.into(),
        });
    }
    let cols_fit = cols.is_none_or(|c| c == w.ncols());
    if w.nrows() != rows || !cols_fit {
        let expected = match cols {
            Some(c) => format!("{rows}×{c} (its rows must match the columns of w_1, its columns the features of x)"),
            None => format!("{rows}×{} (its rows must match the {rows} features of x)", w.ncols()),
        };
        return Err(AttentionError::ShapeMismatch {
            field: field.into(),
            expected,
            found: format!("{}×{}", w.nrows(), w.ncols()),
        });
    }
    match first_non_finite(w) {
        Some((r, _)) => Err(AttentionError::NonFinite {
            field: field.into(),
            row: format!("row [{r}]"),
        }),
        None => Ok(()),
    }
}

/// An optional vector of `len` entries, one per `per`, finite.
fn check_vector(
    v: Option<&Array1<f64>>,
    field: &str,
    len: usize,
    per: &str,
) -> Result<(), AttentionError> {
    let Some(v) = v else { return Ok(()) };
    if v.len() != len {
        return Err(AttentionError::ShapeMismatch {
            field: field.into(),
            expected: format!("{len} numbers, one per {per}"),
            found: crate::scenario::count(v.len(), "number"),
        });
    }
    match first_non_finite(v.view()) {
        Some(j) => Err(AttentionError::NonFinite {
            field: field.into(),
            row: format!("number [{j}]"),
        }),
        None => Ok(()),
    }
}
