//! The losses a task trains on: where chosen queries should look, or what
//! their output should be.

use super::pass::flat;
use crate::error::AttentionError;
use ndarray::{s, Array2, ArrayView2};

/// The smallest attention share [`Loss::AttendTo`] takes the logarithm of:
/// a row that gives its set exactly nothing (every key of the set masked)
/// costs `−ln 1e-300 ≈ 690.8` and passes back no gradient, never ∞ or NaN.
pub const MIN_SHARE: f64 = 1e-300;

/// Query `query` should give all its attention to the keys in `keys` (the set S_i).
#[derive(Clone, Debug, PartialEq)]
pub struct AttendTarget {
    pub query: usize,
    /// Distinct key positions; a key listed twice would count twice.
    pub keys: Vec<usize>,
}

/// Query `query`'s output row B_i should equal `target` (d_v numbers).
#[derive(Clone, Debug, PartialEq)]
pub struct OutputTarget {
    pub query: usize,
    pub target: Vec<f64>,
}

/// What training minimises. Both are means over their targets, so a loss of 0
/// is perfect, and an empty list of targets costs 0.
#[derive(Clone, Debug, PartialEq)]
pub enum Loss {
    /// Cross-entropy on the attention row: for n targets (i, S_i),
    ///
    /// `L = (1/n) Σ_i −ln(Σ_{j∈S_i} α′_ij)`, `∂L/∂α′_ij = −1/(n·Σ_{j∈S_i} α′_ij)` for j ∈ S_i.
    ///
    /// It is 0 when each chosen row puts all its weight on its set, and
    /// ln |allowed keys| − ln |S_i| for a uniform row. The share is clamped
    /// at [`MIN_SHARE`], where the gradient is 0.
    AttendTo(Vec<AttendTarget>),
    /// Mean squared error of the output: for n targets (i, t_i),
    ///
    /// `L = (1/n) Σ_i ‖B_i − t_i‖² / d_v`, `∂L/∂B_i = 2(B_i − t_i)/(n·d_v)`.
    Output(Vec<OutputTarget>),
}

impl Loss {
    /// Checks that every query and key is one of the T positions and every
    /// output target has d_v numbers, all finite.
    pub fn check(&self, t: usize, d_v: usize) -> Result<(), AttentionError> {
        let outside = |what: &str, n: usize| AttentionError::ShapeMismatch {
            field: "loss".into(),
            expected: format!("{what} below {t} (the positions of x)"),
            found: n.to_string(),
        };
        match self {
            Loss::AttendTo(targets) => {
                for target in targets {
                    if target.query >= t {
                        return Err(outside("a query", target.query));
                    }
                    if let Some(&key) = target.keys.iter().find(|&&key| key >= t) {
                        return Err(outside("a key", key));
                    }
                }
            }
            Loss::Output(targets) => {
                for target in targets {
                    if target.query >= t {
                        return Err(outside("a query", target.query));
                    }
                    if target.target.len() != d_v {
                        return Err(AttentionError::ShapeMismatch {
                            field: "loss".into(),
                            expected: format!(
                                "{d_v} numbers (d_v) in the target of query {}",
                                target.query
                            ),
                            found: target.target.len().to_string(),
                        });
                    }
                    if target.target.iter().any(|v| !v.is_finite()) {
                        return Err(AttentionError::NonFinite {
                            field: "loss".into(),
                            row: format!("the target of query {}", target.query),
                        });
                    }
                }
            }
        }
        Ok(())
    }

    /// The loss of the weights α′ (T×T) and output B (T×d_v), and its
    /// gradients `(∂L/∂α′, ∂L/∂B)`, the upstream gradients of [`super::backward`].
    ///
    /// ```
    /// use attention_core::train::{AttendTarget, Loss};
    /// use ndarray::{array, Array2};
    ///
    /// let loss = Loss::AttendTo(vec![AttendTarget { query: 1, keys: vec![0] }]);
    /// let weights = array![[1.0, 0.0], [0.25, 0.75]];
    /// let (value, d_weights, d_output) = loss.evaluate(weights.view(), Array2::zeros((2, 1)).view());
    /// assert!((value - 4f64.ln()).abs() < 1e-15);
    /// assert_eq!(d_weights, array![[0.0, 0.0], [-4.0, 0.0]]);
    /// assert!(d_output.iter().all(|&v| v == 0.0));
    /// ```
    pub fn evaluate(
        &self,
        weights: ArrayView2<f64>,
        output: ArrayView2<f64>,
    ) -> (f64, Array2<f64>, Array2<f64>) {
        // Rows past the shorter of the two are ignored (and get zero gradient).
        let t = weights.nrows().min(output.nrows());
        let rows = |a: ArrayView2<f64>| flat(a.slice_move(s![..t, ..]));
        let (weights_flat, output_flat) = (rows(weights), rows(output));
        let mut d_weights = vec![0.0; weights_flat.len()];
        let mut d_output = vec![0.0; output_flat.len()];
        let value = self.evaluate_into(
            t,
            output.ncols(),
            &weights_flat,
            &output_flat,
            &mut d_weights,
            &mut d_output,
        );
        let padded = |like: ArrayView2<f64>, data: &[f64]| {
            let cols = like.ncols();
            Array2::from_shape_fn(
                like.raw_dim(),
                |(r, c)| {
                    if r < t {
                        data[r * cols + c]
                    } else {
                        0.0
                    }
                },
            )
        };
        (
            value,
            padded(weights, &d_weights),
            padded(output, &d_output),
        )
    }

    /// [`Loss::evaluate`] over row-major slices of t rows each (weights t×keys,
    /// output t×d_v), writing the gradients into `d_weights` and `d_output`
    /// (overwritten, same sizes). Queries, keys and columns past the sizes are
    /// skipped; [`Loss::check`] rules them out.
    pub(crate) fn evaluate_into(
        &self,
        t: usize,
        d_v: usize,
        weights: &[f64],
        output: &[f64],
        d_weights: &mut [f64],
        d_output: &mut [f64],
    ) -> f64 {
        d_weights.fill(0.0);
        d_output.fill(0.0);
        let keys = weights.len().checked_div(t).unwrap_or(0);
        match self {
            Loss::AttendTo(targets) => {
                let n = targets.len() as f64;
                let mut total = 0.0;
                for target in targets.iter().filter(|target| target.query < t) {
                    let row = target.query * keys;
                    let set = || target.keys.iter().filter(|&&j| j < keys).map(|&j| row + j);
                    let share: f64 = set().map(|n| weights[n]).sum();
                    if share > MIN_SHARE {
                        total -= libm::log(share);
                        let gradient = -1.0 / (n * share);
                        set().for_each(|n| d_weights[n] += gradient);
                    } else {
                        total -= libm::log(MIN_SHARE);
                    }
                }
                if targets.is_empty() {
                    0.0
                } else {
                    total / n
                }
            }
            Loss::Output(targets) => {
                let n = (targets.len() * d_v) as f64;
                let mut total = 0.0;
                for target in targets.iter().filter(|target| target.query < t) {
                    let row = target.query * d_v;
                    for (c, &goal) in target.target.iter().enumerate().take(d_v) {
                        let error = output[row + c] - goal;
                        total += error * error;
                        d_output[row + c] += 2.0 * error / n;
                    }
                }
                if targets.is_empty() {
                    0.0
                } else {
                    total / n
                }
            }
        }
    }
}
