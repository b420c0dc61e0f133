//! The JSON scenario format: what a course author writes, what `attn-trace`
//! reads, and what the app imports and exports.
//!
//! Input: `{ "tokens"?, "x": T×d or B×T×d, "w_q": d×(h·d_k), "w_k": d×(h·d_k),
//! "w_v": d×(h·d_v), "heads"?: h = 1, "w_o"?: (h·d_v)×d_out, "mask"?: T or
//! B×T of 0/1, "causal"?: false, "scale"?: true, "positions"?: "none" |
//! "sinusoidal" | "learned" | "rope" = "none", "p"?: T×d (learned positions
//! only), "block"?: a transformer block ([`crate::block`]) }`. With a
//! block, each of its layers has its own weights and the top-level `w_q`,
//! `w_k`, `w_v` and `w_o` are left out:
//! `"block": { "norm_first"?: false, "activation"?: "relu" | "gelu",
//! "eps"?: 1e-5, "layers": [ { "w_q", "w_k", "w_v", "w_o", "b_q"?, "b_k"?,
//! "b_v"?, "b_o"?, "gamma_1", "beta_1"?, "gamma_2", "beta_2"?, "w_1", "b_1"?,
//! "w_2", "b_2"? }, … ], "final_norm"?: { "gamma", "beta"? } }`.

use crate::block::{self, forward_block, Activation, Block, BlockLayer, BlockTrace, Norm};
use crate::error::AttentionError;
use crate::layer::{forward_heads, LayerBiases, LayerTrace};
use crate::limits;
use crate::positions::Positions;
use crate::trace::{Biases, Head, Options};
use ndarray::{Array1, Array2, Array3, Axis};
use serde_json::Value;

/// A parsed JSON value, as the scenario parser reads it. The command-line
/// tool reads serde's values; the web app reads the browser's own
/// `JSON.parse` results through this, so the one parser (and its messages)
/// serves both without a JSON parser in the WebAssembly.
pub trait JsonValue: Sized {
    /// The items, if this is an array.
    fn items(&self) -> Option<Vec<Self>>;
    /// The fields in order, if this is an object.
    fn fields(&self) -> Option<Vec<(String, Self)>>;
    fn number(&self) -> Option<f64>;
    fn boolean(&self) -> Option<bool>;
    fn string(&self) -> Option<String>;
    fn is_null(&self) -> bool;
}

impl JsonValue for &Value {
    fn items(&self) -> Option<Vec<Self>> {
        self.as_array().map(|items| items.iter().collect())
    }
    fn fields(&self) -> Option<Vec<(String, Self)>> {
        self.as_object()
            .map(|fields| fields.iter().map(|(k, v)| (k.clone(), v)).collect())
    }
    fn number(&self) -> Option<f64> {
        self.as_f64()
    }
    fn boolean(&self) -> Option<bool> {
        self.as_bool()
    }
    fn string(&self) -> Option<String> {
        self.as_str().map(str::to_owned)
    }
    fn is_null(&self) -> bool {
        Value::is_null(self)
    }
}

const FIELDS: [&str; 13] = [
    "tokens",
    "x",
    "w_q",
    "w_k",
    "w_v",
    "heads",
    "w_o",
    "mask",
    "causal",
    "scale",
    "positions",
    "p",
    "block",
];
/// The fields of `block`.
const BLOCK_FIELDS: [&str; 5] = ["norm_first", "activation", "eps", "layers", "final_norm"];
/// The fields of each of `block`'s layers, in the order they are written.
const LAYER_FIELDS: [&str; 16] = [
    "w_q", "w_k", "w_v", "w_o", "b_q", "b_k", "b_v", "b_o", "gamma_1", "beta_1", "gamma_2",
    "beta_2", "w_1", "b_1", "w_2", "b_2",
];
/// The weights that each of a block's layers has instead.
const BLOCK_REPLACES: [&str; 4] = ["w_q", "w_k", "w_v", "w_o"];
/// Longest token label, in characters.
pub const MAX_TOKEN_CHARS: usize = 32;

