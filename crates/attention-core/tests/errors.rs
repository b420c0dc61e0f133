//! Bad input of every kind gives a typed error whose message names the field
//! and the row, never a panic and never NaN. Each test is a plain `#[test]`:
//! a panic anywhere in the core fails it.

use attention_core::limits::{MAX_DIM, MAX_TOKENS};
use attention_core::{
    forward, forward_heads, forward_sequence, AttentionError, Head, Options, Positions, Scenario,
};
use ndarray::{array, Array2, Array3, Axis};
use serde_json::json;

fn identity_head(d: usize) -> Head {
    Head {
        w_q: Array2::eye(d),
        w_k: Array2::eye(d),
        w_v: Array2::eye(d),
    }
}

/// A valid single-sequence scenario, as JSON, with `changes` merged over it.
fn scenario_with(changes: serde_json::Value) -> Result<Scenario, AttentionError> {
    let mut value = json!({
        "x": [[1, 0], [0, 1], [1, 1]],
        "w_q": [[1, 0], [0, 1]],
        "w_k": [[1, 0], [0, 1]],
        "w_v": [[1, 0], [0, 1]],
    });
    for (field, v) in changes.as_object().expect("changes are an object") {
        value[field] = v.clone();
    }
    Scenario::from_value(&value)
}

/// Asserts that the message names every one of `parts`.
fn assert_names(error: &AttentionError, parts: &[&str]) {
    let message = error.to_string();
    for part in parts {
        assert!(
            message.contains(part),
            "{message:?} does not mention {part:?}"
        );
    }
}

#[test]
fn w_q_rows_must_match_the_features_of_x() {
    let x = Array3::<f64>::zeros((1, 4, 3));
    let head = Head {
        w_q: Array2::zeros((2, 2)),
        w_k: Array2::zeros((3, 2)),
        w_v: Array2::zeros((3, 2)),
    };
    let error = forward(x.view(), &head, None, Options::default()).unwrap_err();
    assert!(
        matches!(&error, AttentionError::ShapeMismatch { field, found, .. } if field == "w_q" && found == "2×2"),
        "{error:?}"
    );
    assert_names(&error, &["w_q", "2×2", "3×2"]);

    let error = scenario_with(json!({"w_q": [[1, 0], [0, 1], [1, 1]]}))
        .and_then(|s| s.run())
        .unwrap_err();
    assert!(matches!(&error, AttentionError::ShapeMismatch { field, .. } if field == "w_q"));
    assert_names(&error, &["w_q", "3×2", "2×2"]);
}

#[test]
fn w_k_columns_must_match_w_q() {
    let error = scenario_with(json!({"w_k": [[1, 0, 0], [0, 1, 0]]}))
        .and_then(|s| s.run())
        .unwrap_err();
    assert!(
        matches!(&error, AttentionError::ShapeMismatch { field, found, .. } if field == "w_k" && found == "2×3"),
        "{error:?}"
    );
    assert_names(&error, &["w_k", "2×3", "2×2"]);
}

#[test]
fn the_mask_needs_one_flag_per_position() {
    let error = scenario_with(json!({"mask": [1, 0]})).unwrap_err();
    assert!(matches!(&error, AttentionError::ShapeMismatch { field, .. } if field == "mask"));
    assert_names(&error, &["mask", "3 flags", "2 flags"]);

    let error = Scenario::from_value(&json!({
        "x": [[[1, 0], [0, 1]], [[1, 1], [0, 0]]],
        "w_q": [[1], [0]], "w_k": [[1], [0]], "w_v": [[1], [0]],
        "mask": [[1, 1], [1, 0, 1]],
    }))
    .unwrap_err();
    assert!(matches!(&error, AttentionError::ShapeMismatch { field, .. } if field == "mask[1]"));
    assert_names(&error, &["mask[1]", "2 flags", "3 flags"]);

    let x = Array3::<f64>::zeros((2, 3, 2));
    let mask = Array2::from_elem((2, 2), true);
    let error = forward(
        x.view(),
        &identity_head(2),
        Some(mask.view()),
        Options::default(),
    )
    .unwrap_err();
    assert!(matches!(&error, AttentionError::ShapeMismatch { field, .. } if field == "mask"));
    assert_names(&error, &["mask", "2×3", "2×2"]);

    let error = forward_sequence(
        Array2::<f64>::zeros((3, 2)).view(),
        &identity_head(2),
        Some(&[true; 4]),
        Options::default(),
    )
    .unwrap_err();
    assert!(matches!(&error, AttentionError::ShapeMismatch { field, .. } if field == "mask"));
    assert_names(&error, &["mask", "1×3", "1×4"]);
}

