//! The analytic gradients of `train::backward` against central finite
//! differences, on random heads, masks, options and losses.
//!
//! The numerical derivative of L with respect to one entry θ is the
//! five-point central difference
//! `n = (8·(L(θ+h) − L(θ−h)) − (L(θ+2h) − L(θ−2h))) / 12h`, h = 10⁻⁴, whose
//! truncation error is of order h⁴ (about 10⁻¹⁶ times L's fifth derivative)
//! and whose rounding error is about ε·|L|/h ≈ 2·10⁻¹²·|L|.
//!
//! The analytic value a passes when
//! `|a − n| / max(|a| + |n|, FLOOR·(1 + |L|)) ≤ 1e-4`.
//! Relative error alone is meaningless for entries that are exactly zero
//! (masked keys, a column no query reads), where n is rounding noise; the
//! floor, 10⁻⁶ relative to the loss, sits well above that noise but far below
//! the entries that matter: any entry larger than 10⁻⁶·(1 + |L|) must match to
//! 10⁻⁴ relative, and every smaller one to 10⁻¹⁰·(1 + |L|) absolute. A
//! gradient that is off by a missing 1/√d_k, or in a single entry by 0.1 %,
//! fails (see the last tests).

use attention_core::train::{
    backward, forward_values, loss_and_gradients, AttendTarget, Gradients, Loss, OutputTarget,
};
use attention_core::{forward_sequence, Head, Options};
use ndarray::{array, s, Array2};
use proptest::collection::vec;
use proptest::prelude::*;

const STEP: f64 = 1e-4;
const FLOOR: f64 = 1e-6;
const TOLERANCE: f64 = 1e-4;

/// One random problem: input, head, mask, options and loss.
#[derive(Clone, Debug)]
struct Case {
    x: Array2<f64>,
    head: Head,
    mask: Option<Vec<bool>>,
    options: Options,
    loss: Loss,
}

impl Case {
    fn loss_at(&self, x: &Array2<f64>, head: &Head) -> f64 {
        let values = forward_values(x.view(), head, self.mask.as_deref(), self.options)
            .expect("valid input");
        self.loss
            .evaluate(values.weights.view(), values.output.view())
            .0
    }

    /// The five-point central difference of the loss along `perturb`.
    fn numerical(&self, perturb: impl Fn(f64) -> (Array2<f64>, Head)) -> f64 {
        let at = |delta: f64| {
            let (x, head) = perturb(delta);
            self.loss_at(&x, &head)
        };
        let near = at(STEP) - at(-STEP);
        let far = at(2.0 * STEP) - at(-2.0 * STEP);
        (8.0 * near - far) / (12.0 * STEP)
    }

    /// The worst relative error over every entry of W_Q, W_K, W_V and X, and where.
    fn worst_error(&self, analytic: &Gradients, loss: f64) -> (f64, String) {
        let floor = FLOOR * (1.0 + loss.abs());
        let mut worst = (0.0, String::new());
        let mut check = |name: &str, index: (usize, usize), a: f64, n: f64| {
            let error = (a - n).abs() / (a.abs() + n.abs()).max(floor);
            if error > worst.0 || !error.is_finite() {
                worst = (
                    error,
                    format!("{name}{index:?}: analytic {a:e}, numerical {n:e}"),
                );
            }
        };
        for (name, which) in [("w_q", 0), ("w_k", 1), ("w_v", 2)] {
            let grad = [&analytic.w_q, &analytic.w_k, &analytic.w_v][which];
            for (index, &a) in grad.indexed_iter() {
                let n = self.numerical(|delta| {
                    let mut head = self.head.clone();
                    [&mut head.w_q, &mut head.w_k, &mut head.w_v][which][index] += delta;
                    (self.x.clone(), head)
                });
                check(name, index, a, n);
            }
        }
        for (index, &a) in analytic.x.indexed_iter() {
            let n = self.numerical(|delta| {
                let mut x = self.x.clone();
                x[index] += delta;
                (x, self.head.clone())
            });
            check("x", index, a, n);
        }
        worst
    }
}

fn matrix(rows: usize, cols: usize) -> impl Strategy<Value = Array2<f64>> {
    vec(-1.0..1.0, rows * cols)
        .prop_map(move |data| Array2::from_shape_vec((rows, cols), data).expect("sized to fit"))
}

