//! The RoPE card, with rotary positions: for the selected query and key,
//! each pair of columns of q and k turned by its position, and the score of
//! the same two contents against their offset. Empty, and hidden, without
//! RoPE.
//!
//! Built as: markup, an `ActionCard` (ARCHITECTURE.md: Adding a card).

mod action;
mod markup;

use crate::action::Heard;
use crate::i18n::LangContext;
use crate::page::{drawn, while_drawn, ActionCard};
use crate::state::lab;
use action::{apply, turned_query, RopeAction};
use leptos::prelude::*;
use markup::{rope_card, RopeView};

/// Each pair of the selected q and k on a dial, and the score by offset.
#[component]
pub fn Rope() -> impl IntoView {
    let lab = lab();
    let view = lab.view;
    let LangContext(lang) = expect_context::<LangContext>();
    let focus = lab.focus;
    let node = NodeRef::new();
    let drawn = drawn(node);
    let shown = while_drawn(drawn, move || {
        let (query, key) = (focus.query.get(), focus.key.get());
        view.with(|v| v.as_ref().and_then(|v| RopeView::new(v, query, key)))
    });
    let rope_on =
        Memo::new(move |_| view.with(|v| v.as_ref().is_some_and(|v| v.unrotated.is_some())));
    let markup = Memo::new(move |_| {
        if rope_on.get() {
            shown.with(|v| rope_card(v.as_ref(), lang.get()))
        } else {
            String::new()
        }
    });
    // Turning RoPE on while the first cell is selected (both tokens at
    // position 0, where nothing turns) shows the third query instead, so the
    // dials open on a turn. A page that opens with RoPE keeps its link's pair.
    let tokens = move || view.with_untracked(|v| v.as_ref().map_or(0, |v| v.len()));
    Effect::new(move |was_on: Option<bool>| {
        let on = rope_on.get();
        let first_cell = focus.query.get_untracked() == 0 && focus.key.get_untracked() == 0;
        if was_on == Some(false) && on && first_cell {
            focus.query.set(turned_query(tokens()));
        }
        on
    });
    // The pickers choose the query and the key, as a score cell's click does.
    let act = Callback::new(move |heard: Heard| {
        let Some(action) = RopeAction::read(&heard.reading()) else {
            return;
        };
        let was = (focus.query.get_untracked(), focus.key.get_untracked());
        let (query, key) = apply(was, tokens(), action);
        if query != was.0 {
            focus.query.set(query);
        }
        if key != was.1 {
            focus.key.set(key);
        }
    });
    view! { <ActionCard node=node class="card rope" testid="rope" markup=markup on_action=act /> }
}
