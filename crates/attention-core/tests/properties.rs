//! Invariants of attention that hold for every input, checked on random ones.

use attention_core::kernels::masked_softmax;
use attention_core::positions::rope_score;
use attention_core::presets::sentence;
use attention_core::{forward, forward_heads, forward_sequence, Head, Options, Positions, Trace};
use ndarray::{s, Array1, Array2, Array3, Axis};
use proptest::collection::vec;
use proptest::prelude::*;

/// Weights lie in [0, 1] and come out of a few correctly rounded steps, so two
/// ways of computing the same weight differ by a few ulps (about 1e-16 each)
/// at most; 1e-12 leaves ample room.
const WEIGHT_TOL: f64 = 1e-12;

/// Relative tolerance (times max(1, |expected|)) on outputs: a weighted sum of
/// at most 8 values of V, each below 60 in size, whose weights may differ by WEIGHT_TOL.
const OUTPUT_TOL: f64 = 1e-10;

fn config() -> ProptestConfig {
    ProptestConfig::with_cases(64)
}

fn matrix(rows: usize, cols: usize, range: f64) -> impl Strategy<Value = Array2<f64>> {
    vec(-range..range, rows * cols)
        .prop_map(move |data| Array2::from_shape_vec((rows, cols), data).expect("sized to fit"))
}

/// One sequence of `t` positions with `d` features and a head that fits it.
#[derive(Clone, Debug)]
struct Sequence {
    x: Array2<f64>,
    head: Head,
    scale: bool,
}

fn sequence(t: std::ops::RangeInclusive<usize>, range: f64) -> impl Strategy<Value = Sequence> {
    (t, 1usize..=6, 1usize..=6, 1usize..=6).prop_flat_map(move |(t, d, d_k, d_v)| {
        (
            matrix(t, d, range),
            matrix(d, d_k, range),
            matrix(d, d_k, range),
            matrix(d, d_v, range),
            any::<bool>(),
        )
            .prop_map(|(x, w_q, w_k, w_v, scale)| Sequence {
                x,
                head: Head { w_q, w_k, w_v },
                scale,
            })
    })
}

fn run(x: &Array2<f64>, head: &Head, mask: Option<&[bool]>, options: Options) -> Trace {
    forward_sequence(x.view(), head, mask, options).expect("valid input")
}

/// Row sums are 1 where a key is allowed, and masked keys get exactly 0.
fn check_rows(trace: &Trace) -> Result<(), TestCaseError> {
    for ((b, i, j), &ok) in trace.allowed.indexed_iter() {
        let w = trace.weights[[b, i, j]];
        prop_assert!(w.is_finite(), "weights[{}][{}][{}] = {}", b, i, j, w);
        if !ok {
            prop_assert_eq!(w, 0.0, "weights[{}][{}][{}] of a masked key", b, i, j);
        }
    }
    let (batch, t, _) = trace.weights.dim();
    for b in 0..batch {
        for i in 0..t {
            let row = trace.weights.slice(s![b, i, ..]);
            if trace.allowed.slice(s![b, i, ..]).iter().any(|&ok| ok) {
                let sum = row.sum();
                prop_assert!(
                    (sum - 1.0).abs() <= WEIGHT_TOL,
                    "row [{}][{}] sums to {}",
                    b,
                    i,
                    sum
                );
            } else {
                prop_assert!(row.iter().all(|&w| w == 0.0), "empty row [{}][{}]", b, i);
            }
        }
    }
    Ok(())
}

fn batch() -> impl Strategy<Value = (Array3<f64>, Head, Array2<bool>, Options)> {
    (1usize..=3, 1usize..=8, 1usize..=6, 1usize..=6, 1usize..=6).prop_flat_map(
        |(batch, t, d, d_k, d_v)| {
            (
                vec(-3.0..3.0f64, batch * t * d),
                matrix(d, d_k, 3.0),
                matrix(d, d_k, 3.0),
                matrix(d, d_v, 3.0),
                vec(prop::bool::weighted(0.75), batch * t),
                any::<bool>(),
                any::<bool>(),
            )
                .prop_map(move |(x, w_q, w_k, w_v, mask, causal, scale)| {
                    (
                        Array3::from_shape_vec((batch, t, d), x).expect("sized to fit"),
                        Head { w_q, w_k, w_v },
                        Array2::from_shape_vec((batch, t), mask).expect("sized to fit"),
                        Options {
                            causal,
                            scale,
                            ..Options::default()
                        },
                    )
                })
        },
    )
}

