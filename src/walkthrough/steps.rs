//! The sixteen steps of the guided walkthrough, in the order the computation
//! runs: the lessons' one head, then how several heads split it and are
//! joined, then word order (positions) and generation (a KV cache), then the
//! transformer block around the layer: residuals, LayerNorm, the feed-forward
//! network, stacked layers.

use crate::cards::Card;
use crate::i18n::walkthrough as text;
use crate::i18n::Msg;

/// One step of the walkthrough.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Input,
    Projection,
    Scores,
    Scaling,
    Softmax,
    Fusion,
    Masking,
    Learning,
    /// Several heads: the width shared out among them.
    Heads,
    /// The heads joined and projected by W_O.
    Output,
    /// Word order: positions added to X, or turning Q and K.
    Positions,
    /// Generating one token at a time with a KV cache.
    Generation,
    /// The transformer block: the residual sums.
    Residual,
    /// LayerNorm over each token's features.
    LayerNorm,
    /// The position-wise feed-forward network.
    FeedForward,
    /// Layers stacked, each reading the one before.
    Stacking,
}

/// A control elsewhere on the page that a step asks the learner to use.
#[derive(Clone, Copy, Debug)]
pub struct StepControl {
    /// The control's `data-testid` (the first one, for a per-token control).
    pub testid: &'static str,
    /// What its button in the step says.
    pub label: Msg,
}

