//! The JSON scenario format: what a course author writes, what `attn-trace`
//! reads, and what the app imports and exports.
//!
//! Input: `{ "tokens"?, "x": T×d or B×T×d, "w_q": d×d_k, "w_k": d×d_k,
//! "w_v": d×d_v, "mask"?: T or B×T of 0/1, "causal"?: false, "scale"?: true }`.

use crate::error::AttentionError;
use crate::trace::{forward, Head, Options, Trace};
use ndarray::{Array2, Array3, Axis};
use serde_json::{Map, Value};

const FIELDS: [&str; 8] = [
    "tokens", "x", "w_q", "w_k", "w_v", "mask", "causal", "scale",
];
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
    pub head: Head,
    /// The key padding mask, B×T, true for a real position.
    pub mask: Option<Array2<bool>>,
    pub options: Options,
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
        let object = value.as_object().ok_or_else(|| AttentionError::WrongType {
            field: "input".into(),
            row: "the whole input".into(),
            expected: "a JSON object with fields x, w_q, w_k and w_v",
        })?;
        if let Some(unknown) = object.keys().find(|k| !FIELDS.contains(&k.as_str())) {
            return Err(AttentionError::WrongType {
                field: unknown.clone(),
                row: "this field".into(),
                expected: "one of tokens, x, w_q, w_k, w_v, mask, causal, scale",
            });
        }
        let x_value = required(object, "x")?;
        let batched = is_batched(x_value);
        let x = if batched {
            tensor3(x_value, "x")?
        } else {
            matrix(x_value, "x", "")?.insert_axis(Axis(0))
        };
        let head = Head {
            w_q: matrix(required(object, "w_q")?, "w_q", "")?,
            w_k: matrix(required(object, "w_k")?, "w_k", "")?,
            w_v: matrix(required(object, "w_v")?, "w_v", "")?,
        };
        let (batch, t, _) = x.dim();
        let mask = match object.get("mask") {
            None | Some(Value::Null) => None,
            Some(m) if batched => Some(mask_matrix(m, batch, t)?),
            Some(m) => Some(mask_row(m, "", t)?.insert_axis(Axis(0))),
        };
        let tokens = match object.get("tokens") {
            None | Some(Value::Null) => None,
            Some(v) => Some(tokens(v, t)?),
        };
        let options = Options {
            causal: flag(object, "causal", false)?,
            scale: flag(object, "scale", true)?,
        };
        Ok(Self {
            tokens,
            x,
            batched,
            head,
            mask,
            options,
        })
    }

    /// Runs the forward pass on this scenario.
    pub fn run(&self) -> Result<Trace, AttentionError> {
        forward(
            self.x.view(),
            &self.head,
            self.mask.as_ref().map(|m| m.view()),
            self.options,
        )
    }
}

fn required<'a>(object: &'a Map<String, Value>, field: &str) -> Result<&'a Value, AttentionError> {
    object.get(field).ok_or_else(|| AttentionError::Empty {
        field: field.into(),
    })
}

/// x is a batch when its first row is itself a list of lists.
fn is_batched(x: &Value) -> bool {
    x.get(0)
        .and_then(|row| row.get(0))
        .is_some_and(Value::is_array)
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
fn matrix(value: &Value, field: &str, prefix: &str) -> Result<Array2<f64>, AttentionError> {
    let rows = value
        .as_array()
        .ok_or_else(|| wrong(field, place("row", prefix), "a list of rows of numbers"))?;
    let Some(first) = rows.first() else {
        return Err(AttentionError::Empty {
            field: field.into(),
        });
    };
    let width = first
        .as_array()
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
            .as_array()
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
                .as_f64()
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

fn tensor3(value: &Value, field: &str) -> Result<Array3<f64>, AttentionError> {
    let sequences = value
        .as_array()
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
    let views: Vec<_> = parsed.iter().map(|m| m.view()).collect();
    ndarray::stack(Axis(0), &views).map_err(|_| AttentionError::Empty {
        field: field.into(),
    })
}

fn mask_row(
    value: &Value,
    prefix: &str,
    t: usize,
) -> Result<ndarray::Array1<bool>, AttentionError> {
    let flags = value
        .as_array()
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
        .map(|(j, flag)| match (flag.as_f64(), flag.as_bool()) {
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

fn mask_matrix(value: &Value, batch: usize, t: usize) -> Result<Array2<bool>, AttentionError> {
    let rows = value
        .as_array()
        .filter(|rows| rows.iter().all(Value::is_array))
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

fn tokens(value: &Value, t: usize) -> Result<Vec<String>, AttentionError> {
    let list = value
        .as_array()
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
                .as_str()
                .ok_or_else(|| wrong("tokens", format!("label [{i}]"), "a string"))?;
            if text.chars().count() > MAX_TOKEN_CHARS {
                return Err(AttentionError::TooLarge {
                    field: format!("tokens[{i}]"),
                    what: "characters",
                    limit: MAX_TOKEN_CHARS,
                    found: text.chars().count(),
                });
            }
            Ok(text.to_owned())
        })
        .collect()
}

fn flag(object: &Map<String, Value>, field: &str, default: bool) -> Result<bool, AttentionError> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(default),
        Some(v) => v
            .as_bool()
            .ok_or_else(|| wrong(field, "the value".into(), "true or false")),
    }
}
