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
    let bad_seed = RwSignal::new(false);
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
                crate::svg::escape(&crate::i18n::errors::attention_error(error, lang))
            ),
        })
    });

    view! {
        <details
            class="card experiment"
            data-later=""
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
                            let next = event_target_value(&e).trim().parse::<u64>();
                            bad_seed.set(next.is_err());
                            if let Ok(next) = next {
                                seed.set(next);
                            }
                        }
                    />
                </label>
            </div>
            <p class="problem" role="alert" data-testid="experiment-seed-problem" hidden=move || !bad_seed.get()>
                {tr(text::BAD_SEED)}
            </p>
            <div class="experiment-charts">
                <SvgHost markup=markup />
            </div>
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    /// The panel's first measurement, computed natively, as the end-to-end
    /// test reads it: `tests/data/experiment_golden.json`.
    fn native() -> Value {
        let points = scaling_experiment(&log_spaced_dims(MAX_DIM), KEYS, DRAWS, FIRST_SEED)
            .expect("the panel's settings are valid");
        let series = |pick: fn(&attention_core::experiment::ScalingPoint) -> f64| {
            points.iter().map(pick).collect::<Vec<_>>()
        };
        json!({
            "keys": KEYS, "draws": DRAWS, "seed": FIRST_SEED,
            "d_k": points.iter().map(|p| p.d_k).collect::<Vec<_>>(),
            "variance": { "unscaled": series(|p| p.unscaled.dot_variance), "scaled": series(|p| p.scaled.dot_variance) },
            "max-weight": { "unscaled": series(|p| p.unscaled.max_weight), "scaled": series(|p| p.scaled.max_weight) },
            "entropy": { "unscaled": series(|p| p.unscaled.entropy), "scaled": series(|p| p.scaled.entropy) },
            "gradient": { "unscaled": series(|p| p.unscaled.gradient), "scaled": series(|p| p.scaled.gradient) },
        })
    }

    const GOLDEN: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/experiment_golden.json"
    );

    /// Rewrites the golden file from the native computation: `cargo xtask
    /// golden` runs it, never a test run.
    #[test]
    #[ignore = "writes the golden file: cargo xtask golden"]
    fn write_golden() {
        let text = serde_json::to_string_pretty(&native()).expect("serialisable");
        std::fs::write(GOLDEN, text + "\n").expect("writable");
    }

    /// The golden file is this native computation.
    #[test]
    fn the_golden_figures_are_the_native_computation() {
        let computed = native();
        let golden: Value =
            serde_json::from_str(&std::fs::read_to_string(GOLDEN).expect("golden file"))
                .expect("valid JSON");
        // serde_json reads a float back to within a unit in the last place.
        assert!(
            close(&golden, &computed),
            "the golden file is stale: rewrite it with cargo xtask golden"
        );
    }

    /// Equal structure, and numbers equal to a relative 1e-12.
    fn close(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) => {
                let (x, y) = (
                    x.as_f64().unwrap_or(f64::NAN),
                    y.as_f64().unwrap_or(f64::NAN),
                );
                (x - y).abs() <= 1e-12 * x.abs().max(1.0)
            }
            (Value::Array(x), Value::Array(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(x, y)| close(x, y))
            }
            (Value::Object(x), Value::Object(y)) => {
                x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| close(v, w)))
            }
            _ => a == b,
        }
    }

    #[test]
    fn the_slider_doubles_d_k_per_step_within_1_to_512() {
        assert_eq!(dim_at("0"), 1);
        assert_eq!(dim_at("6"), 64);
        assert_eq!(dim_at("9"), 512);
        assert_eq!(dim_at("12"), 512);
        assert_eq!(dim_at("x"), 1);
    }
}
