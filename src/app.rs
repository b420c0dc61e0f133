//! The app shell: shared state, language, and the page layout.

use crate::diagrams::weights_heatmap::WeightsHeatmap;
use crate::i18n::{self, tr, Lang, LangContext};
use attention_core::{presets, AttentionError, Scenario, Trace};
use leptos::prelude::*;

/// The scenario the learner is working on; every diagram derives from it.
#[derive(Clone, Copy)]
pub struct LabScenario(pub RwSignal<Scenario>);

/// The trace of [`LabScenario`], computed once per change and read by every diagram.
#[derive(Clone, Copy)]
pub struct LabTrace(pub Memo<Result<Trace, AttentionError>>);

/// Position labels: the scenario's tokens, or 1…T when it has none.
pub fn token_labels(scenario: &Scenario) -> Vec<String> {
    scenario
        .tokens
        .clone()
        .unwrap_or_else(|| (1..=scenario.x.dim().1).map(|i| i.to_string()).collect())
}

fn browser_lang() -> Lang {
    let tag = window().navigator().language().unwrap_or_default();
    Lang::from_browser_tag(&tag)
}

/// The whole app: header, the diagrams, and a footer.
#[component]
pub fn App() -> impl IntoView {
    let lang = RwSignal::new(browser_lang());
    provide_context(LangContext(lang));
    let scenario = RwSignal::new(presets::sentence());
    provide_context(LabScenario(scenario));
    let trace = Memo::new(move |_| scenario.with(Scenario::run));
    provide_context(LabTrace(trace));

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
    let problem = move || trace.with(|t| t.as_ref().err().map(ToString::to_string));

    view! {
        <div class="app" data-testid="app" data-query="0">
            <header class="app-header">
                <div>
                    <h1>{tr(i18n::TITLE)}</h1>
                    <p class="tagline">{tr(i18n::TAGLINE)}</p>
                </div>
                <button
                    class="lang-switch"
                    data-testid="lang-switch"
                    aria-label=tr(i18n::SWITCH_LANGUAGE_LABEL)
                    on:click=switch_language
                >
                    {tr(i18n::SWITCH_LANGUAGE)}
                </button>
            </header>
            <main>
                {move || {
                    problem()
                        .map(|message| {
                            view! {
                                <p class="problem" role="alert" data-testid="problem">
                                    {tr(i18n::INPUT_PROBLEM)}
                                    ": "
                                    {message}
                                </p>
                            }
                        })
                }}
                <section class="card">
                    <h2>{tr(i18n::WEIGHTS_TITLE)}</h2>
                    <p class="explain">{tr(i18n::WEIGHTS_EXPLAINED)}</p>
                    <div class="scroll">
                        <WeightsHeatmap sequence=0 />
                    </div>
                </section>
            </main>
        </div>
    }
}
