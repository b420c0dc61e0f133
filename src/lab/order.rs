//! The permutation lesson: the same tokens in another order. Without
//! positions, attention gives every token the same output wherever it
//! stands, so shuffling the tokens only shuffles the output rows; with
//! positions the outputs change. Pure, so tested natively.

use attention_core::random::SplitMix64;
use attention_core::Scenario;
use ndarray::{Array2, Array3, ArrayView2, ArrayView3, Axis};

/// A difference below this counts as none: the shuffled sentence sums the
/// same products in another order, which may change the last bits.
pub const SAME: f64 = 1e-12;

/// A new order of `t` positions from `seed`: `order[k]` is the position, in
/// the learner's sentence, of the token the shuffled sentence has at k. Never
/// the sentence's own order when there are two tokens or more, so a shuffle
/// always shows something moved.
pub fn shuffled_order(t: usize, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..t).collect();
    let mut rng = SplitMix64::new(seed);
    // Fisher–Yates; the modulo's bias is far below anything a lesson shows.
    for i in (1..t).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    if order.iter().enumerate().all(|(k, &p)| k == p) {
        order.rotate_left(1);
    }
    order
}

/// Whether `order` holds each of `0..t` once.
pub fn is_order_of(order: &[usize], t: usize) -> bool {
    let mut seen = vec![false; t];
    order.len() == t
        && order
            .iter()
            .all(|&p| p < t && !std::mem::replace(&mut seen[p], true))
}

/// The scenario with its tokens in `order` (see [`shuffled_order`]): each
/// token's label, its row of X in every sequence and its padding flag move
/// with it. The weights and everything tied to a position (the causal mask,
/// position encodings) stay where they are: that is the point of the lesson.
/// `None` if `order` is not an order of the scenario's positions.
pub fn reordered(s: &Scenario, order: &[usize]) -> Option<Scenario> {
    let (batch, t, d) = s.x.dim();
    if !is_order_of(order, t) {
        return None;
    }
    let mut shuffled = s.clone();
    shuffled.x = Array3::from_shape_fn((batch, t, d), |(b, k, c)| s.x[[b, order[k], c]]);
    shuffled.tokens = s
        .tokens
        .as_ref()
        .map(|labels| order.iter().map(|&p| labels[p].clone()).collect());
    shuffled.mask = s
        .mask
        .as_ref()
        .map(|m| Array2::from_shape_fn((batch, t), |(b, k)| m[[b, order[k]]]));
    Some(shuffled)
}

/// For each token, in the learner's order, the largest difference between
/// its output row and the row the shuffled sentence gives it (at the place
/// `order` moved it to): all zero when the outputs were only permuted.
pub fn row_differences(
    output: ArrayView2<f64>,
    shuffled: ArrayView2<f64>,
    order: &[usize],
) -> Vec<f64> {
    let mut differences = vec![0.0; order.len()];
    for (k, &p) in order.iter().enumerate() {
        let pairs = output.row(p).into_iter().zip(shuffled.row(k));
        differences[p] = pairs.fold(0.0, |most: f64, (a, b)| most.max((a - b).abs()));
    }
    differences
}

/// One sequence run in the learner's order and shuffled, row beside row.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The tokens in the learner's order.
    pub labels: Vec<String>,
    /// `order[k]`: the learner's position of the token shuffled to k.
    pub order: Vec<usize>,
    /// The layer's output rows in the learner's order.
    pub before: Array2<f64>,
    /// The layer's output rows of the shuffled sentence, in its own order.
    pub after: Array2<f64>,
    /// For each token in the learner's order, its largest difference.
    pub differences: Vec<f64>,
}

impl Comparison {
    /// How many tokens got another output, by more than [`SAME`].
    pub fn changed(&self) -> usize {
        self.differences.iter().filter(|&&d| d > SAME).count()
    }
}

/// Sequence `sequence` of `s` beside the same tokens in `order`, run by the
/// core; `output` is `s`'s own layer output, already computed (the page's
/// trace), so only the shuffled sentence runs again. `None` if it cannot
/// run or `order` does not fit.
pub fn compare(
    s: &Scenario,
    output: ArrayView3<f64>,
    sequence: usize,
    order: &[usize],
) -> Option<Comparison> {
    let shuffled = reordered(s, order)?;
    let layer = shuffled.run().ok()?;
    let row_of = |o: ArrayView3<f64>| {
        (sequence < o.dim().0).then(|| o.index_axis(Axis(0), sequence).to_owned())
    };
    let (before, after) = (row_of(output)?, row_of(layer.output.view())?);
    Some(Comparison {
        labels: crate::lab::token_labels(s),
        order: order.to_vec(),
        differences: row_differences(before.view(), after.view(), order),
        before,
        after,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use attention_core::presets::sentence;

    #[test]
    fn a_shuffle_is_an_order_and_moves_something() {
        for t in 2..20 {
            for seed in 0..20 {
                let order = shuffled_order(t, seed);
                assert!(is_order_of(&order, t), "{order:?}");
                assert!(order.iter().enumerate().any(|(k, &p)| k != p), "{order:?}");
            }
        }
        assert_eq!(shuffled_order(1, 3), [0]);
        assert_ne!(shuffled_order(8, 1), shuffled_order(8, 2), "seeds differ");
    }

    #[test]
    fn only_whole_orders_are_orders() {
        assert!(is_order_of(&[2, 0, 1], 3));
        assert!(!is_order_of(&[0, 0, 1], 3));
        assert!(!is_order_of(&[0, 1], 3));
        assert!(!is_order_of(&[0, 1, 3], 3));
    }

    #[test]
    fn tokens_rows_and_padding_move_together() {
        let mut s = sentence();
        s.mask = Some(ndarray::array![[true, true, false, true]]);
        let order = [3, 0, 2, 1];
        let shuffled = reordered(&s, &order).expect("an order of four");
        let labels = shuffled.tokens.clone().expect("labels");
        assert_eq!(labels, ["篮球", "我", "打", "喜欢"]);
        for (k, &p) in order.iter().enumerate() {
            assert_eq!(shuffled.x.row_of(k), s.x.row_of(p));
        }
        assert_eq!(
            shuffled.mask,
            Some(ndarray::array![[true, true, false, true]].select(ndarray::Axis(1), &order))
        );
        assert_eq!(shuffled.head, s.head, "weights stay");
        assert!(reordered(&s, &[0, 1]).is_none());
    }

    #[test]
    fn without_positions_the_outputs_are_only_permuted() {
        let s = sentence();
        let order = shuffled_order(4, 5);
        let shuffled = reordered(&s, &order).expect("an order");
        let [a, b] = [&s, &shuffled].map(|s| s.run().expect("runs").output);
        let differences = row_differences(
            a.index_axis(ndarray::Axis(0), 0),
            b.index_axis(ndarray::Axis(0), 0),
            &order,
        );
        assert!(differences.iter().all(|&d| d < 1e-12), "{differences:?}");
        // A wrong pairing of rows is caught.
        let wrong = row_differences(
            a.index_axis(ndarray::Axis(0), 0),
            a.index_axis(ndarray::Axis(0), 0),
            &order,
        );
        assert!(wrong.iter().any(|&d| d > 1e-3), "{wrong:?}");
    }

    /// Row `k` of the first sequence, for comparisons.
    trait RowOf {
        fn row_of(&self, k: usize) -> Vec<f64>;
    }

    impl RowOf for Array3<f64> {
        fn row_of(&self, k: usize) -> Vec<f64> {
            self.slice(ndarray::s![0, k, ..]).to_vec()
        }
    }
}