#[test]
fn a_batched_mask_for_one_sequence_says_so() {
    // x holds one sequence of 3 tokens; a list of rows is a batch's mask.
    let error = scenario_with(json!({"mask": [[1, 1, 0]]})).unwrap_err();
    assert!(matches!(&error, AttentionError::ShapeMismatch { field, .. } if field == "mask"));
    assert_names(
        &error,
        &["mask", "3 flags", "one sequence", "1 row, a batch's mask"],
    );
}

#[test]
fn tokens_need_one_label_per_position() {
    let error = scenario_with(json!({"tokens": ["a", "b"]})).unwrap_err();
    assert!(matches!(&error, AttentionError::ShapeMismatch { field, .. } if field == "tokens"));
    assert_names(&error, &["tokens", "3 labels", "2 labels"]);
}

#[test]
fn sequences_of_a_batch_need_the_same_shape() {
    let error = Scenario::from_value(&json!({
        "x": [[[1, 0], [0, 1]], [[1, 1], [0, 0], [1, 0]]],
        "w_q": [[1], [0]], "w_k": [[1], [0]], "w_v": [[1], [0]],
    }))
    .unwrap_err();
    assert!(matches!(&error, AttentionError::ShapeMismatch { field, .. } if field == "x[1]"));
    assert_names(&error, &["x[1]", "3×2", "2×2"]);
}

#[test]
fn ragged_rows_are_named() {
    let error = scenario_with(json!({"x": [[1, 0], [0, 1], [1]]})).unwrap_err();
    assert_eq!(
        error,
        AttentionError::Ragged {
            field: "x".into(),
            row: "row [2]".into(),
            expected: 2,
            found: 1,
        }
    );
    assert_names(&error, &["x", "row [2]", "1 number,", "first row has 2"]);

    let error = scenario_with(json!({"w_q": [[1, 0], [0, 1, 2]]})).unwrap_err();
    assert!(
        matches!(&error, AttentionError::Ragged { field, row, expected: 2, found: 3 } if field == "w_q" && row == "row [1]"),
        "{error:?}"
    );
    assert_names(&error, &["w_q", "row [1]"]);

    let error = Scenario::from_value(&json!({
        "x": [[[1, 0], [0, 1], [1, 1]], [[1, 1], [0, 0], [1]]],
        "w_q": [[1], [0]], "w_k": [[1], [0]], "w_v": [[1], [0]],
    }))
    .unwrap_err();
    assert!(
        matches!(&error, AttentionError::Ragged { field, row, .. } if field == "x" && row == "row [1][2]"),
        "{error:?}"
    );
    assert_names(&error, &["x", "[1][2]"]);
}

#[test]
fn empty_input_is_an_error() {
    for x in [json!([]), json!([[]]), json!([[[]]])] {
        let error = scenario_with(json!({ "x": x })).unwrap_err();
        assert_eq!(
            error,
            AttentionError::Empty { field: "x".into() },
            "x = {x}"
        );
        assert_names(&error, &["x", "empty"]);
    }
    for shape in [(0, 3, 2), (1, 0, 2), (1, 3, 0)] {
        let x = Array3::<f64>::zeros(shape);
        let error = forward(x.view(), &identity_head(2), None, Options::default()).unwrap_err();
        assert_eq!(
            error,
            AttentionError::Empty { field: "x".into() },
            "x of shape {shape:?}"
        );
    }
    let error = scenario_with(json!({"w_v": []})).unwrap_err();
    assert_eq!(
        error,
        AttentionError::Empty {
            field: "w_v".into()
        }
    );
}

