//! Reading `data/random_golden.json`, and its golden forward pass (the
//! `forward` entry: an odd shape, with whole blocks and the entries outside
//! them, a padding mask and a causal one). The core's native test and the
//! app's browser test both include this file, so the two run the very same
//! pass and compare it with the same pinned bits.

use attention_core::random::{fingerprint, normal_matrix};
use attention_core::{forward_sequence, Head, Options};
use ndarray::Axis;
use serde_json::Value;

/// The fingerprints of the scores, weights and output the pass `forward`
/// describes gives here, and those the file pins, in that order.
pub fn forward_fingerprints(forward: &Value) -> ([u64; 3], [u64; 3]) {
    let seed = number(forward, "seed");
    let [t, d, d_k, d_v, padding] =
        ["t", "d", "d_k", "d_v", "padding"].map(|field| number(forward, field) as usize);
    let head = Head {
        w_q: normal_matrix(d, d_k, 0.5, seed + 1),
        w_k: normal_matrix(d, d_k, 0.5, seed + 2),
        w_v: normal_matrix(d, d_v, 0.5, seed + 3),
    };
    let real: Vec<bool> = (0..t).map(|j| j < t - padding).collect();
    let options = Options {
        causal: true,
        scale: true,
        ..Options::default()
    };
    let trace = forward_sequence(
        normal_matrix(t, d, 1.0, seed).view(),
        &head,
        Some(&real),
        options,
    )
    .expect("the golden forward pass runs");
    let computed = [&trace.scores, &trace.weights, &trace.output]
        .map(|a| fingerprint(&a.index_axis(Axis(0), 0).to_owned()));
    let pinned = [
        "scores_fingerprint",
        "weights_fingerprint",
        "output_fingerprint",
    ]
    .map(|field| number(forward, field));
    (computed, pinned)
}

/// A whole number of the file: a size as a JSON number, or a seed or
/// fingerprint as a decimal string (a u64 does not fit a JSON double).
pub fn number(entry: &Value, field: &str) -> u64 {
    let value = &entry[field];
    value
        .as_u64()
        .or_else(|| value.as_str()?.parse().ok())
        .unwrap_or_else(|| panic!("random_golden.json: {field} should be a whole number"))
}
