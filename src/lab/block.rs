//! The learner's edits to a transformer block, as pure functions: wrap the
//! attention in a block or take it away, the number of layers, pre- or
//! post-norm, the activation, one entry of a layer's W₁, W₂, γ or β, and new
//! weights for the whole block. A block the lab makes has no biases, so every
//! number it computes with is one the learner can see and edit; an imported
//! block keeps its own.

use super::{projection, Editable, LabError};
use attention_core::block::{Activation, Block, BlockLayer, Norm, DEFAULT_EPS};
use attention_core::layer::LayerBiases;
use attention_core::limits::MAX_LAYERS;
use attention_core::random::{normal_matrix, rounded};
use attention_core::{Head, Scenario};
use ndarray::Array1;

/// The hidden width a new block gets, d_ff = 2·d: small enough to read as a
/// heatmap beside the tokens (the original Transformer has 4·d).
pub const FFN_RATIO: usize = 2;

/// Whether `matrix` is a part of a block's layer (W₁, W₂, γ or β).
pub(super) fn layer_part(matrix: Editable) -> Option<Editable> {
    use Editable as E;
    matches!(
        matrix,
        E::W1 | E::W2 | E::Gamma1 | E::Beta1 | E::Gamma2 | E::Beta2
    )
    .then_some(matrix)
}

/// The shown layer, the last for a layer past it.
fn layer_of(scenario: &Scenario, layer: usize) -> Option<&BlockLayer> {
    let layers = &scenario.block.as_ref()?.layers;
    layers.get(layer.min(layers.len().saturating_sub(1)))
}

/// Entry (row, col) of a layer's part; γ and β are one row, and a β the
/// layer does not have is all zeros.
pub(super) fn part(
    scenario: &Scenario,
    layer: usize,
    matrix: Editable,
    (row, col): (usize, usize),
) -> Option<f64> {
    let l = layer_of(scenario, layer)?;
    let in_row = |v: &Array1<f64>| (row == 0).then(|| v.get(col).copied()).flatten();
    let beta = |norm: &Norm| match &norm.beta {
        Some(beta) => in_row(beta),
        None => (row == 0 && col < norm.gamma.len()).then_some(0.0),
    };
    match matrix {
        Editable::W1 => l.w_1.get([row, col]).copied(),
        Editable::W2 => l.w_2.get([row, col]).copied(),
        Editable::Gamma1 => in_row(&l.norm_1.gamma),
        Editable::Gamma2 => in_row(&l.norm_2.gamma),
        Editable::Beta1 => beta(&l.norm_1),
        Editable::Beta2 => beta(&l.norm_2),
        _ => None,
    }
}

/// Sets entry (row, col) of a layer's part (see [`part`]); setting a β the
/// layer does not have gives it one, zeros but for this entry.
pub(super) fn set_part(
    scenario: &mut Scenario,
    layer: usize,
    matrix: Editable,
    (row, col): (usize, usize),
    value: f64,
) -> Result<(), LabError> {
    part(scenario, layer, matrix, (row, col)).ok_or(LabError::OutOfRange)?;
    let block = scenario.block.as_mut().ok_or(LabError::OutOfRange)?;
    let last = block.layers.len().saturating_sub(1);
    let l = block
        .layers
        .get_mut(layer.min(last))
        .ok_or(LabError::OutOfRange)?;
    fn beta(norm: &mut Norm, col: usize) -> Option<&mut f64> {
        let d = norm.gamma.len();
        norm.beta
            .get_or_insert_with(|| Array1::zeros(d))
            .get_mut(col)
    }
    let slot = match matrix {
        Editable::W1 => l.w_1.get_mut([row, col]),
        Editable::W2 => l.w_2.get_mut([row, col]),
        Editable::Gamma1 => l.norm_1.gamma.get_mut(col),
        Editable::Gamma2 => l.norm_2.gamma.get_mut(col),
        Editable::Beta1 => beta(&mut l.norm_1, col),
        Editable::Beta2 => beta(&mut l.norm_2, col),
        _ => None,
    };
    *slot.ok_or(LabError::OutOfRange)? = value;
    Ok(())
}

/// A new layer for x of d features: attention of the scenario's widths
/// (W_Q, W_K d×(h·d_k), W_V d×(h·d_v), W_O back to d), LayerNorms that
/// start as plain normalisations (γ = 1, β = 0), and a feed-forward network
/// of d_ff hidden units, all drawn from `seed`.
fn fresh_layer(d: usize, d_ff: usize, (d_k, d_v): (usize, usize), seed: u64) -> BlockLayer {
    let normal = |rows: usize, cols: usize, n: u64| {
        let std = 1.0 / (rows as f64).sqrt();
        rounded(normal_matrix(rows, cols, std, seed.wrapping_add(n)), 2)
    };
    let norm = || Norm {
        gamma: Array1::ones(d),
        beta: Some(Array1::zeros(d)),
    };
    BlockLayer {
        attention: Head {
            w_q: normal(d, d_k, 0),
            w_k: normal(d, d_k, 1),
            w_v: normal(d, d_v, 2),
        },
        w_o: projection(d_v, d, seed.wrapping_add(3)),
        biases: LayerBiases::default(),
        norm_1: norm(),
        norm_2: norm(),
        w_1: normal(d, d_ff, 4),
        b_1: None,
        w_2: normal(d_ff, d, 5),
        b_2: None,
    }
}

