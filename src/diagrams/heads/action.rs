//! What the learner did in the heads card, as data (the cards' protocol,
//! `crate::action`), and its effect on which head is shown. Pure, so tested
//! natively.

use crate::action::{action_names, Kind, Reading};

action_names! {
    /// The heads card's controls, by their `data-action`.
    pub enum Control {
        /// A head's button or map: shows that head.
        Select = crate::action::SELECT,
    }
}

/// One thing the learner did in the heads card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeadsAction {
    /// Show head i in the four diagrams: its button or its map was clicked.
    Pick(usize),
}

impl HeadsAction {
    /// The action an event means, or `None`.
    pub fn read(r: &Reading) -> Option<Self> {
        match (r.event, Control::named(r.action)?) {
            (Kind::Click, Control::Select) => Some(Self::Pick(r.index)),
            _ => None,
        }
    }
}

/// The head shown after `action`, of `heads`: a head past the last (a stale
/// click while the heads were made fewer) shows the last.
pub fn apply(heads: usize, action: HeadsAction) -> usize {
    match action {
        HeadsAction::Pick(i) => i.min(heads.saturating_sub(1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_click_on_a_head_shows_it() {
        let pick = HeadsAction::read(&Reading::click(Control::Select.name(), 2));
        assert_eq!(pick, Some(HeadsAction::Pick(2)));
        assert_eq!(apply(4, HeadsAction::Pick(2)), 2);
        assert_eq!(apply(2, HeadsAction::Pick(5)), 1);
        assert_eq!(
            HeadsAction::read(&Reading::of(Kind::Input, Control::Select.name(), "")),
            None
        );
        assert_eq!(HeadsAction::read(&Reading::click("pad", 0)), None);
    }
}
