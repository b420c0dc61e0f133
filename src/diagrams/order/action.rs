//! What the learner did in the word-order card, as data (the cards'
//! protocol, `crate::action`). Pure, so tested natively.

use crate::action::{action_names, Kind, Reading};
use crate::lab::{set_positions, LabError};
use attention_core::positions::Positions;
use attention_core::Scenario;

action_names! {
    /// The card's controls, by their `data-action`.
    pub enum Control {
        Shuffle = "shuffle",
        Positions = "positions",
    }
}

/// One thing the learner did in the word-order card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrderAction {
    /// Put the tokens in a new order.
    Shuffle,
    /// Switch how positions enter: none, added to X, or RoPE.
    Positions(Positions),
}

impl OrderAction {
    /// The action an event means, or `None`.
    pub fn read(r: &Reading) -> Option<Self> {
        match (r.event, Control::named(r.action)?) {
            (Kind::Click, Control::Shuffle) => Some(Self::Shuffle),
            (Kind::Change, Control::Positions) => Positions::from_id(r.value).map(Self::Positions),
            _ => None,
        }
    }
}

/// Carries out `action` on the scenario and the shuffle's seed: each
/// Shuffle draws the next order. A refused choice of positions returns why
/// and leaves the scenario as it was.
pub fn apply(s: &mut Scenario, shuffle: &mut u64, action: OrderAction) -> Result<(), LabError> {
    match action {
        OrderAction::Shuffle => *shuffle = shuffle.wrapping_add(1),
        OrderAction::Positions(positions) => {
            // New learned positions draw from the shuffle's seed: any seed will do.
            let mut next = s.clone();
            set_positions(&mut next, positions, *shuffle)?;
            *s = next;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shuffle_draws_the_next_order() {
        let read = OrderAction::read(&Reading::click(Control::Shuffle.name(), 0));
        assert_eq!(read, Some(OrderAction::Shuffle));
        let mut s = attention_core::presets::sentence();
        let mut seed = 1;
        apply(&mut s, &mut seed, OrderAction::Shuffle).expect("shuffles");
        assert_eq!(seed, 2);
        assert_eq!(OrderAction::read(&Reading::click("select", 0)), None);
    }

    #[test]
    fn the_positions_choice_switches_how_positions_enter_or_says_why_not() {
        let read = OrderAction::read(&Reading::of(
            Kind::Change,
            Control::Positions.name(),
            "learned",
        ));
        assert_eq!(read, Some(OrderAction::Positions(Positions::Learned)));
        assert_eq!(
            OrderAction::read(&Reading::of(
                Kind::Change,
                Control::Positions.name(),
                "spiral"
            )),
            None
        );
        let mut s = attention_core::presets::sentence();
        let mut seed = 1;
        apply(
            &mut s,
            &mut seed,
            OrderAction::Positions(Positions::Learned),
        )
        .expect("learned");
        assert_eq!(s.options.positions, Positions::Learned);
        assert!(s.p.is_some());
        crate::lab::set_d_k(&mut s, 3, 1).expect("d_k 3");
        let before = s.clone();
        assert_eq!(
            apply(&mut s, &mut seed, OrderAction::Positions(Positions::Rope)),
            Err(LabError::OddForRope(3))
        );
        assert_eq!(s, before, "refused, unchanged");
    }
}