/// The scenario's attention wrapped in a post-norm block of `layers`
/// layers (ReLU, ε = 10⁻⁵): the first layer keeps the attention's weights
/// (and its W_O when it maps back to d features, else a new one), the
/// others and every feed-forward network are drawn from `seed`.
pub fn with_block(scenario: &Scenario, layers: usize, seed: u64) -> Result<Scenario, LabError> {
    if !(1..=MAX_LAYERS).contains(&layers) {
        return Err(LabError::BadLayers(layers));
    }
    if scenario.block.is_some() {
        return set_layer_count(scenario, layers, seed);
    }
    let d = scenario.x.dim().2;
    let widths = (scenario.head.w_q.ncols(), scenario.head.w_v.ncols());
    let mut first = fresh_layer(d, FFN_RATIO * d, widths, seed);
    first.attention = scenario.head.clone();
    if let Some(w_o) = scenario.w_o.as_ref().filter(|w| w.ncols() == d) {
        first.w_o = w_o.clone();
    }
    let mut all = vec![first];
    all.extend(
        (1..layers).map(|i| fresh_layer(d, FFN_RATIO * d, widths, seed.wrapping_add(8 * i as u64))),
    );
    let mut next = scenario.clone();
    next.block = Some(Block {
        norm_first: false,
        activation: Activation::Relu,
        eps: DEFAULT_EPS,
        layers: all,
        final_norm: None,
    });
    next.head = Head::empty();
    next.w_o = None;
    Ok(next)
}

/// The scenario without its block: the first layer's attention, W_O and
/// all, is the scenario's layer again.
pub fn without_block(scenario: &Scenario) -> Scenario {
    let mut next = scenario.clone();
    if let Some(block) = next.block.take() {
        if let Some(first) = block.layers.into_iter().next() {
            next.head = first.attention;
            next.w_o = Some(first.w_o);
        }
    }
    next
}

/// The block with `layers` layers: the first ones kept, new ones drawn from
/// `seed` with the widths of the last.
pub fn set_layer_count(
    scenario: &Scenario,
    layers: usize,
    seed: u64,
) -> Result<Scenario, LabError> {
    if !(1..=MAX_LAYERS).contains(&layers) {
        return Err(LabError::BadLayers(layers));
    }
    let d = scenario.x.dim().2;
    let mut next = scenario.clone();
    let block = next.block.as_mut().ok_or(LabError::OutOfRange)?;
    let last = scenario.attention(block.layers.len());
    let widths = (last.0.w_q.ncols(), last.0.w_v.ncols());
    let d_ff = block.layers.last().map_or(FFN_RATIO * d, |l| l.w_1.ncols());
    block.layers.truncate(layers);
    for i in block.layers.len()..layers {
        let seed = seed.wrapping_add(8 * i as u64);
        block.layers.push(fresh_layer(d, d_ff, widths, seed));
    }
    Ok(next)
}

/// Pre-norm (`true`) or post-norm.
pub fn set_norm_first(scenario: &mut Scenario, on: bool) {
    if let Some(block) = &mut scenario.block {
        block.norm_first = on;
    }
}

/// The feed-forward network's activation.
pub fn set_activation(scenario: &mut Scenario, activation: Activation) {
    if let Some(block) = &mut scenario.block {
        block.activation = activation;
    }
}

