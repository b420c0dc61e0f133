//! Runs the real `attn-trace` binary: on the README's own example, on stdin,
//! and on bad input, where it must exit 2 with one line naming the fault.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn attn_trace(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_attn-trace"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("attn-trace starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("attn-trace finishes")
}

/// The first ```json block of the README: the documented example must work.
fn readme_example() -> String {
    let readme = include_str!("../../../README.md");
    let start = readme.find("```json\n").expect("README has a json block") + 8;
    let end = start + readme[start..].find("```").expect("closed block");
    readme[start..end].to_string()
}

#[test]
fn the_readme_example_prints_a_full_trace() {
    let out = attn_trace(&["-"], &readme_example());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let trace: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    for field in ["q", "k", "v", "scores", "scaled", "weights", "output"] {
        assert_eq!(trace[field].as_array().map(Vec::len), Some(4), "{field}");
    }
    assert_eq!(trace["tokens"][0], "我");
    // The README's mask pads the last token: its column must be exactly 0.
    for row in trace["weights"].as_array().expect("weights") {
        assert_eq!(row[3].as_f64(), Some(0.0));
        let sum: f64 = row
            .as_array()
            .expect("row")
            .iter()
            .filter_map(|v| v.as_f64())
            .sum();
        assert!((sum - 1.0).abs() < 1e-12);
    }
}

/// Two heads and a W_O: each head's fields gain a head axis, and the
/// layer's `concat` and `output` follow, as the README's second table says.
#[test]
fn two_heads_print_a_head_axis_and_the_layer_output() {
    let scenario = r#"{"x": [[1, 0], [0, 1], [1, 1]], "heads": 2,
        "w_q": [[1, 0], [0, 1]], "w_k": [[1, 0], [0, 1]], "w_v": [[1, 0], [0, 1]],
        "w_o": [[1, 1, 1], [0, 1, 2]]}"#;
    let out = attn_trace(&["-"], scenario);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let trace: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    let dims = |field: &str| {
        let mut dims = Vec::new();
        let mut at = &trace[field];
        while let Some(items) = at.as_array() {
            dims.push(items.len());
            at = &items[0];
        }
        dims
    };
    assert_eq!(dims("q"), [2, 3, 1]);
    assert_eq!(dims("weights"), [2, 3, 3]);
    assert_eq!(dims("head_output"), [2, 3, 1]);
    assert_eq!(dims("concat"), [3, 2]);
    assert_eq!(dims("output"), [3, 3]);
    // Row 0 of the output is concat row 0 times W_O.
    let concat = &trace["concat"][0];
    let (a, b) = (
        concat[0].as_f64().unwrap_or(f64::NAN),
        concat[1].as_f64().unwrap_or(f64::NAN),
    );
    assert_eq!(trace["output"][0][2].as_f64(), Some(a + 2.0 * b));
}

#[test]
fn a_file_argument_works_like_stdin() {
    let path = std::env::temp_dir().join(format!("attn-trace-{}.json", std::process::id()));
    std::fs::write(&path, readme_example()).expect("write temp file");
    let from_file = attn_trace(&[path.to_str().expect("utf-8 path")], "");
    let from_stdin = attn_trace(&["-"], &readme_example());
    let _ = std::fs::remove_file(&path);
    assert!(from_file.status.success());
    assert_eq!(from_file.stdout, from_stdin.stdout);
}

#[test]
fn bad_input_exits_2_with_one_line_naming_field_and_row() {
    let cases = [
        (
            r#"{"x": [[1, 2], [3]], "w_q": [[1], [0]], "w_k": [[1], [0]], "w_v": [[1], [1]]}"#,
            "x: row [1]",
        ),
        (
            r#"{"x": [[1, 2]], "w_q": [[1], [0], [5]], "w_k": [[1], [0]], "w_v": [[1], [1]]}"#,
            "w_q:",
        ),
        (
            r#"{"x": [[1, 2]], "w_q": [[1], ["a"]], "w_k": [[1], [0]], "w_v": [[1], [1]]}"#,
            "w_q: row [1]",
        ),
        (
            r#"{"x": [[1, 2]], "w_q": [[1], [0]], "w_k": [[1], [0]], "w_v": [[1], [1]], "mask": [2]}"#,
            "mask:",
        ),
        (r#"{"x": [[1, 2]]"#, "input: not valid JSON"),
        (r#"{"w_q": [[1]]}"#, "x:"),
    ];
    for (input, names) in cases {
        let out = attn_trace(&["-"], input);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{input} → {stderr}");
        assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
        assert!(stderr.contains(names), "{stderr:?} should name {names:?}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn a_missing_file_or_argument_exits_2() {
    let out = attn_trace(&["/no/such/file.json"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/no/such/file.json"));
    let out = attn_trace(&[], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("usage"));
}

/// Every PyTorch block case, shared and the project's own, through the real
/// binary: each layer's `output` and `block.output` equal PyTorch's to 1e-5
/// relative (times max(1, |expected|)), as in the core's tests.
#[test]
fn block_cases_match_pytorch_through_the_binary() {
    let files = [
        include_str!("../../attention-core/tests/data/torch_block_cases.json"),
        include_str!("../../attention-core/tests/data/torch_block_more_cases.json"),
    ];
    let mut compared = 0;
    for text in files {
        let data: serde_json::Value = serde_json::from_str(text).expect("valid JSON");
        let cases = data
            .get("cases")
            .unwrap_or(&data)
            .as_object()
            .expect("cases");
        for (name, case) in cases {
            let out = attn_trace(&["-"], &case["input"].to_string());
            assert!(
                out.status.success(),
                "{name}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let got: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON out");
            let mut pairs = vec![(&got["block"]["output"], &case["expected"]["output"])];
            let layers = case["expected"]["layers"].as_array().expect("layers");
            for (i, want) in layers.iter().enumerate() {
                pairs.push((&got["block"]["layers"][i]["output"], want));
            }
            for (got, want) in pairs {
                let (got, want) = (flatten(got), flatten(want));
                assert_eq!(got.len(), want.len(), "{name}: sizes");
                assert!(!want.is_empty(), "{name}: nothing to compare");
                for (g, w) in got.iter().zip(&want) {
                    assert!(
                        (g - w).abs() <= 1e-5 * w.abs().max(1.0),
                        "{name}: {g} vs {w}"
                    );
                }
            }
            compared += 1;
        }
    }
    assert_eq!(compared, 8, "two shared cases and six of the project's");
}

/// Every number of nested JSON arrays, in order.
fn flatten(value: &serde_json::Value) -> Vec<f64> {
    match value {
        serde_json::Value::Array(items) => items.iter().flat_map(flatten).collect(),
        other => other.as_f64().into_iter().collect(),
    }
}
