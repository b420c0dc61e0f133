//! The word-order card: the permutation lesson. The learner's tokens run
//! again in a shuffled order, and each token's output is set beside the one
//! it had: without positions they are equal to the last digit, only in
//! other rows; with positions they change.
//!
//! Built as: markup, an `ActionCard` (ARCHITECTURE.md: Adding a card).

mod action;
mod markup;

pub use markup::positions_choice;

use crate::action::Heard;
use crate::i18n::LangContext;
use crate::lab::order::{compare, shuffled_order};
use crate::lab::LabError;
use crate::page::{drawn, while_drawn, ActionCard};
use crate::state::lab;
use action::{apply, OrderAction};
use leptos::prelude::*;
use markup::OrderView;

/// The Shuffle button, both orders, and each token's output in both.
#[component]
pub fn WordOrder() -> impl IntoView {
    let lab = lab();
    let scenario = lab.scenario;
    let trace = lab.trace;
    let LangContext(lang) = expect_context::<LangContext>();
    let shuffle = lab.shuffle;
    let focus = lab.focus;
    let node = NodeRef::new();
    let drawn = drawn(node);
    // The shuffled sentence's forward pass, so only while the card is on screen: off it,
    // the comparison waits, unread, as it was.
    let comparison = while_drawn(drawn, move || {
        let sequence = focus.sequence.get();
        let seed = shuffle.get();
        trace.with(|layer| {
            let output = layer.as_ref().ok()?.output.view();
            scenario.with(|s| compare(s, output, sequence, &shuffled_order(s.x.dim().1, seed)))
        })
    });
    let notice = RwSignal::new(None::<LabError>);
    // Only the options, so that new numbers elsewhere write nothing here
    // while the comparison waits off screen.
    let options = Memo::new(move |_| scenario.with(|s| (s.options.positions, s.options.causal)));
    let markup = Memo::new(move |_| {
        let (positions, causal) = options.get();
        notice.with(|notice| {
            let view = OrderView {
                positions,
                causal,
                notice: notice.as_ref(),
            };
            comparison.with(|c| markup::order_card(c.as_ref(), &view, lang.get()))
        })
    });
    let act = Callback::new(move |heard: Heard| {
        let Some(action) = OrderAction::read(&heard.reading()) else {
            return;
        };
        let mut next = scenario.get_untracked();
        let mut seed = shuffle.get_untracked();
        let done = apply(&mut next, &mut seed, action);
        if done.is_ok() {
            if scenario.with_untracked(|s| *s != next) {
                scenario.set(next);
            }
            if seed != shuffle.get_untracked() {
                shuffle.set(seed);
            }
        }
        notice.set(done.err());
    });
    view! {
        <ActionCard
            node=node
            class="card word-order"
            testid="word-order"
            markup=markup
            on_action=act
        />
    }
}
