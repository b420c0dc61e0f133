//! The "why √d_k" experiment: its statistics agree with the theory, follow the
//! expected trends, stay in their mathematical ranges, and are reproducible.

use attention_core::experiment::{
    entropy, log_spaced_dims, scaling_experiment, softmax_jacobian_norm, ScalingPoint, Stats,
};
use attention_core::AttentionError;
use ndarray::{Array1, Array2};
use proptest::collection::vec;
use proptest::prelude::*;

/// Rounding slack for quantities in [0, ln 64]: a row of at most 64 weights
/// goes through a few correctly rounded steps each, so results are off by
/// well under 1e-14; 1e-12 leaves ample room.
const ROUNDING_TOL: f64 = 1e-12;

/// Relative tolerance on the sample variance with 2000 draws of 8 keys. At
/// d_k = 1 a score is q·k, whose square has variance about 8; the 8 keys of a
/// draw share q, so the relative standard error is about √(2.75/2000) ≈ 0.04
/// there and smaller at larger d_k. 0.15 is almost four standard errors.
const VARIANCE_TOL: f64 = 0.15;

fn run(d_ks: &[usize], keys: usize, draws: usize, seed: u64) -> Vec<ScalingPoint> {
    scaling_experiment(d_ks, keys, draws, seed).expect("valid settings")
}

#[test]
fn unscaled_variance_is_d_k_and_scaled_variance_is_one() {
    for point in run(&log_spaced_dims(16), 8, 2000, 11) {
        let d_k = point.d_k as f64;
        let unscaled = point.unscaled.dot_variance / d_k;
        let scaled = point.scaled.dot_variance;
        assert!(
            (unscaled - 1.0).abs() < VARIANCE_TOL,
            "d_k {d_k}: {unscaled}"
        );
        assert!((scaled - 1.0).abs() < VARIANCE_TOL, "d_k {d_k}: {scaled}");
        // Scaling divides every score by √d_k, so the variances differ by d_k exactly
        // up to rounding.
        assert!((unscaled - scaled).abs() < 1e-9 * unscaled);
    }
}

#[test]
fn unscaled_rows_saturate_as_d_k_grows_while_scaled_rows_do_not() {
    let points = run(&[1, 512], 8, 60, 5);
    let (small, large) = (points[0], points[1]);
    // At d_k = 1 scaling divides by 1, so both views are the same rows.
    assert_eq!(small.unscaled, small.scaled);

    assert!(large.unscaled.max_weight > small.unscaled.max_weight + 0.4);
    assert!(large.unscaled.max_weight > 0.85);
    assert!(large.unscaled.entropy < small.unscaled.entropy / 4.0);
    assert!(large.unscaled.gradient < small.unscaled.gradient / 2.0);

    assert!((large.scaled.max_weight - small.scaled.max_weight).abs() < 0.1);
    assert!((large.scaled.entropy - small.scaled.entropy).abs() < 0.2);
    assert!((large.scaled.gradient - small.scaled.gradient).abs() < 0.05);
    assert!(large.scaled.max_weight < large.unscaled.max_weight);
    assert!(large.scaled.gradient > large.unscaled.gradient);
}

#[test]
fn entropy_stays_below_its_uniform_value() {
    for keys in [2, 8, 64] {
        let ln_keys = (keys as f64).ln();
        for point in run(&log_spaced_dims(64), keys, 20, 3) {
            for stats in [point.unscaled, point.scaled] {
                assert!(stats.entropy <= ln_keys + ROUNDING_TOL, "{stats:?}");
            }
        }
    }
}

fn bits(points: &[ScalingPoint]) -> Vec<u64> {
    let stats = |s: Stats| [s.dot_variance, s.max_weight, s.entropy, s.gradient];
    points
        .iter()
        .flat_map(|p| stats(p.unscaled).into_iter().chain(stats(p.scaled)))
        .map(f64::to_bits)
        .collect()
}

#[test]
fn the_same_seed_gives_bit_identical_results() {
    let dims = log_spaced_dims(128);
    assert_eq!(bits(&run(&dims, 8, 30, 42)), bits(&run(&dims, 8, 30, 42)));
    assert_ne!(bits(&run(&dims, 8, 30, 42)), bits(&run(&dims, 8, 30, 43)));
}

#[test]
fn a_point_does_not_depend_on_the_other_dims_asked_for() {
    let alone = run(&[8], 6, 25, 9);
    let among = run(&[256, 8, 3], 6, 25, 9);
    assert_eq!(bits(&alone), bits(&among[1..2]));
    assert_eq!(among[0].d_k, 256);
}

#[test]
fn log_spaced_dims_reach_the_largest_allowed_d_k() {
    let dims = log_spaced_dims(attention_core::limits::MAX_EXPERIMENT_DIM);
    assert_eq!(dims.len(), 10);
    assert_eq!(dims.last(), Some(&512));
    assert_eq!(log_spaced_dims(1), [1]);
    assert_eq!(log_spaced_dims(usize::MAX).len(), usize::BITS as usize);
}

