//! The editor for one entry of X or a W matrix: type a number, press Enter.
//! A refused number keeps what the learner typed and says what is wrong. Like
//! the controls, it is markup with one delegated listener (see ARCHITECTURE.md).

use crate::app::{Focus, LabScenario};
use crate::controls::refusal;
use crate::diagrams::host::keep_patched;
use crate::geometry::format::{shortest, subscript};
use crate::i18n::{projection as text, Lang, LangContext};
use crate::lab::{self, Editable, LabError};
use crate::svg::Markup;
use leptos::html::Div;
use leptos::prelude::*;

fn matrix_name(which: Editable) -> &'static str {
    match which {
        Editable::X => "X",
        Editable::WQ => "W_Q",
        Editable::WK => "W_K",
        Editable::WV => "W_V",
    }
}

/// The editor's markup: nothing while no entry is open; otherwise the entry's
/// name, a field holding `value`, a hint, and why the last number was refused.
pub fn markup(
    editing: Option<(Editable, usize, usize)>,
    value: Option<f64>,
    problem: Option<&LabError>,
    lang: Lang,
) -> String {
    let Some((which, r, c)) = editing else {
        return String::new();
    };
    let name = format!(
        "{}{},{}",
        matrix_name(which),
        subscript(r + 1),
        subscript(c + 1)
    );
    let value = value.map(shortest).unwrap_or_default();
    let mut m = Markup::new();
    m.open("div", &[("class", "cell-editor")])
        .open("label", &[]);
    m.text(&format!("{} {name} = ", text::EDITING.get(lang)));
    let field = [
        ("type", "text"),
        ("inputmode", "decimal"),
        ("data-testid", "cell-editor"),
        ("value", value.as_str()),
    ];
    m.empty("input", &field).close("label");
    m.element("span", &[("class", "hint")], text::EDIT_HELP.get(lang));
    if let Some(problem) = problem {
        refusal(&mut m, problem, "cell-editor-problem", lang);
    }
    m.close("div");
    m.finish()
}

/// An input bound to the entry being edited; empty when none is.
#[component]
pub fn CellEditor(
    /// The entry being edited: matrix, row and column.
    editing: RwSignal<Option<(Editable, usize, usize)>>,
) -> impl IntoView {
    let LabScenario(scenario) = expect_context::<LabScenario>();
    let LangContext(lang) = expect_context::<LangContext>();
    let focus = expect_context::<Focus>();
    let problem = RwSignal::new(None::<LabError>);
    let node = NodeRef::<Div>::new();

    // Opening another entry starts without a complaint.
    Effect::new(move |_| {
        editing.track();
        problem.set(None);
    });
    let html = Memo::new(move |_| {
        let open = editing.get();
        let sequence = focus.sequence.get();
        let value = open
            .and_then(|(which, r, c)| scenario.with(|s| lab::entry(s, which, sequence, (r, c))));
        problem.with(|p| markup(open, value, p.as_ref(), lang.get()))
    });
    keep_patched(node, html.into());
    // Reads the field itself: a change can arrive without an input event before it.
    let commit = move |typed: String| {
        let Some((which, r, c)) = editing.get_untracked() else {
            return;
        };
        let sequence = focus.sequence.get_untracked();
        let result = lab::parse_number(&typed).and_then(|value| {
            let mut next = scenario.get_untracked();
            lab::set_entry(&mut next, which, sequence, (r, c), value)?;
            scenario.set(next);
            Ok(())
        });
        problem.set(result.err());
    };

    view! {
        <div
            node_ref=node
            on:change=move |e| commit(event_target_value(&e))
            on:keydown=move |e| {
                if e.key() == "Enter" {
                    commit(event_target_value(&e));
                }
            }
        ></div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_editor_names_its_entry_and_shows_a_refusal() {
        assert_eq!(markup(None, None, None, Lang::En), "");
        let open = Some((Editable::WQ, 1, 2));
        let html = markup(open, Some(0.75), None, Lang::En);
        assert!(html.contains("W_Q₂,₃ = "), "{html}");
        assert!(html.contains("data-testid=\"cell-editor\" value=\"0.75\""));
        assert!(!html.contains("cell-editor-problem"));
        let refused = LabError::NotANumber("abc".into());
        let html = markup(open, Some(0.75), Some(&refused), Lang::Zh);
        assert!(html.contains("data-testid=\"cell-editor-problem\""));
        assert!(html.contains("“abc”"));
    }
}
