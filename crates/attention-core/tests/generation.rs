//! Generation with a KV cache: each step's rows equal the rows of the whole
//! causal pass (`forward_heads`), and the work each step reports equals a
//! count kept by slow loops that do that work, once with a cache and once
//! rerunning the causal pass on every prefix.

use attention_core::generate::{Generation, Sizes, Step, Work};
use attention_core::random::uniform_matrix;
use attention_core::{AttentionError, Head, LayerTrace, Options, Positions, Scenario};
use ndarray::{s, Array2, Array3, ArrayView1, Axis};
use proptest::collection::vec;
use proptest::prelude::*;

/// Absolute tolerance (times max(1, |expected|)) between a step and the
/// causal pass. Both run the same kernels on the same numbers, one row
/// against all of them, so they differ by a few ulps at most (about 1e-15
/// for the numbers below); 1e-12 leaves ample room.
const TOL: f64 = 1e-12;

fn close(got: f64, want: f64) -> bool {
    (got - want).abs() <= TOL * want.abs().max(1.0)
}

/// Checks that `got` is row `t` of sequence `b` of `full` (B×T×n) within
/// [`TOL`], naming `field` on a difference.
fn same_row(
    field: &str,
    got: ArrayView1<f64>,
    full: &Array3<f64>,
    (b, t): (usize, usize),
) -> Result<(), TestCaseError> {
    let want = full.slice(s![b, t, ..]);
    prop_assert_eq!(got.len(), want.len(), "{} at step {}: length", field, t);
    for (c, (&g, &w)) in got.iter().zip(&want).enumerate() {
        prop_assert!(
            close(g, w),
            "{}[{}] at step {}: cached {:e}, full {:e}",
            field,
            c,
            t,
            g,
            w
        );
    }
    Ok(())
}

/// Compares every step of sequence `b` with the causal pass `full`, and
/// each head's cache with the pass's K and V.
fn check_steps(
    generation: &mut Generation,
    full: &LayerTrace,
    b: usize,
) -> Result<(), TestCaseError> {
    let t_all = generation.steps();
    for t in 0..t_all {
        let step: Step = generation
            .step()
            .expect("a step per token")
            .map_err(|e| TestCaseError::fail(format!("step {t} failed: {e}")))?;
        prop_assert_eq!(step.position, t);
        same_row("x", step.x.view(), &full.heads[0].x, (b, t))?;
        for (h, (head, trace)) in step.heads.iter().zip(&full.heads).enumerate() {
            let field = |name: &str| format!("head {h} {name}");
            same_row(&field("q"), head.q.view(), &trace.q, (b, t))?;
            same_row(&field("k"), head.k.view(), &trace.k, (b, t))?;
            same_row(&field("v"), head.v.view(), &trace.v, (b, t))?;
            for (name, row, unrotated) in [
                ("q_unrotated", &head.q_unrotated, &trace.q_unrotated),
                ("k_unrotated", &head.k_unrotated, &trace.k_unrotated),
            ] {
                match (row, unrotated) {
                    (Some(row), Some(full)) => same_row(&field(name), row.view(), full, (b, t))?,
                    (None, None) => {}
                    _ => prop_assert!(false, "{} kept in one and not the other", field(name)),
                }
            }
            // The cached keys are the pass's keys 0 … t; every later weight
            // of the pass's row is 0 under the causal mask.
            let weights = trace.weights.slice(s![b, t, ..]);
            prop_assert_eq!(head.weights.len(), t + 1);
            for (j, &w) in weights.iter().enumerate() {
                let cached = head.weights.get(j).copied().unwrap_or(0.0);
                prop_assert!(
                    close(cached, w),
                    "{} [{}] at step {}: {} vs {}",
                    field("weights"),
                    j,
                    t,
                    cached,
                    w
                );
            }
            for (j, (&got, &want)) in head
                .scaled
                .iter()
                .zip(trace.scaled.slice(s![b, t, ..]))
                .enumerate()
            {
                prop_assert!(
                    close(got, want),
                    "{} [{}] at step {}",
                    field("scaled"),
                    j,
                    t
                );
            }
            same_row(&field("output"), head.output.view(), &trace.output, (b, t))?;
            let (keys, values) = generation.cache(h).expect("the head's cache");
            prop_assert_eq!(keys.nrows(), t + 1, "{} rows", field("cache"));
            for j in 0..=t {
                same_row(&field("cached k"), keys.row(j), &trace.k, (b, j))?;
                same_row(&field("cached v"), values.row(j), &trace.v, (b, j))?;
            }
        }
        same_row("concat", step.concat.view(), &full.concat, (b, t))?;
        same_row("output", step.output.view(), &full.output, (b, t))?;
    }
    prop_assert!(generation.step().is_none(), "no step after the last token");
    Ok(())
}