/// A parsed and shape-checked scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// One label per position, shared by every sequence of a batch.
    pub tokens: Option<Vec<String>>,
    /// The input, always B×T×d; a single sequence is a batch of one.
    pub x: Array3<f64>,
    /// Whether `x` was given as a batch (B×T×d) rather than one sequence (T×d).
    pub batched: bool,
    /// Every head's W_Q, W_K and W_V side by side: head i has columns
    /// `i·d_k … (i+1)·d_k − 1` ([`Head::part`]).
    pub head: Head,
    /// How many heads share the columns of `head`; 1 for the lessons' layer.
    pub heads: usize,
    /// The output projection, (h·d_v)×d_out, if any.
    pub w_o: Option<Array2<f64>>,
    /// The key padding mask, B×T, true for a real position.
    pub mask: Option<Array2<bool>>,
    /// Causal masking, scaling and how the positions enter.
    pub options: Options,
    /// The learned positions, T×d, added to every sequence of x; only with
    /// `options.positions` learned.
    pub p: Option<Array2<f64>>,
    /// A transformer block around the attention, if any. Its layers hold
    /// their own attention weights: `head` is then empty and `w_o` None.
    pub block: Option<Block>,
}

impl Scenario {
    /// Parses scenario JSON text, naming the field and row of the first problem.
    ///
    /// ```
    /// use attention_core::Scenario;
    ///
    /// let s = Scenario::from_json(r#"{"x": [[1, 0], [0, 1]], "w_q": [[1], [0]],
    ///     "w_k": [[1], [0]], "w_v": [[1], [1]], "causal": true}"#).unwrap();
    /// assert!(s.options.causal && !s.batched);
    ///
    /// let err = Scenario::from_json(r#"{"x": [[1, 0], [0]], "w_q": [[1]], "w_k": [[1]], "w_v": [[1]]}"#);
    /// assert_eq!(err.unwrap_err().to_string(), "x: row [1] has 1 number, but the first row has 2");
    /// ```
    pub fn from_json(text: &str) -> Result<Self, AttentionError> {
        let value: Value = serde_json::from_str(text).map_err(|e| AttentionError::Json {
            message: e.to_string(),
        })?;
        Self::from_value(&value)
    }

    /// Like [`Scenario::from_json`], from an already parsed value.
    pub fn from_value(value: &Value) -> Result<Self, AttentionError> {
        Self::from_parsed(value)
    }

