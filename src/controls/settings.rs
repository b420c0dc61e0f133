//! Sizes, scaling, the causal mask, the shown sequence, and random weights.

use super::tokens::apply;
use super::EditNotice;
use crate::app::{Focus, LabScenario};
use crate::i18n::{controls as text, tr};
use crate::lab::{self, MAX_DIM, MIN_DIM};
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
    let d_model = move || scenario.with(|s| s.x.dim().2);
    let d_k = move || scenario.with(|s| s.head.w_q.ncols());
    let batch = move || scenario.with(|s| s.x.dim().0);
    let slider_value = |e: &leptos::ev::Event| event_target_value(e).parse::<usize>().unwrap_or(0);
    let randomize = move |next: u64| {
        seed.set(next);
        scenario.update(|s| lab::randomize_weights(s, next));
        notice.set(None);
    };

    view! {
        <div class="settings">
            <label class="slider">
                <span>{tr(text::D_MODEL)} " = " {d_model}</span>
                <input
                    type="range"
                    data-testid="d-model"
                    min=MIN_DIM max=MAX_DIM step="1"
                    prop:value=move || d_model().to_string()
                    on:input=move |e| {
                        let d = slider_value(&e);
                        apply(scenario, notice, |s| lab::set_d_model(s, d, RESIZE_SEED));
                    }
                />
            </label>
            <label class="slider">
                <span>{tr(text::D_K)} " = " {d_k}</span>
                <input
                    type="range"
                    data-testid="d-k"
                    min=MIN_DIM max=MAX_DIM step="1"
                    prop:value=move || d_k().to_string()
                    on:input=move |e| {
                        let d = slider_value(&e);
                        apply(scenario, notice, |s| lab::set_d_k(s, d, RESIZE_SEED));
                    }
                />
            </label>
            <label class="switch">
                <input
                    type="checkbox"
                    data-testid="scale"
                    prop:checked=move || scenario.with(|s| s.options.scale)
                    on:change=move |e| scenario.update(|s| s.options.scale = event_target_checked(&e))
                />
                {tr(text::SCALE)}
            </label>
            <label class="switch">
                <input
                    type="checkbox"
                    data-testid="causal"
                    prop:checked=move || scenario.with(|s| s.options.causal)
                    on:change=move |e| scenario.update(|s| s.options.causal = event_target_checked(&e))
                />
                {tr(text::CAUSAL)}
            </label>
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
