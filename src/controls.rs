//! The learner's controls: the scenario, tokens, sizes, masks, scaling and
//! random weights. They are written as markup by [`markup`] and patched in
//! place like the diagrams; one delegated listener turns events back into an
//! [`action::Action`], and every edit goes through [`action::apply`]. A
//! refused edit leaves everything as it was and says why. Markup rather than
//! one reactive node per control keeps the WebAssembly small (see ARCHITECTURE.md).

pub mod action;
mod markup;
pub mod scenarios;

use crate::diagrams::host::keep_patched;
use crate::i18n::LangContext;
use crate::lab::LabError;
use crate::state::{Focus, LabScenario, LinkProblem};
use action::{apply, Action, Desk, Reading};
use leptos::html::Section;
use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;
use markup::ControlsView;
pub use markup::{action_button, refusal};
use web_sys::{Element, HtmlInputElement};

/// The seed shown before the learner draws any random weights.
const FIRST_SEED: u64 = 42;

/// The element an event happened on that names an action, with that action.
pub(crate) fn control_of(event: &web_sys::Event) -> Option<(Element, String)> {
    let target = event.target()?.dyn_into::<Element>().ok()?;
    let control = target.closest("[data-action]").ok()??;
    let action = control.get_attribute("data-action")?;
    Some((control, action))
}

/// The element in a markup host with this `data-testid`.
pub(crate) fn part(host: &Element, testid: &str) -> Option<Element> {
    host.query_selector(&format!("[data-testid={testid}]"))
        .ok()
        .flatten()
}

/// All controls that edit the scenario.
#[component]
pub fn Controls() -> impl IntoView {
    let LinkProblem(from_link) = expect_context::<LinkProblem>();
    let LabScenario(scenario) = expect_context::<LabScenario>();
    let LangContext(lang) = expect_context::<LangContext>();
    let focus = expect_context::<Focus>();
    let notice = RwSignal::new(from_link);
    let seed = RwSignal::new(FIRST_SEED);
    let scenarios::Picked(choice) = expect_context::<scenarios::Picked>();
    let node = NodeRef::<Section>::new();
    let desk = move || Desk {
        scenario: scenario.get(),
        query: focus.query.get(),
        sequence: focus.sequence.get(),
        seed: seed.get(),
        choice: choice.get(),
    };

    let markup = Memo::new(move |_| {
        let desk = desk();
        notice.with(|notice| {
            markup::controls(&ControlsView {
                desk: &desk,
                lang: lang.get(),
                notice: notice.as_ref(),
            })
        })
    });
    keep_patched(node, markup.into());

    // Reads an event on a control, applies it, and writes back what changed.
    // One callback shared by the four listeners, rather than a closure each
    // of them would carry its own copy of.
    let act = Callback::new(move |(event, kind): (web_sys::Event, &'static str)| {
        let Some((control, name)) = control_of(&event) else {
            return;
        };
        // The field an action reads: the new-token field for Add, which is
        // looked up only then, or else the control itself when it is one.
        let field = if name == "add" {
            node.get_untracked()
                .and_then(|host| part(&host, "new-token"))
                .and_then(|e| e.dyn_into::<HtmlInputElement>().ok())
        } else {
            control.dyn_ref::<HtmlInputElement>().cloned()
        };
        let value = field
            .as_ref()
            .map_or_else(|| event_target_value(&event), HtmlInputElement::value);
        let index = control
            .get_attribute("data-index")
            .and_then(|i| i.parse().ok());
        let reading = Reading {
            event: kind,
            action: &name,
            index: index.unwrap_or(0),
            value: &value,
            checked: field.as_ref().is_some_and(HtmlInputElement::checked),
        };
        let Some(action) = Action::read(&reading) else {
            return;
        };
        if action == Action::Reset {
            let question = crate::i18n::controls::RESET_CONFIRM.get(lang.get_untracked());
            if !window().confirm_with_message(question).unwrap_or(false) {
                return;
            }
        }
        let adding = matches!(action, Action::Add(_));
        let before = untrack(desk);
        let mut after = before.clone();
        match apply(&mut after, action) {
            Ok(()) => {
                notice.set(None::<LabError>);
                if after.scenario != before.scenario {
                    scenario.set(after.scenario);
                }
                if after.query != before.query {
                    focus.query.set(after.query);
                }
                if after.sequence != before.sequence {
                    focus.sequence.set(after.sequence);
                }
                seed.set(after.seed);
                choice.set(after.choice);
                if adding {
                    if let Some(field) = &field {
                        field.set_value("");
                    }
                }
            }
            Err(error) => notice.set(Some(error)),
        }
    });

    view! {
        <section
            class="card controls"
            data-testid="controls"
            node_ref=node
            on:click=move |e| act.run((e.into(), "click"))
            on:change=move |e| act.run((e, "change"))
            on:input=move |e| act.run((e, "input"))
            on:keydown=move |e| {
                if e.key() == "Enter" {
                    act.run((e.into(), "enter"));
                }
            }
        ></section>
    }
}
