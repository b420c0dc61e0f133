//! A transformer block's section of the link: groups separated by `;`, the
//! first `norm_first,activation,eps`, then one per layer, then the final
//! norm (empty without one). A layer's group is its sixteen fields in the
//! scenario format's order, separated by `/`, an optional one left empty
//! when the layer has none; a field is its numbers, row by row, and its
//! shape follows from x's d features and the count (W₁ has d rows, so
//! d_ff = its count / d). Numbers are written as the rest of the link
//! writes them: exactly.

use super::{bad, number, numbers, read_number};
use crate::lab::{LabError, MAX_ENTRY, MAX_HEAD_COLUMNS};
use attention_core::block::{Activation, Block, BlockLayer, Norm};
use attention_core::layer::LayerBiases;
use attention_core::limits::MAX_LAYERS;
use attention_core::trace::Biases;
use attention_core::Head;
use ndarray::{Array1, Array2};

/// The block's section.
pub fn encode(block: &Block) -> String {
    let flag = if block.norm_first { "1" } else { "0" };
    let head = format!("{flag},{},{}", block.activation.id(), number(block.eps));
    let vector = |v: Option<&Array1<f64>>| v.map(|v| numbers(v.iter())).unwrap_or_default();
    let layers = block.layers.iter().map(|l| {
        let h = &l.attention;
        let b = &l.biases;
        [
            numbers(h.w_q.iter()),
            numbers(h.w_k.iter()),
            numbers(h.w_v.iter()),
            numbers(l.w_o.iter()),
            vector(b.projections.b_q.as_ref()),
            vector(b.projections.b_k.as_ref()),
            vector(b.projections.b_v.as_ref()),
            vector(b.b_o.as_ref()),
            vector(Some(&l.norm_1.gamma)),
            vector(l.norm_1.beta.as_ref()),
            vector(Some(&l.norm_2.gamma)),
            vector(l.norm_2.beta.as_ref()),
            numbers(l.w_1.iter()),
            vector(l.b_1.as_ref()),
            numbers(l.w_2.iter()),
            vector(l.b_2.as_ref()),
        ]
        .join("/")
    });
    let final_norm = block
        .final_norm
        .as_ref()
        .map(|n| format!("{}/{}", vector(Some(&n.gamma)), vector(n.beta.as_ref())))
        .unwrap_or_default();
    std::iter::once(head)
        .chain(layers)
        .chain(std::iter::once(final_norm))
        .collect::<Vec<_>>()
        .join(";")
}

/// Numbers of a comma list, each within ±[`MAX_ENTRY`]; any count.
fn values(text: &str, what: &str) -> Result<Vec<f64>, LabError> {
    text.split(',')
        .map(|n| read_number(n).filter(|v| v.is_finite() && v.abs() <= MAX_ENTRY))
        .collect::<Option<_>>()
        .ok_or_else(|| bad(what))
}

/// A matrix of `rows` rows from its numbers.
fn matrix(text: &str, rows: usize, what: &str) -> Result<Array2<f64>, LabError> {
    let v = values(text, what)?;
    if rows == 0 || v.is_empty() || v.len() % rows != 0 {
        return Err(bad(what));
    }
    Array2::from_shape_vec((rows, v.len() / rows), v).map_err(|_| bad(what))
}

/// An optional vector: empty text is none.
fn vector(text: &str, what: &str) -> Result<Option<Array1<f64>>, LabError> {
    match text {
        "" => Ok(None),
        text => values(text, what).map(|v| Some(Array1::from(v))),
    }
}

/// A vector the layer must have.
fn required(text: &str, what: &str) -> Result<Array1<f64>, LabError> {
    vector(text, what)?.ok_or_else(|| bad(what))
}

/// The block of a section, over x of `d` features. The shapes are the
/// forward pass's to check (the link's scenario must run).
pub fn decode(text: &str, d: usize) -> Result<Block, LabError> {
    let groups: Vec<&str> = text.split(';').collect();
    let (Some((head, rest)), true) = (groups.split_first(), groups.len() >= 3) else {
        return Err(bad("block"));
    };
    let (final_norm, layers) = rest.split_last().ok_or_else(|| bad("block"))?;
    if layers.len() > MAX_LAYERS {
        return Err(bad("block"));
    }
    let settings: Vec<&str> = head.split(',').collect();
    let [flag, activation, eps] = settings[..] else {
        return Err(bad("block"));
    };
    let norm_first = match flag {
        "1" => true,
        "0" => false,
        _ => return Err(bad("block")),
    };
    let activation = Activation::from_id(activation).ok_or_else(|| bad("block"))?;
    let eps = read_number(eps)
        .filter(|e| e.is_finite() && *e > 0.0)
        .ok_or_else(|| bad("block"))?;
    let layers = layers
        .iter()
        .map(|group| layer(group, d))
        .collect::<Result<Vec<_>, _>>()?;
    let final_norm = match *final_norm {
        "" => None,
        norm => {
            let (gamma, beta) = norm.split_once('/').ok_or_else(|| bad("block"))?;
            Some(Norm {
                gamma: required(gamma, "block")?,
                beta: vector(beta, "block")?,
            })
        }
    };
    Ok(Block {
        norm_first,
        activation,
        eps,
        layers,
        final_norm,
    })
}

fn layer(group: &str, d: usize) -> Result<BlockLayer, LabError> {
    let fields: Vec<&str> = group.split('/').collect();
    let [w_q, w_k, w_v, w_o, b_q, b_k, b_v, b_o, gamma_1, beta_1, gamma_2, beta_2, w_1, b_1, w_2, b_2] =
        fields[..]
    else {
        return Err(bad("block"));
    };
    let w_v = matrix(w_v, d, "block")?;
    let w_v_columns = w_v.ncols();
    let w_1 = matrix(w_1, d, "block")?;
    // The widths the lab draws, as an import's.
    if w_1.ncols() > (4 * d).min(256) || w_v_columns > MAX_HEAD_COLUMNS {
        return Err(bad("block"));
    }
    Ok(BlockLayer {
        attention: Head {
            w_q: matrix(w_q, d, "block")?,
            w_k: matrix(w_k, d, "block")?,
            w_v,
        },
        // W_O has a row per column of the joined heads, W_V's columns.
        w_o: matrix(w_o, w_v_columns, "block")?,
        biases: LayerBiases {
            projections: Biases {
                b_q: vector(b_q, "block")?,
                b_k: vector(b_k, "block")?,
                b_v: vector(b_v, "block")?,
            },
            b_o: vector(b_o, "block")?,
        },
        norm_1: Norm {
            gamma: required(gamma_1, "block")?,
            beta: vector(beta_1, "block")?,
        },
        norm_2: Norm {
            gamma: required(gamma_2, "block")?,
            beta: vector(beta_2, "block")?,
        },
        w_2: matrix(w_2, w_1.ncols(), "block")?,
        w_1,
        b_1: vector(b_1, "block")?,
        b_2: vector(b_2, "block")?,
    })
}
