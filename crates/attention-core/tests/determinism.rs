//! Seeded random matrices are reproducible: the same seed gives the same bits
//! on every run and every target, and a golden file pins those bits down.

#[path = "shared/golden.rs"]
mod golden;

use attention_core::random::{fingerprint, normal_matrix, uniform_matrix};
use serde_json::Value;

const GOLDEN: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/random_golden.json"
));

#[test]
fn same_seed_gives_the_same_bits() {
    for seed in [0, 1, 42, u64::MAX] {
        let a = uniform_matrix(5, 3, -2.0, 2.0, seed);
        let b = uniform_matrix(5, 3, -2.0, 2.0, seed);
        assert!(
            a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits()),
            "uniform, seed {seed}"
        );
        let a = normal_matrix(5, 3, 0.5, seed);
        let b = normal_matrix(5, 3, 0.5, seed);
        assert!(
            a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits()),
            "normal, seed {seed}"
        );
    }
}

#[test]
fn different_seeds_give_different_matrices() {
    let seeds = [0u64, 1, 2, 42, 43, u64::MAX];
    for (n, &s) in seeds.iter().enumerate() {
        for &t in &seeds[n + 1..] {
            assert_ne!(
                uniform_matrix(4, 4, -1.0, 1.0, s),
                uniform_matrix(4, 4, -1.0, 1.0, t),
                "uniform, seeds {s} and {t}"
            );
            assert_ne!(
                normal_matrix(4, 4, 1.0, s),
                normal_matrix(4, 4, 1.0, t),
                "normal, seeds {s} and {t}"
            );
        }
    }
}

/// A field of the golden file holding a u64 as a decimal string, since a JSON
/// number read by JavaScript keeps only 53 bits.
fn golden_u64(golden: &Value, field: &str) -> u64 {
    golden[field]
        .as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            panic!("random_golden.json: {field} should be a u64 as a decimal string")
        })
}

fn golden_usize(golden: &Value, field: &str) -> usize {
    golden[field]
        .as_u64()
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or_else(|| panic!("random_golden.json: {field} should be a whole number"))
}

#[test]
fn fingerprints_match_the_golden_file() {
    let golden: Value = serde_json::from_str(GOLDEN).expect("random_golden.json is valid JSON");
    let seed = golden["seed"]
        .as_u64()
        .expect("random_golden.json: seed should be a whole number");
    let (rows, cols) = (golden_usize(&golden, "rows"), golden_usize(&golden, "cols"));
    let uniform = fingerprint(&uniform_matrix(rows, cols, -1.0, 1.0, seed));
    let normal = fingerprint(&normal_matrix(rows, cols, 1.0, seed));
    assert_eq!(
        (uniform, normal),
        (golden_u64(&golden, "uniform_fingerprint"), golden_u64(&golden, "normal_fingerprint")),
        "fingerprints of uniform_matrix({rows}, {cols}, -1, 1, {seed}) and normal_matrix({rows}, {cols}, 1, {seed})"
    );
}

/// A forward pass on an odd shape (blocks and the entries outside them, a
/// padding mask, causal) gives the golden file's bits, which the browser
/// test checks the WebAssembly build against.
#[test]
fn forward_pass_matches_the_golden_file() {
    let golden: Value = serde_json::from_str(GOLDEN).expect("random_golden.json is valid JSON");
    let (computed, pinned) = golden::forward_fingerprints(&golden["forward"]);
    assert_eq!(
        computed, pinned,
        "scores, weights and output of the golden forward pass"
    );
}

/// A seeded transformer block (LayerNorm, GELU, two layers) gives the golden
/// file's bits, which the browser test checks the WebAssembly build against.
#[test]
fn block_matches_the_golden_file() {
    let golden: Value = serde_json::from_str(GOLDEN).expect("random_golden.json is valid JSON");
    let (computed, pinned) = golden::block_fingerprints(&golden["block"]);
    assert_eq!(
        computed, pinned,
        "the golden block's fingerprints: {computed:?}"
    );
}
