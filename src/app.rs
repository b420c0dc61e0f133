//! The app shell: shared state, language, keyboard selection, and the page layout.

use crate::controls::Controls;
use crate::diagrams::dot_products::DotProducts;
use crate::diagrams::fusion::Fusion;
use crate::diagrams::projection::Projection;
use crate::diagrams::softmax::Softmax;
use crate::experiment::ScalingExperiment;
use crate::i18n::{self, tr, Lang, LangContext};
use crate::lab::{self, token_labels, LabError, SequenceTrace};
use crate::mistakes::CommonMistakes;
use crate::walkthrough::{diagram_of, step_after_key, Step, Tour, Walkthrough};
use attention_core::{presets, AttentionError, Scenario, Trace};
use leptos::prelude::*;

/// The scenario the learner is working on; every diagram derives from it.
#[derive(Clone, Copy)]
pub struct LabScenario(pub RwSignal<Scenario>);

/// The trace of [`LabScenario`], computed once per change.
#[derive(Clone, Copy)]
pub struct LabTrace(pub Memo<Result<Trace, AttentionError>>);

/// The shown sequence of the trace as plain matrices, read by every diagram;
/// `None` while the scenario cannot be computed.
#[derive(Clone, Copy)]
pub struct LabView(pub Memo<Option<SequenceTrace>>);

/// What the learner has selected; all four diagrams follow it.
#[derive(Clone, Copy)]
pub struct Focus {
    /// The selected query token i.
    pub query: RwSignal<usize>,
    /// The selected key token j (the column of the selected score).
    pub key: RwSignal<usize>,
    /// Which sequence of a batch is shown.
    pub sequence: RwSignal<usize>,
}

/// Why the page's link could not be used, if it could not; shown by the controls.
#[derive(Clone)]
pub struct LinkProblem(pub Option<LabError>);

/// Whether matrices are shown as HTML tables instead of SVG heatmaps.
#[derive(Clone, Copy)]
pub struct ShowTables(pub RwSignal<bool>);

/// The starting scenario: the lesson's sentence, or the tokens a link names
/// (`?tokens=a,b,c`). A link that cannot be used leaves the sentence and says why.
fn initial_scenario() -> (Scenario, Option<LabError>) {
    let sentence = presets::sentence();
    match link_parameter("tokens") {
        None => (sentence, None),
        Some(list) => {
            let labels: Vec<String> = list.split(',').map(str::to_owned).collect();
            match lab::with_tokens(&sentence, &labels, LINK_TOKEN_SEED) {
                Ok(scenario) => (scenario, None),
                Err(error) => (sentence, Some(error)),
            }
        }
    }
}

/// Seed for the vectors of tokens a link adds: fixed, so a link always shows the same numbers.
const LINK_TOKEN_SEED: u64 = 2024;

/// The page's `?name=` parameter, if it has one.
fn link_parameter(name: &str) -> Option<String> {
    let search = window().location().search().unwrap_or_default();
    web_sys::UrlSearchParams::new_with_str(&search)
        .ok()?
        .get(name)
}

/// The language a link asks for (`?lang=zh|en`), or else the browser's.
fn initial_lang() -> Lang {
    link_parameter("lang")
        .and_then(|tag| Lang::from_link(&tag))
        .unwrap_or_else(|| {
            let tag = window().navigator().language().unwrap_or_default();
            Lang::from_browser_tag(&tag)
        })
}

/// The next query for an arrow key, or None for any other key.
pub fn query_after_key(key: &str, query: usize, tokens: usize) -> Option<usize> {
    let last = tokens.saturating_sub(1);
    match key {
        "ArrowDown" | "ArrowRight" => Some((query + 1).min(last)),
        "ArrowUp" | "ArrowLeft" => Some(query.saturating_sub(1)),
        "Home" => Some(0),
        "End" => Some(last),
        _ => None,
    }
}

