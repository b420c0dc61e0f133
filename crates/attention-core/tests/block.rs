//! Compares `forward_block` with a slow reference written as plain loops over
//! `Vec<Vec<f64>>`, so that each step can be checked by eye against its
//! formula: the attention (Q = X·W_Q + b_q per head, softmax over the allowed
//! keys, Concat·W_O + b_o), LayerNorm, the feed-forward network and the two
//! residual sums, in the post-norm and the pre-norm order. Then the block's
//! invariants: LayerNorm's rows, the FFN's token-by-token work, the order of
//! the tokens, and scenarios that round-trip through JSON.

use attention_core::block::{forward_block, Activation, Block, BlockLayer, BlockTrace, Norm};
use attention_core::layer::LayerBiases;
use attention_core::trace::Biases;
use attention_core::{json, Head, Options, Scenario};
use ndarray::{Array1, Array2, Array3, Axis};
use proptest::collection::vec;
use proptest::prelude::*;

/// Relative tolerance (times max(1, |expected|)). Both sides add the same
/// few terms, perhaps in another order; values stay within a few units here,
/// so rounding differs in the last bits only, far below this.
const TOL: f64 = 1e-10;

type Matrix = Vec<Vec<f64>>;

fn rows(a: &Array2<f64>) -> Matrix {
    a.rows().into_iter().map(|r| r.to_vec()).collect()
}

/// x·w + b, by loops.
fn affine(x: &Matrix, w: &Array2<f64>, b: Option<&Array1<f64>>) -> Matrix {
    x.iter()
        .map(|row| {
            (0..w.ncols())
                .map(|j| {
                    let mut sum = b.map_or(0.0, |b| b[j]);
                    for (c, value) in row.iter().enumerate() {
                        sum += value * w[[c, j]];
                    }
                    sum
                })
                .collect()
        })
        .collect()
}

fn add(a: &Matrix, b: &Matrix) -> Matrix {
    a.iter()
        .zip(b)
        .map(|(a, b)| a.iter().zip(b).map(|(x, y)| x + y).collect())
        .collect()
}

/// (x − mean) / √(var + ε) · γ + β, row by row, var the biased variance.
fn layer_norm(x: &Matrix, norm: &Norm, eps: f64) -> Matrix {
    x.iter()
        .map(|row| {
            let d = row.len() as f64;
            let mean = row.iter().sum::<f64>() / d;
            let var = row.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / d;
            row.iter()
                .enumerate()
                .map(|(c, v)| {
                    let beta = norm.beta.as_ref().map_or(0.0, |b| b[c]);
                    (v - mean) / (var + eps).sqrt() * norm.gamma[c] + beta
                })
                .collect()
        })
        .collect()
}

fn activate(x: f64, activation: Activation) -> f64 {
    match activation {
        Activation::Relu => {
            if x > 0.0 {
                x
            } else {
                0.0
            }
        }
        // x·Φ(x), Φ from the complementary error function's definition via
        // libm (the standard library has no erf).
        Activation::Gelu => x * 0.5 * libm::erfc(-x / std::f64::consts::SQRT_2),
    }
}

