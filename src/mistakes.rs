//! "Common mistakes": the lessons' warnings, each with a button that shows it
//! live in the app rather than only saying it.

use crate::diagrams::host::{CellEvent, SvgHost};
use crate::i18n::{mistakes as text, tr, Lang, LangContext, Msg};
use crate::state::LabScenario;
use crate::svg::Markup;
use crate::walkthrough::{Step, Tour};
use attention_core::Scenario;
use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;

/// One warning and where its demonstration is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mistake {
    /// Opens the √d_k experiment.
    SkipScaling,
    /// Draws new weights (the Random W button) and shows W_Q.
    FixedWeights,
    /// Points at the weights' row sums.
    IndependentWeights,
    /// Starts the walkthrough's learning step.
    NoBackprop,
}

impl Mistake {
    pub const ALL: [Mistake; 4] = [
        Mistake::SkipScaling,
        Mistake::FixedWeights,
        Mistake::IndependentWeights,
        Mistake::NoBackprop,
    ];

    fn text(self) -> (Msg, Msg) {
        match self {
            Mistake::SkipScaling => (text::SCALING_TITLE, text::SCALING_TEXT),
            Mistake::FixedWeights => (text::FIXED_TITLE, text::FIXED_TEXT),
            Mistake::IndependentWeights => (text::SUM_TITLE, text::SUM_TEXT),
            Mistake::NoBackprop => (text::BACKPROP_TITLE, text::BACKPROP_TEXT),
        }
    }

    /// The element its demonstration scrolls to.
    pub fn target(self) -> &'static str {
        match self {
            Mistake::SkipScaling => "[data-testid=experiment]",
            Mistake::FixedWeights => "[data-testid=w-q]",
            Mistake::IndependentWeights => "[data-testid=row-sums]",
            Mistake::NoBackprop => "[data-diagram=projection]",
        }
    }
}

/// The host cell of the button that undoes a demonstration.
const UNDO: (usize, usize) = (1, 0);

/// The list of warnings; each "show me" button is the host's cell (0, n).
/// While `undoable` (a demonstration replaced the learner's weights and
/// nothing has changed since), its item offers to put them back.
pub fn markup(lang: Lang, undoable: bool) -> String {
    let mut m = Markup::new();
    m.open("ul", &[("class", "mistakes")]);
    for (n, mistake) in Mistake::ALL.iter().enumerate() {
        let (title, body) = mistake.text();
        let hit = format!("0,{n}");
        m.open("li", &[]).element("strong", &[], title.get(lang));
        m.element("p", &[], body.get(lang));
        let button = [
            ("type", "button"),
            ("data-hit", &hit),
            ("data-testid", "mistake-demo"),
        ];
        m.element("button", &button, text::SHOW.get(lang));
        if undoable && *mistake == Mistake::FixedWeights {
            let undo = format!("{},{}", UNDO.0, UNDO.1);
            let button = [
                ("type", "button"),
                ("data-hit", &undo),
                ("data-testid", "mistake-undo"),
            ];
            m.element("button", &button, text::UNDO.get(lang));
        }
        m.close("li");
    }
    m.close("ul");
    m.finish()
}

/// Carries out a mistake's demonstration.
fn demonstrate(mistake: Mistake, tour: Tour) {
    if mistake == Mistake::NoBackprop {
        tour.step.set(Some(Step::Learning));
    }
    if mistake == Mistake::FixedWeights {
        // Pressing the controls' own button keeps its seed display in step.
        if let Ok(Some(button)) = document().query_selector("[data-testid=randomize]") {
            if let Some(button) = button.dyn_ref::<web_sys::HtmlElement>() {
                button.click();
            }
        }
    }
    let Ok(Some(target)) = document().query_selector(mistake.target()) else {
        return;
    };
    if let Some(details) = target.dyn_ref::<web_sys::HtmlDetailsElement>() {
        details.set_open(true);
    }
    target.scroll_into_view();
}

/// The card of common mistakes with their live demonstrations.
#[component]
pub fn CommonMistakes() -> impl IntoView {
    let LangContext(lang) = expect_context::<LangContext>();
    let LabScenario(scenario) = expect_context::<LabScenario>();
    let tour = expect_context::<Tour>();
    // The learner's scenario before a demonstration replaced it, and what the
    // demonstration made: Undo is offered only while that is still on screen,
    // so it never throws away work done after it.
    let replaced = RwSignal::new(None::<(Scenario, Scenario)>);
    let undoable = Memo::new(move |_| {
        replaced.with(|r| {
            r.as_ref()
                .is_some_and(|(_, made)| scenario.with(|s| s == made))
        })
    });
    let body = Memo::new(move |_| markup(lang.get(), undoable.get()));
    let on_cell = Callback::new(move |event: CellEvent| match event {
        CellEvent::Select(UNDO) => {
            if let Some((before, _)) = replaced.get_untracked() {
                scenario.set(before);
            }
            replaced.set(None);
        }
        CellEvent::Select((0, n)) => {
            if let Some(&mistake) = Mistake::ALL.get(n) {
                let before = scenario.get_untracked();
                demonstrate(mistake, tour);
                let made = scenario.get_untracked();
                if made != before {
                    replaced.set(Some((before, made)));
                }
            }
        }
        _ => {}
    });
    view! {
        <section class="card" data-testid="mistakes">
            <h2>{tr(text::TITLE)}</h2>
            <SvgHost markup=body on_cell=on_cell />
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mistake_has_its_text_and_a_demo_button_in_both_languages() {
        for lang in [Lang::Zh, Lang::En] {
            let html = markup(lang, false);
            assert!(!html.contains("mistake-undo"));
            assert_eq!(
                markup(lang, true)
                    .matches("data-testid=\"mistake-undo\"")
                    .count(),
                1
            );
            assert_eq!(
                html.matches("data-testid=\"mistake-demo\"").count(),
                Mistake::ALL.len()
            );
            for mistake in Mistake::ALL {
                let (title, body) = mistake.text();
                assert!(html.contains(&crate::svg::escape(title.get(lang))));
                assert!(html.contains(body.get(lang)));
            }
        }
    }
}