fn close(actual: f64, expected: f64) -> bool {
    (actual - expected).abs() <= OUTPUT_TOL * expected.abs().max(1.0)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn rows_sum_to_one_and_masked_keys_get_zero((x, head, mask, options) in batch()) {
        let trace = forward(x.view(), &head, Some(mask.view()), options).expect("valid input");
        check_rows(&trace)?;
    }

    #[test]
    fn permuting_positions_permutes_the_result(
        (seq, mask, order) in sequence(1..=8, 3.0).prop_flat_map(|seq| {
            let t = seq.x.nrows();
            (
                Just(seq),
                vec(prop::bool::weighted(0.75), t),
                Just((0..t).collect::<Vec<_>>()).prop_shuffle(),
            )
        })
    ) {
        let options = Options { causal: false, scale: seq.scale, ..Options::default() };
        let t = seq.x.nrows();
        // Row r of the permuted input is row order[r] of the original.
        let x = seq.x.select(Axis(0), &order);
        let permuted_mask: Vec<bool> = order.iter().map(|&r| mask[r]).collect();
        let plain = run(&seq.x, &seq.head, Some(&mask), options);
        let permuted = run(&x, &seq.head, Some(&permuted_mask), options);
        for r in 0..t {
            for c in 0..t {
                let want = plain.weights[[0, order[r], order[c]]];
                let got = permuted.weights[[0, r, c]];
                prop_assert!((got - want).abs() <= WEIGHT_TOL, "weights[{}][{}]: {} vs {}", r, c, got, want);
            }
            for (c, &got) in permuted.output.slice(s![0, r, ..]).iter().enumerate() {
                let want = plain.output[[0, order[r], c]];
                prop_assert!(close(got, want), "output[{}][{}]: {} vs {}", r, c, got, want);
            }
        }
    }

    #[test]
    fn adding_a_constant_to_a_row_changes_nothing(
        (scores, allowed) in (1usize..=10).prop_flat_map(|t| {
            (vec(-10.0..10.0f64, t), vec(any::<bool>(), t))
        }),
        c in -50.0..50.0f64,
    ) {
        let scores = Array1::from(scores);
        let allowed = Array1::from(allowed);
        let plain = masked_softmax(scores.view(), allowed.view());
        let shifted = masked_softmax((&scores + c).view(), allowed.view());
        for (j, (&a, &b)) in plain.iter().zip(&shifted).enumerate() {
            prop_assert!((a - b).abs() <= WEIGHT_TOL, "weight {}: {} vs {} after adding {}", j, a, b, c);
        }
    }

    #[test]
    fn padding_a_position_equals_deleting_it(
        (seq, mask) in sequence(2..=8, 3.0).prop_flat_map(|seq| {
            let t = seq.x.nrows();
            // At least one real position, so the shortened sequence is not empty.
            let mask = vec(prop::bool::weighted(0.6), t)
                .prop_filter("needs a real position", |m| m.iter().any(|&real| real));
            (Just(seq), mask)
        }),
        causal in any::<bool>(),
    ) {
        let options = Options { causal, scale: seq.scale, ..Options::default() };
        let real: Vec<usize> = (0..mask.len()).filter(|&j| mask[j]).collect();
        let padded = run(&seq.x, &seq.head, Some(&mask), options);
        let short = run(&seq.x.select(Axis(0), &real), &seq.head, None, options);
        for (r, &i) in real.iter().enumerate() {
            for (c, &j) in real.iter().enumerate() {
                let got = padded.weights[[0, i, j]];
                let want = short.weights[[0, r, c]];
                prop_assert!((got - want).abs() <= WEIGHT_TOL, "weights[{}][{}]: {} vs {}", i, j, got, want);
            }
            for (c, &got) in padded.output.slice(s![0, i, ..]).iter().enumerate() {
                let want = short.output[[0, r, c]];
                prop_assert!(close(got, want), "output[{}][{}]: {} vs {}", i, c, got, want);
            }
        }
    }

    #[test]
    fn causal_rows_ignore_later_positions(
        (seq, mask, i, later) in sequence(2..=8, 3.0).prop_flat_map(|seq| {
            let (t, d) = seq.x.dim();
            (
                Just(seq),
                vec(prop::bool::weighted(0.75), t),
                0..t - 1,
                matrix(t, d, 3.0),
            )
        })
    ) {
        let options = Options { causal: true, scale: seq.scale, ..Options::default() };
        let plain = run(&seq.x, &seq.head, Some(&mask), options);
        for ((_, r, c), &w) in plain.weights.indexed_iter() {
            if c > r {
                prop_assert_eq!(w, 0.0, "weights[{}][{}] of a later key", r, c);
            }
        }
        // Positions after i get other numbers; rows up to i must not notice.
        let mut x = seq.x.clone();
        x.slice_mut(s![i + 1.., ..]).assign(&later.slice(s![i + 1.., ..]));
        let changed = run(&x, &seq.head, Some(&mask), options);
        for r in 0..=i {
            prop_assert_eq!(plain.weights.slice(s![0, r, ..]), changed.weights.slice(s![0, r, ..]), "weights row {}", r);
            prop_assert_eq!(plain.output.slice(s![0, r, ..]), changed.output.slice(s![0, r, ..]), "output row {}", r);
        }
    }

    #[test]
    fn huge_scores_stay_finite_in_the_softmax(
        (scores, allowed) in (1usize..=10).prop_flat_map(|t| {
            let score = prop_oneof![Just(1e6), Just(-1e6), -1e6..1e6f64];
            (vec(score, t), vec(any::<bool>(), t))
        }),
    ) {
        let weights = masked_softmax(Array1::from(scores).view(), Array1::from(allowed.clone()).view());
        prop_assert!(weights.iter().all(|w| w.is_finite()), "{:?}", weights);
        if allowed.iter().any(|&ok| ok) {
            prop_assert!((weights.sum() - 1.0).abs() <= WEIGHT_TOL, "sum {}", weights.sum());
        } else {
            prop_assert!(weights.iter().all(|&w| w == 0.0));
        }
    }

    #[test]
    fn huge_inputs_stay_finite_in_forward(
        seq in sequence(1..=8, 1e3),
        causal in any::<bool>(),
    ) {
        let options = Options { causal, scale: seq.scale, ..Options::default() };
        let trace = run(&seq.x, &seq.head, None, options);
        check_rows(&trace)?;
        prop_assert!(trace.output.iter().all(|v| v.is_finite()));
    }
}