    /// Like [`Scenario::from_json`], from any parsed JSON value.
    pub fn from_parsed<V: JsonValue>(value: V) -> Result<Self, AttentionError> {
        let mut object = fields_of(
            value,
            "input",
            "the whole input",
            "a JSON object with fields x, w_q, w_k and w_v",
            &FIELDS,
            "one of tokens, x, w_q, w_k, w_v, heads, w_o, mask, causal, scale, positions, p, block",
        )?;
        let mut take = |name: &str| take_field(&mut object, name);
        let x_value = required(take("x"), "x")?;
        let batched = is_batched(&x_value);
        let x = if batched {
            tensor3(&x_value, "x")?
        } else {
            matrix(&x_value, "x", "")?.insert_axis(Axis(0))
        };
        let block_value = given(take("block"));
        if block_value.is_some() {
            if let Some(replaced) = BLOCK_REPLACES
                .into_iter()
                .find(|name| given(take(name)).is_some())
            {
                return Err(wrong(
                    replaced,
                    "this field".into(),
                    "left out: with block, each of its layers has its own w_q, w_k, w_v and w_o",
                ));
            }
        }
        let block = block_value.map(block_of).transpose()?;
        let head = if block.is_some() {
            Head::empty()
        } else {
            Head {
                w_q: matrix(&required(take("w_q"), "w_q")?, "w_q", "")?,
                w_k: matrix(&required(take("w_k"), "w_k")?, "w_k", "")?,
                w_v: matrix(&required(take("w_v"), "w_v")?, "w_v", "")?,
            }
        };
        let heads = match given(take("heads")) {
            None => 1,
            Some(v) => head_count(&v)?,
        };
        let w_o = match given(take("w_o")) {
            None => None,
            Some(v) => Some(matrix(&v, "w_o", "")?),
        };
        let (batch, t, _) = x.dim();
        let mask = match given(take("mask")) {
            None => None,
            Some(m) if batched => Some(mask_matrix(&m, batch, t)?),
            Some(m) => Some(unbatched_mask(&m, t)?),
        };
        let tokens = match given(take("tokens")) {
            None => None,
            Some(v) => Some(tokens(&v, t)?),
        };
        let options = Options {
            causal: flag(given(take("causal")), "causal", false)?,
            scale: flag(given(take("scale")), "scale", true)?,
            positions: match given(take("positions")) {
                None => Positions::None,
                Some(v) => positions(&v)?,
            },
        };
        // Its shape and whether the positions read it are the forward
        // pass's checks, as for the weights.
        let p = match given(take("p")) {
            None => None,
            Some(v) => Some(matrix(&v, "p", "")?),
        };
        Ok(Self {
            tokens,
            x,
            batched,
            head,
            heads,
            w_o,
            mask,
            options,
            p,
            block,
        })
    }

    /// Runs the forward pass on this scenario: its heads, joined and
    /// projected ([`forward_heads`]); with a block, its first layer's
    /// attention ([`Scenario::run_block`] gives every layer).
    pub fn run(&self) -> Result<LayerTrace, AttentionError> {
        if let Some(trace) = self.run_block()? {
            return trace
                .layers
                .into_iter()
                .next()
                .map(|layer| layer.attention)
                .ok_or_else(|| AttentionError::Missing {
                    field: "block.layers".into(),
                });
        }
        forward_heads(
            self.x.view(),
            &self.head,
            self.heads,
            self.w_o.as_ref().map(|w| w.view()),
            self.mask.as_ref().map(|m| m.view()),
            self.p.as_ref().map(|p| p.view()),
            self.options,
        )
    }

    /// How many attention layers the scenario has: its block's, or 1.
    pub fn layer_count(&self) -> usize {
        self.block.as_ref().map_or(1, |b| b.layers.len())
    }

    /// Layer `layer`'s attention weights and W_O: the scenario's own without
    /// a block (whatever `layer`), or that layer of its block (the last for
    /// a layer past it).
    pub fn attention(&self, layer: usize) -> (&Head, Option<&Array2<f64>>) {
        match &self.block {
            Some(block) if !block.layers.is_empty() => {
                let l = &block.layers[layer.min(block.layers.len() - 1)];
                (&l.attention, Some(&l.w_o))
            }
            _ => (&self.head, self.w_o.as_ref()),
        }
    }

    /// [`Scenario::attention`], to edit.
    pub fn attention_mut(&mut self, layer: usize) -> (&mut Head, Option<&mut Array2<f64>>) {
        match &mut self.block {
            Some(block) if !block.layers.is_empty() => {
                let last = block.layers.len() - 1;
                let l = &mut block.layers[layer.min(last)];
                (&mut l.attention, Some(&mut l.w_o))
            }
            _ => (&mut self.head, self.w_o.as_mut()),
        }
    }

    /// Runs the scenario's block ([`forward_block`]); None without one.
    pub fn run_block(&self) -> Result<Option<BlockTrace>, AttentionError> {
        self.block
            .as_ref()
            .map(|block| {
                forward_block(
                    self.x.view(),
                    block,
                    self.heads,
                    self.mask.as_ref().map(|m| m.view()),
                    self.p.as_ref().map(|p| p.view()),
                    self.options,
                )
            })
            .transpose()
    }

