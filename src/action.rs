//! The one event protocol every card speaks. A card is markup whose controls
//! name their action (`data-action`, and `data-index` where there are many);
//! one delegated listener per card ([`listen`]) reads a DOM event into a
//! [`Reading`], the card's pure `read` turns that into its own action enum,
//! and a pure `apply` carries it out. Only what must touch the browser
//! (downloads, the clipboard, scrolling, animation frames) is left to the
//! card's shell, which is told what to do by the pure functions.
//!
//! This module is the pure half, tested natively; [`listen`] is the DOM half.

mod listen;
mod rove;

pub use listen::{listen, on_events, open_card, part, unfold, Heard};
pub use rove::{plain_key, rove};

use crate::svg::Markup;

/// The kinds of event a card's actions are read from (see [`kind_of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A click, or Enter or Space on a focusable element that is no button.
    Click,
    /// A field's value committed (`change`).
    Change,
    /// A field's value while it is typed or dragged (`input`).
    Input,
    /// Enter in a field.
    Enter,
    /// Escape anywhere.
    Escape,
}

/// What an event on a control says: the event's kind (see [`kind_of`]), the
/// element's `data-action` and `data-index`, and its current value and
/// checked state (of the field it names with `data-field`, if it names one).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reading<'a> {
    pub event: Kind,
    pub action: &'a str,
    pub index: usize,
    pub value: &'a str,
    pub checked: bool,
}

impl<'a> Reading<'a> {
    /// An event of kind `event` on the first control named `action`, holding
    /// `value`, not checked.
    pub fn of(event: Kind, action: &'a str, value: &'a str) -> Self {
        Reading {
            event,
            action,
            index: 0,
            value,
            checked: false,
        }
    }

    /// A click on the control named `action` at `index`.
    pub fn click(action: &'a str, index: usize) -> Self {
        Reading {
            index,
            ..Reading::of(Kind::Click, action, "")
        }
    }
}

/// The kind a card's actions are read by, for a DOM event of type `kind` (and
/// `key`, for a key press) on a control with tag `tag`; `None` for events no
/// action is read from.
///
/// Enter and Space on an element that is not a button or a form field (a step
/// dot, a formula link: focusable through `tabindex`) activate it like a
/// click, as they would a button; a real button is left to the browser, which
/// clicks it itself. In a field Enter commits ([`Kind::Enter`]); Escape is
/// [`Kind::Escape`] anywhere.
pub fn kind_of(kind: &str, key: &str, tag: &str) -> Option<Kind> {
    let tag = tag.to_ascii_uppercase();
    let field = matches!(tag.as_str(), "INPUT" | "SELECT" | "TEXTAREA");
    Some(match (kind, key) {
        ("click", _) => Kind::Click,
        ("change", _) => Kind::Change,
        ("input", _) => Kind::Input,
        ("keydown", "Escape") => Kind::Escape,
        ("keydown", "Enter") if field => Kind::Enter,
        ("keydown", "Enter" | " ") if !field && tag != "BUTTON" => Kind::Click,
        _ => return None,
    })
}

/// The action of a card's controls of which one is chosen at a time (a
/// token's chip): `page/highlight.js` `choose` marks the chosen one, outside
/// the markup, by this name.
pub const SELECT: &str = "select";

/// Declares the names of a card's controls: an enum whose `name()` is the
/// `data-action` its markup writes, its `read` matches (through `named`) and
/// its tests send, so a mistyped name fails to compile instead of silently
/// doing nothing. Two controls of one card may not share a name; that is
/// checked when the crate compiles.
macro_rules! action_names {
    ($(#[$meta:meta])* $vis:vis enum $Names:ident {
        $($(#[$vmeta:meta])* $Variant:ident = $name:expr),* $(,)?
    }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        $vis enum $Names { $($(#[$vmeta])* $Variant),* }

        impl $Names {
            /// Every control of the card, in the order declared.
            pub const ALL: &[Self] = &[$(Self::$Variant),*];

            /// The control's `data-action`.
            pub const fn name(self) -> &'static str {
                match self { $(Self::$Variant => $name),* }
            }

            /// The control whose `data-action` is `name`, if the card has one.
            pub fn named(name: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|control| control.name() == name)
            }
        }

        const _: () = assert!(
            $crate::action::distinct(&[$($name),*]),
            concat!("two controls in ", module_path!(), " share a data-action"),
        );
    };
}
pub(crate) use action_names;

/// Whether no two of `names` are equal (for `action_names!`, at compile time).
pub const fn distinct(names: &[&str]) -> bool {
    let mut i = 0;
    while i < names.len() {
        let mut j = i + 1;
        while j < names.len() {
            if names[i].len() == names[j].len() && same_bytes(names[i], names[j]) {
                return false;
            }
            j += 1;
        }
        i += 1;
    }
    true
}

const fn same_bytes(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut k = 0;
    while k < a.len() {
        if a[k] != b[k] {
            return false;
        }
        k += 1;
    }
    true
}

/// A button that names its action for a card's listener (`data-action`),
/// with the action as its test id too.
pub fn action_button(m: &mut Markup, action: &str, label: &str) {
    let attrs = [
        ("type", "button"),
        ("data-action", action),
        ("data-testid", action),
    ];
    m.element("button", &attrs, label);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointer_and_field_events_keep_their_kind() {
        assert_eq!(kind_of("click", "", "BUTTON"), Some(Kind::Click));
        assert_eq!(kind_of("change", "", "SELECT"), Some(Kind::Change));
        assert_eq!(kind_of("input", "", "INPUT"), Some(Kind::Input));
        assert_eq!(kind_of("pointerover", "", "BUTTON"), None);
    }

    #[test]
    fn keys_commit_fields_cancel_anywhere_and_activate_what_is_no_button() {
        assert_eq!(kind_of("keydown", "Enter", "INPUT"), Some(Kind::Enter));
        assert_eq!(kind_of("keydown", "Escape", "input"), Some(Kind::Escape));
        // A step dot or a formula link acts on Enter and Space like a click.
        assert_eq!(kind_of("keydown", "Enter", "LI"), Some(Kind::Click));
        assert_eq!(kind_of("keydown", " ", "mrow"), Some(Kind::Click));
        // The browser clicks a button itself: reading it too would act twice.
        assert_eq!(kind_of("keydown", "Enter", "BUTTON"), None);
        assert_eq!(kind_of("keydown", " ", "button"), None);
        // Space types into a field, and other keys are nobody's action.
        assert_eq!(kind_of("keydown", " ", "INPUT"), None);
        assert_eq!(kind_of("keydown", "a", "LI"), None);
        assert_eq!(kind_of("keydown", "ArrowLeft", "INPUT"), None);
    }

    #[test]
    fn names_are_distinct_only_when_no_two_are_equal() {
        assert!(distinct(&["pad", "remove", "add"]));
        // A name that begins another is still another name.
        assert!(distinct(&["step", "step-next", "ste"]));
        assert!(!distinct(&["pad", "remove", "pad"]));
        assert!(distinct(&[]));
    }

    #[test]
    fn an_action_button_names_its_action_and_escapes_its_label() {
        let mut m = Markup::new();
        action_button(&mut m, "export-svg", "<SVG>");
        assert_eq!(
            m.finish(),
            "<button type=\"button\" data-action=\"export-svg\" \
             data-testid=\"export-svg\">&lt;SVG&gt;</button>"
        );
    }
}
