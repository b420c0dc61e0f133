//! The "why divide by √d_k" experiment: how the spread of raw dot products
//! grows with d_k, and what that does to a softmax row with and without scaling.
//!
//! Each draw is a query `q` and `keys` key rows `k_j` whose entries are
//! independent with mean 0 and variance 1, from [`crate::random::normal_matrix`];
//! at a given d_k each vector is its first d_k entries. The row's scores are
//! `s_j = q·k_j` (unscaled) or `s_j = q·k_j/√d_k` (scaled), and `p = softmax(s)`.
//!
//! Each of the d_k terms `q_c·k_jc` has mean 0 and variance 1 and they are
//! independent, so `Var(q·k_j) = d_k`: unscaled scores spread further apart as
//! d_k grows, the largest one takes nearly all the weight, and the softmax
//! gradient vanishes. Dividing by √d_k brings the variance back to 1 at every d_k.

mod row;

pub use row::{entropy, softmax_jacobian_norm};

use crate::error::AttentionError;
use crate::kernels::softmax_in_place;
use crate::limits;
use crate::random::normal_matrix;
use ndarray::ArrayViewMut1;

/// How the rows of one experiment point look, averaged over its draws.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    /// The sample variance of the scores, pooled over every key of every draw:
    /// `Σ (s − s̄)² / (n − 1)` for the n = draws × keys scores. Close to d_k
    /// unscaled and to 1 scaled.
    pub dot_variance: f64,
    /// The mean of `max_j p_j`: 1/keys for a uniform row, 1 for a saturated one.
    pub max_weight: f64,
    /// The mean entropy `H(p) = −Σ_j p_j ln p_j`, in nats (natural log):
    /// ln(keys) for a uniform row, 0 for a saturated one.
    pub entropy: f64,
    /// The mean size of the softmax's gradient, [`softmax_jacobian_norm`]: the
    /// Frobenius norm of `J = diag(p) − p·pᵀ`, √(keys − 1)/keys for a uniform
    /// row and 0 for a saturated one.
    pub gradient: f64,
}

/// One d_k of the experiment: the same draws seen unscaled and scaled.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScalingPoint {
    /// The key dimension of this point.
    pub d_k: usize,
    /// Scores `q·k_j`.
    pub unscaled: Stats,
    /// Scores `q·k_j/√d_k`.
    pub scaled: Stats,
}

/// Powers of two from 1 up to `max`: `log_spaced_dims(512)` is 1, 2, 4, …, 512.
/// Empty when `max` is 0.
///
/// ```
/// use attention_core::experiment::log_spaced_dims;
///
/// assert_eq!(log_spaced_dims(512), [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]);
/// assert_eq!(log_spaced_dims(6), [1, 2, 4]);
/// assert!(log_spaced_dims(0).is_empty());
/// ```
pub fn log_spaced_dims(max: usize) -> Vec<usize> {
    std::iter::successors(Some(1usize), |&d| d.checked_mul(2))
        .take_while(|&d| d <= max)
        .collect()
}

