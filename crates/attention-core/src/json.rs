//! JSON text of a scenario (the input format) and of a trace (what
//! `attn-trace` prints), written directly: one field per line, and one matrix
//! row per line, so a matrix reads as a block.
//!
//! The caller chooses how a number is written (`number`): the command-line
//! tool uses Rust's shortest round-trip form, and the web app JavaScript's,
//! which needs no float printer in the WebAssembly. Either reads back exactly.

use crate::layer::LayerTrace;
use crate::scenario::Scenario;
use crate::trace::Trace;
use ndarray::{Array3, ArrayView2, ArrayView3, Axis};

/// Writes one finite number as JSON.
pub type NumberWriter = fn(f64) -> String;

/// A JSON object under construction, one field per line.
struct Object {
    out: String,
}

impl Object {
    fn new() -> Self {
        Self { out: "{".into() }
    }

    fn field(&mut self, name: &str, value: &str) {
        if self.out.len() > 1 {
            self.out.push(',');
        }
        self.out.push_str("\n  ");
        self.out.push_str(&quoted(name));
        self.out.push_str(": ");
        self.out.push_str(value);
    }

    fn finish(mut self) -> String {
        self.out.push_str("\n}\n");
        self.out
    }
}

/// A JSON string literal.
fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                out.push_str("\\u00");
                for shift in [4, 0] {
                    out.push(char::from_digit((c as u32 >> shift) & 0xf, 16).unwrap_or('0'));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `[a, b, c]` on one line.
fn list<T>(items: impl Iterator<Item = T>, write: impl Fn(T) -> String) -> String {
    let items: Vec<String> = items.map(write).collect();
    format!("[{}]", items.join(", "))
}

/// A matrix, one row per line, indented for `depth` levels of nesting.
fn matrix(m: ArrayView2<f64>, number: NumberWriter, depth: usize) -> String {
    let pad = "  ".repeat(depth + 1);
    let rows: Vec<String> = m
        .rows()
        .into_iter()
        .map(|row| format!("{pad}{}", list(row.iter(), |&v| number(v))))
        .collect();
    format!("[\n{}\n{}]", rows.join(",\n"), "  ".repeat(depth))
}

/// Items one per line, each already written for `depth + 1` levels of nesting.
fn nested(items: impl Iterator<Item = String>, depth: usize) -> String {
    let pad = "  ".repeat(depth + 1);
    let items: Vec<String> = items.map(|item| format!("{pad}{item}")).collect();
    format!("[\n{}\n{}]", items.join(",\n"), "  ".repeat(depth))
}

/// A B×T×n array as one matrix (a single sequence) or a list of matrices (a batch).
fn batch(a: ArrayView3<f64>, batched: bool, number: NumberWriter) -> String {
    if !batched {
        return matrix(a.index_axis(Axis(0), 0), number, 1);
    }
    nested(a.outer_iter().map(|m| matrix(m, number, 2)), 1)
}

/// One B×T×n array per head, with the head axis after the batch axis:
/// h×T×n for a single sequence, B×h×T×n for a batch.
fn per_head<'a>(
    heads: impl Iterator<Item = &'a Array3<f64>> + Clone,
    batched: bool,
    number: NumberWriter,
) -> String {
    let sequence = |b: usize, depth: usize| {
        nested(
            heads
                .clone()
                .map(move |a| matrix(a.index_axis(Axis(0), b), number, depth + 1)),
            depth,
        )
    };
    match heads.clone().next() {
        Some(first) if batched => nested((0..first.len_of(Axis(0))).map(|b| sequence(b, 2)), 1),
        _ => sequence(0, 1),
    }
}

fn flag(on: bool) -> String {
    if on { "true" } else { "false" }.into()
}

