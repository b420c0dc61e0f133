//! The "why √d_k" experiment: the core measures, for d_k from 1 to 512, what
//! happens to random scores with and without scaling, and four charts show
//! it. The panel opens on demand: the measurement runs only once it is open,
//! and again only when the seed changes; the d_k slider just moves a marker.

mod charts;

use crate::diagrams::host::SvgHost;
use crate::i18n::{experiment as text, tr, LangContext};
use attention_core::experiment::{log_spaced_dims, scaling_experiment};
use charts::{chart, Metric};
use leptos::prelude::*;

/// The largest d_k measured.
const MAX_DIM: usize = 512;
/// Keys per row and random draws per d_k: enough for smooth curves, few
/// enough that a new seed is measured within a frame or two.
const KEYS: usize = 8;
const DRAWS: usize = 100;
const FIRST_SEED: u64 = 7;

/// The d_k of the slider's position: 2^position, within 1..=512.
pub fn dim_at(position: &str) -> usize {
    let power = position.trim().parse::<u32>().unwrap_or(0).min(9);
    1 << power
}

/// A collapsible card with a log-scale d_k slider, a seed, and four charts.
#[component]
pub fn ScalingExperiment() -> impl IntoView {
    let LangContext(lang) = expect_context::<LangContext>();
    let open = RwSignal::new(false);
    let seed = RwSignal::new(FIRST_SEED);
    let dim = RwSignal::new(64usize);
    let points = Memo::new(move |_| {
        if open.get() {
            scaling_experiment(&log_spaced_dims(MAX_DIM), KEYS, DRAWS, seed.get())
        } else {
            Ok(Vec::new())
        }
    });
    let markup = Memo::new(move |_| {
        let (lang, marker) = (lang.get(), dim.get());
        points.with(|result| match result {
            Ok(points) => Metric::ALL
                .map(|metric| chart(metric, points, marker, lang))
                .concat(),
            Err(error) => format!(
                "<p class=\"problem\">{}{}</p>",
                text::PROBLEM.get(lang),
                crate::svg::escape(&error.to_string())
            ),
        })
    });

    view! {
        <details
            class="card experiment"
            data-testid="experiment"
            on:toggle=move |e| {
                use leptos::wasm_bindgen::JsCast;
                let details = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok());
                open.set(details.is_some_and(|d| d.open()));
            }
        >
            <summary>
                <h2>{tr(text::TITLE)}</h2>
            </summary>
            <p class="explain">{tr(text::EXPLAIN)}</p>
            <div class="experiment-controls">
                <label class="slider">
                    <span>{tr(text::DIM)} " = " {move || dim.get()}</span>
                    <input
                        type="range"
                        data-testid="experiment-dk"
                        min="0" max="9" step="1"
                        prop:value=move || dim.get().trailing_zeros().to_string()
                        on:input=move |e| dim.set(dim_at(&event_target_value(&e)))
                    />
                </label>
                <label>
                    {tr(text::SEED)} " "
                    <input
                        type="number"
                        min="0"
                        data-testid="experiment-seed"
                        prop:value=move || seed.get().to_string()
                        on:change=move |e| {
                            if let Ok(next) = event_target_value(&e).trim().parse::<u64>() {
                                seed.set(next);
                            }
                        }
                    />
                </label>
            </div>
            <div class="experiment-charts">
                <SvgHost markup=markup />
            </div>
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::dim_at;

    #[test]
    fn the_slider_doubles_d_k_per_step_within_1_to_512() {
        assert_eq!(dim_at("0"), 1);
        assert_eq!(dim_at("6"), 64);
        assert_eq!(dim_at("9"), 512);
        assert_eq!(dim_at("12"), 512);
        assert_eq!(dim_at("x"), 1);
    }
}
