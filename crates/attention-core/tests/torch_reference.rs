//! Compares the core with float64 results computed outside the project, case
//! by case and number by number: one head from PyTorch in
//! `tests/data/torch_cases.json`, and `nn.MultiheadAttention` (several heads,
//! W_O) in `tests/data/torch_mha_cases.json` and in the further cases that
//! `tests/data/make_torch_mha_cases.py` wrote to `torch_mha_more_cases.json`;
//! and rotary positions (RoPE) by the textbook rotation of complex numbers,
//! which `tests/data/make_rope_cases.py` wrote to `rope_cases.json`; and
//! whole transformer blocks (`nn.TransformerEncoderLayer`, stacked in an
//! `nn.TransformerEncoder`) in the shared `tests/data/torch_block_cases.json`
//! and in the further cases `tests/data/make_torch_block_cases.py` wrote to
//! `torch_block_more_cases.json`.

use attention_core::Scenario;
use serde_json::{Map, Value};

const CASES: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/torch_cases.json"
));

const MULTI_HEAD_CASES: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/torch_mha_cases.json"
));

const MORE_MULTI_HEAD_CASES: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/torch_mha_more_cases.json"
));

const ROPE_CASES: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/rope_cases.json"
));

const BLOCK_CASES: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/torch_block_cases.json"
));

const MORE_BLOCK_CASES: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/torch_block_more_cases.json"
));

/// How many cases each data file holds; checked so that an emptied or
/// truncated file cannot make the test pass without comparing anything.
const EXPECTED_CASES: usize = 6;
const EXPECTED_MULTI_HEAD_CASES: usize = 2;
const EXPECTED_MORE_MULTI_HEAD_CASES: usize = 3;
const EXPECTED_ROPE_CASES: usize = 3;
const EXPECTED_BLOCK_CASES: usize = 2;
const EXPECTED_MORE_BLOCK_CASES: usize = 6;

/// Absolute tolerance on the weights, which lie in [0, 1]. PyTorch computes
/// in another order (and may fuse operations), which moves the last bits of a
/// float64; 1e-6 is far above that, yet far below anything a learner would see.
const WEIGHT_TOL: f64 = 1e-6;

/// Relative tolerance (times max(1, |expected|)) on every other number, for the
/// same reason; the large_scores case has scores near 1e5, hence relative.
const VALUE_TOL: f64 = 1e-5;

const FIELDS: [&str; 7] = ["q", "k", "v", "scores", "scaled", "weights", "output"];

/// What `nn.MultiheadAttention` gives, per head (with a head axis) and for
/// the layer.
const MULTI_HEAD_FIELDS: [&str; 9] = [
    "q",
    "k",
    "v",
    "scores",
    "scaled",
    "weights",
    "head_output",
    "concat",
    "output",
];

/// How a field is compared.
#[derive(Clone, Copy)]
enum Check {
    /// Within WEIGHT_TOL, and exactly 0 where PyTorch has exactly 0: masked
    /// keys get exactly 0 on both sides.
    Weights,
    /// Within VALUE_TOL × max(1, |expected|).
    Values,
}

/// Walks two nested JSON arrays together and returns the first difference,
/// naming the index path, e.g. `weights[1][3][0]`.
fn compare(got: &Value, want: &Value, check: Check, path: &str) -> Result<(), String> {
    match (got, want) {
        (Value::Array(got), Value::Array(want)) => {
            if got.len() != want.len() {
                return Err(format!(
                    "{path}: {} entries, expected {}",
                    got.len(),
                    want.len()
                ));
            }
            for (n, (g, w)) in got.iter().zip(want).enumerate() {
                compare(g, w, check, &format!("{path}[{n}]"))?;
            }
            Ok(())
        }
        (Value::Number(g), Value::Number(w)) => {
            let (g, w) = (
                g.as_f64().unwrap_or(f64::NAN),
                w.as_f64().unwrap_or(f64::NAN),
            );
            let allowed = match check {
                Check::Weights if w == 0.0 => 0.0,
                Check::Weights => WEIGHT_TOL,
                Check::Values => VALUE_TOL * w.abs().max(1.0),
            };
            if (g - w).abs() <= allowed {
                Ok(())
            } else {
                Err(format!(
                    "{path}: got {g:e}, the reference {w:e} (allowed difference {allowed:e})"
                ))
            }
        }
        _ => Err(format!("{path}: got {got}, expected {want}")),
    }
}

#[test]
fn every_case_matches_pytorch() {
    let data: Value = serde_json::from_str(CASES).expect("torch_cases.json is valid JSON");
    let cases = data["cases"]
        .as_object()
        .expect("torch_cases.json has an object `cases`");
    assert_eq!(compared(cases, &FIELDS), EXPECTED_CASES);
}

