//! The block card, with a transformer block: the layer shown (the four
//! diagrams follow it), the block's switches, and one token's residual
//! stream down that layer, vector by vector. Empty, and hidden, without a
//! block.
//!
//! Built as: markup, an `ActionCard` (ARCHITECTURE.md: Adding a card).

mod action;
mod markup;

use crate::action::Heard;
use crate::i18n::LangContext;
use crate::lab::LabError;
use crate::page::{drawn, refusal, while_drawn, ActionCard};
use crate::state::lab;
use action::{apply, BlockAction, BlockDesk};
use leptos::prelude::*;
use markup::block_card;

/// The seed of a block's first new weights; each press draws from the next.
const FIRST_SEED: u64 = 100;

/// The layer picker, the block's switches and the followed token's stream.
#[component]
pub fn BlockCard() -> impl IntoView {
    let lab = lab();
    let (scenario, block, focus) = (lab.scenario, lab.block, lab.focus);
    let LangContext(lang) = expect_context::<LangContext>();
    let node = NodeRef::new();
    let drawn = drawn(node);
    let shown = while_drawn(drawn, move || {
        let query = focus.query.get();
        block.with(|v| v.as_ref().map(|v| (v.clone(), query)))
    });
    let seed = RwSignal::new(FIRST_SEED);
    let notice = RwSignal::new(None::<LabError>);
    let has_block = Memo::new(move |_| block.with(Option::is_some));
    let markup = Memo::new(move |_| {
        if !has_block.get() {
            return String::new();
        }
        let lang = lang.get();
        let mut card = shown.with(|v| {
            block_card(
                v.as_ref().map(|(v, _)| v),
                v.as_ref().map_or(0, |(_, q)| *q),
                lang,
            )
        });
        notice.with(|notice| {
            if let Some(error) = notice {
                let mut m = crate::svg::Markup::new();
                refusal(&mut m, error, "block-refused", lang);
                card.push_str(&m.finish());
            }
        });
        card
    });
    let act = Callback::new(move |heard: Heard| {
        let Some(action) = BlockAction::read(&heard.reading()) else {
            return;
        };
        let mut desk = BlockDesk {
            scenario: scenario.get_untracked(),
            layer: focus.layer.get_untracked(),
            query: focus.query.get_untracked(),
            seed: seed.get_untracked(),
        };
        let done = apply(&mut desk, action);
        if done.is_ok() {
            if scenario.with_untracked(|s| *s != desk.scenario) {
                scenario.set(desk.scenario);
            }
            if desk.layer != focus.layer.get_untracked() {
                focus.layer.set(desk.layer);
            }
            if desk.query != focus.query.get_untracked() {
                focus.query.set(desk.query);
            }
            seed.set(desk.seed);
        }
        notice.set(done.err());
    });
    view! { <ActionCard node=node class="card block" testid="block" markup=markup on_action=act /> }
}