/// Up to four targets of either loss for T positions and d_v columns.
fn loss(t: usize, d_v: usize) -> impl Strategy<Value = Loss> {
    let attend = vec((0..t, vec(any::<bool>(), t)), 0..=4).prop_map(|targets| {
        Loss::AttendTo(
            targets
                .into_iter()
                .map(|(query, set)| AttendTarget {
                    query,
                    keys: (0..set.len()).filter(|&j| set[j]).collect(),
                })
                .collect(),
        )
    });
    let output = vec((0..t, vec(-1.0..1.0, d_v)), 0..=4).prop_map(|targets| {
        Loss::Output(
            targets
                .into_iter()
                .map(|(query, target)| OutputTarget { query, target })
                .collect(),
        )
    });
    prop_oneof![attend, output]
}

fn case() -> impl Strategy<Value = Case> {
    (1usize..=6, 1usize..=6, 1usize..=5, 1usize..=5).prop_flat_map(|(t, d, d_k, d_v)| {
        let mask = prop_oneof![
            1 => Just(None),
            3 => vec(any::<bool>(), t).prop_map(Some),
        ];
        (
            matrix(t, d),
            (matrix(d, d_k), matrix(d, d_k), matrix(d, d_v)),
            mask,
            any::<(bool, bool)>(),
            loss(t, d_v),
        )
            .prop_map(|(x, (w_q, w_k, w_v), mask, (causal, scale), loss)| Case {
                x,
                head: Head { w_q, w_k, w_v },
                mask,
                options: Options {
                    causal,
                    scale,
                    ..Options::default()
                },
                loss,
            })
    })
}

fn analytic(case: &Case) -> (f64, Gradients) {
    loss_and_gradients(
        case.x.view(),
        &case.head,
        case.mask.as_deref(),
        case.options,
        &case.loss,
    )
    .expect("valid input")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn gradients_match_finite_differences(case in case()) {
        let (loss, gradients) = analytic(&case);
        prop_assert!(loss.is_finite());
        let (error, place) = case.worst_error(&gradients, loss);
        prop_assert!(error <= TOLERANCE, "relative error {:e} at {}", error, place);
    }

    #[test]
    fn training_forward_matches_the_trace(case in case()) {
        let values = forward_values(case.x.view(), &case.head, case.mask.as_deref(), case.options)
            .expect("valid input");
        let trace = forward_sequence(case.x.view(), &case.head, case.mask.as_deref(), case.options)
            .expect("valid input");
        for (a, b) in values.weights.iter().zip(trace.weights.slice(s![0, .., ..])) {
            prop_assert!((a - b).abs() <= 1e-12, "weights {} vs {}", a, b);
            prop_assert_eq!(*a == 0.0, *b == 0.0);
        }
        for (a, b) in values.output.iter().zip(trace.output.slice(s![0, .., ..])) {
            prop_assert!((a - b).abs() <= 1e-12, "output {} vs {}", a, b);
        }
    }
}

/// A fixed case with a fully masked row: causal, and key 0 is padding, so
/// query 0 sees nothing.
fn empty_row_case() -> Case {
    Case {
        x: array![[0.5, -0.2, 0.1], [0.3, 0.8, -0.6], [-0.7, 0.4, 0.9]],
        head: Head {
            w_q: array![[0.4, -0.3], [0.2, 0.9], [-0.5, 0.1]],
            w_k: array![[0.6, 0.2], [-0.4, 0.7], [0.3, -0.8]],
            w_v: array![[1.0, 0.5], [-0.2, 0.3], [0.4, -0.9]],
        },
        mask: Some(vec![false, true, true]),
        options: Options {
            causal: true,
            scale: true,
            ..Options::default()
        },
        loss: Loss::AttendTo(vec![
            AttendTarget {
                query: 0,
                keys: vec![0],
            },
            AttendTarget {
                query: 2,
                keys: vec![1],
            },
        ]),
    }
}

