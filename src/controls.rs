//! The learner's controls: tokens, sizes, masks, scaling and random weights.
//! Every edit goes through [`crate::lab`]; a refused edit leaves the scenario
//! as it was and shows why.

pub mod scenarios;
mod settings;
mod tokens;

use crate::i18n::{controls as text, tr, LangContext};
use crate::lab::LabError;
use leptos::prelude::*;
use scenarios::ScenarioPicker;
use settings::Settings;
use tokens::Tokens;

/// The message of the last refused edit, shared by the controls.
#[derive(Clone, Copy)]
pub struct EditNotice(pub RwSignal<Option<LabError>>);

/// All controls that edit the scenario.
#[component]
pub fn Controls() -> impl IntoView {
    let crate::app::LinkProblem(from_link) = expect_context::<crate::app::LinkProblem>();
    let notice = RwSignal::new(from_link);
    provide_context(EditNotice(notice));
    view! {
        <section class="card controls" data-testid="controls">
            <h2>{tr(text::CONTROLS_TITLE)}</h2>
            <ScenarioPicker />
            <Tokens />
            <Settings />
            <RefusedEdit error=notice testid="notice" />
        </section>
    }
}

/// Says why an edit was refused, in the learner's language; nothing when none was.
#[component]
pub fn RefusedEdit(
    /// The last refused edit's reason, if any.
    error: RwSignal<Option<LabError>>,
    /// `data-testid` of the message.
    testid: &'static str,
) -> impl IntoView {
    let LangContext(lang) = expect_context::<LangContext>();
    let message = move || {
        error.with(|e| {
            e.as_ref().map_or_else(String::new, |e| {
                let (msg, detail) = text::lab_error(e);
                format!("{}{detail}", msg.get(lang.get()))
            })
        })
    };
    // Hidden rather than removed when there is nothing to say: a paragraph
    // that comes and goes would cost far more WebAssembly.
    view! {
        <p class="problem" role="alert" data-testid=testid hidden=move || error.with(Option::is_none)>
            {message}
        </p>
    }
}
