//! The generation card: causal decoding one token at a time with a KV
//! cache, step by step, on the learner's own scenario.
//!
//! Built as: markup, an `ActionCard` (ARCHITECTURE.md: Adding a card).

mod action;
mod markup;
mod view;

use crate::action::Heard;
use crate::i18n::LangContext;
use crate::page::{drawn, while_drawn, ActionCard};
use crate::state::lab;
use action::{apply, GenerationAction};
use leptos::prelude::*;
use markup::generation_card;
use view::GenerationView;

/// The step, the caches, the new query's weights and output, and the work.
#[component]
pub fn GenerationCard() -> impl IntoView {
    let lab = lab();
    let scenario = lab.scenario;
    let LangContext(lang) = expect_context::<LangContext>();
    let focus = lab.focus;
    // Step t adds token t as the new query: the step is the selected query,
    // so the walkthrough, the diagrams and this card show the same one.
    let t = focus.query;
    let node = NodeRef::new();
    let drawn = drawn(node);
    // Decoding runs only while the card is on screen; off it, the view
    // waits, unread, as it was.
    let view = while_drawn(drawn, move || {
        let (sequence, head, step) = (focus.sequence.get(), focus.head.get(), t.get());
        scenario.with(|s| GenerationView::new(s, sequence, head, step))
    });
    let markup = Memo::new(move |_| view.with(|v| generation_card(v.as_ref(), lang.get())));
    let act = Callback::new(move |heard: Heard| {
        if let Some(action) = GenerationAction::read(&heard.reading()) {
            let steps = scenario.with_untracked(|s| s.x.dim().1);
            let next = apply(t.get_untracked(), steps, action);
            if next != t.get_untracked() {
                t.set(next);
            }
        }
    });
    view! {
        <ActionCard
            node=node
            class="card generation"
            testid="generation"
            markup=markup
            on_action=act
        />
    }
}