#[test]
fn a_missing_field_is_named() {
    let error = Scenario::from_value(&json!({"x": [[1]], "w_q": [[1]], "w_k": [[1]]})).unwrap_err();
    assert_eq!(
        error,
        AttentionError::Missing {
            field: "w_v".into()
        }
    );
    assert_names(&error, &["w_v", "missing"]);
}

#[test]
fn non_finite_numbers_are_named() {
    let mut x = Array3::<f64>::zeros((2, 3, 2));
    x[[1, 2, 0]] = f64::NAN;
    let error = forward(x.view(), &identity_head(2), None, Options::default()).unwrap_err();
    assert_eq!(
        error,
        AttentionError::NonFinite {
            field: "x".into(),
            row: "row [1][2]".into(),
        }
    );
    assert_names(&error, &["x", "row [1][2]", "NaN or infinite"]);

    for bad in [f64::INFINITY, f64::NEG_INFINITY] {
        let mut head = identity_head(2);
        head.w_v[[1, 0]] = bad;
        let x = Array3::<f64>::zeros((1, 3, 2));
        let error = forward(x.view(), &head, None, Options::default()).unwrap_err();
        assert_eq!(
            error,
            AttentionError::NonFinite {
                field: "w_v".into(),
                row: "row [1]".into(),
            }
        );
        assert_names(&error, &["w_v", "row [1]"]);
    }
}

#[test]
fn wrong_json_types_are_named() {
    let error = scenario_with(json!({"x": [[1, 0], [0, "one"], [1, 1]]})).unwrap_err();
    assert!(
        matches!(&error, AttentionError::WrongType { field, row, .. } if field == "x" && row == "row [1]"),
        "{error:?}"
    );
    assert_names(&error, &["x", "row [1]", "numbers"]);

    let error = scenario_with(json!({"mask": [1, 2, 0]})).unwrap_err();
    assert!(
        matches!(&error, AttentionError::WrongType { field, row, .. } if field == "mask" && row == "flag [1]"),
        "{error:?}"
    );
    assert_names(&error, &["mask", "flag [1]", "0 (padding) or 1 (real)"]);

    // A flat list where rows belong names the first row, not "empty".
    let error = scenario_with(json!({"x": [1, 2]})).unwrap_err();
    assert!(
        matches!(&error, AttentionError::WrongType { field, row, .. } if field == "x" && row == "row [0]"),
        "{error:?}"
    );
    let error = scenario_with(json!({"x": null})).unwrap_err();
    assert_names(&error, &["x", "the whole field"]);

    let error = Scenario::from_value(&json!({
        "x": [[[1, 0], [0, 1]], [[1, 1], [0, 0]]],
        "w_q": [[1], [0]], "w_k": [[1], [0]], "w_v": [[1], [0]],
        "mask": [[1, 1], [1, 2]],
    }))
    .unwrap_err();
    assert!(
        matches!(&error, AttentionError::WrongType { field, row, .. } if field == "mask" && row == "flag [1][1]"),
        "{error:?}"
    );
    assert_names(&error, &["mask", "flag [1][1]"]);

    let error = scenario_with(json!({"causal": "yes"})).unwrap_err();
    assert!(matches!(&error, AttentionError::WrongType { field, .. } if field == "causal"));
    assert_names(&error, &["causal", "true or false"]);

    let error = scenario_with(json!({"tokens": ["a", 2, "c"]})).unwrap_err();
    assert!(
        matches!(&error, AttentionError::WrongType { field, row, .. } if field == "tokens" && row == "label [1]"),
        "{error:?}"
    );

    let error = Scenario::from_value(&json!([1, 2])).unwrap_err();
    assert!(matches!(&error, AttentionError::WrongType { field, .. } if field == "input"));
}