    /// Whether this is the lessons' layer, one head without W_O, whose JSON
    /// (input and trace) has no head axis.
    pub fn is_single_head(&self) -> bool {
        self.heads == 1 && self.w_o.is_none() && self.block.is_none()
    }
}

/// An object's fields, each of them one of `allowed`; `field` and `place`
/// name the object in messages, `expected_object` says what it should be and
/// `one_of` lists `allowed`.
fn fields_of<V: JsonValue>(
    value: V,
    field: &str,
    place: &str,
    expected_object: &'static str,
    allowed: &[&str],
    one_of: &'static str,
) -> Result<Vec<(String, V)>, AttentionError> {
    let object = value
        .fields()
        .ok_or_else(|| wrong(field, place.into(), expected_object))?;
    if let Some((unknown, _)) = object.iter().find(|(k, _)| !allowed.contains(&k.as_str())) {
        let unknown = if field == "input" {
            unknown.clone()
        } else {
            format!("{field}.{unknown}")
        };
        return Err(wrong(&unknown, "this field".into(), one_of));
    }
    Ok(object)
}

/// Takes a field out of an object; a field given twice keeps its last value,
/// like a JSON object.
fn take_field<V: JsonValue>(object: &mut Vec<(String, V)>, name: &str) -> Option<V> {
    let at = object.iter().rposition(|(k, _)| k == name)?;
    Some(object.swap_remove(at).1)
}

/// An optional field's value: null is a field not given.
fn given<V: JsonValue>(value: Option<V>) -> Option<V> {
    value.filter(|v| !v.is_null())
}

/// `block`: how its layers are wired, and the layers' weights.
fn block_of<V: JsonValue>(value: V) -> Result<Block, AttentionError> {
    let mut object = fields_of(
        value,
        "block",
        "the whole field",
        "an object with the field layers",
        &BLOCK_FIELDS,
        "one of norm_first, activation, eps, layers, final_norm",
    )?;
    let mut take = |name: &str| take_field(&mut object, name);
    let norm_first = flag(given(take("norm_first")), "block.norm_first", false)?;
    let activation = match given(take("activation")) {
        None => Activation::default(),
        Some(v) => v
            .string()
            .and_then(|id| Activation::from_id(&id))
            .ok_or_else(|| {
                wrong(
                    "block.activation",
                    "the value".into(),
                    "\"relu\" or \"gelu\"",
                )
            })?,
    };
    let eps = match given(take("eps")) {
        None => block::DEFAULT_EPS,
        Some(v) => v
            .number()
            .filter(|e| e.is_finite() && *e > 0.0)
            .ok_or_else(|| wrong("block.eps", "the value".into(), "a positive number"))?,
    };
    let layers = required(take("layers"), "block.layers")?
        .items()
        .ok_or_else(|| wrong("block.layers", "the whole field".into(), "a list of layers"))?;
    limits::check_range(
        "block.layers",
        "layers",
        layers.len(),
        1,
        limits::MAX_LAYERS,
    )?;
    let layers = layers
        .into_iter()
        .enumerate()
        .map(|(i, layer)| layer_of(layer, &format!("block.layers[{i}]")))
        .collect::<Result<Vec<_>, _>>()?;
    let final_norm = match given(take("final_norm")) {
        None => None,
        Some(v) => {
            let mut object = fields_of(
                v,
                "block.final_norm",
                "the whole field",
                "an object with the fields gamma and beta",
                &["gamma", "beta"],
                "one of gamma, beta",
            )?;
            let mut take = |name: &str| take_field(&mut object, name);
            Some(Norm {
                gamma: vector(
                    &required(take("gamma"), "block.final_norm.gamma")?,
                    "block.final_norm.gamma",
                )?,
                beta: given(take("beta"))
                    .map(|v| vector(&v, "block.final_norm.beta"))
                    .transpose()?,
            })
        }
    };
    Ok(Block {
        norm_first,
        activation,
        eps,
        layers,
        final_norm,
    })
}