/// Tolerance of the permutation property without positions: with X, W and
/// W_O in [−1, 1] every number is below 40 in size, and a permuted input
/// gives the same products in the same order, but for the softmax's total
/// and the mix of values, summed in the permuted order: a few ulps, about
/// 1e-14 at most.
const PERMUTED_TOL: f64 = 1e-12;

/// A layer of 1 or 2 heads, maybe with W_O, over one sequence with entries
/// in [−1, 1], and a permutation of its positions.
fn permuted_layer(
) -> impl Strategy<Value = (Array2<f64>, Head, usize, Option<Array2<f64>>, Vec<usize>)> {
    (1usize..=8, 1usize..=6, 1usize..=2, 1usize..=4, 1usize..=4).prop_flat_map(
        |(t, d, heads, d_k, d_v)| {
            (
                matrix(t, d, 1.0),
                matrix(d, heads * d_k, 1.0),
                matrix(d, heads * d_k, 1.0),
                matrix(d, heads * d_v, 1.0),
                Just(heads),
                proptest::option::of(matrix(heads * d_v, 3, 1.0)),
                Just((0..t).collect::<Vec<_>>()).prop_shuffle(),
            )
                .prop_map(|(x, w_q, w_k, w_v, heads, w_o, order)| {
                    (x, Head { w_q, w_k, w_v }, heads, w_o, order)
                })
        },
    )
}

/// The layer's output and every head's weights over one sequence `x`.
fn layer(
    x: &Array2<f64>,
    head: &Head,
    heads: usize,
    w_o: Option<&Array2<f64>>,
    positions: Positions,
) -> (Array2<f64>, Vec<Array2<f64>>) {
    let options = Options {
        positions,
        ..Options::default()
    };
    let x = x.view().insert_axis(Axis(0));
    let layer = forward_heads(x, head, heads, w_o.map(|w| w.view()), None, None, options)
        .expect("valid input");
    let weights = layer
        .heads
        .iter()
        .map(|h| h.weights.index_axis(Axis(0), 0).to_owned())
        .collect();
    (layer.output.index_axis(Axis(0), 0).to_owned(), weights)
}

/// The largest difference between the output of a permuted sequence and
/// the permuted output, `max |out(πX)_r − out(X)_π(r)|`.
fn permutation_gap(
    x: &Array2<f64>,
    head: &Head,
    heads: usize,
    order: &[usize],
    positions: Positions,
) -> f64 {
    let (plain, _) = layer(x, head, heads, None, positions);
    let (permuted, _) = layer(&x.select(Axis(0), order), head, heads, None, positions);
    let mut gap: f64 = 0.0;
    for (r, &from) in order.iter().enumerate() {
        for (got, want) in permuted.row(r).iter().zip(plain.row(from)) {
            gap = gap.max((got - want).abs());
        }
    }
    gap
}

