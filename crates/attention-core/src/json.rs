//! JSON text of a scenario (the input format) and of a trace (what
//! `attn-trace` prints), written directly: one field per line, and one matrix
//! row per line, so a matrix reads as a block.
//!
//! The caller chooses how a number is written (`number`): the command-line
//! tool uses Rust's shortest round-trip form, and the web app JavaScript's,
//! which needs no float printer in the WebAssembly. Either reads back exactly.

use crate::block::{Block, BlockTrace, Norm};
use crate::layer::LayerTrace;
use crate::positions::Positions;
use crate::scenario::Scenario;
use crate::trace::Trace;
use ndarray::{Array1, Array3, ArrayView2, ArrayView3, Axis};

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

/// An object's text (from [`Object::finish`]) as a field's value `levels`
/// levels of nesting down.
fn indented(text: &str, levels: usize) -> String {
    text.trim_end()
        .replace('\n', &format!("\n{}", "  ".repeat(levels)))
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

/// The queries that had no key to attend to: `[b, i]` in a batch, `i` in one sequence.
fn empty_rows(rows: &[(usize, usize)], batched: bool) -> String {
    list(rows.iter(), |&(b, i)| {
        if batched {
            format!("[{b}, {i}]")
        } else {
            i.to_string()
        }
    })
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
    // A block's layers hold their own attention weights.
    if s.block.is_none() {
        out.field("w_q", &matrix(s.head.w_q.view(), number, 1));
        out.field("w_k", &matrix(s.head.w_k.view(), number, 1));
        out.field("w_v", &matrix(s.head.w_v.view(), number, 1));
    }
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
    // Written only when there are any, so that scenarios without positions
    // read as they always have.
    if s.options.positions != Positions::None {
        out.field("positions", &quoted(s.options.positions.id()));
    }
    if let Some(p) = &s.p {
        out.field("p", &matrix(p.view(), number, 1));
    }
    if let Some(block) = &s.block {
        out.field("block", &indented(&block_json(block, number), 1));
    }
    out.finish()
}

/// `block` in the input format, as an object of its own.
fn block_json(block: &Block, number: NumberWriter) -> String {
    let vector = |v: &Array1<f64>| list(v.iter(), |&x| number(x));
    let mut out = Object::new();
    out.field("norm_first", &flag(block.norm_first));
    out.field("activation", &quoted(block.activation.id()));
    out.field("eps", &number(block.eps));
    let layers = block.layers.iter().map(|layer| {
        let mut fields = Object::new();
        let h = &layer.attention;
        let b = &layer.biases;
        for (name, w) in [
            ("w_q", &h.w_q),
            ("w_k", &h.w_k),
            ("w_v", &h.w_v),
            ("w_o", &layer.w_o),
        ] {
            fields.field(name, &matrix(w.view(), number, 1));
        }
        let vectors = [
            ("b_q", b.projections.b_q.as_ref()),
            ("b_k", b.projections.b_k.as_ref()),
            ("b_v", b.projections.b_v.as_ref()),
            ("b_o", b.b_o.as_ref()),
            ("gamma_1", Some(&layer.norm_1.gamma)),
            ("beta_1", layer.norm_1.beta.as_ref()),
            ("gamma_2", Some(&layer.norm_2.gamma)),
            ("beta_2", layer.norm_2.beta.as_ref()),
        ];
        for (name, v) in vectors {
            if let Some(v) = v {
                fields.field(name, &vector(v));
            }
        }
        fields.field("w_1", &matrix(layer.w_1.view(), number, 1));
        if let Some(b_1) = &layer.b_1 {
            fields.field("b_1", &vector(b_1));
        }
        fields.field("w_2", &matrix(layer.w_2.view(), number, 1));
        if let Some(b_2) = &layer.b_2 {
            fields.field("b_2", &vector(b_2));
        }
        indented(&fields.finish(), 2)
    });
    out.field("layers", &nested(layers, 1));
    if let Some(Norm { gamma, beta }) = &block.final_norm {
        let mut norm = Object::new();
        norm.field("gamma", &vector(gamma));
        if let Some(beta) = beta {
            norm.field("beta", &vector(beta));
        }
        out.field("final_norm", &indented(&norm.finish(), 1));
    }
    out.finish()
}

/// One field of a head's trace, where the trace has it.
type HeadField = fn(&Trace) -> Option<&Array3<f64>>;

/// The trace as JSON: `q, k, v, scores, scaled, weights, output` with the
/// batch rank of the input, `empty_rows` (queries that had no key to attend
/// to), and the tokens when there are any.
///
/// With positions, `positions` (their id) comes first. Sinusoidal and
/// learned ones add `added_positions` (T×d) and `x`, the sum that was
/// projected, with the batch rank of the input; RoPE adds `q_unrotated` and
/// `k_unrotated`, Q and K before their turn, after `q` and `k`. Without
/// positions none of these is written.
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
///
/// let rope = Scenario::from_json(r#"{"x": [[1, 0], [0, 1]], "w_q": [[1, 0], [0, 1]],
///     "w_k": [[1, 0], [0, 1]], "w_v": [[1], [1]], "positions": "rope"}"#).unwrap();
/// let text = json::trace_json(&rope.run().unwrap(), false, None, |v| format!("{v:?}"));
/// let parsed: serde_json::Value = serde_json::from_str(&text).unwrap();
/// assert_eq!(parsed["positions"], "rope");
/// // Position 0 turns by 0; position 1 by 1 radian.
/// assert_eq!(parsed["q_unrotated"][1], serde_json::json!([0.0, 1.0]));
/// assert!((parsed["q"][1][0].as_f64().unwrap() + 1f64.sin()).abs() < 1e-15);
/// ```
pub fn trace_json(
    layer: &LayerTrace,
    batched: bool,
    tokens: Option<&[String]>,
    number: NumberWriter,
) -> String {
    let mut out = Object::new();
    let first = layer.heads.first();
    let positions = first.map_or(Positions::None, |t| t.options.positions);
    if positions != Positions::None {
        out.field("positions", &quoted(positions.id()));
    }
    if let (Some(added), Some(head)) = (&layer.added_positions, first) {
        out.field("added_positions", &matrix(added.view(), number, 1));
        // Every head projects the same X + P.
        out.field("x", &batch(head.x.view(), batched, number));
    }
    let fields: [(&str, HeadField); 9] = [
        ("q", |t| Some(&t.q)),
        ("k", |t| Some(&t.k)),
        ("q_unrotated", |t| t.q_unrotated.as_ref()),
        ("k_unrotated", |t| t.k_unrotated.as_ref()),
        ("v", |t| Some(&t.v)),
        ("scores", |t| Some(&t.scores)),
        ("scaled", |t| Some(&t.scaled)),
        ("weights", |t| Some(&t.weights)),
        ("output", |t| Some(&t.output)),
    ];
    // Every head has the same options, hence the same fields.
    let fields = fields
        .into_iter()
        .filter(|(_, field)| first.is_some_and(|t| field(t).is_some()));
    match &layer.heads[..] {
        [head] if layer.is_single_head() => {
            for (name, field) in fields {
                if let Some(values) = field(head) {
                    out.field(name, &batch(values.view(), batched, number));
                }
            }
        }
        heads => {
            for (name, field) in fields {
                let name = if name == "output" {
                    "head_output"
                } else {
                    name
                };
                let values = heads.iter().filter_map(field);
                out.field(name, &per_head(values, batched, number));
            }
            out.field("concat", &batch(layer.concat.view(), batched, number));
            out.field("output", &batch(layer.output.view(), batched, number));
        }
    }
    // Every head has the same masks, hence the same empty rows.
    let empty = first.map_or(&[][..], |t| &t.empty_rows[..]);
    out.field("empty_rows", &empty_rows(empty, batched));
    if let Some(tokens) = tokens {
        out.field("tokens", &list(tokens.iter(), |t| quoted(t)));
    }
    out.finish()
}

/// A block's trace as JSON: `positions`, `added_positions` and `x` (the
/// first layer's input) when positions are added, as [`trace_json`] writes
/// them; then `block`: `{"layers": [...], "output"}`, each layer holding its
/// attention's trace as [`trace_json`] writes it (under `attention`), then
/// `sum_1`, `norm_1`, `hidden`, `activated`, `ffn`, `sum_2`, `norm_2` and
/// `output` (the layer's); `block.output` is the last layer's output after
/// the final LayerNorm, if any. `empty_rows` and the tokens close it.
///
/// ```
/// use attention_core::{json, Scenario};
///
/// let s = Scenario::from_json(r#"{"x": [[1, 0], [0, 2]], "block": {"layers": [{
///     "w_q": [[1, 0], [0, 1]], "w_k": [[1, 0], [0, 1]], "w_v": [[1, 0], [0, 1]],
///     "w_o": [[1, 0], [0, 1]], "gamma_1": [1, 1], "gamma_2": [1, 1],
///     "w_1": [[1, 0, 1], [0, 1, -1]], "w_2": [[1, 0], [0, 1], [1, 1]]}]}}"#).unwrap();
/// let trace = s.run_block().unwrap().unwrap();
/// let text = json::block_trace_json(&trace, false, None, |v| format!("{v:?}"));
/// let parsed: serde_json::Value = serde_json::from_str(&text).unwrap();
/// assert_eq!(parsed["block"]["layers"][0]["hidden"][0].as_array().unwrap().len(), 3);
/// assert_eq!(parsed["block"]["output"], parsed["block"]["layers"][0]["output"]);
/// ```
pub fn block_trace_json(
    trace: &BlockTrace,
    batched: bool,
    tokens: Option<&[String]>,
    number: NumberWriter,
) -> String {
    let mut out = Object::new();
    if trace.positions != Positions::None {
        out.field("positions", &quoted(trace.positions.id()));
    }
    if let Some(added) = &trace.added_positions {
        out.field("added_positions", &matrix(added.view(), number, 1));
        out.field("x", &batch(trace.input().view(), batched, number));
    }
    let layers = trace.layers.iter().map(|layer| {
        let mut fields = Object::new();
        let attention = trace_json(&layer.attention, batched, None, number);
        fields.field("attention", &indented(&attention, 1));
        let arrays: [(&str, &Array3<f64>); 8] = [
            ("sum_1", &layer.sum_1),
            ("norm_1", &layer.norm_1.output),
            ("hidden", &layer.hidden),
            ("activated", &layer.activated),
            ("ffn", &layer.ffn),
            ("sum_2", &layer.sum_2),
            ("norm_2", &layer.norm_2.output),
            ("output", &layer.output),
        ];
        for (name, values) in arrays {
            fields.field(name, &batch(values.view(), batched, number));
        }
        indented(&fields.finish(), 2)
    });
    let mut block = Object::new();
    block.field("layers", &nested(layers, 1));
    block.field("output", &batch(trace.output.view(), batched, number));
    out.field("block", &indented(&block.finish(), 1));
    out.field("empty_rows", &empty_rows(trace.empty_rows(), batched));
    if let Some(tokens) = tokens {
        out.field("tokens", &list(tokens.iter(), |t| quoted(t)));
    }
    out.finish()
}