#[test]
fn a_fully_masked_row_is_zero_and_passes_no_gradient() {
    let case = empty_row_case();
    let (loss, gradients) = analytic(&case);
    // Query 0's share is clamped: −ln 1e-300 ≈ 690.8, plus query 2's −ln α′_21.
    let values = forward_values(
        case.x.view(),
        &case.head,
        case.mask.as_deref(),
        case.options,
    )
    .expect("valid input");
    assert_eq!(values.weights.row(0).to_vec(), [0.0; 3]);
    assert_eq!(values.output.row(0).to_vec(), [0.0; 2]);
    let expected = (-(1e-300f64).ln() - values.weights[[2, 1]].ln()) / 2.0;
    assert!((loss - expected).abs() < 1e-9, "{loss} vs {expected}");
    let (error, place) = case.worst_error(&gradients, loss);
    assert!(error <= TOLERANCE, "{error:e} at {place}");
    // Through the Output loss too: the empty row's B_0 is 0 whatever the weights.
    let output = Case {
        loss: Loss::Output(vec![OutputTarget {
            query: 0,
            target: vec![1.0, -1.0],
        }]),
        ..case
    };
    let (loss, gradients) = analytic(&output);
    assert_eq!(loss, 1.0);
    assert!(gradients
        .w_q
        .iter()
        .chain(&gradients.w_k)
        .chain(&gradients.w_v)
        .all(|&g| g == 0.0));
}

#[test]
fn a_padding_position_gets_exactly_zero_gradient() {
    // Position 0 is padding and, being causal, its query sees nothing: X_0
    // feeds an empty query row, a masked key and a value no one weighs, so
    // no upstream gradient reaches it.
    let case = empty_row_case();
    let run = |d_weights: Array2<f64>, d_output: Array2<f64>| {
        backward(
            case.x.view(),
            &case.head,
            case.mask.as_deref(),
            case.options,
            d_weights.view(),
            d_output.view(),
        )
        .expect("valid input")
    };
    let upstream =
        |rows, cols| Array2::from_shape_fn((rows, cols), |(i, j)| 0.3 + i as f64 - 0.7 * j as f64);
    let g = run(upstream(3, 3), upstream(3, 2));
    assert_eq!(g.x.row(0).to_vec(), [0.0; 3]);
    assert!(g.x.row(1).iter().any(|&v| v != 0.0));
    // A constant dL/dα′ along a row moves nothing: the weights always sum to 1.
    let g = run(Array2::from_elem((3, 3), 1.0), Array2::zeros((3, 2)));
    assert!(
        g.w_q
            .iter()
            .chain(&g.w_k)
            .chain(&g.x)
            .all(|&v| v.abs() < 1e-15),
        "{g:?}"
    );
}

#[test]
fn a_wrong_gradient_fails_the_check() {
    let case = Case {
        options: Options {
            causal: false,
            scale: true,
            ..Options::default()
        },
        mask: None,
        ..empty_row_case()
    };
    let (loss, good) = analytic(&case);
    assert!(case.worst_error(&good, loss).0 <= TOLERANCE);
    // Forgetting the 1/√d_k (here 1/√2) in the gradient of W_Q.
    let mut unscaled = good.clone();
    unscaled.w_q *= 2f64.sqrt();
    assert!(case.worst_error(&unscaled, loss).0 > 0.1);
    // One entry off by 0.1 %.
    let mut nudged = good.clone();
    nudged.w_k[[1, 0]] *= 1.001;
    assert!(case.worst_error(&nudged, loss).0 > TOLERANCE);
}

#[test]
fn bad_shapes_are_errors_not_panics() {
    let case = empty_row_case();
    let run = |d_weights: Array2<f64>, d_output: Array2<f64>, mask: Option<&[bool]>| {
        backward(
            case.x.view(),
            &case.head,
            mask,
            case.options,
            d_weights.view(),
            d_output.view(),
        )
    };
    assert!(run(Array2::zeros((3, 3)), Array2::zeros((3, 2)), None).is_ok());
    assert!(run(Array2::zeros((3, 2)), Array2::zeros((3, 2)), None).is_err());
    assert!(run(Array2::zeros((3, 3)), Array2::zeros((2, 2)), None).is_err());
    assert!(run(
        Array2::zeros((3, 3)),
        Array2::zeros((3, 2)),
        Some(&[true, true])
    )
    .is_err());
    let outside = Loss::AttendTo(vec![AttendTarget {
        query: 3,
        keys: vec![0],
    }]);
    let result = loss_and_gradients(case.x.view(), &case.head, None, case.options, &outside);
    assert!(result.is_err());
    let short = Loss::Output(vec![OutputTarget {
        query: 0,
        target: vec![1.0],
    }]);
    assert!(loss_and_gradients(case.x.view(), &case.head, None, case.options, &short).is_err());
    let mut head = case.head.clone();
    head.w_k = Array2::zeros((2, 2));
    let d = (Array2::zeros((3, 3)), Array2::zeros((3, 2)));
    assert!(backward(
        case.x.view(),
        &head,
        None,
        case.options,
        d.0.view(),
        d.1.view()
    )
    .is_err());
}