proptest! {
    #![proptest_config(config())]

    /// Without positions attention reads a set: for every permutation π,
    /// `out(πX) = π·out(X)` and the weights are permuted in rows and
    /// columns alike, with one head or two, with W_O or without.
    #[test]
    fn without_positions_a_permutation_permutes_the_layer(
        (x, head, heads, w_o, order) in permuted_layer()
    ) {
        let (plain, plain_weights) = layer(&x, &head, heads, w_o.as_ref(), Positions::None);
        let permuted_x = x.select(Axis(0), &order);
        let (permuted, permuted_weights) = layer(&permuted_x, &head, heads, w_o.as_ref(), Positions::None);
        for (r, &from) in order.iter().enumerate() {
            for (c, (&got, &want)) in permuted.row(r).iter().zip(plain.row(from)).enumerate() {
                prop_assert!((got - want).abs() <= PERMUTED_TOL, "output[{}][{}]: {} vs {}", r, c, got, want);
            }
            for (h, (got, want)) in permuted_weights.iter().zip(&plain_weights).enumerate() {
                for (c, &to) in order.iter().enumerate() {
                    let (got, want) = (got[[r, c]], want[[from, to]]);
                    prop_assert!((got - want).abs() <= PERMUTED_TOL, "head {} weights[{}][{}]: {} vs {}", h, r, c, got, want);
                }
            }
        }
    }

    /// RoPE scores depend on the offset only: shifting both positions by
    /// the same amount leaves the score as it was. The positions stay below
    /// 512 so that an angle p·θ_0 = p radians is rounded to within 6e-14
    /// and the score, of size at most d_k ≤ 8, to within 1e-12.
    #[test]
    fn a_rope_score_depends_on_the_offset_only(
        (q, k) in (1usize..=4).prop_flat_map(|pairs| (vec(-1.0..1.0f64, 2 * pairs), vec(-1.0..1.0f64, 2 * pairs))),
        p_q in 0usize..256,
        p_k in 0usize..256,
        shift in 0usize..256,
    ) {
        let (q, k) = (Array1::from(q), Array1::from(k));
        let score = rope_score(q.view(), k.view(), p_q, p_k);
        let shifted = rope_score(q.view(), k.view(), p_q + shift, p_k + shift);
        prop_assert!((score - shifted).abs() <= 1e-12, "{} vs {} shifted by {}", score, shifted, shift);
    }
}

/// 我 / 喜欢 / 打 / 篮球 shuffled into 篮球 / 喜欢 / 打 / 我: without positions
/// the outputs are only reordered; with sinusoidal positions or RoPE they
/// are new numbers, each off by far more than rounding.
#[test]
fn with_positions_a_shuffled_sentence_is_not_the_same_sentence() {
    let s = sentence();
    let x = s.x.index_axis(Axis(0), 0).to_owned();
    let order = [3, 1, 2, 0];
    for heads in [1, 2] {
        let none = permutation_gap(&x, &s.head, heads, &order, Positions::None);
        assert!(
            none <= PERMUTED_TOL,
            "{heads} heads without positions: {none}"
        );
        for positions in [Positions::Sinusoidal, Positions::Rope] {
            let gap = permutation_gap(&x, &s.head, heads, &order, positions);
            assert!(gap >= 1e-3, "{heads} heads, {positions:?}: {gap}");
        }
    }
}

/// A RoPE score changes with the offset: the same query and key one
/// position apart and three apart.
#[test]
fn a_rope_score_changes_with_the_offset() {
    let (q, k) = (
        Array1::from(vec![1.0, 0.0, 0.5, 0.5]),
        Array1::from(vec![1.0, 0.0, 0.5, 0.5]),
    );
    let same = rope_score(q.view(), k.view(), 4, 4);
    // At offset 0 the rotations cancel: the plain dot product.
    assert!((same - 1.5).abs() < 1e-15);
    let near = rope_score(q.view(), k.view(), 4, 3);
    let far = rope_score(q.view(), k.view(), 4, 1);
    // Pair 0 turns by 1 radian per position, pair 1 by 1/100.
    let expected = |offset: f64| offset.cos() + 0.5 * (offset / 100.0).cos();
    assert!((near - expected(1.0)).abs() < 1e-14 && (far - expected(3.0)).abs() < 1e-14);
    assert!((near - far).abs() >= 1e-3 && (same - near).abs() >= 1e-3);
}
