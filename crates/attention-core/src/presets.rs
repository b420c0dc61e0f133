//! Hand-set scenarios from the lessons. Only inputs live here; every number
//! shown from them is computed by [`crate::forward`]. Each scenario's doc test
//! checks its teaching claim on the computed trace.

mod audio;
mod block;
mod diarization;
mod generation;
mod long_diarization;
mod pronoun;
mod pronoun_heads;
mod word_order;

pub use audio::audio_frames;
pub use block::block;
pub use diarization::diarization;
pub use generation::generation;
pub use long_diarization::{long_diarization, long_diarization_speakers, Heard};
pub use pronoun::pronoun;
pub use pronoun_heads::pronoun_heads;
pub use word_order::word_order;

use crate::scenario::Scenario;
use crate::trace::{Head, Options};
use ndarray::{array, Axis};

/// The lessons' scenarios, by a stable id that links and saved state can use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// 我 / 喜欢 / 打 / 篮球, [`sentence`].
    Sentence,
    /// 他 / 说 / 他 / 今天 / 不能 / 来, [`pronoun`].
    Pronoun,
    /// The same sentence with two heads doing different jobs, [`pronoun_heads`].
    PronounHeads,
    /// Two padded audio clips, [`audio_frames`].
    AudioFrames,
    /// Frames of two speakers, [`diarization`].
    Diarization,
    /// Two padded clips of 200 frames, two speakers taking turns, [`long_diarization`].
    LongDiarization,
    /// 我 / 喜欢 / 打 / 篮球 with sinusoidal positions, [`word_order`].
    WordOrder,
    /// 我 / 喜欢 / 打 / 篮球 / 。, causal with RoPE, to decode step by step, [`generation`].
    Generation,
    /// 我 / 喜欢 / 打 / 篮球 through a transformer block of two layers, [`block()`].
    Block,
}

impl Preset {
    /// Every preset, in the order the lessons use them.
    pub const ALL: [Preset; 9] = [
        Preset::Sentence,
        Preset::Pronoun,
        Preset::PronounHeads,
        Preset::AudioFrames,
        Preset::Diarization,
        Preset::LongDiarization,
        Preset::WordOrder,
        Preset::Generation,
        Preset::Block,
    ];

    /// The stable id: `sentence`, `pronoun`, `pronoun-heads`, `audio`, `diarization`,
    /// `diarization-long`, `word-order`, `generation` or `block`. Ids
    /// outlive renames in the code, so never change one.
    ///
    /// ```
    /// use attention_core::presets::Preset;
    ///
    /// assert_eq!(Preset::AudioFrames.id(), "audio");
    /// assert_eq!(Preset::from_id("audio"), Some(Preset::AudioFrames));
    /// ```
    pub fn id(self) -> &'static str {
        match self {
            Preset::Sentence => "sentence",
            Preset::Pronoun => "pronoun",
            Preset::PronounHeads => "pronoun-heads",
            Preset::AudioFrames => "audio",
            Preset::Diarization => "diarization",
            Preset::LongDiarization => "diarization-long",
            Preset::WordOrder => "word-order",
            Preset::Generation => "generation",
            Preset::Block => "block",
        }
    }

    /// The preset with this id, or None for an unknown one (ids are case-sensitive).
    pub fn from_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|preset| preset.id() == id)
    }

    /// The preset's scenario, built fresh.
    pub fn scenario(self) -> Scenario {
        match self {
            Preset::Sentence => sentence(),
            Preset::Pronoun => pronoun(),
            Preset::PronounHeads => pronoun_heads(),
            Preset::AudioFrames => audio_frames(),
            Preset::Diarization => diarization(),
            Preset::LongDiarization => long_diarization(),
            Preset::WordOrder => word_order(),
            Preset::Generation => generation(),
            Preset::Block => block(),
        }
    }
}

/// The four tokens 我 / 喜欢 / 打 / 篮球 ("I like playing basketball"), with d = d_k = d_v = 4.
///
/// The one-decimal weights were chosen by hand so that 我's softmax row comes
/// out close to the lesson's example [0.5, 0.2, 0.2, 0.1], 打 attends most to
/// 篮球, and 篮球 most to 打.
///
/// ```
/// use attention_core::presets::sentence;
///
/// let trace = sentence().run().unwrap().into_head(0);
/// let first_row: Vec<f64> = trace.weights.slice(ndarray::s![0, 0, ..]).to_vec();
/// for (w, lesson) in first_row.iter().zip([0.5, 0.2, 0.2, 0.1]) {
///     assert!((w - lesson).abs() < 0.01);
/// }
/// ```
pub fn sentence() -> Scenario {
    Scenario {
        tokens: Some(["我", "喜欢", "打", "篮球"].map(String::from).to_vec()),
        x: array![
            [-0.9, 0.6, 0.1, -0.8],
            [0.0, -1.0, -0.4, 0.5],
            [-0.5, -0.4, 0.9, 0.2],
            [0.9, -1.0, -0.1, 0.2],
        ]
        .insert_axis(Axis(0)),
        batched: false,
        head: Head {
            w_q: array![
                [-0.5, 0.8, 0.7, -1.0],
                [-0.8, -0.2, 0.4, 0.4],
                [-0.6, 0.4, -0.2, -0.5],
                [-0.7, 0.2, -0.6, -0.5],
            ],
            w_k: array![
                [-0.9, -0.3, -1.0, -1.0],
                [1.0, 0.2, 0.2, -0.6],
                [1.0, 0.7, -0.3, -0.3],
                [0.7, 0.7, 0.0, -0.6],
            ],
            w_v: array![
                [0.5, -0.3, 0.8, 0.1],
                [-0.2, 0.9, 0.1, -0.6],
                [0.7, 0.4, -0.5, 0.3],
                [0.1, -0.8, 0.2, 0.9],
            ],
        },
        heads: 1,
        w_o: None,
        mask: None,
        options: Options::default(),
        p: None,
        block: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_are_distinct() {
        for preset in Preset::ALL {
            assert_eq!(Preset::from_id(preset.id()), Some(preset));
        }
        let mut ids: Vec<&str> = Preset::ALL.iter().map(|p| p.id()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), Preset::ALL.len());
        assert_eq!(Preset::from_id("Sentence"), None);
        assert_eq!(Preset::from_id(""), None);
    }

    #[test]
    fn every_preset_runs_and_survives_its_json() {
        for preset in Preset::ALL {
            let scenario = preset.scenario();
            assert!(scenario.run().is_ok(), "{}", preset.id());
            let tokens = scenario.tokens.as_ref().map(Vec::len);
            assert_eq!(tokens, Some(scenario.x.dim().1), "{}", preset.id());
            let parsed =
                Scenario::from_json(&crate::json::scenario_json(&scenario, |v| format!("{v:?}")));
            assert_eq!(parsed, Ok(scenario), "{}", preset.id());
        }
    }
}
