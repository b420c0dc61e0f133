//! Reading `data/random_golden.json`, and its golden forward pass (the
//! `forward` entry: an odd shape, with whole blocks and the entries outside
//! them, a padding mask and a causal one). The core's native test and the
//! app's browser test both include this file, so the two run the very same
//! pass and compare it with the same pinned bits.

use attention_core::block::{forward_block, Activation, Block, BlockLayer, Norm};
use attention_core::layer::LayerBiases;
use attention_core::random::{fingerprint, normal_matrix};
use attention_core::trace::Biases;
use attention_core::{forward_sequence, Head, Options};
use ndarray::{Array1, Array2, Array3, Axis};
use serde_json::Value;

/// The fingerprints of the scores, weights and output the pass `forward`
/// describes gives here, and those the file pins, in that order.
pub fn forward_fingerprints(forward: &Value) -> ([u64; 3], [u64; 3]) {
    let seed = number(forward, "seed");
    let [t, d, d_k, d_v, padding] =
        ["t", "d", "d_k", "d_v", "padding"].map(|field| number(forward, field) as usize);
    let head = Head {
        w_q: normal_matrix(d, d_k, 0.5, seed + 1),
        w_k: normal_matrix(d, d_k, 0.5, seed + 2),
        w_v: normal_matrix(d, d_v, 0.5, seed + 3),
    };
    let real: Vec<bool> = (0..t).map(|j| j < t - padding).collect();
    let options = Options {
        causal: true,
        scale: true,
        ..Options::default()
    };
    let trace = forward_sequence(
        normal_matrix(t, d, 1.0, seed).view(),
        &head,
        Some(&real),
        options,
    )
    .expect("the golden forward pass runs");
    let computed = [&trace.scores, &trace.weights, &trace.output]
        .map(|a| fingerprint(&a.index_axis(Axis(0), 0).to_owned()));
    let pinned = [
        "scores_fingerprint",
        "weights_fingerprint",
        "output_fingerprint",
    ]
    .map(|field| number(forward, field));
    (computed, pinned)
}

/// The fingerprints of a seeded transformer block's first LayerNorm, its
/// last layer's GELU and its output (`block`: pre-norm, two layers, every
/// bias, a final norm, a padding mask), and those the file pins. LayerNorm's
/// sums, its square root and GELU's erf must give the same bits in
/// WebAssembly as natively.
pub fn block_fingerprints(entry: &Value) -> ([u64; 3], [u64; 3]) {
    let seed = number(entry, "seed");
    let [t, d, heads, d_ff, padding] =
        ["t", "d", "heads", "d_ff", "padding"].map(|field| number(entry, field) as usize);
    let mut draws = Draws(seed);
    let layers: Vec<BlockLayer> = (0..2)
        .map(|_| BlockLayer {
            attention: Head {
                w_q: draws.matrix(d, d),
                w_k: draws.matrix(d, d),
                w_v: draws.matrix(d, d),
            },
            w_o: draws.matrix(d, d),
            biases: LayerBiases {
                projections: Biases {
                    b_q: Some(draws.vector(d, 0.0)),
                    b_k: Some(draws.vector(d, 0.0)),
                    b_v: Some(draws.vector(d, 0.0)),
                },
                b_o: Some(draws.vector(d, 0.0)),
            },
            norm_1: draws.norm(d),
            norm_2: draws.norm(d),
            w_1: draws.matrix(d, d_ff),
            b_1: Some(draws.vector(d_ff, 0.0)),
            w_2: draws.matrix(d_ff, d),
            b_2: Some(draws.vector(d, 0.0)),
        })
        .collect();
    let block = Block {
        norm_first: true,
        activation: Activation::Gelu,
        eps: 1e-5,
        layers,
        final_norm: Some(draws.norm(d)),
    };
    let x: Array3<f64> = normal_matrix(t, d, 1.0, seed).insert_axis(Axis(0));
    let real = Array2::from_shape_fn((1, t), |(_, j)| j < t - padding);
    let trace = forward_block(
        x.view(),
        &block,
        heads,
        Some(real.view()),
        None,
        Options::default(),
    )
    .expect("the golden block runs");
    let first = |a: &Array3<f64>| fingerprint(&a.index_axis(Axis(0), 0).to_owned());
    let computed = [
        first(&trace.layers[0].norm_1.output),
        first(&trace.layers[1].activated),
        first(&trace.output),
    ];
    let pinned = [
        "norm_1_fingerprint",
        "activated_fingerprint",
        "output_fingerprint",
    ]
    .map(|field| number(entry, field));
    (computed, pinned)
}

/// Seeded normal draws, each from the next seed.
struct Draws(u64);

impl Draws {
    fn matrix(&mut self, rows: usize, cols: usize) -> Array2<f64> {
        self.0 += 1;
        normal_matrix(rows, cols, 0.4, self.0)
    }

    /// n entries near `around`.
    fn vector(&mut self, n: usize, around: f64) -> Array1<f64> {
        self.0 += 1;
        normal_matrix(1, n, 0.2, self.0).row(0).mapv(|v| v + around)
    }

    /// γ near 1, β near 0.
    fn norm(&mut self, d: usize) -> Norm {
        Norm {
            gamma: self.vector(d, 1.0),
            beta: Some(self.vector(d, 0.0)),
        }
    }
}

/// A whole number of the file: a size as a JSON number, or a seed or
/// fingerprint as a decimal string (a u64 does not fit a JSON double).
pub fn number(entry: &Value, field: &str) -> u64 {
    let value = &entry[field];
    value
        .as_u64()
        .or_else(|| value.as_str()?.parse().ok())
        .unwrap_or_else(|| panic!("random_golden.json: {field} should be a whole number"))
}