fn error(d_ks: &[usize], keys: usize, draws: usize) -> AttentionError {
    match scaling_experiment(d_ks, keys, draws, 1) {
        Ok(_) => panic!("{d_ks:?}, {keys} keys, {draws} draws should be refused"),
        Err(e) => e,
    }
}

#[test]
fn bad_settings_are_errors_that_name_the_field() {
    let cases: [(&[usize], usize, usize, &str); 8] = [
        (&[], 8, 10, "d_ks: is empty"),
        (
            &[4, 0],
            8,
            10,
            "d_ks[1]: d_k must be between 1 and 512, but it is 0",
        ),
        (
            &[513],
            8,
            10,
            "d_ks[0]: d_k must be between 1 and 512, but it is 513",
        ),
        (
            &[4],
            1,
            10,
            "keys: the number of keys must be between 2 and 64, but it is 1",
        ),
        (
            &[4],
            65,
            10,
            "keys: the number of keys must be between 2 and 64, but it is 65",
        ),
        (
            &[4],
            8,
            0,
            "draws: the number of draws must be between 1 and 10000, but it is 0",
        ),
        (
            &[4],
            8,
            10_001,
            "draws: the number of draws must be between 1 and 10000",
        ),
        (&[512], 64, 10_000, "draws: 332800000 random numbers"),
    ];
    for (d_ks, keys, draws, message) in cases {
        let text = error(d_ks, keys, draws).to_string();
        assert!(
            text.starts_with(message),
            "{text:?} should start with {message:?}"
        );
    }
}

/// The Jacobian built in full, `J = diag(p) − p·pᵀ`, and its Frobenius norm.
fn reference_jacobian_norm(p: &[f64]) -> f64 {
    let p = Array1::from(p.to_vec());
    let outer = Array2::from_shape_fn((p.len(), p.len()), |(i, j)| p[i] * p[j]);
    let jacobian = Array2::from_diag(&p) - outer;
    jacobian.iter().map(|v| v * v).sum::<f64>().sqrt()
}

/// A softmax row of `scores` times `sharpness`; large sharpness saturates it.
fn softmax(scores: &[f64], sharpness: f64) -> Vec<f64> {
    let largest = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = scores
        .iter()
        .map(|s| ((s - largest) * sharpness).exp())
        .collect();
    let total: f64 = e.iter().sum();
    e.iter().map(|v| v / total).collect()
}

#[test]
fn jacobian_norm_matches_the_full_matrix_on_edge_rows() {
    let rows = [
        vec![1.0, 0.0],
        vec![0.5, 0.5],
        vec![1.0 / 3.0; 3],
        vec![1.0 - 1e-12, 1e-12],
        softmax(&[0.0, 1.0, 2.0, 3.0], 40.0),
    ];
    for p in rows {
        let fast = softmax_jacobian_norm(&p);
        assert!(
            (fast - reference_jacobian_norm(&p)).abs() < ROUNDING_TOL,
            "{p:?}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn jacobian_norm_matches_the_full_matrix(
        scores in vec(-3.0..3.0f64, 2..=64),
        sharpness in prop_oneof![Just(1.0), 0.0..1.0f64, 1.0..100.0f64],
    ) {
        let p = softmax(&scores, sharpness);
        let fast = softmax_jacobian_norm(&p);
        let slow = reference_jacobian_norm(&p);
        prop_assert!((fast - slow).abs() < ROUNDING_TOL, "{} vs {}", fast, slow);
        // J is positive semi-definite (xᵀJx is a variance under p), so its
        // Frobenius norm is at most its trace, 1 − Σ p².
        let trace = 1.0 - p.iter().map(|w| w * w).sum::<f64>();
        prop_assert!(fast <= trace + ROUNDING_TOL);
        prop_assert!(entropy(&p) >= 0.0);
    }

    #[test]
    fn every_statistic_stays_in_its_range(
        d_ks in vec(1usize..=32, 1..=3),
        keys in 2usize..=12,
        draws in 1usize..=8,
        seed in any::<u64>(),
    ) {
        let ln_keys = (keys as f64).ln();
        for point in run(&d_ks, keys, draws, seed) {
            for s in [point.unscaled, point.scaled] {
                prop_assert!(s.dot_variance.is_finite() && s.dot_variance >= 0.0, "{:?}", s);
                prop_assert!(s.max_weight.is_finite(), "{:?}", s);
                prop_assert!(s.max_weight >= 1.0 / keys as f64 - ROUNDING_TOL, "{:?}", s);
                prop_assert!(s.max_weight <= 1.0 + ROUNDING_TOL, "{:?}", s);
                prop_assert!(s.entropy.is_finite(), "{:?}", s);
                prop_assert!((-ROUNDING_TOL..=ln_keys + ROUNDING_TOL).contains(&s.entropy), "{:?}", s);
                prop_assert!(s.gradient.is_finite() && s.gradient >= 0.0, "{:?}", s);
                prop_assert!(s.gradient <= 1.0 - 1.0 / keys as f64 + ROUNDING_TOL, "{:?}", s);
            }
        }
    }
}