#[test]
fn unknown_fields_are_named() {
    let error = scenario_with(json!({"temperature": 0.5})).unwrap_err();
    assert!(
        matches!(&error, AttentionError::WrongType { field, .. } if field == "temperature"),
        "{error:?}"
    );
    assert_names(&error, &["temperature", "one of tokens, x, w_q"]);
}

#[test]
fn invalid_json_text_is_a_json_error() {
    for text in ["", "{", r#"{"x": [[1, 0]],}"#, "not json"] {
        let error = Scenario::from_json(text).unwrap_err();
        assert!(
            matches!(error, AttentionError::Json { .. }),
            "{text:?} gave {error:?}"
        );
        assert!(
            error.to_string().starts_with("input: not valid JSON"),
            "{error}"
        );
    }
}

#[test]
fn sizes_past_the_limits_are_too_large() {
    let x = Array3::<f64>::zeros((1, MAX_TOKENS + 1, 1));
    let error = forward(x.view(), &identity_head(1), None, Options::default()).unwrap_err();
    assert_eq!(
        error,
        AttentionError::TooLarge {
            field: "x".into(),
            what: "positions",
            limit: MAX_TOKENS,
            found: MAX_TOKENS + 1,
        }
    );
    assert_names(&error, &["x", "513 positions", "512"]);

    let x = Array3::<f64>::zeros((1, 2, MAX_DIM + 1));
    let error = forward(
        x.view(),
        &identity_head(MAX_DIM + 1),
        None,
        Options::default(),
    )
    .unwrap_err();
    assert!(
        matches!(&error, AttentionError::TooLarge { field, what: "features", .. } if field == "x")
    );

    let x = Array3::<f64>::zeros((65, 1, 1));
    let error = forward(x.view(), &identity_head(1), None, Options::default()).unwrap_err();
    assert!(matches!(
        &error,
        AttentionError::TooLarge {
            what: "sequences",
            limit: 64,
            ..
        }
    ));

    let x = Array3::<f64>::zeros((5, MAX_TOKENS, 1));
    let error = forward(x.view(), &identity_head(1), None, Options::default()).unwrap_err();
    assert!(
        matches!(
            &error,
            AttentionError::TooLarge {
                what: "score cells (B×T×T)",
                ..
            }
        ),
        "{error:?}"
    );

    let x = Array3::<f64>::zeros((1, 2, 1));
    let head = Head {
        w_q: Array2::zeros((1, MAX_DIM + 1)),
        w_k: Array2::zeros((1, MAX_DIM + 1)),
        w_v: Array2::zeros((1, 1)),
    };
    let error = forward(x.view(), &head, None, Options::default()).unwrap_err();
    assert!(
        matches!(&error, AttentionError::TooLarge { field, what: "columns", .. } if field == "w_q")
    );

    let error = scenario_with(json!({"tokens": ["a", "b", "c".repeat(33)]})).unwrap_err();
    assert!(
        matches!(&error, AttentionError::TooLarge { field, found: 33, .. } if field == "tokens[2]"),
        "{error:?}"
    );
}

/// The largest sequence the limits allow still runs: T = d = 512, kept fast
/// with d_k = d_v = 1.
#[test]
fn sizes_at_the_limits_work() {
    let x = Array3::from_shape_fn((1, MAX_TOKENS, MAX_DIM), |(_, t, c)| {
        ((t + c) % 7) as f64 / 7.0
    });
    let head = Head {
        w_q: Array2::from_elem((MAX_DIM, 1), 0.01),
        w_k: Array2::from_elem((MAX_DIM, 1), -0.01),
        w_v: Array2::from_elem((MAX_DIM, 1), 1.0),
    };
    let trace = forward(
        x.view(),
        &head,
        None,
        Options {
            causal: true,
            scale: true,
            ..Options::default()
        },
    )
    .expect("at the limits");
    assert_eq!(trace.weights.dim(), (1, MAX_TOKENS, MAX_TOKENS));
    for (i, row) in trace
        .weights
        .index_axis(Axis(0), 0)
        .rows()
        .into_iter()
        .enumerate()
    {
        assert!(
            (row.sum() - 1.0).abs() < 1e-12,
            "row {i} sums to {}",
            row.sum()
        );
    }
}