impl Step {
    /// The controls this step asks for, offered as buttons in the step that
    /// bring each into view and focus it.
    pub fn controls(self) -> &'static [StepControl] {
        match self {
            Step::Scaling => &[
                StepControl {
                    testid: "scale",
                    label: text::GO_SCALE,
                },
                StepControl {
                    testid: "d-k",
                    label: text::GO_DK,
                },
                StepControl {
                    testid: "experiment",
                    label: text::GO_EXPERIMENT,
                },
            ],
            Step::Masking => &[
                StepControl {
                    testid: "causal",
                    label: text::GO_CAUSAL,
                },
                StepControl {
                    testid: "token-pad",
                    label: text::GO_PAD,
                },
            ],
            Step::Heads => &[StepControl {
                testid: "heads",
                label: text::GO_HEADS,
            }],
            Step::Output => &[StepControl {
                testid: "use-w-o",
                label: text::GO_W_O,
            }],
            Step::Positions => &[
                StepControl {
                    testid: "positions",
                    label: text::GO_POSITIONS,
                },
                StepControl {
                    testid: "shuffle",
                    label: text::GO_SHUFFLE,
                },
            ],
            Step::Generation => &[
                StepControl {
                    testid: "causal",
                    label: text::GO_CAUSAL,
                },
                StepControl {
                    testid: "gen-next",
                    label: text::GO_GENERATION,
                },
            ],
            _ => &[],
        }
    }

    /// Every step, in order.
    pub const ALL: [Step; 16] = [
        Step::Input,
        Step::Projection,
        Step::Scores,
        Step::Scaling,
        Step::Softmax,
        Step::Fusion,
        Step::Masking,
        Step::Learning,
        Step::Heads,
        Step::Output,
        Step::Positions,
        Step::Generation,
        Step::Residual,
        Step::LayerNorm,
        Step::FeedForward,
        Step::Stacking,
    ];

    /// Position in [`Step::ALL`], from 0.
    pub fn index(self) -> usize {
        Step::ALL.iter().position(|s| *s == self).unwrap_or(0)
    }

    /// The step at `index`, clamped to the last one.
    pub fn at(index: usize) -> Step {
        Step::ALL[index.min(Step::ALL.len() - 1)]
    }

    /// The next step, or this one if it is the last.
    pub fn next(self) -> Step {
        Step::at(self.index() + 1)
    }

    /// The previous step, or this one if it is the first.
    pub fn previous(self) -> Step {
        Step::at(self.index().saturating_sub(1))
    }

    /// The card this step is about: the one left undimmed (the app root's
    /// `data-focus` names its panel), and the one a formula link scrolls to.
    pub fn card(self) -> Card {
        match self {
            Step::Input | Step::Projection => Card::Projection,
            Step::Scores | Step::Scaling => Card::DotProducts,
            Step::Softmax | Step::Masking => Card::Softmax,
            Step::Fusion => Card::Fusion,
            Step::Learning => Card::Training,
            Step::Heads => Card::Heads,
            Step::Output => Card::OutputProjection,
            // The positions card, or the RoPE card in its place: one panel.
            Step::Positions => Card::Positions,
            Step::Generation => Card::Generation,
            // The stream shows each sum and each LayerNorm's μ and σ.
            Step::Residual | Step::LayerNorm | Step::Stacking => Card::Block,
            Step::FeedForward => Card::FeedForward,
        }
    }

    /// A stable name, used in the page as `data-step` (styles key the
    /// emphasised diagrams on it) and in links.
    pub fn id(self) -> &'static str {
        match self {
            Step::Input => "input",
            Step::Projection => "projection",
            Step::Scores => "scores",
            Step::Scaling => "scaling",
            Step::Softmax => "softmax",
            Step::Fusion => "fusion",
            Step::Masking => "masking",
            Step::Learning => "learning",
            Step::Heads => "heads",
            Step::Output => "output",
            Step::Positions => "positions",
            Step::Generation => "generation",
            Step::Residual => "residual",
            Step::LayerNorm => "layer-norm",
            Step::FeedForward => "feed-forward",
            Step::Stacking => "stacking",
        }
    }

    /// The step a link names, by [`Step::id`] or by its number from 1.
    pub fn from_link(text: &str) -> Option<Step> {
        if let Ok(n) = text.parse::<usize>() {
            return (1..=Step::ALL.len()).contains(&n).then(|| Step::at(n - 1));
        }
        Step::ALL.into_iter().find(|s| s.id() == text)
    }

    /// The step's heading.
    pub fn title(self) -> Msg {
        match self {
            Step::Input => text::INPUT_TITLE,
            Step::Projection => text::PROJECTION_TITLE,
            Step::Scores => text::SCORES_TITLE,
            Step::Scaling => text::SCALING_TITLE,
            Step::Softmax => text::SOFTMAX_TITLE,
            Step::Fusion => text::FUSION_TITLE,
            Step::Masking => text::MASKING_TITLE,
            Step::Learning => text::LEARNING_TITLE,
            Step::Heads => text::HEADS_TITLE,
            Step::Output => text::OUTPUT_TITLE,
            Step::Positions => text::POSITIONS_TITLE,
            Step::Generation => text::GENERATION_TITLE,
            Step::Residual => text::RESIDUAL_TITLE,
            Step::LayerNorm => text::LAYER_NORM_TITLE,
            Step::FeedForward => text::FEED_FORWARD_TITLE,
            Step::Stacking => text::STACKING_TITLE,
        }
    }

    /// What the step explains.
    pub fn explanation(self) -> Msg {
        match self {
            Step::Input => text::INPUT_TEXT,
            Step::Projection => text::PROJECTION_TEXT,
            Step::Scores => text::SCORES_TEXT,
            Step::Scaling => text::SCALING_TEXT,
            Step::Softmax => text::SOFTMAX_TEXT,
            Step::Fusion => text::FUSION_TEXT,
            Step::Masking => text::MASKING_TEXT,
            Step::Learning => text::LEARNING_TEXT,
            Step::Heads => text::HEADS_TEXT,
            Step::Output => text::OUTPUT_TEXT,
            Step::Positions => text::POSITIONS_TEXT,
            Step::Generation => text::GENERATION_TEXT,
            Step::Residual => text::RESIDUAL_TEXT,
            Step::LayerNorm => text::LAYER_NORM_TEXT,
            Step::FeedForward => text::FEED_FORWARD_TEXT,
            Step::Stacking => text::STACKING_TEXT,
        }
    }

    /// The same step in PyTorch, one statement per line. The code is the same
    /// in both languages; only its `#` comments are translated.
    pub fn pytorch(self) -> Msg {
        match self {
            Step::Input => text::CODE_INPUT,
            Step::Projection => text::CODE_PROJECTION,
            Step::Scores => text::CODE_SCORES,
            Step::Scaling => text::CODE_SCALING,
            Step::Softmax => text::CODE_SOFTMAX,
            Step::Fusion => text::CODE_FUSION,
            Step::Masking => text::CODE_MASKING,
            Step::Learning => text::CODE_LEARNING,
            Step::Heads => text::CODE_HEADS,
            Step::Output => text::CODE_OUTPUT,
            Step::Positions => text::CODE_POSITIONS,
            Step::Generation => text::CODE_GENERATION,
            Step::Residual => text::CODE_RESIDUAL,
            Step::LayerNorm => text::CODE_LAYER_NORM,
            Step::FeedForward => text::CODE_FEED_FORWARD,
            Step::Stacking => text::CODE_STACKING,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_later_lessons_steps_are_about_their_own_cards() {
        let panels = [
            Step::Learning,
            Step::Heads,
            Step::Output,
            Step::Positions,
            Step::Generation,
            Step::Residual,
            Step::FeedForward,
        ]
        .map(|step| step.card().panel());
        assert_eq!(
            panels,
            [
                "training",
                "heads",
                "output-projection",
                "positions",
                "generation",
                "block",
                "block"
            ]
        );
    }

    #[test]
    fn steps_move_within_the_walkthrough() {
        assert_eq!(Step::Input.previous(), Step::Input);
        assert_eq!(Step::Input.next(), Step::Projection);
        assert_eq!(Step::Learning.next(), Step::Heads);
        assert_eq!(Step::Output.next(), Step::Positions);
        assert_eq!(Step::Generation.next(), Step::Residual);
        assert_eq!(Step::Stacking.next(), Step::Stacking);
        assert_eq!(Step::at(99), Step::Stacking);
        for (n, step) in Step::ALL.iter().enumerate() {
            assert_eq!(step.index(), n);
        }
    }

    #[test]
    fn links_name_steps_by_id_or_number() {
        assert_eq!(Step::from_link("scaling"), Some(Step::Scaling));
        assert_eq!(Step::from_link("4"), Some(Step::Scaling));
        assert_eq!(Step::from_link("0"), None);
        assert_eq!(Step::from_link("10"), Some(Step::Output));
        assert_eq!(Step::from_link("12"), Some(Step::Generation));
        assert_eq!(Step::from_link("13"), Some(Step::Residual));
        assert_eq!(Step::from_link("layer-norm"), Some(Step::LayerNorm));
        assert_eq!(Step::from_link("17"), None);
        assert_eq!(Step::from_link("<x>"), None);
    }

    #[test]
    fn every_step_has_a_distinct_id_and_some_code() {
        let mut ids: Vec<_> = Step::ALL.iter().map(|s| s.id()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), Step::ALL.len());
        for step in Step::ALL {
            let code = step.pytorch();
            // Only comments may differ between the languages.
            let strip = |c: &str| -> Vec<String> {
                c.lines()
                    .map(|l| l.split('#').next().unwrap_or("").trim_end().to_owned())
                    .collect()
            };
            assert_eq!(strip(code.zh), strip(code.en), "{step:?}");
            assert!(!code.en.is_empty());
        }
    }
}
