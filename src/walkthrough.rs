//! The guided walkthrough: eight steps through the computation, each with its
//! text, its formula with the numbers on screen, its PyTorch lines, and its
//! diagram emphasised while the others are dimmed; or free explore, with
//! everything at once. The card's body is markup from [`markup`], speaking
//! the cards' protocol (`crate::action`): [`action`] reads and applies its
//! events. The step itself is shared state ([`Tour`]) because the app root
//! keys styles and arrow keys on it.
//!
//! Built as: markup, an `ActionCard` (ARCHITECTURE.md: Adding a card).

pub mod action;
mod formulas;
mod markup;
mod predict;
pub mod steps;

use crate::action::Heard;
use crate::cards::Card;
use crate::i18n::LangContext;
use crate::page::{shown_card, ActionCard};
use crate::state::lab;
pub use action::TourAction;
use action::{apply, Then, Walk};
use formulas::Selection;
use leptos::prelude::*;
use markup::TourView;
pub use steps::Step;

/// Where the learner is in the walkthrough.
#[derive(Clone, Copy)]
pub struct Tour {
    /// The current step, or `None` in free explore.
    pub step: RwSignal<Option<Step>>,
    /// The prediction made in the softmax step, until the query changes.
    pub guess: RwSignal<Option<usize>>,
    /// Whether the learner has finished the walkthrough at its last step.
    pub finished: RwSignal<bool>,
}

impl Tour {
    pub fn new() -> Self {
        Self {
            step: RwSignal::new(None),
            guess: RwSignal::new(None),
            finished: RwSignal::new(false),
        }
    }

    /// Whether the weights are hidden: the softmax step waits for the
    /// learner's guess before it shows them.
    pub fn hides_weights(&self) -> bool {
        self.step.get() == Some(Step::Softmax) && self.guess.with(Option::is_none)
    }

    /// Moves to `step`, starting the walkthrough if it was off. On a wide
    /// screen the card stays beside the diagrams, so the step's diagram is
    /// scrolled into view; on a narrow one that would scroll the step's text
    /// away, so the page stays put.
    pub fn go(self, step: Step) {
        self.step.set(Some(step));
        follow(step);
    }

    /// Carries out what the learner did (`action::apply` decides), from the
    /// card or from the keyboard.
    pub fn run(self, action: TourAction) {
        let before = Walk {
            step: self.step.get_untracked(),
            guess: self.guess.get_untracked(),
            finished: self.finished.get_untracked(),
        };
        let mut walk = before;
        let then = apply(&mut walk, action);
        if walk.step != before.step {
            self.step.set(walk.step);
        }
        if walk.guess != before.guess {
            self.guess.set(walk.guess);
        }
        if walk.finished != before.finished {
            self.finished.set(walk.finished);
        }
        match then {
            Then::Stay => {}
            Then::ShowDiagram(step) => show_diagram(step),
            Then::Went(step) => follow(step),
            Then::Bring(testid) => bring_control(testid),
        }
    }
}

/// Scrolls to `step`'s diagram where the card stays beside the diagrams; on
/// a narrow screen that would scroll the step's text away, so the page stays.
fn follow(step: Step) {
    let wide = window().inner_width().ok().and_then(|w| w.as_f64());
    if wide.is_some_and(|w| w >= SIDE_BY_SIDE_WIDTH) {
        show_diagram(step);
    }
}

impl Default for Tour {
    fn default() -> Self {
        Self::new()
    }
}

/// The narrowest window, in CSS pixels, where `walkthrough.css` puts the card
/// beside the diagrams; keep the two equal.
const SIDE_BY_SIDE_WIDTH: f64 = 1000.0;

/// Brings a control the step asks for into view and gives it the focus, so
/// the learner can use it at once; the experiment's panel opens.
fn bring_control(testid: &str) {
    use leptos::wasm_bindgen::JsCast;
    let selector = format!("[data-testid=\"{testid}\"]");
    let Ok(Some(control)) = document().query_selector(&selector) else {
        return;
    };
    crate::action::unfold(&control);
    let centred = web_sys::ScrollIntoViewOptions::new();
    centred.set_block(web_sys::ScrollLogicalPosition::Center);
    control.scroll_into_view_with_scroll_into_view_options(&centred);
    if let Some(control) = control.dyn_ref::<web_sys::HtmlElement>() {
        let _ = control.focus();
    }
}

/// Scrolls the card of `step` into view, unfolded, or, when it is not shown
/// (the heads, W_O and positions cards of the lessons' one head), the fusion
/// card, whose B is that layer's output.
fn show_diagram(step: Step) {
    if let Some(card) = shown_card(step.card()).or_else(|| shown_card(Card::Fusion)) {
        crate::action::open_card(&card);
        card.scroll_into_view();
    }
}

/// The walkthrough card: the general formula, a switch between the guided
/// walkthrough and free explore, Previous/Next, and the current step.
#[component]
pub fn Walkthrough() -> impl IntoView {
    let tour = expect_context::<Tour>();
    let lab = lab();
    let view = lab.view;
    let layer = lab.layer;
    let block = lab.block;
    let focus = lab.focus;
    let LangContext(lang) = expect_context::<LangContext>();

    // A link that opens on a step (`?step=`) shows that step's diagram, as
    // moving to it would, once the page is drawn.
    if let Some(step) = tour.step.get_untracked() {
        request_animation_frame(move || tour.go(step));
    }
    // New numbers or a new query make a new question.
    Effect::new(move |_| {
        focus.query.track();
        view.track();
        tour.guess.set(None);
    });
    let body = Memo::new(move |_| {
        let at = Selection {
            query: focus.query.get(),
            key: focus.key.get(),
        };
        view.with(|v| {
            layer.with(|l| {
                block.with(|b| {
                    markup::body(&TourView {
                        step: tour.step.get(),
                        lang: lang.get(),
                        trace: v.as_ref(),
                        layer: l.as_ref(),
                        block: b.as_ref(),
                        at,
                        guess: tour.guess.get(),
                    })
                })
            })
        })
    });
    let act = Callback::new(move |heard: Heard| {
        if let Some(action) = TourAction::read(&heard.reading()) {
            tour.run(action);
        }
    });

    view! { <ActionCard class="card walkthrough" testid="walkthrough" markup=body on_action=act /> }
}