#[test]
fn overflow_is_an_error_not_nan() {
    let x = Array3::from_elem((1, 2, 2), 1e200);
    let head = Head {
        w_q: Array2::from_elem((2, 2), 1e200),
        w_k: Array2::from_elem((2, 2), 1e200),
        w_v: Array2::from_elem((2, 2), 1e200),
    };
    let error = forward(x.view(), &head, None, Options::default()).unwrap_err();
    assert!(
        matches!(&error, AttentionError::Overflow { field } if field == "q"),
        "{error:?}"
    );
    assert_names(&error, &["q", "overflowed"]);

    // Q and K are finite here, but their dot product is not.
    let error = forward(
        array![[[1e160]]].view(),
        &identity_head(1),
        None,
        Options::default(),
    )
    .unwrap_err();
    assert!(
        matches!(&error, AttentionError::Overflow { field } if field == "scores"),
        "{error:?}"
    );

    let error = scenario_with(json!({
        "x": [[1e200, 1e200]],
        "w_q": [[1e200, 0], [0, 1e200]],
        "w_k": [[1e200, 0], [0, 1e200]],
        "w_v": [[1e200, 0], [0, 1e200]],
    }))
    .and_then(|s| s.run())
    .unwrap_err();
    assert!(
        matches!(error, AttentionError::Overflow { .. }),
        "{error:?}"
    );
}

#[test]
fn a_fully_masked_sequence_gives_zeros_not_nan() {
    let scenario = Scenario::from_value(&json!({
        "x": [[[1, 0], [0, 1], [1, 1]], [[2, 0], [0, 2], [2, 2]]],
        "w_q": [[1, 0], [0, 1]], "w_k": [[1, 0], [0, 1]], "w_v": [[1, 0], [0, 1]],
        "mask": [[1, 1, 0], [0, 0, 0]],
    }))
    .expect("valid scenario");
    let layer = scenario
        .run()
        .expect("a fully masked sequence is not an error");
    let trace = &layer.heads[0];
    assert!(trace
        .weights
        .iter()
        .chain(&trace.output)
        .all(|v| !v.is_nan()));
    for v in trace
        .weights
        .slice(ndarray::s![1, .., ..])
        .iter()
        .chain(trace.output.slice(ndarray::s![1, .., ..]))
    {
        assert_eq!(*v, 0.0);
    }
    assert_eq!(trace.empty_rows, vec![(1, 0), (1, 1), (1, 2)]);
    assert_eq!(
        trace_value(trace, true)["empty_rows"],
        json!([[1, 0], [1, 1], [1, 2]])
    );

    let trace = forward_sequence(
        array![[1.0, 0.0], [0.0, 1.0]].view(),
        &identity_head(2),
        Some(&[false, false]),
        Options {
            causal: true,
            scale: false,
            ..Options::default()
        },
    )
    .expect("a fully masked sequence is not an error");
    assert!(trace.weights.iter().chain(&trace.output).all(|&v| v == 0.0));
    assert_eq!(trace.empty_rows, vec![(0, 0), (0, 1)]);
    assert_eq!(trace_value(&trace, false)["empty_rows"], json!([0, 1]));
}

/// With a causal mask and the first position padded, query 0 has nothing to
/// look at while the others still do.
#[test]
fn causal_mask_and_padding_can_empty_one_row() {
    let trace = forward_sequence(
        array![[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]].view(),
        &identity_head(2),
        Some(&[false, true, true]),
        Options {
            causal: true,
            scale: true,
            ..Options::default()
        },
    )
    .expect("valid input");
    assert_eq!(trace.empty_rows, vec![(0, 0)]);
    assert_eq!(
        trace.weights.slice(ndarray::s![0, 0, ..]).to_vec(),
        vec![0.0; 3]
    );
    assert_eq!(trace.weights[[0, 1, 1]], 1.0);
}