/// One of `block`'s layers, named `name` in messages.
fn layer_of<V: JsonValue>(value: V, name: &str) -> Result<BlockLayer, AttentionError> {
    let mut object = fields_of(
        value,
        name,
        "the whole field",
        "an object of one layer's weights",
        &LAYER_FIELDS,
        "one of w_q, w_k, w_v, w_o, b_q, b_k, b_v, b_o, gamma_1, beta_1, gamma_2, beta_2, w_1, b_1, w_2, b_2",
    )?;
    let full = |field: &str| format!("{name}.{field}");
    let weights = |object: &mut Vec<(String, V)>, field: &str| {
        matrix(
            &required(take_field(object, field), &full(field))?,
            &full(field),
            "",
        )
    };
    let gamma = |object: &mut Vec<(String, V)>, field: &str| {
        vector(
            &required(take_field(object, field), &full(field))?,
            &full(field),
        )
    };
    let bias = |object: &mut Vec<(String, V)>, field: &str| {
        given(take_field(object, field))
            .map(|v| vector(&v, &full(field)))
            .transpose()
    };
    let o = &mut object;
    Ok(BlockLayer {
        attention: Head {
            w_q: weights(o, "w_q")?,
            w_k: weights(o, "w_k")?,
            w_v: weights(o, "w_v")?,
        },
        w_o: weights(o, "w_o")?,
        biases: LayerBiases {
            projections: Biases {
                b_q: bias(o, "b_q")?,
                b_k: bias(o, "b_k")?,
                b_v: bias(o, "b_v")?,
            },
            b_o: bias(o, "b_o")?,
        },
        norm_1: Norm {
            gamma: gamma(o, "gamma_1")?,
            beta: bias(o, "beta_1")?,
        },
        norm_2: Norm {
            gamma: gamma(o, "gamma_2")?,
            beta: bias(o, "beta_2")?,
        },
        w_1: weights(o, "w_1")?,
        b_1: bias(o, "b_1")?,
        w_2: weights(o, "w_2")?,
        b_2: bias(o, "b_2")?,
    })
}

/// A list of numbers, finite.
fn vector<V: JsonValue>(value: &V, field: &str) -> Result<Array1<f64>, AttentionError> {
    let items = value
        .items()
        .ok_or_else(|| wrong(field, "the whole field".into(), "a list of numbers"))?;
    if items.is_empty() {
        return Err(AttentionError::Empty {
            field: field.into(),
        });
    }
    items
        .iter()
        .enumerate()
        .map(|(j, item)| match item.number() {
            Some(n) if n.is_finite() => Ok(n),
            Some(_) => Err(AttentionError::NonFinite {
                field: field.into(),
                row: format!("number [{j}]"),
            }),
            None => Err(wrong(field, format!("number [{j}]"), "a number")),
        })
        .collect()
}

/// The number of heads: a whole number from 1 to [`limits::MAX_HEADS`].
fn head_count<V: JsonValue>(value: &V) -> Result<usize, AttentionError> {
    let n = value
        .number()
        .filter(|n| n.fract() == 0.0 && (0.0..=1e9).contains(n))
        .ok_or_else(|| wrong("heads", "the value".into(), "a whole number of heads"))?;
    // A whole number of at most 1e9 converts exactly.
    let n = n as usize;
    limits::check_range("heads", "heads", n, 1, limits::MAX_HEADS)?;
    Ok(n)
}

/// How the positions enter: one of [`Positions`]' ids.
fn positions<V: JsonValue>(value: &V) -> Result<Positions, AttentionError> {
    value
        .string()
        .and_then(|id| Positions::from_id(&id))
        .ok_or_else(|| {
            wrong(
                "positions",
                "the value".into(),
                "one of \"none\", \"sinusoidal\", \"learned\", \"rope\"",
            )
        })
}

