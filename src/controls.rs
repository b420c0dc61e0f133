//! The learner's controls: the scenario, tokens, sizes, masks, scaling and
//! random weights. They are written as markup by [`markup`] and patched in
//! place like the diagrams; the cards' one listener (`crate::action`) reads
//! events back into an [`action::Action`], and every edit goes through
//! [`action::apply`]. A refused edit leaves everything as it was and says
//! why. Markup rather than one reactive node per control keeps the
//! WebAssembly small (ARCHITECTURE.md: size rules).
//!
//! Built as: markup, an `ActionCard` (ARCHITECTURE.md: Adding a card).

pub mod action;
pub mod markup;
pub mod scenarios;

use crate::action::Heard;
use crate::i18n::LangContext;
use crate::lab::LabError;
use crate::page::ActionCard;
use crate::state::{lab, LinkProblem};
use action::{apply, Action, Desk};
use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;
use markup::{ControlsView, Shown};
use web_sys::HtmlInputElement;

/// The seed shown before the learner draws any random weights.
const FIRST_SEED: u64 = 42;

/// All controls that edit the scenario.
#[component]
pub fn Controls() -> impl IntoView {
    let LinkProblem(from_link) = expect_context::<LinkProblem>();
    let lab = lab();
    let scenario = lab.scenario;
    let LangContext(lang) = expect_context::<LangContext>();
    let focus = lab.focus;
    let notice = RwSignal::new(from_link);
    let seed = RwSignal::new(FIRST_SEED);
    let scenarios::Picked(choice) = expect_context::<scenarios::Picked>();
    let desk = move |query: usize| Desk {
        scenario: scenario.get(),
        query,
        sequence: focus.sequence.get(),
        head: focus.head.get(),
        layer: focus.layer.get(),
        seed: seed.get(),
        choice: choice.get(),
    };

    // The markup follows only what it shows: the selected query's chip is
    // marked apart (`ActionCard`'s `chosen`) and the seed's field is written
    // apart (`values`), so neither a new query nor new weights rewrite it.
    let shown = Memo::new(move |_| scenario.with(Shown::of));
    let markup = Memo::new(move |_| {
        shown.with(|shown| {
            notice.with(|notice| {
                markup::controls(&ControlsView {
                    shown,
                    sequence: focus.sequence.get(),
                    choice: choice.get(),
                    lang: lang.get(),
                    notice: notice.as_ref(),
                })
            })
        })
    });
    let values = Signal::derive(move || vec![("seed", seed.get().to_string())]);

    // Applies what the learner did to a control, and writes back what changed.
    let act = Callback::new(move |heard: Heard| {
        let Some(action) = Action::read(&heard.reading()) else {
            return;
        };
        if action == Action::Reset {
            let question = crate::i18n::controls::RESET_CONFIRM.get(lang.get_untracked());
            if !window().confirm_with_message(question).unwrap_or(false) {
                return;
            }
        }
        let adding = matches!(action, Action::Add(_));
        let before = untrack(|| desk(focus.query.get()));
        let mut after = before.clone();
        match apply(&mut after, action) {
            // The markup's inputs are set only when they changed: setting a
            // signal wakes whatever reads it, even with the same value (here
            // the markup of up to 512 chips).
            Ok(()) => {
                if notice.with_untracked(Option::is_some) {
                    notice.set(None::<LabError>);
                }
                if after.scenario != before.scenario {
                    scenario.set(after.scenario);
                }
                if after.query != before.query {
                    focus.query.set(after.query);
                }
                if after.sequence != before.sequence {
                    focus.sequence.set(after.sequence);
                }
                if after.head != before.head {
                    focus.head.set(after.head);
                }
                // Always: this also writes the seed's field back tidy (`042`
                // typed → `42`), and costs only that field.
                seed.set(after.seed);
                if after.choice != before.choice {
                    choice.set(after.choice);
                }
                if adding {
                    if let Some(field) = heard.field.dyn_ref::<HtmlInputElement>() {
                        field.set_value("");
                    }
                }
            }
            Err(error) => notice.set(Some(error)),
        }
    });

    view! {
        <ActionCard
            class="card controls"
            testid="controls"
            markup=markup
            on_action=act
            chosen=focus.query
            values=values
        />
    }
}
