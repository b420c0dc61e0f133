//! What the learner did in the walkthrough, as data (the cards' protocol,
//! `crate::action`): a step link (a formula part, a step dot, "show its
//! diagram"), a guess, a button for a control the step asks for, Start or
//! leave, Previous, Next and Finish; ← and → while it runs. [`apply`] is its
//! effect on where the learner is; what must scroll comes back as [`Then`].
//! Pure, so tested natively.

use super::steps::Step;
use crate::action::{action_names, Kind, Reading};

action_names! {
    /// The walkthrough's controls, by their `data-action`.
    pub enum Control {
        Step = "step",
        Guess = "guess",
        StepControl = "step-control",
        Toggle = "walkthrough-toggle",
        Previous = "step-prev",
        Next = "step-next",
        Finish = "step-finish",
    }
}

/// One thing the learner did in the walkthrough.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TourAction {
    /// Show this step's diagram, and move there if the walkthrough runs.
    Show(Step),
    /// Predict that the query attends most to key j.
    Guess(usize),
    /// Bring the step's k-th control (`Step::controls`) into view.
    Control(usize),
    /// Start the walkthrough, or leave it for free explore.
    Toggle,
    Previous,
    Next,
    /// Leave the walkthrough at its last step.
    Finish,
}

impl TourAction {
    /// The action an event means, or `None` for events the card does not act
    /// on and for a step that does not exist.
    pub fn read(r: &Reading) -> Option<Self> {
        if r.event != Kind::Click {
            return None;
        }
        Some(match Control::named(r.action)? {
            Control::Step => Self::Show(*Step::ALL.get(r.index)?),
            Control::Guess => Self::Guess(r.index),
            Control::StepControl => Self::Control(r.index),
            Control::Toggle => Self::Toggle,
            Control::Previous => Self::Previous,
            Control::Next => Self::Next,
            Control::Finish => Self::Finish,
        })
    }

    /// The action of a key pressed on the page, outside any field, while
    /// the walkthrough runs: ← and → step; other keys are left to the query
    /// selection.
    pub fn read_key(key: &str) -> Option<Self> {
        match key {
            "ArrowLeft" => Some(Self::Previous),
            "ArrowRight" => Some(Self::Next),
            _ => None,
        }
    }
}

/// Where the learner is in the walkthrough.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Walk {
    /// The current step, or `None` in free explore.
    pub step: Option<Step>,
    /// The prediction made in the softmax step.
    pub guess: Option<usize>,
    /// Whether the learner has finished the walkthrough (Finish at its last
    /// step), which an LMS may count as completing the activity.
    pub finished: bool,
}

/// What the card's shell does in the browser after an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Then {
    Stay,
    /// Scroll to this step's diagram, on any screen: the learner asked to see it.
    ShowDiagram(Step),
    /// The walkthrough moved to this step: follow it where the card stays
    /// beside the diagrams.
    Went(Step),
    /// Bring the control with this `data-testid` into view and focus it.
    Bring(&'static str),
}

/// Carries out `action` on `walk`.
pub fn apply(walk: &mut Walk, action: TourAction) -> Then {
    match action {
        TourAction::Show(step) => {
            if walk.step.is_some() {
                walk.step = Some(step);
            }
            Then::ShowDiagram(step)
        }
        TourAction::Guess(j) => {
            walk.guess = Some(j);
            Then::Stay
        }
        TourAction::Control(k) => {
            let asked = walk.step.and_then(|s| s.controls().get(k));
            asked.map_or(Then::Stay, |control| Then::Bring(control.testid))
        }
        TourAction::Toggle => {
            // Every walkthrough asks its question afresh.
            walk.guess = None;
            walk.step = match walk.step {
                Some(_) => None,
                None => Some(Step::Input),
            };
            Then::Stay
        }
        // Back to exploring freely, every diagram in full view.
        TourAction::Finish => {
            walk.finished |= walk.step == Step::ALL.last().copied();
            walk.step = None;
            Then::Stay
        }
        TourAction::Previous | TourAction::Next => match walk.step {
            Some(now) => {
                let step = if action == TourAction::Next {
                    now.next()
                } else {
                    now.previous()
                };
                walk.step = Some(step);
                Then::Went(step)
            }
            None => Then::Stay,
        },
    }
}

#[cfg(test)]
mod tests;