/// Runs the experiment at each d_k in `d_ks` with `draws` independent rows of
/// `keys` keys each, reproducibly from `seed`.
///
/// Every d_k shares the same draws: draw n fills a matrix with one column per
/// vector (q, k_1, …, k_keys) from its own seed, and the point at d_k uses its
/// first d_k rows. The differences between points then come mostly from d_k
/// rather than from sampling noise, the largest d_k alone sets the cost, and a
/// point depends only on its own d_k, `keys`, `draws` and `seed`, never on the
/// other d_ks asked for.
///
/// Limits ([`crate::limits`]): every d_k in 1..=512, keys in 2..=64, draws in
/// 1..=10 000, and at most 20 million numbers drawn in all
/// (`draws × (keys + 1) × the largest d_k`); anything else is an error naming
/// the field. The random numbers are bit-identical on every target; `exp` and
/// `ln` come from the platform's math library and may differ in the last bit
/// between native code and WebAssembly.
///
/// ```
/// use attention_core::experiment::{log_spaced_dims, scaling_experiment};
///
/// let points = scaling_experiment(&log_spaced_dims(512), 8, 100, 7).unwrap();
/// let (first, last) = (points[0], points[9]);
/// assert_eq!(last.d_k, 512);
/// // Unscaled, the scores spread out with d_k and the softmax saturates...
/// assert!(last.unscaled.dot_variance > 100.0 * first.unscaled.dot_variance);
/// assert!(last.unscaled.max_weight > 0.9 && last.unscaled.gradient < 0.1);
/// // ...while scaled rows at d_k = 512 look like those at d_k = 1.
/// assert!((last.scaled.dot_variance - 1.0).abs() < 0.3);
/// assert!(last.scaled.max_weight < 0.6 && last.scaled.gradient > 0.2);
///
/// let error = scaling_experiment(&[4], 1, 10, 7).unwrap_err();
/// assert_eq!(error.to_string(), "keys: the number of keys must be between 2 and 64, but it is 1");
/// ```
pub fn scaling_experiment(
    d_ks: &[usize],
    keys: usize,
    draws: usize,
    seed: u64,
) -> Result<Vec<ScalingPoint>, AttentionError> {
    let largest = check_experiment(d_ks, keys, draws)?;
    let mut sums: Vec<(Accumulator, Accumulator)> = d_ks
        .iter()
        .map(|_| (Accumulator::default(), Accumulator::default()))
        .collect();
    // Two buffers reused by every row, so a draw allocates only its sample.
    let mut scores = vec![0.0; keys];
    let mut weights = vec![0.0; keys];
    for draw in 0..draws {
        // Row c holds coordinate c of q (column 0) and of every key (columns
        // 1..=keys). Filled row by row from one stream, the first d_k rows are
        // the same whatever `largest` is.
        let sample = normal_matrix(largest, keys + 1, 1.0, draw_seed(seed, draw));
        for (&d_k, (unscaled, scaled)) in d_ks.iter().zip(&mut sums) {
            scores.fill(0.0);
            for row in sample.rows().into_iter().take(d_k) {
                for (s, &k) in scores.iter_mut().zip(row.iter().skip(1)) {
                    *s += row[0] * k;
                }
            }
            unscaled.add(&scores, &mut weights);
            // The same factor the forward pass uses, so "scaled" here is what the lab shows.
            let factor = crate::kernels::scale_factor(d_k, true);
            scores.iter_mut().for_each(|s| *s *= factor);
            scaled.add(&scores, &mut weights);
        }
    }
    Ok(d_ks
        .iter()
        .zip(&sums)
        .map(|(&d_k, (unscaled, scaled))| ScalingPoint {
            d_k,
            unscaled: unscaled.finish(),
            scaled: scaled.finish(),
        })
        .collect())
}

/// Checks the settings and returns the largest d_k.
fn check_experiment(d_ks: &[usize], keys: usize, draws: usize) -> Result<usize, AttentionError> {
    for (i, &d_k) in d_ks.iter().enumerate() {
        limits::check_range(
            &format!("d_ks[{i}]"),
            "d_k",
            d_k,
            1,
            limits::MAX_EXPERIMENT_DIM,
        )?;
    }
    let largest = d_ks.iter().copied().max().ok_or(AttentionError::Empty {
        field: "d_ks".into(),
    })?;
    limits::check_range(
        "keys",
        "the number of keys",
        keys,
        limits::MIN_EXPERIMENT_KEYS,
        limits::MAX_EXPERIMENT_KEYS,
    )?;
    limits::check_range(
        "draws",
        "the number of draws",
        draws,
        1,
        limits::MAX_EXPERIMENT_DRAWS,
    )?;
    limits::check(
        "draws",
        "random numbers (draws × (keys + 1) × the largest d_k)",
        draws * (keys + 1) * largest,
        limits::MAX_EXPERIMENT_NUMBERS,
    )?;
    Ok(largest)
}

/// The seed of one draw. splitmix64 spreads nearby user seeds far apart, and
/// XOR with the draw number then gives every draw of one seed its own stream.
fn draw_seed(seed: u64, draw: usize) -> u64 {
    splitmix64(seed) ^ draw as u64
}

/// The splitmix64 finaliser, a well-mixing one-to-one map on 64-bit words.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Running sums for one [`Stats`]; the variance uses Welford's update, which
/// stays accurate without storing the scores or subtracting large sums.
#[derive(Default)]
struct Accumulator {
    count: f64,
    mean: f64,
    squares: f64,
    rows: f64,
    max_weight: f64,
    entropy: f64,
    gradient: f64,
}

impl Accumulator {
    fn add(&mut self, scores: &[f64], weights: &mut [f64]) {
        for &s in scores {
            self.count += 1.0;
            let delta = s - self.mean;
            self.mean += delta / self.count;
            self.squares += delta * (s - self.mean);
        }
        weights.copy_from_slice(scores);
        softmax_in_place(ArrayViewMut1::from(&mut weights[..]), |_| true);
        self.rows += 1.0;
        self.max_weight += weights.iter().copied().fold(0.0, f64::max);
        self.entropy += entropy(weights);
        self.gradient += softmax_jacobian_norm(weights);
    }

    /// Checked inputs give at least two scores and one row, so no division is by zero.
    fn finish(&self) -> Stats {
        Stats {
            dot_variance: self.squares / (self.count - 1.0),
            max_weight: self.max_weight / self.rows,
            entropy: self.entropy / self.rows,
            gradient: self.gradient / self.rows,
        }
    }
}
