//! What the learner did in the RoPE card, as data (the cards' protocol,
//! `crate::action`): picking the query or the key whose pairs the dials turn,
//! the keyboard's way to what a click on a score cell does. Pure, so tested
//! natively.

use crate::action::{action_names, Kind, Reading};

action_names! {
    /// The RoPE card's controls, by their `data-action`.
    pub enum Control {
        /// The query's picker.
        Query = "rope-query",
        /// The key's picker.
        Key = "rope-key",
    }
}

/// One thing the learner did in the RoPE card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RopeAction {
    /// Show query i on the dials.
    Query(usize),
    /// Show key j on the dials.
    Key(usize),
}

impl RopeAction {
    /// The action an event means, or `None`.
    pub fn read(r: &Reading) -> Option<Self> {
        let index = r.value.trim().parse().ok()?;
        match (r.event, Control::named(r.action)?) {
            (Kind::Change, Control::Query) => Some(Self::Query(index)),
            (Kind::Change, Control::Key) => Some(Self::Key(index)),
            _ => None,
        }
    }
}

/// The query and key shown after `action`, of `tokens` tokens: a token past
/// the last (a stale choice after a token was removed) is the last.
pub fn apply((query, key): (usize, usize), tokens: usize, action: RopeAction) -> (usize, usize) {
    let last = tokens.saturating_sub(1);
    match action {
        RopeAction::Query(i) => (i.min(last), key),
        RopeAction::Key(j) => (query, j.min(last)),
    }
}

/// The query a learner who turns RoPE on is shown, when the selection is
/// still the first cell (query and key at position 0, where nothing turns):
/// the third token (row 3, as the card's note says), or the last of fewer.
pub fn turned_query(tokens: usize) -> usize {
    2.min(tokens.saturating_sub(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pickers_choose_the_query_and_the_key() {
        let query = Reading::of(Kind::Change, Control::Query.name(), "2");
        assert_eq!(RopeAction::read(&query), Some(RopeAction::Query(2)));
        let key = Reading::of(Kind::Change, Control::Key.name(), " 1 ");
        assert_eq!(RopeAction::read(&key), Some(RopeAction::Key(1)));
        assert_eq!(apply((0, 0), 4, RopeAction::Query(2)), (2, 0));
        assert_eq!(
            apply((2, 0), 4, RopeAction::Key(9)),
            (2, 3),
            "the last token"
        );
        let typed = Reading::of(Kind::Input, Control::Query.name(), "2");
        assert_eq!(RopeAction::read(&typed), None);
        let garbage = Reading::of(Kind::Change, Control::Key.name(), "x");
        assert_eq!(RopeAction::read(&garbage), None);
    }

    #[test]
    fn turning_rope_on_shows_a_query_that_turns() {
        assert_eq!(turned_query(4), 2);
        assert_eq!(turned_query(2), 1);
        assert_eq!(turned_query(1), 0);
    }
}
