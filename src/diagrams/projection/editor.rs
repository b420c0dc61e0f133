//! The editor for one entry of X or a W matrix: type a number, press Enter.
//! A refused number keeps what the learner typed and says what is wrong.

use crate::app::{Focus, LabScenario};
use crate::controls::RefusedEdit;
use crate::geometry::format::subscript;
use crate::i18n::{projection as text, tr};
use crate::lab::{self, Editable};
use leptos::prelude::*;

fn matrix_name(which: Editable) -> &'static str {
    match which {
        Editable::X => "X",
        Editable::WQ => "W_Q",
        Editable::WK => "W_K",
        Editable::WV => "W_V",
    }
}

/// An input bound to the entry being edited; hidden when none is.
#[component]
pub fn CellEditor(
    /// The entry being edited: matrix, row and column.
    editing: RwSignal<Option<(Editable, usize, usize)>>,
) -> impl IntoView {
    let LabScenario(scenario) = expect_context::<LabScenario>();
    let focus = expect_context::<Focus>();
    let typed = RwSignal::new(String::new());
    let problem = RwSignal::new(None::<crate::lab::LabError>);

    // Opening another entry shows its current value.
    Effect::new(move |_| {
        if let Some((which, r, c)) = editing.get() {
            let value = scenario
                .with_untracked(|s| lab::entry(s, which, focus.sequence.get_untracked(), (r, c)));
            typed.set(value.map(|v| v.to_string()).unwrap_or_default());
            problem.set(None);
        }
    });
    // Reads the field itself: a change can arrive without an input event before it.
    let commit = move |text: String| {
        typed.set(text.clone());
        let Some((which, r, c)) = editing.get_untracked() else {
            return;
        };
        let sequence = focus.sequence.get_untracked();
        let result = lab::parse_number(&text).and_then(|value| {
            let mut next = scenario.get_untracked();
            lab::set_entry(&mut next, which, sequence, (r, c), value)?;
            scenario.set(next);
            Ok(())
        });
        problem.set(result.err());
    };

    let label = move || {
        editing.get().map_or_else(String::new, |(which, r, c)| {
            format!(
                "{}{},{}",
                matrix_name(which),
                subscript(r + 1),
                subscript(c + 1)
            )
        })
    };

    // Always built and only hidden when no entry is open: rebuilding the
    // editor for every opened entry would cost far more WebAssembly.
    view! {
        <div class="cell-editor" hidden=move || editing.with(Option::is_none)>
            <label>
                {tr(text::EDITING)} " " {label} " = "
                <input
                    type="text"
                    inputmode="decimal"
                    data-testid="cell-editor"
                    prop:value=move || typed.get()
                    on:input=move |e| typed.set(event_target_value(&e))
                    on:change=move |e| commit(event_target_value(&e))
                    on:keydown=move |e| {
                        if e.key() == "Enter" {
                            commit(event_target_value(&e));
                        }
                    }
                />
            </label>
            <span class="hint">{tr(text::EDIT_HELP)}</span>
            <RefusedEdit error=problem testid="cell-editor-problem" />
        </div>
    }
}