/// Multi-head attention over one sequence, by loops: each head's columns,
/// the softmax over the keys query i may see, the heads joined, then W_O.
fn attention(x: &Matrix, layer: &BlockLayer, heads: usize, real: &[bool], causal: bool) -> Matrix {
    let b = &layer.biases.projections;
    let q = affine(x, &layer.attention.w_q, b.b_q.as_ref());
    let k = affine(x, &layer.attention.w_k, b.b_k.as_ref());
    let v = affine(x, &layer.attention.w_v, b.b_v.as_ref());
    let (t, d_k, d_v) = (x.len(), q[0].len() / heads, v[0].len() / heads);
    let mut joined = vec![vec![0.0; d_v * heads]; t];
    for h in 0..heads {
        for i in 0..t {
            let allowed: Vec<bool> = (0..t).map(|j| real[j] && (!causal || j <= i)).collect();
            let scores: Vec<f64> = (0..t)
                .map(|j| {
                    let dot: f64 = (0..d_k)
                        .map(|c| q[i][h * d_k + c] * k[j][h * d_k + c])
                        .sum();
                    dot / (d_k as f64).sqrt()
                })
                .collect();
            let largest = (0..t)
                .filter(|&j| allowed[j])
                .map(|j| scores[j])
                .fold(f64::NEG_INFINITY, f64::max);
            let e: Vec<f64> = (0..t)
                .map(|j| {
                    if allowed[j] {
                        (scores[j] - largest).exp()
                    } else {
                        0.0
                    }
                })
                .collect();
            let total: f64 = e.iter().sum();
            for c in 0..d_v {
                joined[i][h * d_v + c] = if total > 0.0 {
                    (0..t).map(|j| e[j] / total * v[j][h * d_v + c]).sum()
                } else {
                    0.0
                };
            }
        }
    }
    affine(&joined, &layer.w_o, layer.biases.b_o.as_ref())
}

/// The block by its formulas, one sequence: every layer's output, then the block's.
fn reference(
    x: &Matrix,
    block: &Block,
    heads: usize,
    real: &[bool],
    causal: bool,
) -> (Vec<Matrix>, Matrix) {
    let ln = |x: &Matrix, norm: &Norm| layer_norm(x, norm, block.eps);
    let ffn = |x: &Matrix, l: &BlockLayer| {
        let hidden = affine(x, &l.w_1, l.b_1.as_ref());
        let activated: Matrix = hidden
            .iter()
            .map(|r| r.iter().map(|&v| activate(v, block.activation)).collect())
            .collect();
        affine(&activated, &l.w_2, l.b_2.as_ref())
    };
    let mut outputs = Vec::new();
    let mut stream = x.clone();
    for l in &block.layers {
        stream = if block.norm_first {
            let h = add(
                &stream,
                &attention(&ln(&stream, &l.norm_1), l, heads, real, causal),
            );
            add(&h, &ffn(&ln(&h, &l.norm_2), l))
        } else {
            let h = ln(
                &add(&stream, &attention(&stream, l, heads, real, causal)),
                &l.norm_1,
            );
            ln(&add(&h, &ffn(&h, l)), &l.norm_2)
        };
        outputs.push(stream.clone());
    }
    let output = block
        .final_norm
        .as_ref()
        .map_or(stream.clone(), |n| ln(&stream, n));
    (outputs, output)
}

fn check(got: &Array3<f64>, b: usize, want: &Matrix, what: &str) -> Result<(), TestCaseError> {
    for (i, row) in want.iter().enumerate() {
        for (c, &w) in row.iter().enumerate() {
            let g = got[[b, i, c]];
            prop_assert!(
                (g - w).abs() <= TOL * w.abs().max(1.0),
                "{what}[{b}][{i}][{c}]: got {g}, the reference {w}"
            );
        }
    }
    Ok(())
}

fn matrix(r: usize, c: usize, scale: f64) -> impl Strategy<Value = Array2<f64>> {
    vec(-scale..scale, r * c).prop_map(move |v| Array2::from_shape_vec((r, c), v).expect("r×c"))
}

fn vector(n: usize, around: f64) -> impl Strategy<Value = Array1<f64>> {
    vec(around - 0.5..around + 0.5, n).prop_map(Array1::from)
}

fn maybe(n: usize, around: f64) -> impl Strategy<Value = Option<Array1<f64>>> {
    prop::option::of(vector(n, around))
}

fn norm(d: usize) -> impl Strategy<Value = Norm> {
    (vector(d, 1.0), maybe(d, 0.0)).prop_map(|(gamma, beta)| Norm { gamma, beta })
}

