//! The scenario picker: the lessons' examples, each with what to notice, and
//! two ways to start a scenario of one's own.

use crate::i18n::{controls as text, Msg};
use attention_core::presets::Preset;
use attention_core::Scenario;
use ndarray::{Array2, Array3};

/// The scenario picker's choice, shared so that work arriving from elsewhere
/// (an import, training) shows as the learner's own.
#[derive(Clone, Copy)]
pub struct Picked(pub leptos::prelude::RwSignal<Choice>);

/// What the picker can start from; the lesson's sentence unless a link says otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    Preset(Preset),
    /// Three tokens and all-zero numbers, to fill in by hand.
    Blank,
    /// The scenario on screen, now the learner's own.
    Current,
}

impl Default for Choice {
    fn default() -> Self {
        Choice::Preset(Preset::Sentence)
    }
}

impl Choice {
    /// Every choice, in the picker's order.
    pub const ALL: [Choice; 11] = [
        Choice::Preset(Preset::Sentence),
        Choice::Preset(Preset::Pronoun),
        Choice::Preset(Preset::PronounHeads),
        Choice::Preset(Preset::AudioFrames),
        Choice::Preset(Preset::Diarization),
        Choice::Preset(Preset::LongDiarization),
        Choice::Preset(Preset::WordOrder),
        Choice::Preset(Preset::Generation),
        Choice::Preset(Preset::Block),
        Choice::Blank,
        Choice::Current,
    ];

    /// The `<option>` value.
    pub fn id(self) -> &'static str {
        match self {
            Choice::Preset(p) => p.id(),
            Choice::Blank => "blank",
            Choice::Current => "current",
        }
    }

    pub fn from_id(id: &str) -> Option<Choice> {
        Choice::ALL.into_iter().find(|c| c.id() == id)
    }

    pub fn name(self) -> Msg {
        match self {
            Choice::Preset(Preset::Sentence) => text::SCENARIO_SENTENCE,
            Choice::Preset(Preset::Pronoun) => text::SCENARIO_PRONOUN,
            Choice::Preset(Preset::PronounHeads) => text::SCENARIO_PRONOUN_HEADS,
            Choice::Preset(Preset::AudioFrames) => text::SCENARIO_AUDIO,
            Choice::Preset(Preset::Diarization) => text::SCENARIO_DIARIZATION,
            Choice::Preset(Preset::LongDiarization) => text::SCENARIO_LONG_DIARIZATION,
            Choice::Preset(Preset::WordOrder) => text::SCENARIO_WORD_ORDER,
            Choice::Preset(Preset::Generation) => text::SCENARIO_GENERATION,
            Choice::Preset(Preset::Block) => text::SCENARIO_BLOCK,
            Choice::Blank => text::SCENARIO_BLANK,
            Choice::Current => text::SCENARIO_CURRENT,
        }
    }

    /// What to notice in it.
    pub fn notes(self) -> Msg {
        match self {
            Choice::Preset(Preset::Sentence) => text::NOTES_SENTENCE,
            Choice::Preset(Preset::Pronoun) => text::NOTES_PRONOUN,
            Choice::Preset(Preset::PronounHeads) => text::NOTES_PRONOUN_HEADS,
            Choice::Preset(Preset::AudioFrames) => text::NOTES_AUDIO,
            Choice::Preset(Preset::Diarization) => text::NOTES_DIARIZATION,
            Choice::Preset(Preset::LongDiarization) => text::NOTES_LONG_DIARIZATION,
            Choice::Preset(Preset::WordOrder) => text::NOTES_WORD_ORDER,
            Choice::Preset(Preset::Generation) => text::NOTES_GENERATION,
            Choice::Preset(Preset::Block) => text::NOTES_BLOCK,
            Choice::Blank | Choice::Current => text::NOTES_CUSTOM,
        }
    }

    /// The scenario to switch to, or `None` to keep the one on screen.
    pub fn scenario(self) -> Option<Scenario> {
        match self {
            Choice::Preset(p) => Some(p.scenario()),
            Choice::Blank => Some(blank()),
            Choice::Current => None,
        }
    }
}

/// Three tokens with every number 0: all weights start equal, and each
/// number the learner types shows its own effect.
pub fn blank() -> Scenario {
    let mut scenario = attention_core::presets::sentence();
    let d = 4;
    scenario.tokens = Some(["a", "b", "c"].map(String::from).to_vec());
    scenario.x = Array3::zeros((1, 3, d));
    for w in [
        &mut scenario.head.w_q,
        &mut scenario.head.w_k,
        &mut scenario.head.w_v,
    ] {
        *w = Array2::zeros((d, d));
    }
    scenario.mask = None;
    scenario
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_choice_round_trips_and_runs() {
        for choice in Choice::ALL {
            assert_eq!(Choice::from_id(choice.id()), Some(choice));
            if let Some(s) = choice.scenario() {
                assert!(s.run().is_ok(), "{choice:?}");
            }
        }
        assert_eq!(Choice::from_id("nope"), None);
        assert_eq!(Choice::Current.scenario(), None);
    }

    #[test]
    fn a_blank_scenario_weighs_every_token_equally() {
        let trace = blank().run().expect("runs").into_head(0);
        assert!(trace.weights.iter().all(|&w| (w - 1.0 / 3.0).abs() < 1e-12));
    }
}
