//! The fusion of a long sequence draws only the keys that matter most to the
//! selected query: its [`KEPT`] heaviest keys, in sequence order, and one
//! more row standing for all the others together. Drawing hundreds of value
//! rows and connectors would bury the few that carry the weight.

use crate::lab::SequenceTrace;
use ndarray::{Array1, Array2, Axis};

/// How many of the heaviest keys a long sequence's fusion draws.
pub const KEPT: usize = 8;

/// A fusion of a few keys: the heaviest [`KEPT`] keys of query i and a last
/// row for the rest, shaped as the fusion diagram reads a whole sequence,
/// with the query as row 0 of `weights`, `allowed` and `output`.
#[derive(Clone, Debug, PartialEq)]
pub struct Contributors {
    /// The kept keys' places in the sequence, in order.
    pub keys: Vec<usize>,
    pub labels: Vec<String>,
    /// The kept keys' value rows; the last row is the rest's weighted mean,
    /// Σ_rest α′_ij V_j / Σ_rest α′_ij, so that its weight times it is what
    /// the rest adds to B_i.
    pub v: Array2<f64>,
    /// 1×(kept + 1): the kept keys' weights, then the rest's total weight.
    pub weights: Array2<f64>,
    pub allowed: Array2<bool>,
    /// 1×d_v: B_i as the core computed it.
    pub output: Array2<f64>,
}

/// Query `i`'s heaviest keys in `t` and the rest, the rest labelled `rest`.
pub fn largest(t: &SequenceTrace, i: usize, rest: &str) -> Contributors {
    let row = t.weights.row(i.min(t.len().saturating_sub(1)));
    let mut order: Vec<usize> = (0..row.len()).collect();
    // Heaviest first; ties (masked keys all weigh 0) keep sequence order.
    order.sort_by(|&a, &b| row[b].total_cmp(&row[a]).then(a.cmp(&b)));
    // The kept keys in sequence order: marked, then read off in order (no
    // second sort, whose code the bundle would carry for this alone).
    let mut kept = vec![false; row.len()];
    for &j in order.iter().take(KEPT) {
        kept[j] = true;
    }
    let keys: Vec<usize> = (0..row.len()).filter(|&j| kept[j]).collect();
    let others: Vec<usize> = order.iter().copied().skip(KEPT).collect();
    let rest_weight: f64 = others.iter().map(|&j| row[j]).sum();
    let d = t.v.ncols();
    let mut rest_value = Array1::<f64>::zeros(d);
    if rest_weight > 0.0 {
        for &j in &others {
            rest_value.scaled_add(row[j] / rest_weight, &t.v.row(j));
        }
    }
    let mut v = t.v.select(Axis(0), &keys);
    v.push_row(rest_value.view()).ok();
    let mut weights: Vec<f64> = keys.iter().map(|&j| row[j]).collect();
    weights.push(rest_weight);
    let allowed: Vec<bool> = keys
        .iter()
        .map(|&j| t.allowed[(i, j)])
        .chain([true])
        .collect();
    let mut labels: Vec<String> = keys.iter().map(|&j| t.labels[j].clone()).collect();
    labels.push(rest.replace("{n}", &others.len().to_string()));
    let n = weights.len();
    Contributors {
        keys,
        labels,
        v,
        weights: Array2::from_shape_vec((1, n), weights).unwrap_or_default(),
        allowed: Array2::from_shape_vec((1, n), allowed).unwrap_or_default(),
        output: t.output.select(Axis(0), &[i]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::{token_labels, with_tokens};
    use attention_core::presets;

    fn long() -> SequenceTrace {
        let labels: Vec<String> = (0..100).map(|i| format!("t{i}")).collect();
        let scenario = with_tokens(&presets::sentence(), &labels, 3).unwrap();
        let trace = scenario.run().unwrap().into_head(0);
        SequenceTrace::new(&trace, 0, token_labels(&scenario))
    }

    #[test]
    fn the_heaviest_keys_are_kept_in_order_and_the_rest_makes_up_b_i() {
        let t = long();
        for i in [0, 37, 99] {
            let c = largest(&t, i, "{n} others");
            assert_eq!(c.keys.len(), KEPT);
            assert!(c.keys.windows(2).all(|w| w[0] < w[1]));
            let lightest_kept = c
                .keys
                .iter()
                .map(|&j| t.weights[(i, j)])
                .fold(1.0, f64::min);
            for j in (0..100).filter(|j| !c.keys.contains(j)) {
                assert!(
                    t.weights[(i, j)] <= lightest_kept,
                    "key {j} outweighs a kept key"
                );
            }
            assert_eq!(c.labels.last().map(String::as_str), Some("92 others"));
            assert_eq!(c.labels[0], t.labels[c.keys[0]]);
            // The drawn terms add up to the core's B_i (up to rounding).
            let drawn = c.weights.row(0).dot(&c.v);
            for (a, b) in drawn.iter().zip(t.output.row(i)) {
                assert!((a - b).abs() < 1e-12, "{a} vs {b}");
            }
            assert!((c.weights.sum() - 1.0).abs() < 1e-12);
            assert_eq!(c.output.row(0), t.output.row(i));
        }
    }
}