fn block_layer(d: usize, d_ff: usize) -> impl Strategy<Value = BlockLayer> {
    let attention = (
        matrix(d, d, 1.0),
        matrix(d, d, 1.0),
        matrix(d, d, 1.0),
        matrix(d, d, 1.0),
    );
    let biases = (maybe(d, 0.0), maybe(d, 0.0), maybe(d, 0.0), maybe(d, 0.0));
    let ffn = (
        matrix(d, d_ff, 1.0),
        maybe(d_ff, 0.0),
        matrix(d_ff, d, 1.0),
        maybe(d, 0.0),
    );
    (attention, biases, norm(d), norm(d), ffn).prop_map(
        |((w_q, w_k, w_v, w_o), (b_q, b_k, b_v, b_o), norm_1, norm_2, (w_1, b_1, w_2, b_2))| {
            BlockLayer {
                attention: Head { w_q, w_k, w_v },
                w_o,
                biases: LayerBiases {
                    projections: Biases { b_q, b_k, b_v },
                    b_o,
                },
                norm_1,
                norm_2,
                w_1,
                b_1,
                w_2,
                b_2,
            }
        },
    )
}

#[derive(Debug)]
struct Case {
    x: Array3<f64>,
    block: Block,
    heads: usize,
    real: Array2<bool>,
    causal: bool,
}

fn case() -> impl Strategy<Value = Case> {
    (
        1usize..=3,
        1usize..=2,
        1usize..=6,
        1usize..=5,
        1usize..=3,
        1usize..=2,
    )
        .prop_flat_map(|(half_d, heads, d_ff, t, layers, batch)| {
            let d = 2 * half_d;
            (
                vec(block_layer(d, d_ff), layers),
                any::<bool>(),
                prop::sample::select(Activation::ALL.to_vec()),
                prop::option::of(norm(d)),
                vec(-2.0..2.0f64, batch * t * d),
                vec(prop::bool::weighted(0.8), batch * t),
                any::<bool>(),
                Just((heads, d, t, batch)),
            )
        })
        .prop_map(
            |(
                layers,
                norm_first,
                activation,
                final_norm,
                x,
                real,
                causal,
                (heads, d, t, batch),
            )| {
                Case {
                    x: Array3::from_shape_vec((batch, t, d), x).expect("B×T×d"),
                    block: Block {
                        norm_first,
                        activation,
                        eps: 1e-5,
                        layers,
                        final_norm,
                    },
                    heads,
                    real: Array2::from_shape_vec((batch, t), real).expect("B×T"),
                    causal,
                }
            },
        )
}