#[test]
fn float_mask_flags_from_python_are_accepted() {
    let floats = scenario_with(json!({"mask": [1.0, 0.0, 1.0]})).expect("1.0/0.0 flags parse");
    let ints = scenario_with(json!({"mask": [1, 0, 1]})).expect("1/0 flags parse");
    assert_eq!(floats.mask, ints.mask);
    let error = scenario_with(json!({"mask": [1.0, 0.5, 1.0]})).unwrap_err();
    assert_names(&error, &["mask", "flag [1]"]);
}

/// The trace as `attn-trace` writes it, parsed back.
fn trace_value(trace: &attention_core::Trace, batched: bool) -> serde_json::Value {
    let layer = attention_core::LayerTrace::single(trace.clone());
    let text = attention_core::json::trace_json(&layer, batched, None, |v| format!("{v:?}"));
    serde_json::from_str(&text).expect("the trace's JSON parses")
}

/// The number of heads is a whole number from 1 to 8.
#[test]
fn heads_must_be_a_whole_number_from_one_to_eight() {
    for bad in [json!(1.5), json!(-1), json!("2"), json!(true)] {
        let error = scenario_with(json!({ "heads": bad })).unwrap_err();
        assert_names(&error, &["heads", "whole number"]);
    }
    for (bad, found) in [(0, "0"), (9, "9")] {
        let error = scenario_with(json!({ "heads": bad })).unwrap_err();
        assert_names(&error, &["heads", "1", "8", found]);
    }
    let two = scenario_with(json!({ "heads": 2 })).expect("2 heads of one column each");
    assert_eq!(two.heads, 2);
    assert_eq!(
        scenario_with(json!({ "heads": null }))
            .expect("default")
            .heads,
        1
    );
}

/// The heads share W_Q's and W_V's columns equally.
#[test]
fn heads_must_divide_the_columns() {
    let error = scenario_with(json!({ "heads": 2, "w_q": [[1, 0, 0], [0, 1, 0]],
        "w_k": [[1, 0, 0], [0, 1, 0]] }))
    .and_then(|s| s.run().map(|_| ()))
    .unwrap_err();
    assert_names(&error, &["w_q", "multiple of 2 columns", "3 columns"]);
    let error = scenario_with(json!({ "heads": 2, "w_v": [[1, 0, 0], [0, 1, 0]] }))
        .and_then(|s| s.run().map(|_| ()))
        .unwrap_err();
    assert_names(&error, &["w_v", "multiple of 2 columns", "3 columns"]);
}

/// W_O has one row per column of the joined heads, and finite numbers.
#[test]
fn w_o_must_fit_the_joined_heads() {
    let run = |changes| scenario_with(changes).and_then(|s| s.run().map(|_| ()));
    let error = run(json!({ "w_o": [[1, 0]] })).unwrap_err();
    assert_names(&error, &["w_o", "2 rows", "found 1 row"]);
    let error = run(json!({ "w_o": [] })).unwrap_err();
    assert_names(&error, &["w_o", "empty"]);
    let error = run(json!({ "w_o": [[1, 0], [0, "a"]] })).unwrap_err();
    assert_names(&error, &["w_o", "row [1]"]);
    let error = run(json!({ "w_v": [[1e300, 0], [0, 1]], "w_o": [[1e300], [0]] })).unwrap_err();
    assert_eq!(
        error,
        AttentionError::Overflow {
            field: "output".into()
        }
    );
    run(json!({ "heads": 2, "w_o": [[1, 2, 3], [4, 5, 6]] })).expect("W_O may widen the output");
}

