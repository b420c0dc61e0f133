//! The "why √d_k" experiment: the core measures, for d_k from 1 to 512, what
//! happens to random scores with and without scaling, and four charts show
//! it. The panel opens on demand: the measurement runs only once it is open,
//! and again only when the seed changes; the d_k slider just moves a marker.
//!
//! Built as: markup, an `ActionCard` (ARCHITECTURE.md: Adding a card).

mod charts;

use crate::action::{action_names, Heard, Kind, Reading};
use crate::i18n::{experiment as text, tr, Lang, LangContext};
use crate::page::ActionCard;
use crate::svg::Markup;
use attention_core::experiment::{log_spaced_dims, scaling_experiment, ScalingPoint};
use attention_core::AttentionError;
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

/// What the learner set in the panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bench {
    pub seed: u64,
    /// Whether the last seed typed was refused (the charts keep the last good one).
    pub bad_seed: bool,
    /// The d_k the slider marks.
    pub dim: usize,
}

impl Default for Bench {
    fn default() -> Self {
        Bench {
            seed: FIRST_SEED,
            bad_seed: false,
            dim: 64,
        }
    }
}

action_names! {
    /// The card's controls, by their `data-action`.
    pub enum Control {
        Dim = "experiment-dk",
        Seed = "experiment-seed",
    }
}

/// One thing the learner did in the panel (the cards' protocol, `crate::action`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExperimentAction {
    /// The slider moved to this position (see [`dim_at`]).
    Dim(usize),
    /// A seed was typed: its text, whole or not.
    Seed(String),
}

impl ExperimentAction {
    pub fn read(r: &Reading) -> Option<Self> {
        Some(match (r.event, Control::named(r.action)?) {
            (Kind::Input, Control::Dim) => Self::Dim(dim_at(r.value)),
            (Kind::Change, Control::Seed) => Self::Seed(r.value.to_owned()),
            _ => return None,
        })
    }

    /// The panel after this action: a seed that is no whole number is
    /// refused, keeping the last one.
    pub fn apply(self, bench: Bench) -> Bench {
        match self {
            Self::Dim(dim) => Bench { dim, ..bench },
            Self::Seed(text) => match text.trim().parse::<u64>() {
                Ok(seed) => Bench {
                    seed,
                    bad_seed: false,
                    ..bench
                },
                Err(_) => Bench {
                    bad_seed: true,
                    ..bench
                },
            },
        }
    }
}

/// The panel under its heading: the explanation, the slider and seed, the
/// seed's refusal, and the four charts (or why they could not be measured).
pub fn panel(
    bench: Bench,
    points: &Result<Vec<ScalingPoint>, AttentionError>,
    lang: Lang,
) -> String {
    let mut m = Markup::new();
    m.element("p", &[("class", "explain")], text::EXPLAIN.get(lang));
    m.open("div", &[("class", "experiment-controls")]);
    let (dim, position) = (
        bench.dim.to_string(),
        bench.dim.trailing_zeros().to_string(),
    );
    m.open("label", &[("class", "slider")]).element(
        "span",
        &[],
        &format!("{} = {dim}", text::DIM.get(lang)),
    );
    let slider = [
        ("type", "range"),
        ("data-testid", Control::Dim.name()),
        ("data-action", Control::Dim.name()),
        ("min", "0"),
        ("max", "9"),
        ("step", "1"),
        ("value", position.as_str()),
    ];
    m.empty("input", &slider).close("label");
    let seed = bench.seed.to_string();
    m.open("label", &[]).text(text::SEED.get(lang)).text(" ");
    let field = [
        ("type", "number"),
        ("min", "0"),
        ("data-testid", Control::Seed.name()),
        ("data-action", Control::Seed.name()),
        ("value", seed.as_str()),
    ];
    m.empty("input", &field).close("label").close("div");
    if bench.bad_seed {
        let attrs = [
            ("class", "problem"),
            ("role", "alert"),
            ("data-testid", "experiment-seed-problem"),
        ];
        m.element("p", &attrs, text::BAD_SEED.get(lang));
    }
    m.open("div", &[("class", "experiment-charts")]);
    match points {
        Ok(points) => {
            for metric in Metric::ALL {
                m.raw(&chart(metric, points, bench.dim, lang));
            }
        }
        Err(error) => {
            let message = crate::i18n::errors::attention_error(error, lang);
            m.element(
                "p",
                &[("class", "problem")],
                &format!("{}{message}", text::PROBLEM.get(lang)),
            );
        }
    }
    m.close("div");
    m.finish()
}