/// Every sequence of `scenario` decoded step by step against its causal pass.
fn check_generation(scenario: &Scenario) -> Result<(), TestCaseError> {
    let mut causal = scenario.clone();
    causal.options.causal = true;
    let full = causal
        .run()
        .map_err(|e| TestCaseError::fail(format!("the causal pass failed: {e}")))?;
    for b in 0..scenario.x.dim().0 {
        // Generation masks causally whatever the scenario says.
        let mut generation = Generation::new(scenario, b)
            .map_err(|e| TestCaseError::fail(format!("generation failed: {e}")))?;
        check_steps(&mut generation, &full, b)?;
    }
    Ok(())
}

/// A random layer: 1 or 2 heads, maybe a W_O, a mask and any positions (an
/// even d_k for RoPE, a `p` for learned ones).
fn scenario() -> impl Strategy<Value = Scenario> {
    (
        1usize..=2,
        1usize..=7,
        1usize..=5,
        1usize..=2,
        1usize..=3,
        1usize..=3,
        proptest::sample::select(Positions::ALL.to_vec()),
    )
        .prop_flat_map(|(batch, t, d, heads, d_k, d_v, positions)| {
            let d_k = if positions == Positions::Rope {
                d_k.div_ceil(2) * 2
            } else {
                d_k
            };
            let matrix = |rows: usize, cols: usize| {
                vec(-2.0..2.0f64, rows * cols).prop_map(move |data| {
                    Array2::from_shape_vec((rows, cols), data).expect("sized to fit")
                })
            };
            (
                vec(-2.0..2.0f64, batch * t * d),
                (
                    matrix(d, heads * d_k),
                    matrix(d, heads * d_k),
                    matrix(d, heads * d_v),
                ),
                proptest::option::of(matrix(heads * d_v, 3)),
                proptest::option::of(vec(prop::bool::weighted(0.8), batch * t)),
                any::<(bool, bool)>(),
                matrix(t, d),
            )
                .prop_map(
                    move |(x, (w_q, w_k, w_v), w_o, mask, (causal, scale), p)| Scenario {
                        tokens: None,
                        x: Array3::from_shape_vec((batch, t, d), x).expect("sized to fit"),
                        batched: batch > 1,
                        head: Head { w_q, w_k, w_v },
                        heads,
                        w_o,
                        mask: mask
                            .map(|m| Array2::from_shape_vec((batch, t), m).expect("sized to fit")),
                        options: Options {
                            causal,
                            scale,
                            positions,
                        },
                        p: (positions == Positions::Learned).then_some(p),
                        block: None,
                    },
                )
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn cached_steps_equal_the_causal_pass(s in scenario()) {
        check_generation(&s)?;
    }

    #[test]
    fn the_total_is_the_sum_of_the_steps(
        (d, d_k, d_v, heads, d_out, steps) in (1usize..=512, 1usize..=64, 1usize..=64, 1usize..=8, proptest::option::of(1usize..=512), 0usize..=512)
    ) {
        let sizes = Sizes { d, d_k, d_v, heads, d_out };
        let summed = (0..steps).map(|t| sizes.step_work(t)).fold(Work::default(), |sum, w| Work {
            cached: sum.cached + w.cached,
            uncached: sum.uncached + w.uncached,
        });
        prop_assert_eq!(sizes.total_work(steps), summed);
    }
}

/// A layer from seeded random numbers: T = 6, d = 5, d_k = 2 and d_v = 3
/// per head, W_O with 4 columns when there are two heads, and the last token
/// padding (a real key must never attend to it, nor it count as a key).
fn seeded(heads: usize, positions: Positions) -> Scenario {
    let (t, d, d_k, d_v) = (6, 5, 2, 3);
    Scenario {
        tokens: None,
        x: uniform_matrix(t, d, -1.0, 1.0, 1).insert_axis(Axis(0)),
        batched: false,
        head: Head {
            w_q: uniform_matrix(d, heads * d_k, -1.0, 1.0, 2),
            w_k: uniform_matrix(d, heads * d_k, -1.0, 1.0, 3),
            w_v: uniform_matrix(d, heads * d_v, -1.0, 1.0, 4),
        },
        heads,
        w_o: (heads > 1).then(|| uniform_matrix(heads * d_v, 4, -1.0, 1.0, 5)),
        mask: Some(Array2::from_shape_fn((1, t), |(_, j)| j + 1 < t)),
        options: Options {
            causal: true,
            scale: true,
            positions,
        },
        p: (positions == Positions::Learned).then(|| uniform_matrix(t, d, -1.0, 1.0, 6)),
        block: None,
    }
}

/// Every kind of positions with one head and with two, so that none is
/// left to chance.
#[test]
fn every_kind_of_positions_with_one_head_and_two() {
    for heads in [1, 2] {
        for positions in Positions::ALL {
            check_generation(&seeded(heads, positions))
                .unwrap_or_else(|e| panic!("{heads} heads, {positions:?}: {e}"));
        }
    }
}

/// Multiply-adds counted one by one.
#[derive(Default)]
struct Counter(u64);

impl Counter {
    /// `a·b` for an n×m `a` and an m×p `b`, one count per multiply-add.
    fn matmul(&mut self, a: &[Vec<f64>], b: &[Vec<f64>]) -> Vec<Vec<f64>> {
        let p = b.first().map_or(0, Vec::len);
        let mut out = vec![vec![0.0; p]; a.len()];
        for (i, row) in a.iter().enumerate() {
            for (j, cell) in out[i].iter_mut().enumerate() {
                for (c, b_row) in b.iter().enumerate() {
                    *cell += row[c] * b_row[j];
                    self.0 += 1;
                }
            }
        }
        out
    }

    /// `Σ_c a_c·b_c`, one count per multiply-add.
    fn dot(&mut self, a: &[f64], b: &[f64]) -> f64 {
        let mut sum = 0.0;
        for (x, y) in a.iter().zip(b) {
            sum += x * y;
            self.0 += 1;
        }
        sum
    }
}

type Matrix = Vec<Vec<f64>>;

/// One head's cache in the loops: its keys and its values, a row per token.
type Cache = (Matrix, Matrix);

fn rows(a: ndarray::ArrayView2<f64>) -> Vec<Vec<f64>> {
    a.outer_iter().map(|r| r.to_vec()).collect()
}

fn transpose(a: &[Vec<f64>]) -> Vec<Vec<f64>> {
    (0..a.first().map_or(0, Vec::len))
        .map(|j| a.iter().map(|row| row[j]).collect())
        .collect()
}

/// Softmax of one row (no positions or masks here: every key is allowed).
/// Whether key j of the first sequence is a real token, not padding.
fn real(s: &Scenario, j: usize) -> bool {
    s.mask.as_ref().is_none_or(|m| m[[0, j]])
}

/// The softmax of a row in which padding keys hold −∞ (at least one key is real).
fn softmax(row: &[f64]) -> Vec<f64> {
    let largest = row.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let exps: Vec<f64> = row.iter().map(|s| (s - largest).exp()).collect();
    let total: f64 = exps.iter().sum();
    exps.iter().map(|e| e / total).collect()
}

/// The layer's last output row over the first n rows of `x`, rerunning the
/// whole causal pass as a model without a cache would, counting its work.
fn uncached_last_row(s: &Scenario, n: usize, count: &mut Counter) -> Vec<f64> {
    let x = rows(s.x.slice(s![0, ..n, ..]));
    let factor = 1.0 / ((s.head.w_q.ncols() / s.heads) as f64).sqrt();
    let mut concat = vec![Vec::new(); n];
    for h in 0..s.heads {
        let part = s.head.part(h, s.heads);
        let q = count.matmul(&x, &rows(part.w_q.view()));
        let k = count.matmul(&x, &rows(part.w_k.view()));
        let v = count.matmul(&x, &rows(part.w_v.view()));
        // Every score of the square, then the causal mask.
        let scores = count.matmul(&q, &transpose(&k));
        let weights: Vec<Vec<f64>> = scores
            .iter()
            .enumerate()
            .map(|(i, row)| {
                let seen: Vec<f64> = row[..=i]
                    .iter()
                    .enumerate()
                    .map(|(j, score)| {
                        if real(s, j) {
                            score * factor
                        } else {
                            f64::NEG_INFINITY
                        }
                    })
                    .collect();
                let mut w = softmax(&seen);
                w.resize(n, 0.0);
                w
            })
            .collect();
        for (joined, row) in concat.iter_mut().zip(count.matmul(&weights, &v)) {
            joined.extend(row);
        }
    }
    let output = match &s.w_o {
        Some(w_o) => count.matmul(&concat, &rows(w_o.view())),
        None => concat,
    };
    output[n - 1].clone()
}

/// Step t with a cache kept by the caller, counting its work: one row
/// projected, its scores against the cache, its mix of values, one row
/// through W_O.
fn cached_row(s: &Scenario, t: usize, cache: &mut [Cache], count: &mut Counter) -> Vec<f64> {
    let x = vec![s.x.slice(s![0, t, ..]).to_vec()];
    let factor = 1.0 / ((s.head.w_q.ncols() / s.heads) as f64).sqrt();
    let mut concat = Vec::new();
    for (h, (keys, values)) in cache.iter_mut().enumerate() {
        let part = s.head.part(h, s.heads);
        let q = count.matmul(&x, &rows(part.w_q.view())).remove(0);
        keys.push(count.matmul(&x, &rows(part.w_k.view())).remove(0));
        values.push(count.matmul(&x, &rows(part.w_v.view())).remove(0));
        let scores: Vec<f64> = keys
            .iter()
            .enumerate()
            .map(|(j, k)| {
                let score = count.dot(&q, k) * factor;
                if real(s, j) {
                    score
                } else {
                    f64::NEG_INFINITY
                }
            })
            .collect();
        let weights = softmax(&scores);
        concat.extend(count.matmul(&[weights], values).remove(0));
    }
    match &s.w_o {
        Some(w_o) => count.matmul(&[concat], &rows(w_o.view())).remove(0),
        None => concat,
    }
}

/// The work a step reports is what the loops above count, with and without
/// the cache, for one head without W_O and two heads with one; and the loops
/// compute the same rows as the generation.
#[test]
fn each_steps_work_is_what_the_loops_count() {
    for heads in [1, 2] {
        let s = seeded(heads, Positions::None);
        let mut cache = vec![(Vec::new(), Vec::new()); heads];
        let mut total = Work::default();
        let generation = Generation::new(&s, 0).expect("runs");
        let sizes = generation.sizes();
        for (t, step) in generation.enumerate() {
            let step = step.expect("a step");
            let (mut cached, mut uncached) = (Counter::default(), Counter::default());
            let row = cached_row(&s, t, &mut cache, &mut cached);
            let again = uncached_last_row(&s, t + 1, &mut uncached);
            for ((&got, &a), &b) in step.output.iter().zip(&row).zip(&again) {
                assert!(close(got, a) && close(got, b), "step {t}: {got}, {a}, {b}");
            }
            let counted = Work {
                cached: cached.0,
                uncached: uncached.0,
            };
            assert_eq!(step.work, counted, "{heads} heads, step {t}");
            assert_eq!(sizes.step_work(t), counted);
            total.cached += counted.cached;
            total.uncached += counted.uncached;
        }
        assert_eq!(sizes.total_work(6), total, "{heads} heads");
    }
}

#[test]
fn generation_checks_its_input_as_the_forward_pass_does() {
    let error = Generation::new(&seeded(1, Positions::None), 1).unwrap_err();
    assert_eq!(
        error.to_string(),
        "sequence: the index must be between 0 and 0, but it is 1"
    );
    let mut odd = seeded(1, Positions::Rope);
    odd.head.w_q = uniform_matrix(5, 3, -1.0, 1.0, 2);
    odd.head.w_k = uniform_matrix(5, 3, -1.0, 1.0, 3);
    assert_eq!(
        Generation::new(&odd, 0).unwrap_err(),
        AttentionError::OddColumns {
            field: "w_q".into(),
            found: 3
        }
    );
}

/// Numbers so large that a step overflows end the generation with an error.
#[test]
fn an_overflowing_step_is_an_error_that_ends_the_generation() {
    let mut s = seeded(1, Positions::None);
    s.head.w_q.fill(1e200);
    s.head.w_k.fill(1e200);
    let mut generation = Generation::new(&s, 0).expect("finite input");
    assert_eq!(
        generation.next().expect("step 0"),
        Err(AttentionError::Overflow {
            field: "scores".into()
        })
    );
    assert!(generation.next().is_none());
}
