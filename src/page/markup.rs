//! Markup that every card may write.

use crate::i18n::{controls as text, Lang};
use crate::lab::LabError;
use crate::svg::Markup;

/// Says why an edit was refused, in the learner's language, as an alert with
/// this `data-testid`; the controls and the cell editor both use it.
pub fn refusal(m: &mut Markup, error: &LabError, testid: &str, lang: Lang) {
    let message = text::lab_error(error, lang);
    let attrs = [
        ("class", "problem"),
        ("role", "alert"),
        ("data-testid", testid),
    ];
    m.element("p", &attrs, &message);
}