fn run(c: &Case) -> BlockTrace {
    let options = Options {
        causal: c.causal,
        ..Options::default()
    };
    forward_block(
        c.x.view(),
        &c.block,
        c.heads,
        Some(c.real.view()),
        None,
        options,
    )
    .expect("a valid block runs")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn forward_block_matches_the_reference(c in case()) {
        let trace = run(&c);
        for (b, x) in c.x.outer_iter().enumerate() {
            let real = c.real.row(b).to_vec();
            let (layers, output) = reference(&rows(&x.to_owned()), &c.block, c.heads, &real, c.causal);
            for (i, want) in layers.iter().enumerate() {
                check(&trace.layers[i].output, b, want, &format!("layers[{i}].output"))?;
            }
            check(&trace.output, b, &output, "output")?;
        }
    }

    /// Each normalised row, before γ and β, has mean 0 and a variance just
    /// under 1 (var / (var + ε)); and γ, β are applied after it.
    #[test]
    fn layer_norm_rows_have_mean_0_and_variance_under_1(c in case()) {
        let trace = run(&c);
        for layer in &trace.layers {
            for norm in [&layer.norm_1, &layer.norm_2] {
                for row in norm.normalised.lanes(Axis(2)) {
                    let d = row.len() as f64;
                    let mean = row.sum() / d;
                    let var = row.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / d;
                    prop_assert!(mean.abs() < 1e-12, "mean {mean}");
                    prop_assert!(var < 1.0 + 1e-12, "variance {var}");
                }
            }
        }
    }

    /// The feed-forward network works on each token alone: its hidden row i
    /// is row i of its input times W₁ plus b₁, whatever the other rows are.
    #[test]
    fn the_ffn_treats_each_token_alone(c in case()) {
        let trace = run(&c);
        let first = &trace.layers[0];
        let input = if c.block.norm_first { &first.norm_2.output } else { &first.norm_1.output };
        let weights = &c.block.layers[0];
        for b in 0..c.x.dim().0 {
            for i in 0..c.x.dim().1 {
                let alone = vec![input.slice(ndarray::s![b, i, ..]).to_vec()];
                let hidden = affine(&alone, &weights.w_1, weights.b_1.as_ref());
                check(&first.hidden.slice(ndarray::s![b..b + 1, i..i + 1, ..]).to_owned(), 0, &hidden, "hidden")?;
            }
        }
    }

    /// Without positions, masks or causality, a block cannot tell the order
    /// of its tokens: reversing them reverses every output row.
    #[test]
    fn reversing_the_tokens_reverses_the_output(c in case()) {
        let plain = Case { real: Array2::from_elem(c.real.dim(), true), causal: false, ..c };
        let trace = run(&plain);
        let mut reversed_x = plain.x.clone();
        reversed_x.invert_axis(Axis(1));
        let reversed = run(&Case { x: reversed_x, ..plain });
        let mut back = reversed.output.clone();
        back.invert_axis(Axis(1));
        for (g, w) in back.iter().zip(&trace.output) {
            prop_assert!((g - w).abs() <= 1e-9 * w.abs().max(1.0), "{g} vs {w}");
        }
    }

    /// A block scenario written as JSON reads back as the same scenario.
    #[test]
    fn block_scenarios_round_trip_in_json(c in case()) {
        let tokens: Vec<String> = (0..c.x.dim().1).map(|i| format!("t{i}")).collect();
        let scenario = Scenario {
            tokens: Some(tokens),
            x: c.x.clone(),
            batched: c.x.dim().0 > 1,
            head: Head::empty(),
            heads: c.heads,
            w_o: None,
            mask: Some(c.real.clone()),
            options: Options { causal: c.causal, ..Options::default() },
            p: None,
            block: Some(c.block.clone()),
        };
        let text = json::scenario_json(&scenario, |v| format!("{v:?}"));
        let read = Scenario::from_json(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(&read, &scenario);
        prop_assert_eq!(read.run_block().expect("runs"), Some(run(&c)));
    }
}

/// The reference itself, on numbers worked by hand: one token of two
/// features, post-norm, every weight the identity, so the attention passes
/// the token's value through.
#[test]
fn reference_matches_a_hand_computed_example() {
    let norm = Norm {
        gamma: Array1::from(vec![1.0, 1.0]),
        beta: None,
    };
    let eye = Array2::eye(2);
    let layer = BlockLayer {
        attention: Head {
            w_q: eye.clone(),
            w_k: eye.clone(),
            w_v: eye.clone(),
        },
        w_o: eye.clone(),
        biases: LayerBiases::default(),
        norm_1: norm.clone(),
        norm_2: norm,
        w_1: eye.clone(),
        b_1: None,
        w_2: eye,
        b_2: None,
    };
    let block = Block {
        norm_first: false,
        activation: Activation::Relu,
        eps: 0.0,
        layers: vec![layer],
        final_norm: None,
    };
    // x = [3, 1]: attention gives [3, 1] (one key), the sum [6, 2], LN₁
    // [1, −1]; the FFN gives ReLU → [1, 0], the sum [2, −1], LN₂ [1, −1].
    let (layers, output) = reference(&vec![vec![3.0, 1.0]], &block, 1, &[true], false);
    assert_eq!(layers[0], vec![vec![1.0, -1.0]]);
    assert_eq!(output, vec![vec![1.0, -1.0]]);
}