#[test]
fn every_multi_head_case_matches_pytorch() {
    let data: Value =
        serde_json::from_str(MULTI_HEAD_CASES).expect("torch_mha_cases.json is valid JSON");
    let cases = data
        .as_object()
        .expect("torch_mha_cases.json is an object of cases");
    assert_eq!(
        compared(cases, &MULTI_HEAD_FIELDS),
        EXPECTED_MULTI_HEAD_CASES
    );
}

#[test]
fn every_further_multi_head_case_matches_pytorch() {
    let data: Value = serde_json::from_str(MORE_MULTI_HEAD_CASES)
        .expect("torch_mha_more_cases.json is valid JSON");
    let cases = data["cases"]
        .as_object()
        .expect("torch_mha_more_cases.json has an object `cases`");
    assert_eq!(
        compared(cases, &MULTI_HEAD_FIELDS),
        EXPECTED_MORE_MULTI_HEAD_CASES
    );
}

#[test]
fn every_rope_case_matches_the_textbook_rotation() {
    let data: Value = serde_json::from_str(ROPE_CASES).expect("rope_cases.json is valid JSON");
    let cases = data["cases"]
        .as_object()
        .expect("rope_cases.json has an object `cases`");
    let fields = ["q", "k", "scores", "weights", "output"];
    assert_eq!(compared(cases, &fields), EXPECTED_ROPE_CASES);
}

#[test]
fn every_block_case_matches_pytorch() {
    let data: Value =
        serde_json::from_str(BLOCK_CASES).expect("torch_block_cases.json is valid JSON");
    let cases = data
        .as_object()
        .expect("torch_block_cases.json is an object of cases");
    assert_eq!(blocks_compared(cases), EXPECTED_BLOCK_CASES);
}

#[test]
fn every_further_block_case_matches_pytorch() {
    let data: Value =
        serde_json::from_str(MORE_BLOCK_CASES).expect("torch_block_more_cases.json is valid JSON");
    let cases = data["cases"]
        .as_object()
        .expect("torch_block_more_cases.json has an object `cases`");
    assert_eq!(blocks_compared(cases), EXPECTED_MORE_BLOCK_CASES);
}

/// Runs every block case's input and compares each layer's output
/// (`expected.layers`, one array per layer) and the block's output with
/// PyTorch's, through the trace's JSON; panics naming every difference, and
/// returns how many cases were compared.
fn blocks_compared(cases: &Map<String, Value>) -> usize {
    let mut failures = Vec::new();
    for (name, case) in cases {
        let scenario = Scenario::from_value(&case["input"])
            .unwrap_or_else(|e| panic!("case {name}: input does not parse: {e}"));
        let trace = scenario
            .run_block()
            .unwrap_or_else(|e| panic!("case {name}: forward failed: {e}"))
            .unwrap_or_else(|| panic!("case {name}: the input has no block"));
        let text = attention_core::json::block_trace_json(&trace, scenario.batched, None, |v| {
            format!("{v:?}")
        });
        let got: Value = serde_json::from_str(&text).expect("the trace's JSON parses");
        let want_layers = case["expected"]["layers"]
            .as_array()
            .unwrap_or_else(|| panic!("case {name}: expected.layers is missing"));
        let got_layers = got["block"]["layers"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert_eq!(got_layers.len(), want_layers.len(), "case {name}: layers");
        for (i, (got, want)) in got_layers.iter().zip(want_layers).enumerate() {
            let path = format!("layers[{i}].output");
            if let Err(message) = compare(&got["output"], want, Check::Values, &path) {
                failures.push(format!("case {name}: {message}"));
            }
        }
        let want = &case["expected"]["output"];
        if let Err(message) = compare(&got["block"]["output"], want, Check::Values, "output") {
            failures.push(format!("case {name}: {message}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    cases.len()
}

/// Runs every case's input and compares `fields` of its trace's JSON with
/// PyTorch's; panics naming every difference, and returns how many cases
/// were compared.
fn compared(cases: &Map<String, Value>, fields: &[&str]) -> usize {
    let mut failures = Vec::new();
    for (name, case) in cases {
        let scenario = Scenario::from_value(&case["input"])
            .unwrap_or_else(|e| panic!("case {name}: input does not parse: {e}"));
        let layer = scenario
            .run()
            .unwrap_or_else(|e| panic!("case {name}: forward failed: {e}"));
        let text =
            attention_core::json::trace_json(&layer, scenario.batched, None, |v| format!("{v:?}"));
        let got: Value = serde_json::from_str(&text).expect("the trace's JSON parses");
        for &field in fields {
            let want = case["expected"]
                .get(field)
                .unwrap_or_else(|| panic!("case {name}: expected.{field} is missing"));
            let check = if field == "weights" {
                Check::Weights
            } else {
                Check::Values
            };
            if let Err(message) = compare(&got[field], want, check, field) {
                failures.push(format!("case {name}: {message}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    cases.len()
}
