//! What the learner did in the block card, as data (the cards' protocol,
//! `crate::action`): pick the layer shown or the token followed, set the
//! number of layers, where LayerNorm goes and the activation, or draw new
//! weights for the block. Pure, so tested natively.

use crate::action::{action_names, Kind, Reading};
use crate::lab::{block, LabError};
use attention_core::block::Activation;
use attention_core::Scenario;

action_names! {
    /// The block card's controls, by their `data-action`.
    pub enum Control {
        /// A button of the layer picker (`data-index` is the layer).
        Layer = "layer",
        Layers = "layers",
        Norm = "norm",
        Activation = "activation",
        Randomize = "randomize-block",
        /// Whose residual stream is drawn.
        Token = "block-token",
    }
}

/// The `norm` picker's values.
pub const POST_NORM: &str = "post";
pub const PRE_NORM: &str = "pre";

/// One thing the learner did in the block card.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BlockAction {
    /// Show layer i (from 0).
    Layer(usize),
    /// Give the block this many layers.
    Layers(usize),
    /// Pre-norm (true) or post-norm.
    NormFirst(bool),
    Activation(Activation),
    /// New weights for the whole block.
    Randomize,
    /// Follow token i down the stream (it becomes the query).
    Token(usize),
}

impl BlockAction {
    /// The action an event means, or `None`.
    pub fn read(r: &Reading) -> Option<Self> {
        let number = || r.value.trim().parse().ok();
        Some(match (r.event, Control::named(r.action)?) {
            (Kind::Click, Control::Layer) => Self::Layer(r.index),
            (Kind::Change, Control::Layers) => Self::Layers(number()?),
            (Kind::Change, Control::Norm) => match r.value {
                PRE_NORM => Self::NormFirst(true),
                POST_NORM => Self::NormFirst(false),
                _ => return None,
            },
            (Kind::Change, Control::Activation) => Self::Activation(Activation::from_id(r.value)?),
            (Kind::Click, Control::Randomize) => Self::Randomize,
            (Kind::Change, Control::Token) => Self::Token(number()?),
            _ => return None,
        })
    }
}

/// What the block card edits: the scenario, the layer and token shown, and
/// the seed of the block's last new weights.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockDesk {
    pub scenario: Scenario,
    pub layer: usize,
    pub query: usize,
    pub seed: u64,
}

/// Carries out `action`. A refused edit returns why and leaves `desk` as it was.
pub fn apply(desk: &mut BlockDesk, action: BlockAction) -> Result<(), LabError> {
    let mut next = desk.clone();
    let s = &mut next.scenario;
    let layers = s.layer_count();
    match action {
        BlockAction::Layer(i) => next.layer = i.min(layers - 1),
        BlockAction::Layers(n) => {
            *s = block::set_layer_count(s, n, next.seed.wrapping_add(1))?;
            next.layer = next.layer.min(n - 1);
        }
        BlockAction::NormFirst(on) => block::set_norm_first(s, on),
        BlockAction::Activation(a) => block::set_activation(s, a),
        BlockAction::Randomize => {
            next.seed = next.seed.wrapping_add(1);
            block::randomize_block(s, next.seed);
        }
        BlockAction::Token(i) => next.query = i.min(s.x.dim().1 - 1),
    }
    *desk = next;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use attention_core::presets::sentence;

    fn desk() -> BlockDesk {
        BlockDesk {
            scenario: block::with_block(&sentence(), 2, 3).expect("a block"),
            layer: 0,
            query: 0,
            seed: 1,
        }
    }

    #[test]
    fn each_control_reads_into_its_action() {
        let read = |kind, control: Control, value: &str, index| {
            let mut r = Reading::of(kind, control.name(), value);
            r.index = index;
            BlockAction::read(&r)
        };
        assert_eq!(
            read(Kind::Click, Control::Layer, "", 1),
            Some(BlockAction::Layer(1))
        );
        assert_eq!(
            read(Kind::Change, Control::Layers, "3", 0),
            Some(BlockAction::Layers(3))
        );
        assert_eq!(
            read(Kind::Change, Control::Norm, "pre", 0),
            Some(BlockAction::NormFirst(true))
        );
        assert_eq!(
            read(Kind::Change, Control::Norm, "post", 0),
            Some(BlockAction::NormFirst(false))
        );
        assert_eq!(read(Kind::Change, Control::Norm, "side", 0), None);
        assert_eq!(
            read(Kind::Change, Control::Activation, "gelu", 0),
            Some(BlockAction::Activation(Activation::Gelu))
        );
        assert_eq!(
            read(Kind::Click, Control::Randomize, "", 0),
            Some(BlockAction::Randomize)
        );
        assert_eq!(
            read(Kind::Change, Control::Token, "2", 0),
            Some(BlockAction::Token(2))
        );
        assert_eq!(read(Kind::Input, Control::Layers, "3", 0), None);
    }

    #[test]
    fn actions_change_the_block_and_what_is_shown() {
        let mut d = desk();
        apply(&mut d, BlockAction::Layer(1)).expect("layer 2");
        assert_eq!(d.layer, 1);
        apply(&mut d, BlockAction::Layer(7)).expect("a layer past the last");
        assert_eq!(d.layer, 1, "the last");
        apply(&mut d, BlockAction::Layers(1)).expect("one layer");
        assert_eq!((d.scenario.layer_count(), d.layer), (1, 0));
        let before = d.clone();
        assert_eq!(
            apply(&mut d, BlockAction::Layers(5)),
            Err(LabError::BadLayers(5))
        );
        assert_eq!(d, before, "a refused edit changes nothing");
        apply(&mut d, BlockAction::NormFirst(true)).expect("pre-norm");
        apply(&mut d, BlockAction::Activation(Activation::Gelu)).expect("GELU");
        let block = d.scenario.block.as_ref().expect("a block");
        assert!(block.norm_first && block.activation == Activation::Gelu);
        apply(&mut d, BlockAction::Randomize).expect("new weights");
        assert_eq!(d.seed, 2);
        assert_ne!(d.scenario.block, before.scenario.block);
        apply(&mut d, BlockAction::Token(9)).expect("the last token");
        assert_eq!(d.query, 3);
    }
}
