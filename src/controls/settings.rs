//! Sizes, scaling, the causal mask, the shown sequence, and random weights.

use super::tokens::apply;
use super::EditNotice;
use crate::app::{Focus, LabScenario};
use crate::i18n::{controls as text, tr, Msg};
use crate::lab::{self, LabError, MAX_DIM, MIN_DIM};
use attention_core::Scenario;
use leptos::prelude::*;

/// Seed for numbers added when d_model or d_k grows: fixed, so resizing is reproducible.
const RESIZE_SEED: u64 = 11;
/// The seed shown before the learner draws any random weights.
const FIRST_SEED: u64 = 42;

/// Sliders for d_model and d_k, switches, the batch's sequence, and the seeded randomizer.
#[component]
pub fn Settings() -> impl IntoView {
    let LabScenario(scenario) = expect_context::<LabScenario>();
    let EditNotice(notice) = expect_context::<EditNotice>();
    let focus = expect_context::<Focus>();
    let seed = RwSignal::new(FIRST_SEED);
    let batch = move || scenario.with(|s| s.x.dim().0);
    let randomize = move |next: u64| {
        seed.set(next);
        scenario.update(|s| lab::randomize_weights(s, next));
        notice.set(None);
    };

    view! {
        <div class="settings">
            {size_slider(scenario, notice, text::D_MODEL, "d-model", |s| s.x.dim().2, lab::set_d_model)}
            {size_slider(scenario, notice, text::D_K, "d-k", |s| s.head.w_q.ncols(), lab::set_d_k)}
            {switch(scenario, text::SCALE, "scale", |s| s.options.scale, |s, on| s.options.scale = on)}
            {switch(scenario, text::CAUSAL, "causal", |s| s.options.causal, |s, on| s.options.causal = on)}
            <Show when=move || { batch() > 1 }>
                <label class="slider">
                    <span>{tr(text::SEQUENCE)}</span>
                    <select
                        data-testid="sequence"
                        on:change=move |e| focus.sequence.set(event_target_value(&e).parse().unwrap_or(0))
                    >
                        {move || {
                            (0..batch())
                                .map(|b| view! { <option value=b selected=move || focus.sequence.get() == b>{b + 1}</option> })
                                .collect_view()
                        }}
                    </select>
                </label>
            </Show>
            <div class="seed">
                <label>
                    {tr(text::SEED)} " "
                    <input
                        type="number"
                        data-testid="seed"
                        min="0"
                        prop:value=move || seed.get().to_string()
                        on:change=move |e| {
                            if let Ok(next) = event_target_value(&e).trim().parse::<u64>() {
                                randomize(next);
                            }
                        }
                    />
                </label>
                <button data-testid="randomize" on:click=move |_| randomize(seed.get_untracked().wrapping_add(1))>
                    {tr(text::RANDOMIZE)}
                </button>
            </div>
        </div>
    }
}

/// A range slider labelled "`label` = size" for one dimension of the scenario,
/// which `read` reads and `resize` changes. Both are plain function pointers so
/// that every slider shares one copy of the closures below.
fn size_slider(
    scenario: RwSignal<Scenario>,
    notice: RwSignal<Option<LabError>>,
    label: Msg,
    testid: &'static str,
    read: fn(&Scenario) -> usize,
    resize: fn(&mut Scenario, usize, u64) -> Result<(), LabError>,
) -> impl IntoView {
    let size = move || scenario.with(read);
    view! {
        <label class="slider">
            <span>{tr(label)} " = " {size}</span>
            <input
                type="range"
                data-testid=testid
                min=MIN_DIM max=MAX_DIM step="1"
                prop:value=move || size().to_string()
                on:input=move |e| {
                    let d = event_target_value(&e).parse::<usize>().unwrap_or(0);
                    apply(scenario, notice, |s| resize(s, d, RESIZE_SEED));
                }
            />
        </label>
    }
}

/// A checkbox labelled `label` for one switch of the scenario, which `get`
/// reads and `set` changes. Both are plain function pointers for the same
/// reason as in [`size_slider`].
fn switch(
    scenario: RwSignal<Scenario>,
    label: Msg,
    testid: &'static str,
    get: fn(&Scenario) -> bool,
    set: fn(&mut Scenario, bool),
) -> impl IntoView {
    view! {
        <label class="switch">
            <input
                type="checkbox"
                data-testid=testid
                prop:checked=move || scenario.with(get)
                on:change=move |e| scenario.update(|s| set(s, event_target_checked(&e)))
            />
            {tr(label)}
        </label>
    }
}