fn required<V>(value: Option<V>, field: &str) -> Result<V, AttentionError> {
    value.ok_or_else(|| AttentionError::Missing {
        field: field.into(),
    })
}

/// x is a batch when its first row is itself a list of lists.
fn is_batched<V: JsonValue>(x: &V) -> bool {
    let first = |v: &V| v.items().and_then(|items| items.into_iter().next());
    first(x)
        .and_then(|row| first(&row))
        .is_some_and(|cell| cell.items().is_some())
}

/// `1 flag`, `3 flags`.
pub(crate) fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

fn wrong(field: &str, row: String, expected: &'static str) -> AttentionError {
    AttentionError::WrongType {
        field: field.into(),
        row,
        expected,
    }
}

/// Names a place in a field for messages: `row [1][2]`, or `the whole field` at the top.
fn place(kind: &str, path: &str) -> String {
    if path.is_empty() {
        "the whole field".into()
    } else {
        format!("{kind} {path}")
    }
}

/// Parses a list of lists of numbers; `prefix` is the index path above it, e.g. `[1]`.
fn matrix<V: JsonValue>(
    value: &V,
    field: &str,
    prefix: &str,
) -> Result<Array2<f64>, AttentionError> {
    let rows = value
        .items()
        .ok_or_else(|| wrong(field, place("row", prefix), "a list of rows of numbers"))?;
    let Some(first) = rows.first() else {
        return Err(AttentionError::Empty {
            field: field.into(),
        });
    };
    let width = first
        .items()
        .ok_or_else(|| wrong(field, format!("row {prefix}[0]"), "a list of numbers"))?
        .len();
    if width == 0 {
        return Err(AttentionError::Empty {
            field: field.into(),
        });
    }
    let mut data = Vec::with_capacity(rows.len() * width);
    for (r, row) in rows.iter().enumerate() {
        let at = format!("row {prefix}[{r}]");
        let cells = row
            .items()
            .ok_or_else(|| wrong(field, at.clone(), "a list of numbers"))?;
        if cells.len() != width {
            return Err(AttentionError::Ragged {
                field: field.into(),
                row: at,
                expected: width,
                found: cells.len(),
            });
        }
        for cell in cells {
            let number = cell
                .number()
                .ok_or_else(|| wrong(field, at.clone(), "a list of numbers only"))?;
            if !number.is_finite() {
                return Err(AttentionError::NonFinite {
                    field: field.into(),
                    row: at,
                });
            }
            data.push(number);
        }
    }
    Array2::from_shape_vec((rows.len(), width), data).map_err(|_| AttentionError::Empty {
        field: field.into(),
    })
}

fn tensor3<V: JsonValue>(value: &V, field: &str) -> Result<Array3<f64>, AttentionError> {
    let sequences = value
        .items()
        .ok_or_else(|| wrong(field, place("row", ""), "a list of sequences"))?;
    let mut parsed = Vec::with_capacity(sequences.len());
    for (b, sequence) in sequences.iter().enumerate() {
        let m = matrix(sequence, field, &format!("[{b}]"))?;
        if let Some(first) = parsed.first().map(Array2::dim) {
            if m.dim() != first {
                return Err(AttentionError::ShapeMismatch {
                    field: format!("{field}[{b}]"),
                    expected: format!("{}×{} like the first sequence", first.0, first.1),
                    found: format!("{}×{}", m.nrows(), m.ncols()),
                });
            }
        }
        parsed.push(m);
    }
    let Some((rows, cols)) = parsed.first().map(Array2::dim) else {
        return Err(AttentionError::Empty {
            field: field.into(),
        });
    };
    Ok(Array3::from_shape_fn(
        (parsed.len(), rows, cols),
        |(b, i, j)| parsed[b][[i, j]],
    ))
}