/// The scenario in the input format, which [`Scenario::from_json`] reads back
/// as the same scenario.
///
/// ```
/// use attention_core::{json, Scenario};
///
/// let text = r#"{"tokens": ["a"], "x": [[1.5, 0]], "w_q": [[1], [0]], "w_k": [[1], [0]], "w_v": [[1], [1]]}"#;
/// let s = Scenario::from_json(text).unwrap();
/// let written = json::scenario_json(&s, |v| format!("{v:?}"));
/// assert!(written.contains("\"x\": [\n    [1.5, 0.0]\n  ]"));
/// assert_eq!(Scenario::from_json(&written).unwrap(), s);
/// ```
pub fn scenario_json(s: &Scenario, number: NumberWriter) -> String {
    let mut out = Object::new();
    if let Some(tokens) = &s.tokens {
        out.field("tokens", &list(tokens.iter(), |t| quoted(t)));
    }
    out.field("x", &batch(s.x.view(), s.batched, number));
    out.field("w_q", &matrix(s.head.w_q.view(), number, 1));
    out.field("w_k", &matrix(s.head.w_k.view(), number, 1));
    out.field("w_v", &matrix(s.head.w_v.view(), number, 1));
    if s.heads != 1 {
        out.field("heads", &s.heads.to_string());
    }
    if let Some(w_o) = &s.w_o {
        out.field("w_o", &matrix(w_o.view(), number, 1));
    }
    if let Some(mask) = &s.mask {
        let rows: Vec<String> = mask
            .outer_iter()
            .map(|r| list(r.iter(), |&real| u8::from(real).to_string()))
            .collect();
        let value = if s.batched {
            format!("[{}]", rows.join(", "))
        } else {
            rows.concat()
        };
        out.field("mask", &value);
    }
    out.field("causal", &flag(s.options.causal));
    out.field("scale", &flag(s.options.scale));
    out.finish()
}

/// One field of a head's trace.
type HeadField = fn(&Trace) -> &Array3<f64>;

/// The trace as JSON: `q, k, v, scores, scaled, weights, output` with the
/// batch rank of the input, `empty_rows` (queries that had no key to attend
/// to), and the tokens when there are any.
///
/// With several heads or a W_O, the fields of each head gain a head axis after
/// the batch axis, each head's B is `head_output`, and `concat` and `output`
/// (the layer's, `concat·W_O`) follow: the fields of PyTorch's
/// `nn.MultiheadAttention`. One head without W_O is written as one head.
///
/// ```
/// use attention_core::{json, Scenario};
///
/// let s = Scenario::from_json(r#"{"x": [[1, 0], [0, 1]], "w_q": [[1], [0]],
///     "w_k": [[1], [0]], "w_v": [[1], [1]], "causal": true}"#).unwrap();
/// let text = json::trace_json(&s.run().unwrap(), false, None, |v| format!("{v:?}"));
/// assert!(text.contains("\"weights\": [\n    [1.0, 0.0],\n    [0.5, 0.5]\n  ]"));
///
/// let two = Scenario::from_json(r#"{"x": [[1, 0], [0, 1]], "w_q": [[1, 0], [0, 1]],
///     "w_k": [[1, 0], [0, 1]], "w_v": [[1, 0], [0, 1]], "heads": 2}"#).unwrap();
/// let text = json::trace_json(&two.run().unwrap(), false, None, |v| format!("{v:?}"));
/// let parsed: serde_json::Value = serde_json::from_str(&text).unwrap();
/// assert_eq!(parsed["weights"].as_array().unwrap().len(), 2);
/// assert_eq!(parsed["concat"], parsed["output"]);
/// ```
pub fn trace_json(
    layer: &LayerTrace,
    batched: bool,
    tokens: Option<&[String]>,
    number: NumberWriter,
) -> String {
    let mut out = Object::new();
    let fields: [(&str, HeadField); 7] = [
        ("q", |t| &t.q),
        ("k", |t| &t.k),
        ("v", |t| &t.v),
        ("scores", |t| &t.scores),
        ("scaled", |t| &t.scaled),
        ("weights", |t| &t.weights),
        ("output", |t| &t.output),
    ];
    match &layer.heads[..] {
        [head] if layer.is_single_head() => {
            for (name, field) in fields {
                out.field(name, &batch(field(head).view(), batched, number));
            }
        }
        heads => {
            for (name, field) in fields {
                let name = if name == "output" {
                    "head_output"
                } else {
                    name
                };
                out.field(name, &per_head(heads.iter().map(field), batched, number));
            }
            out.field("concat", &batch(layer.concat.view(), batched, number));
            out.field("output", &batch(layer.output.view(), batched, number));
        }
    }
    // Every head has the same masks, hence the same empty rows.
    let empty = layer.heads.first().map_or(&[][..], |t| &t.empty_rows[..]);
    let empty = list(empty.iter(), |&(b, i)| {
        if batched {
            format!("[{b}, {i}]")
        } else {
            i.to_string()
        }
    });
    out.field("empty_rows", &empty);
    if let Some(tokens) = tokens {
        out.field("tokens", &list(tokens.iter(), |t| quoted(t)));
    }
    out.finish()
}