/// A collapsible card with a log-scale d_k slider, a seed, and four charts.
/// Its heading is the card's own; what it folds is markup, patched in place
/// and speaking the cards' protocol.
#[component]
pub fn ScalingExperiment() -> impl IntoView {
    let LangContext(lang) = expect_context::<LangContext>();
    let open = RwSignal::new(false);
    let bench = RwSignal::new(Bench::default());
    let seed = Memo::new(move |_| bench.with(|b| b.seed));
    let points = Memo::new(move |_| {
        if open.get() {
            scaling_experiment(&log_spaced_dims(MAX_DIM), KEYS, DRAWS, seed.get())
        } else {
            Ok(Vec::new())
        }
    });
    let markup = Memo::new(move |_| points.with(|points| panel(bench.get(), points, lang.get())));
    let act = Callback::new(move |heard: Heard| {
        if let Some(action) = ExperimentAction::read(&heard.reading()) {
            bench.update(|b| *b = action.apply(*b));
        }
    });

    view! {
        // `toggle` also fires when the panel is opened for the learner (a
        // walkthrough step, a common mistake's demonstration).
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
            <ActionCard class="experiment-panel" testid="experiment-panel" markup=markup on_action=act />
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
    fn the_slider_and_the_seed_are_read_and_a_bad_seed_is_refused_keeping_the_last() {
        let input = |control: Control, value| Reading::of(Kind::Input, control.name(), value);
        let change = |control: Control, value| Reading::of(Kind::Change, control.name(), value);
        let dim = ExperimentAction::read(&input(Control::Dim, "3"));
        assert_eq!(dim, Some(ExperimentAction::Dim(8)));
        let bench = dim.map(|a| a.apply(Bench::default())).unwrap_or_default();
        assert_eq!(bench.dim, 8);
        let seed = ExperimentAction::read(&change(Control::Seed, " 12 "));
        let bench = seed.map(|a| a.apply(bench)).unwrap_or_default();
        assert_eq!((bench.seed, bench.bad_seed, bench.dim), (12, false, 8));
        let bad = ExperimentAction::read(&change(Control::Seed, "-5"));
        let refused = bad.map(|a| a.apply(bench)).unwrap_or_default();
        assert_eq!((refused.seed, refused.bad_seed), (12, true));
        assert_eq!(ExperimentAction::read(&change(Control::Dim, "3")), None);
        assert_eq!(
            ExperimentAction::read(&Reading::of(Kind::Input, "seed", "3")),
            None
        );
    }

    #[test]
    fn the_panel_shows_its_controls_the_refusal_and_four_charts_in_each_language() {
        let points = scaling_experiment(&log_spaced_dims(MAX_DIM), KEYS, DRAWS, FIRST_SEED);
        for lang in [Lang::Zh, Lang::En] {
            let html = panel(Bench::default(), &points, lang);
            assert!(html.contains("data-testid=\"experiment-dk\" data-action=\"experiment-dk\" min=\"0\" max=\"9\" step=\"1\" value=\"6\""));
            assert!(html.contains(&format!("{} = 64", text::DIM.get(lang))));
            assert!(html.contains("value=\"7\""), "the first seed");
            assert!(!html.contains("experiment-seed-problem"));
            assert_eq!(
                html.matches("data-testid=\"experiment-readout\"").count(),
                4
            );
            let refused = Bench {
                bad_seed: true,
                ..Bench::default()
            };
            assert!(panel(refused, &points, lang).contains(text::BAD_SEED.get(lang)));
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
