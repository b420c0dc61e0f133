//! "Common mistakes": the lessons' warnings, each with a button that shows it
//! live in the app rather than only saying it. Markup speaking the cards'
//! protocol (`crate::action`).

use crate::action::{Heard, Reading};
use crate::diagrams::host::ActionCard;
use crate::i18n::{mistakes as text, Lang, LangContext, Msg};
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

/// One thing the learner did on the card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MistakeAction {
    /// Show this mistake live.
    Demo(Mistake),
    /// Put back the weights the last demonstration replaced.
    Undo,
}

impl MistakeAction {
    /// The action an event means, or `None` for any other event and for a
    /// mistake that does not exist.
    pub fn read(r: &Reading) -> Option<Self> {
        Some(match (r.event, r.action) {
            ("click", "mistake-demo") => Self::Demo(*Mistake::ALL.get(r.index)?),
            ("click", "mistake-undo") => Self::Undo,
            _ => return None,
        })
    }
}

/// The card's title and its list of warnings, each with its "show me" button (its index in
/// [`Mistake::ALL`]). While `undoable` (a demonstration replaced the
/// learner's weights and nothing has changed since), its item offers to put
/// them back.
pub fn markup(lang: Lang, undoable: bool) -> String {
    let mut m = Markup::new();
    m.element("h2", &[], text::TITLE.get(lang));
    m.open("ul", &[("class", "mistakes")]);
    for (n, mistake) in Mistake::ALL.iter().enumerate() {
        let (title, body) = mistake.text();
        let index = n.to_string();
        m.open("li", &[]).element("strong", &[], title.get(lang));
        m.element("p", &[], body.get(lang));
        let button = [
            ("type", "button"),
            ("data-action", "mistake-demo"),
            ("data-index", &index),
            ("data-testid", "mistake-demo"),
        ];
        m.element("button", &button, text::SHOW.get(lang));
        if undoable && *mistake == Mistake::FixedWeights {
            let button = [
                ("type", "button"),
                ("data-action", "mistake-undo"),
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
    let act = Callback::new(
        move |heard: Heard| match MistakeAction::read(&heard.reading()) {
            Some(MistakeAction::Undo) => {
                if let Some((before, _)) = replaced.get_untracked() {
                    scenario.set(before);
                }
                replaced.set(None);
            }
            Some(MistakeAction::Demo(mistake)) => {
                let before = scenario.get_untracked();
                demonstrate(mistake, tour);
                let made = scenario.get_untracked();
                if made != before {
                    replaced.set(Some((before, made)));
                }
            }
            None => {}
        },
    );
    view! { <ActionCard class="card" testid="mistakes" later=true markup=body on_action=act /> }
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
            for (n, mistake) in Mistake::ALL.iter().enumerate() {
                let (title, body) = mistake.text();
                let click = Reading::click("mistake-demo", n);
                assert_eq!(
                    MistakeAction::read(&click),
                    Some(MistakeAction::Demo(*mistake))
                );
                assert!(html.contains(&format!("data-action=\"mistake-demo\" data-index=\"{n}\"")));
                assert!(html.contains(&crate::svg::escape(title.get(lang))));
                assert!(html.contains(body.get(lang)));
            }
        }
    }

    #[test]
    fn undo_reads_back_and_garbage_is_no_action() {
        let undo = Reading::click("mistake-undo", 0);
        assert_eq!(MistakeAction::read(&undo), Some(MistakeAction::Undo));
        let past_the_end = Reading::click("mistake-demo", Mistake::ALL.len());
        assert_eq!(MistakeAction::read(&past_the_end), None);
        let changed = Reading {
            event: "change",
            ..Reading::click("mistake-demo", 0)
        };
        assert_eq!(MistakeAction::read(&changed), None);
        assert_eq!(MistakeAction::read(&Reading::click("undo", 0)), None);
    }
}
