//! What the learner did to a control, as data, and its effect on the state
//! the controls edit. The controls speak the cards' protocol
//! (`crate::action`): the shared listener reads an event into a [`Reading`],
//! [`Action::read`] into an [`Action`], and [`apply`] carries it out. Pure,
//! so every control's behaviour is tested natively.

use super::scenarios::Choice;
use crate::action::action_names;
pub use crate::action::{Kind, Reading};
use crate::lab::{self, LabError};
use attention_core::positions::Positions;
use attention_core::Scenario;

/// Seed for the embedding of an added token: fixed, so adding is reproducible.
const NEW_TOKEN_SEED: u64 = 7;
/// Seed for numbers added when d_model or d_k grows: fixed, so resizing is reproducible.
const RESIZE_SEED: u64 = 11;

action_names! {
    /// The controls of "Input and settings", by their `data-action`.
    pub enum Control {
        /// A token's chip: makes it the query.
        Select = crate::action::SELECT,
        Pad = "pad",
        Remove = "remove",
        Add = "add",
        NewToken = "new-token",
        Randomize = "randomize",
        RandomizeWO = "randomize-w-o",
        UseWO = "use-w-o",
        UseBlock = "use-block",
        Reset = "reset",
        Rename = "rename",
        Scale = "scale",
        Causal = "causal",
        Sequence = "sequence",
        Seed = "seed",
        Scenario = "scenario",
        DModel = "d-model",
        DK = "d-k",
        Heads = "heads",
        Positions = "positions",
    }
}

/// One thing the learner did.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    SelectToken(usize),
    Rename(usize, String),
    TogglePad(usize),
    Remove(usize),
    Add(String),
    DModel(usize),
    DK(usize),
    Heads(usize),
    /// Give the layer an output projection W_O, or take it away.
    OutputProjection(bool),
    /// Draw a new W_O from the next seed.
    RandomizeWO,
    /// Wrap the layer in a transformer block, or take the block away.
    Block(bool),
    /// How positions enter: none, added to X, or RoPE.
    Positions(Positions),
    Scale(bool),
    Causal(bool),
    Sequence(usize),
    /// Draw new weights from this seed.
    Seed(u64),
    /// A seed field holding something that is no seed.
    BadSeed(String),
    /// Draw new weights from the next seed.
    Randomize,
    Pick(Choice),
    /// Back to the chosen scenario's defaults (the lesson's sentence for one's own).
    Reset,
}

impl Action {
    /// The action an event means, or `None` for events no control acts on
    /// (typing into a field before it is committed, a stray click).
    pub fn read(r: &Reading) -> Option<Action> {
        let number = || r.value.trim().parse::<usize>().ok();
        use Control as C;
        Some(match (r.event, Control::named(r.action)?) {
            (Kind::Click, C::Select) => Action::SelectToken(r.index),
            (Kind::Click, C::Pad) => Action::TogglePad(r.index),
            (Kind::Click, C::Remove) => Action::Remove(r.index),
            (Kind::Click, C::Add) | (Kind::Enter, C::NewToken) => Action::Add(r.value.to_owned()),
            (Kind::Click, C::Randomize) => Action::Randomize,
            (Kind::Click, C::RandomizeWO) => Action::RandomizeWO,
            (Kind::Change, C::UseWO) => Action::OutputProjection(r.checked),
            (Kind::Change, C::UseBlock) => Action::Block(r.checked),
            (Kind::Click, C::Reset) => Action::Reset,
            (Kind::Change, C::Rename) => Action::Rename(r.index, r.value.to_owned()),
            (Kind::Change, C::Scale) => Action::Scale(r.checked),
            (Kind::Change, C::Causal) => Action::Causal(r.checked),
            (Kind::Change, C::Sequence) => Action::Sequence(number()?),
            (Kind::Change, C::Seed) => match r.value.trim().parse() {
                Ok(seed) => Action::Seed(seed),
                Err(_) => Action::BadSeed(r.value.trim().to_owned()),
            },
            (Kind::Change, C::Scenario) => Action::Pick(Choice::from_id(r.value)?),
            (Kind::Input, C::DModel) => Action::DModel(number()?),
            (Kind::Input, C::DK) => Action::DK(number()?),
            (Kind::Input, C::Heads) => Action::Heads(number()?),
            (Kind::Change, C::Positions) => Action::Positions(Positions::from_id(r.value)?),
            _ => return None,
        })
    }
}

/// Everything the controls edit.
#[derive(Clone, Debug, PartialEq)]
pub struct Desk {
    pub scenario: Scenario,
    pub query: usize,
    pub sequence: usize,
    /// The head the four diagrams show.
    pub head: usize,
    /// The layer of a block the four diagrams show.
    pub layer: usize,
    pub seed: u64,
    pub choice: Choice,
}

/// Carries out `action`. A refused edit returns why and leaves `desk` as it was.
pub fn apply(desk: &mut Desk, action: Action) -> Result<(), LabError> {
    let mut next = desk.clone();
    let s = &mut next.scenario;
    match action {
        Action::SelectToken(i) => next.query = i,
        Action::Rename(i, label) => lab::rename_token(s, i, &label)?,
        Action::TogglePad(i) => lab::toggle_padding(s, next.sequence, i)?,
        Action::Remove(i) => lab::remove_token(s, i)?,
        Action::Add(label) => lab::add_token(s, &label, NEW_TOKEN_SEED)?,
        Action::DModel(d) => lab::set_d_model(s, d, RESIZE_SEED)?,
        Action::DK(d) => lab::set_d_k(s, d, RESIZE_SEED)?,
        Action::Heads(h) => {
            lab::set_heads(s, h, RESIZE_SEED)?;
            next.head = next.head.min(h - 1);
        }
        Action::OutputProjection(on) => lab::set_w_o(s, on, next.seed)?,
        Action::Block(true) => *s = lab::block::with_block(s, 1, next.seed)?,
        Action::Block(false) => {
            *s = lab::block::without_block(s);
            next.layer = 0;
        }
        // New learned positions draw from the seed of the weights.
        Action::Positions(positions) => lab::set_positions(s, positions, next.seed)?,
        Action::RandomizeWO => {
            next.seed = next.seed.wrapping_add(1);
            lab::randomize_w_o(s, next.layer, next.seed);
        }
        Action::Scale(on) => s.options.scale = on,
        Action::Causal(on) => s.options.causal = on,
        Action::Sequence(b) => next.sequence = b.min(s.x.dim().0.saturating_sub(1)),
        Action::Seed(seed) => {
            next.seed = seed;
            lab::randomize_weights(s, next.layer, seed);
        }
        Action::BadSeed(text) => return Err(LabError::BadSeed(text)),
        Action::Randomize => {
            next.seed = next.seed.wrapping_add(1);
            lab::randomize_weights(s, next.layer, next.seed);
        }
        Action::Reset => {
            let defaults = match next.choice {
                Choice::Current => Choice::Preset(attention_core::presets::Preset::Sentence),
                chosen => chosen,
            };
            return apply(desk, Action::Pick(defaults));
        }
        Action::Pick(choice) => {
            next.choice = choice;
            if let Some(scenario) = choice.scenario() {
                next.scenario = scenario;
                next.query = 0;
                next.sequence = 0;
                next.head = 0;
                next.layer = 0;
            }
        }
    }
    *desk = next;
    Ok(())
}

#[cfg(test)]
mod tests;
