//! The RoPE card, with rotary positions: for the selected query and key,
//! each pair of columns of q and k turned by its position, and the score of
//! the same two contents against their offset. Empty, and hidden, without
//! RoPE.
//!
//! Built as: markup, an `ActionCard` (ARCHITECTURE.md: Adding a card).

mod markup;

use crate::action::Heard;
use crate::i18n::LangContext;
use crate::page::{drawn, while_drawn, ActionCard};
use crate::state::lab;
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
    let markup = Memo::new(move |_| {
        let rope = view.with(|v| v.as_ref().is_some_and(|v| v.unrotated.is_some()));
        if rope {
            shown.with(|v| rope_card(v.as_ref(), lang.get()))
        } else {
            String::new()
        }
    });
    // The card's dials and chart take no input: the query and key are
    // picked in the other diagrams.
    let act = Callback::new(|_: Heard| {});
    view! { <ActionCard node=node class="card rope" testid="rope" markup=markup on_action=act /> }
}
