//! What the learner did in the cell editor, as data (the cards' protocol,
//! `crate::action`), and its effect on the scenario. Pure, so tested natively.

use crate::action::{action_names, Kind, Reading};
use crate::lab::{self, Editable, LabError, Place};
use attention_core::Scenario;

action_names! {
    /// The editor's field, by its `data-action`.
    pub enum Control {
        Entry = "entry",
    }
}

/// One thing the learner did to the editor's field.
#[derive(Clone, Debug, PartialEq)]
pub enum EditorAction {
    /// The field changed (it lost focus): take the number, stay open.
    Commit(String),
    /// Enter: take the number, and close if it was taken.
    Keep(String),
    /// Escape: close, keeping the old number.
    Cancel,
}

impl EditorAction {
    /// The action an event on the field means, or `None` (typing is no
    /// action until it is committed).
    pub fn read(r: &Reading) -> Option<Self> {
        Some(match (r.event, Control::named(r.action)?) {
            (Kind::Change, Control::Entry) => Self::Commit(r.value.to_owned()),
            (Kind::Enter, Control::Entry) => Self::Keep(r.value.to_owned()),
            (Kind::Escape, Control::Entry) => Self::Cancel,
            _ => return None,
        })
    }
}

/// What an action did: whether it changed `scenario`, why a number was
/// refused, and whether the editor closes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    pub edited: bool,
    pub problem: Option<LabError>,
    pub close: bool,
}

/// Carries out `action` on the entry `(which, row, col)` at `place`. A
/// refused number leaves `scenario` as it was and says why.
pub fn apply(
    scenario: &mut Scenario,
    (which, r, c): (Editable, usize, usize),
    place: Place,
    action: EditorAction,
) -> Outcome {
    let (typed, close) = match action {
        EditorAction::Cancel => {
            return Outcome {
                close: true,
                ..Outcome::default()
            }
        }
        EditorAction::Commit(typed) => (typed, false),
        EditorAction::Keep(typed) => (typed, true),
    };
    let taken = lab::parse_number(&typed)
        .and_then(|value| lab::set_entry(scenario, which, place, (r, c), value));
    match taken {
        Ok(()) => Outcome {
            edited: true,
            problem: None,
            close,
        },
        Err(problem) => Outcome {
            problem: Some(problem),
            ..Outcome::default()
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use attention_core::presets;

    fn read(event: Kind, control: Control, value: &str) -> Option<EditorAction> {
        EditorAction::read(&Reading::of(event, control.name(), value))
    }

    #[test]
    fn the_field_reads_back_into_commit_keep_and_cancel() {
        assert_eq!(
            read(Kind::Change, Control::Entry, "0.5"),
            Some(EditorAction::Commit("0.5".into()))
        );
        assert_eq!(
            read(Kind::Enter, Control::Entry, "-2"),
            Some(EditorAction::Keep("-2".into()))
        );
        assert_eq!(
            read(Kind::Escape, Control::Entry, "7"),
            Some(EditorAction::Cancel)
        );
        // Typing is not a commit, and no other control is the editor's.
        assert_eq!(read(Kind::Input, Control::Entry, "0.5"), None);
        assert_eq!(read(Kind::Click, Control::Entry, ""), None);
        assert_eq!(
            EditorAction::read(&Reading::of(Kind::Enter, "new-token", "x")),
            None
        );
    }

    #[test]
    fn a_number_is_taken_and_enter_closes() {
        let mut s = presets::sentence();
        let out = apply(
            &mut s,
            (Editable::WQ, 1, 0),
            Place::default(),
            EditorAction::Commit(" −1,5 ".into()),
        );
        assert_eq!(
            out,
            Outcome {
                edited: true,
                problem: None,
                close: false
            }
        );
        assert_eq!(s.head.w_q[(1, 0)], -1.5);
        let out = apply(
            &mut s,
            (Editable::X, 2, 1),
            Place::default(),
            EditorAction::Keep("3".into()),
        );
        assert!(out.edited && out.close);
        assert_eq!(s.x[(0, 2, 1)], 3.0);
    }

    #[test]
    fn a_refused_number_stays_open_and_changes_nothing() {
        let mut s = presets::sentence();
        let before = s.clone();
        let at = (Editable::WK, 0, 0);
        let out = apply(
            &mut s,
            at,
            Place::default(),
            EditorAction::Keep("abc".into()),
        );
        assert_eq!(out.problem, Some(LabError::NotANumber("abc".into())));
        assert!(!out.edited && !out.close);
        let out = apply(
            &mut s,
            at,
            Place::default(),
            EditorAction::Commit("1e9".into()),
        );
        assert!(matches!(out.problem, Some(LabError::TooLarge(_))));
        let out = apply(
            &mut s,
            (Editable::WK, 99, 0),
            Place::default(),
            EditorAction::Commit("1".into()),
        );
        assert_eq!(out.problem, Some(LabError::OutOfRange));
        assert_eq!(s, before);
        let out = apply(&mut s, at, Place::default(), EditorAction::Cancel);
        assert_eq!(
            out,
            Outcome {
                close: true,
                ..Outcome::default()
            }
        );
        assert_eq!(s, before);
    }
}