/// With several heads, the score cells of every head count.
#[test]
fn score_cells_count_every_head() {
    let t = 512;
    let x: Vec<Vec<f64>> = (0..t).map(|i| vec![i as f64 / 512.0; 8]).collect();
    let eye: Vec<Vec<f64>> = (0..8)
        .map(|i| (0..8).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    let scenario = |heads| {
        scenario_with(json!({ "x": x, "w_q": eye, "w_k": eye, "w_v": eye, "heads": heads }))
            .expect("parses")
    };
    assert!(scenario(4).run().is_ok(), "4 heads of 512 positions fit");
    let error = scenario(8).run().unwrap_err();
    assert_names(
        &error,
        &["x", "2097152 score cells (B×heads×T×T)", "1048576"],
    );
}

/// What running a scenario with `changes` says, in English.
fn run_error(changes: serde_json::Value) -> String {
    match scenario_with(changes).and_then(|s| s.run().map(|_| ())) {
        Err(error) => error.to_string(),
        Ok(()) => "runs".into(),
    }
}

/// `positions` is one of four ids; anything else lists them.
#[test]
fn positions_must_be_one_of_the_four_ids() {
    for bad in [json!("absolute"), json!("Rope"), json!(3), json!(true)] {
        let error = scenario_with(json!({ "positions": bad })).unwrap_err();
        assert_eq!(
            error.to_string(),
            r#"positions: the value should be one of "none", "sinusoidal", "learned", "rope""#
        );
    }
    for positions in Positions::ALL {
        let parsed = scenario_with(json!({ "positions": positions.id() })).expect("a known id");
        assert_eq!(parsed.options.positions, positions);
    }
    let default = scenario_with(json!({ "positions": null })).expect("default");
    assert_eq!(default.options.positions, Positions::None);
}

/// Learned positions need `p`, of x's shape and finite, and `p` is for
/// learned positions only.
#[test]
fn p_goes_with_learned_positions_only() {
    assert_eq!(
        run_error(json!({ "positions": "learned" })),
        r#"p: is missing; positions "learned" adds row t of p to row t of x"#
    );
    let p = json!([[1, 0], [0, 1], [1, 1]]);
    assert_eq!(run_error(json!({ "positions": "learned", "p": p })), "runs");
    assert_eq!(
        run_error(json!({ "p": p })),
        r#"p: is given, but positions is "none"; only positions "learned" reads p"#
    );
    for positions in ["sinusoidal", "rope"] {
        assert_eq!(
            run_error(json!({ "positions": positions, "p": p })),
            format!(
                r#"p: is given, but positions is "{positions}"; only positions "learned" reads p"#
            )
        );
    }
    assert_eq!(
        run_error(json!({ "positions": "learned", "p": [[1, 0], [0, 1]] })),
        "p: found 2×2, expected 3×2 (one row per position of x, one column per feature)"
    );
    assert_eq!(
        run_error(json!({ "positions": "learned", "p": [[1, 0, 0], [0, 1, 0], [1, 1, 0]] })),
        "p: found 3×3, expected 3×2 (one row per position of x, one column per feature)"
    );
    assert_eq!(
        run_error(json!({ "positions": "learned", "p": [[1, 0], [0, "a"], [1, 1]] })),
        "p: row [1] should be a list of numbers only"
    );
    // JSON has no NaN: a p with one comes from a program, through forward_heads.
    let x = Array3::<f64>::zeros((1, 3, 2));
    let mut p = Array2::<f64>::zeros((3, 2));
    p[[2, 1]] = f64::NAN;
    let learned = Options {
        positions: Positions::Learned,
        ..Options::default()
    };
    let error = forward_heads(
        x.view(),
        &identity_head(2),
        1,
        None,
        None,
        Some(p.view()),
        learned,
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "p: row [2] holds a number that is NaN or infinite"
    );
}

/// RoPE turns each head's columns in pairs: an odd number per head is an
/// error naming w_q.
#[test]
fn rope_needs_an_even_number_of_columns_per_head() {
    let odd = json!([[1, 0, 0], [0, 1, 0]]);
    assert_eq!(
        run_error(json!({ "positions": "rope", "w_q": odd, "w_k": odd })),
        "w_q: rope rotates pairs of columns: each head needs an even number of columns, found 3"
    );
    assert_eq!(
        run_error(json!({ "positions": "rope", "heads": 2 })),
        "w_q: rope rotates pairs of columns: each head needs an even number of columns, found 1"
    );
    assert_eq!(run_error(json!({ "positions": "rope" })), "runs");
    // One head alone, through forward, says the same.
    let x = Array3::<f64>::zeros((1, 2, 3));
    let rope = Options {
        positions: Positions::Rope,
        ..Options::default()
    };
    let error = forward(x.view(), &identity_head(3), None, rope).unwrap_err();
    assert_eq!(
        error,
        AttentionError::OddColumns {
            field: "w_q".into(),
            found: 3
        }
    );
}

/// `forward` has no `p`, so it refuses learned positions; training learns
/// without positions and refuses them all.
#[test]
fn forward_and_training_refuse_what_they_cannot_do() {
    let x = Array3::<f64>::zeros((1, 2, 2));
    let learned = Options {
        positions: Positions::Learned,
        ..Options::default()
    };
    let error = forward(x.view(), &identity_head(2), None, learned).unwrap_err();
    assert_eq!(
        error.to_string(),
        "positions: the value should be none, sinusoidal or rope here: forward takes no p (use forward_heads with p)"
    );
    let sinusoidal = Options {
        positions: Positions::Sinusoidal,
        ..Options::default()
    };
    let x = array![[1.0, 0.0], [0.0, 1.0]];
    let error =
        attention_core::train::forward_values(x.view(), &identity_head(2), None, sinusoidal)
            .unwrap_err();
    assert_eq!(
        error.to_string(),
        "positions: the value should be none here: training learns without positions"
    );
}

/// A block's problems name the layer and the field within it, from the top
/// of the scenario, in the parser and in the forward pass alike.
#[test]
fn block_problems_name_the_layer_and_field() {
    let layer = |w_1: serde_json::Value, b_q: serde_json::Value| {
        json!({"w_q": [[1, 0], [0, 1]], "w_k": [[1, 0], [0, 1]], "w_v": [[1, 0], [0, 1]],
               "w_o": [[1, 0], [0, 1]], "b_q": b_q, "gamma_1": [1, 1], "gamma_2": [1, 1],
               "w_1": w_1, "w_2": [[1, 1], [0, 1], [1, 0]]})
    };
    let good = layer(json!([[1, 0, 1], [0, 1, 1]]), json!([0, 0]));
    let with_layers = |layers: Vec<serde_json::Value>| {
        Scenario::from_value(&json!({"x": [[1, 2], [3, 5]], "block": {"layers": layers}}))
    };
    let error = with_layers(vec![
        good.clone(),
        layer(json!([[1, 0], [0, 1]]), json!([0, 0])),
    ])
    .and_then(|s| s.run_block().map(|_| s))
    .unwrap_err();
    assert!(
        matches!(&error, AttentionError::ShapeMismatch { field, .. } if field == "block.layers[1].w_2"),
        "{error:?}"
    );
    assert_names(&error, &["block.layers[1].w_2", "2×2", "3×2"]);

    let error = with_layers(vec![layer(json!([[1, 0, 1], [0, 1, 1]]), json!([0, 0, 0]))])
        .and_then(|s| s.run_block().map(|_| s))
        .unwrap_err();
    assert_names(
        &error,
        &[
            "block.layers[0].b_q",
            "2 numbers, one per column of w_q",
            "3 numbers",
        ],
    );

    let error =
        with_layers(vec![layer(json!([[1, 0, 1], [0, 1, 1]]), json!([0, "a"]))]).unwrap_err();
    assert!(
        matches!(&error, AttentionError::WrongType { field, row, .. } if field == "block.layers[0].b_q" && row == "number [1]"),
        "{error:?}"
    );

    // An error about x itself stays an error about x, whichever layer finds it.
    let error = Scenario::from_value(&json!({"x": [[1, 2, 3]], "block": {"layers": [good]}}))
        .and_then(|s| s.run_block().map(|_| s))
        .unwrap_err();
    assert_names(&error, &["block.layers[0].w_q", "3 features of x"]);

    // Too many layers.
    let five = vec![good; 5];
    let error = with_layers(five).unwrap_err();
    assert_names(&error, &["block.layers", "between 1 and 4", "5"]);
}