/// New weights for every layer of the block, drawn from `seed`, of the same
/// widths; LayerNorms start again as plain normalisations, and biases an
/// import brought are gone.
pub fn randomize_block(scenario: &mut Scenario, seed: u64) {
    let d = scenario.x.dim().2;
    if let Some(block) = &mut scenario.block {
        for (i, layer) in block.layers.iter_mut().enumerate() {
            let widths = (layer.attention.w_q.ncols(), layer.attention.w_v.ncols());
            // The hidden width stays the layer's own (an import's may differ).
            let d_ff = layer.w_1.ncols();
            *layer = fresh_layer(d, d_ff, widths, seed.wrapping_add(8 * i as u64));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::{entry, set_d_k, set_d_model, set_entry, set_heads, Place};
    use attention_core::presets::sentence;

    fn two_layers() -> Scenario {
        with_block(&sentence(), 2, 7).expect("a block of two layers")
    }

    #[test]
    fn a_block_keeps_the_attention_in_its_first_layer_and_gives_it_back() {
        let s = sentence();
        let block = two_layers();
        assert_eq!(block.attention(0).0, &s.head);
        assert_ne!(block.attention(1).0, &s.head, "the second layer is new");
        assert!(block.head.w_q.is_empty() && block.w_o.is_none());
        let trace = block.run_block().expect("runs").expect("a block");
        assert_eq!(trace.layers.len(), 2);
        let back = without_block(&block);
        assert_eq!(back.head, s.head);
        assert!(back.block.is_none() && back.w_o.is_some());
        assert!(back.run().is_ok());
    }

    #[test]
    fn an_entry_of_a_layer_is_that_layers_own() {
        let mut s = two_layers();
        let second = Place {
            layer: 1,
            ..Place::default()
        };
        set_entry(&mut s, Editable::W1, second, (2, 5), 0.75).expect("W₁ of layer 2");
        assert_eq!(entry(&s, Editable::W1, second, (2, 5)), Some(0.75));
        assert_ne!(
            entry(&s, Editable::W1, Place::default(), (2, 5)),
            Some(0.75)
        );
        // The attention's weights follow the place's layer too.
        set_entry(&mut s, Editable::WQ, second, (0, 0), -2.0).expect("W_Q of layer 2");
        assert_eq!(s.attention(1).0.w_q[[0, 0]], -2.0);
        assert_ne!(s.attention(0).0.w_q[[0, 0]], -2.0);
        // γ and β are one row; a β the layer lacks reads as 0 and is made on a set.
        if let Some(block) = &mut s.block {
            block.layers[0].norm_2.beta = None;
        }
        assert_eq!(
            entry(&s, Editable::Beta2, Place::default(), (0, 3)),
            Some(0.0)
        );
        assert_eq!(entry(&s, Editable::Beta2, Place::default(), (1, 0)), None);
        set_entry(&mut s, Editable::Beta2, Place::default(), (0, 3), 0.5).expect("β₂");
        let beta = s
            .block
            .as_ref()
            .and_then(|b| b.layers[0].norm_2.beta.clone());
        assert_eq!(beta.map(|b| b.to_vec()), Some(vec![0.0, 0.0, 0.0, 0.5]));
        assert_eq!(
            set_entry(&mut s, Editable::Gamma1, Place::default(), (0, 9), 1.0),
            Err(LabError::OutOfRange)
        );
        assert!(s.run_block().is_ok());
    }

    #[test]
    fn layers_come_and_go_keeping_the_first_ones() {
        let s = two_layers();
        let four = set_layer_count(&s, 4, 3).expect("four layers");
        let layers = |s: &Scenario| s.block.as_ref().map_or(0, |b| b.layers.len());
        assert_eq!(layers(&four), 4);
        assert_eq!(four.attention(1), s.attention(1));
        let one = set_layer_count(&four, 1, 3).expect("one layer");
        assert_eq!(layers(&one), 1);
        assert_eq!(one.attention(0), s.attention(0));
        assert_eq!(set_layer_count(&s, 5, 3), Err(LabError::BadLayers(5)));
        assert_eq!(set_layer_count(&s, 0, 3), Err(LabError::BadLayers(0)));
        assert!(four.run_block().is_ok());
    }

    #[test]
    fn a_block_fixes_the_sizes_but_not_the_heads() {
        let mut s = two_layers();
        assert_eq!(set_d_model(&mut s, 6, 1), Err(LabError::FixedByBlock));
        assert_eq!(set_d_k(&mut s, 4, 1), Err(LabError::FixedByBlock));
        assert_eq!(
            crate::lab::set_w_o(&mut s, false, 1),
            Err(LabError::FixedByBlock)
        );
        let before = s.clone();
        set_heads(&mut s, 2, 1).expect("two heads of one column each");
        assert_eq!(s.heads, 2);
        assert_eq!(s.attention(1), before.attention(1), "the same weights");
        assert!(s.run_block().is_ok());
        assert_eq!(set_heads(&mut s, 3, 1), Err(LabError::BadHeads(3)));
    }

    #[test]
    fn switches_and_new_weights_change_what_they_say() {
        let mut s = two_layers();
        set_norm_first(&mut s, true);
        set_activation(&mut s, Activation::Gelu);
        let block = s.block.as_ref().expect("a block");
        assert!(block.norm_first && block.activation == Activation::Gelu);
        let (mut a, mut b) = (s.clone(), s.clone());
        randomize_block(&mut a, 5);
        randomize_block(&mut b, 5);
        assert_eq!(a, b, "the same seed, the same weights");
        assert_ne!(a.block, s.block);
        randomize_block(&mut b, 6);
        assert_ne!(a.block, b.block);
        assert!(a.run_block().is_ok());
    }
}
