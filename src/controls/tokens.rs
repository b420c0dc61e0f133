//! The token list: select the query, rename, pad, remove and add tokens.

use super::EditNotice;
use crate::app::{Focus, LabScenario};
use crate::i18n::{controls as text, tr};
use crate::lab::{self, LabError};
use attention_core::Scenario;
use leptos::prelude::*;

/// Seed for the embedding of an added token: fixed, so adding is reproducible.
const NEW_TOKEN_SEED: u64 = 7;

/// Applies `edit` to a copy of the scenario, and keeps it only if it succeeds.
pub fn apply(
    scenario: RwSignal<Scenario>,
    notice: RwSignal<Option<LabError>>,
    edit: impl FnOnce(&mut Scenario) -> Result<(), LabError>,
) {
    let mut next = scenario.get_untracked();
    match edit(&mut next) {
        Ok(()) => {
            scenario.set(next);
            notice.set(None);
        }
        Err(error) => notice.set(Some(error)),
    }
}

/// One chip per token, and a field to add another.
#[component]
pub fn Tokens() -> impl IntoView {
    let LabScenario(scenario) = expect_context::<LabScenario>();
    let EditNotice(notice) = expect_context::<EditNotice>();
    let focus = expect_context::<Focus>();
    let new_label = RwSignal::new(String::new());
    let labels = Memo::new(move |_| scenario.with(lab::token_labels));
    let padded = move |i: usize| {
        let b = focus.sequence.get();
        scenario.with(|s| s.mask.as_ref().and_then(|m| m.get((b, i)).copied()) == Some(false))
    };
    let add = move || {
        let label = new_label.get_untracked();
        apply(scenario, notice, |s| {
            lab::add_token(s, &label, NEW_TOKEN_SEED)
        });
        if notice.get_untracked().is_none() {
            new_label.set(String::new());
        }
    };

    let chip = move |i: usize| {
        let label = move || labels.with(|l| l.get(i).cloned().unwrap_or_default());
        view! {
            <li class="token" class:selected=move || focus.query.get() == i class:padded=move || padded(i)>
                <button
                    class="token-select"
                    data-testid="token"
                    data-index=i
                    aria-pressed=move || (focus.query.get() == i).to_string()
                    on:click=move |_| focus.query.set(i)
                >
                    {label}
                </button>
                <input
                    class="token-label"
                    data-testid="token-label"
                    aria-label=tr(text::RENAME)
                    prop:value=label
                    on:change=move |e| {
                        let text = event_target_value(&e);
                        apply(scenario, notice, |s| lab::rename_token(s, i, &text));
                    }
                />
                <button
                    class="token-pad"
                    data-testid="token-pad"
                    aria-pressed=move || padded(i).to_string()
                    title=tr(text::PAD_LABEL)
                    on:click=move |_| {
                        let b = focus.sequence.get_untracked();
                        apply(scenario, notice, |s| lab::toggle_padding(s, b, i));
                    }
                >
                    {tr(text::PAD)}
                </button>
                <button
                    class="token-remove"
                    data-testid="token-remove"
                    aria-label=tr(text::REMOVE)
                    title=tr(text::REMOVE)
                    on:click=move |_| apply(scenario, notice, |s| lab::remove_token(s, i))
                >
                    "×"
                </button>
            </li>
        }
    };

    view! {
        <div class="tokens">
            <h3>{tr(text::TOKENS)}</h3>
            <ul class="token-list">
                {move || (0..labels.with(Vec::len)).map(chip).collect_view()}
            </ul>
            <div class="add-token">
                <input
                    data-testid="new-token"
                    aria-label=tr(text::NEW_TOKEN)
                    placeholder=tr(text::NEW_TOKEN)
                    prop:value=move || new_label.get()
                    on:input=move |e| new_label.set(event_target_value(&e))
                    on:keydown=move |e| {
                        if e.key() == "Enter" {
                            add();
                        }
                    }
                />
                <button data-testid="add-token" on:click=move |_| add()>
                    {tr(text::ADD)}
                </button>
            </div>
        </div>
    }
}