/// Whether a key press belongs to a text field or slider rather than to the diagrams.
fn typing_into_a_control(event: &web_sys::KeyboardEvent) -> bool {
    use leptos::wasm_bindgen::JsCast;
    event
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|e| matches!(e.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"))
}

/// The whole app: header, walkthrough, controls, the four diagrams.
#[component]
pub fn App() -> impl IntoView {
    let lang = RwSignal::new(initial_lang());
    provide_context(LangContext(lang));
    let (start, link_problem) = initial_scenario();
    let scenario = RwSignal::new(start);
    provide_context(LabScenario(scenario));
    provide_context(LinkProblem(link_problem));
    let trace = Memo::new(move |_| scenario.with(Scenario::run));
    provide_context(LabTrace(trace));
    let focus = Focus {
        query: RwSignal::new(0),
        key: RwSignal::new(0),
        sequence: RwSignal::new(0),
    };
    provide_context(focus);
    let view = Memo::new(move |_| {
        let labels = scenario.with(token_labels);
        trace.with(|t| {
            t.as_ref()
                .ok()
                .map(|t| SequenceTrace::new(t, focus.sequence.get(), labels))
        })
    });
    provide_context(LabView(view));
    let tables = RwSignal::new(false);
    provide_context(ShowTables(tables));
    let tour = Tour::new();
    provide_context(tour);

    // Keep the selection inside the sequence when tokens are removed.
    Effect::new(move |_| {
        let t = scenario.with(|s| s.x.dim().1);
        if focus.query.get_untracked() >= t {
            focus.query.set(t - 1);
        }
        if focus.key.get_untracked() >= t {
            focus.key.set(t - 1);
        }
    });
    Effect::new(move |_| {
        if let Some(root) = document().document_element() {
            let _ = root.set_attribute("lang", lang.get().tag());
        }
    });
    let switch_language = move |_| {
        lang.update(|l| {
            *l = match l {
                Lang::Zh => Lang::En,
                Lang::En => Lang::Zh,
            }
        })
    };
    let on_keydown = move |event: web_sys::KeyboardEvent| {
        if typing_into_a_control(&event) {
            return;
        }
        if let Some(step) = tour.step.get_untracked() {
            if let Some(next) = step_after_key(&event.key(), step) {
                event.prevent_default();
                tour.go(next);
                return;
            }
        }
        let t = scenario.with(|s| s.x.dim().1);
        if let Some(next) = query_after_key(&event.key(), focus.query.get_untracked(), t) {
            event.prevent_default();
            focus.query.set(next);
        }
    };
    let problem = move || trace.with(|t| t.as_ref().err().map(ToString::to_string));

    view! {
        <div
            class="app"
            data-testid="app"
            data-query=move || focus.query.get()
            data-step=move || tour.step.get().map(Step::id)
            data-focus=move || tour.step.get().map(diagram_of)
            data-guessed=move || tour.guess.with(Option::is_some).then_some("true")
            tabindex="-1"
            on:keydown=on_keydown
        >
            <header class="app-header">
                <div>
                    <h1>{tr(i18n::TITLE)}</h1>
                    <p class="tagline">{tr(i18n::TAGLINE)}</p>
                </div>
                <div class="header-actions">
                    <label class="switch">
                        <input
                            type="checkbox"
                            data-testid="show-tables"
                            prop:checked=move || tables.get()
                            on:change=move |e| tables.set(event_target_checked(&e))
                        />
                        {tr(i18n::SHOW_AS_TABLES)}
                    </label>
                    <button
                        class="lang-switch"
                        data-testid="lang-switch"
                        aria-label=tr(i18n::SWITCH_LANGUAGE_LABEL)
                        on:click=switch_language
                    >
                        {tr(i18n::SWITCH_LANGUAGE)}
                    </button>
                </div>
            </header>
            <main>
                // Hidden rather than removed when the scenario runs: a paragraph
                // that comes and goes would cost far more WebAssembly.
                <p class="problem" role="alert" data-testid="problem" hidden=move || problem().is_none()>
                    {tr(i18n::INPUT_PROBLEM)}
                    ": "
                    {move || problem().unwrap_or_default()}
                </p>
                <Walkthrough />
                <Controls />
                <Projection />
                <DotProducts />
                <Softmax />
                <Fusion />
                <ScalingExperiment />
                <CommonMistakes />
            </main>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::query_after_key;

    #[test]
    fn arrow_keys_move_the_query_within_the_tokens() {
        assert_eq!(query_after_key("ArrowDown", 0, 4), Some(1));
        assert_eq!(query_after_key("ArrowRight", 3, 4), Some(3));
        assert_eq!(query_after_key("ArrowUp", 0, 4), Some(0));
        assert_eq!(query_after_key("ArrowLeft", 2, 4), Some(1));
        assert_eq!(query_after_key("End", 0, 4), Some(3));
        assert_eq!(query_after_key("Home", 3, 4), Some(0));
        assert_eq!(query_after_key("a", 1, 4), None);
    }
}