fn mask_row<V: JsonValue>(
    value: &V,
    prefix: &str,
    t: usize,
) -> Result<ndarray::Array1<bool>, AttentionError> {
    let flags = value
        .items()
        .ok_or_else(|| wrong("mask", place("row", prefix), "a list of 0/1 flags"))?;
    if flags.len() != t {
        return Err(AttentionError::ShapeMismatch {
            field: format!("mask{prefix}"),
            expected: format!("{t} flags, one per position of x"),
            found: count(flags.len(), "flag"),
        });
    }
    flags
        .iter()
        .enumerate()
        .map(|(j, flag)| match (flag.number(), flag.boolean()) {
            // 1.0 and 0.0 are accepted too: Python's json.dumps writes floats that way.
            (Some(1.0), _) => Ok(true),
            (Some(0.0), _) => Ok(false),
            (_, Some(real)) => Ok(real),
            _ => Err(wrong(
                "mask",
                format!("flag {prefix}[{j}]"),
                "0 (padding) or 1 (real)",
            )),
        })
        .collect()
}

/// The mask of an unbatched x: one row of T flags. A list of rows is a
/// batch's mask, which says so rather than that its rows are no flags.
fn unbatched_mask<V: JsonValue>(value: &V, t: usize) -> Result<Array2<bool>, AttentionError> {
    if let Some(rows) = value
        .items()
        .filter(|items| !items.is_empty() && items.iter().all(|item| item.items().is_some()))
    {
        return Err(AttentionError::ShapeMismatch {
            field: "mask".into(),
            expected: format!("{t} flags, one row for the one sequence of x (x is T×d)"),
            found: format!("{}, a batch's mask", count(rows.len(), "row")),
        });
    }
    Ok(mask_row(value, "", t)?.insert_axis(Axis(0)))
}

fn mask_matrix<V: JsonValue>(
    value: &V,
    batch: usize,
    t: usize,
) -> Result<Array2<bool>, AttentionError> {
    let rows = value
        .items()
        .filter(|rows| rows.iter().all(|row| row.items().is_some()))
        .ok_or_else(|| {
            wrong(
                "mask",
                place("row", ""),
                "a list of rows of 0/1, one per sequence",
            )
        })?;
    if rows.len() != batch {
        return Err(AttentionError::ShapeMismatch {
            field: "mask".into(),
            expected: format!("{batch} rows, one per sequence of x"),
            found: count(rows.len(), "row"),
        });
    }
    let mut out = Array2::from_elem((batch, t), true);
    for (b, row) in rows.iter().enumerate() {
        out.row_mut(b).assign(&mask_row(row, &format!("[{b}]"), t)?);
    }
    Ok(out)
}

fn tokens<V: JsonValue>(value: &V, t: usize) -> Result<Vec<String>, AttentionError> {
    let list = value
        .items()
        .ok_or_else(|| wrong("tokens", place("row", ""), "a list of strings"))?;
    if list.len() != t {
        return Err(AttentionError::ShapeMismatch {
            field: "tokens".into(),
            expected: format!("{t} labels, one per position of x"),
            found: count(list.len(), "label"),
        });
    }
    list.iter()
        .enumerate()
        .map(|(i, token)| {
            let text = token
                .string()
                .ok_or_else(|| wrong("tokens", format!("label [{i}]"), "a string"))?;
            if text.chars().count() > MAX_TOKEN_CHARS {
                return Err(AttentionError::TooLarge {
                    field: format!("tokens[{i}]"),
                    what: "characters",
                    limit: MAX_TOKEN_CHARS,
                    found: text.chars().count(),
                });
            }
            Ok(text)
        })
        .collect()
}

fn flag<V: JsonValue>(
    value: Option<V>,
    field: &str,
    default: bool,
) -> Result<bool, AttentionError> {
    match value {
        None => Ok(default),
        Some(v) => v
            .boolean()
            .ok_or_else(|| wrong(field, "the value".into(), "true or false")),
    }
}
