//! What the learner did in the generation card, as data (the cards'
//! protocol, `crate::action`), and the step it leads to. Pure, so tested
//! natively.

use crate::action::{action_names, Kind, Reading};

action_names! {
    /// The card's controls, by their `data-action`.
    pub enum Control {
        Previous = "gen-previous",
        Next = "gen-next",
        Step = "gen-step",
    }
}

/// One thing the learner did in the generation card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenerationAction {
    Previous,
    Next,
    /// Go to step n, counted from 1 as the slider shows it.
    To(usize),
}

impl GenerationAction {
    /// The action an event means, or `None`.
    pub fn read(r: &Reading) -> Option<Self> {
        match (r.event, Control::named(r.action)?) {
            (Kind::Click, Control::Previous) => Some(Self::Previous),
            (Kind::Click, Control::Next) => Some(Self::Next),
            (Kind::Input, Control::Step) => r.value.trim().parse().ok().map(Self::To),
            _ => None,
        }
    }
}

/// The step (from 0) after `action`, of `steps`; a step past the last
/// counts as the last.
pub fn apply(t: usize, steps: usize, action: GenerationAction) -> usize {
    let last = steps.saturating_sub(1);
    let t = t.min(last);
    match action {
        GenerationAction::Previous => t.saturating_sub(1),
        GenerationAction::Next => (t + 1).min(last),
        GenerationAction::To(n) => n.saturating_sub(1).min(last),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_stay_between_the_first_and_the_last() {
        assert_eq!(
            GenerationAction::read(&Reading::click(Control::Next.name(), 0)),
            Some(GenerationAction::Next)
        );
        assert_eq!(
            GenerationAction::read(&Reading::of(Kind::Input, Control::Step.name(), "3")),
            Some(GenerationAction::To(3))
        );
        assert_eq!(
            GenerationAction::read(&Reading::of(Kind::Input, Control::Step.name(), "x")),
            None
        );
        assert_eq!(apply(0, 5, GenerationAction::Previous), 0);
        assert_eq!(apply(4, 5, GenerationAction::Next), 4);
        assert_eq!(apply(1, 5, GenerationAction::Next), 2);
        assert_eq!(apply(1, 5, GenerationAction::To(5)), 4);
        assert_eq!(apply(1, 5, GenerationAction::To(0)), 0);
        assert_eq!(
            apply(usize::MAX, 5, GenerationAction::Previous),
            3,
            "past the last is the last"
        );
    }
}
