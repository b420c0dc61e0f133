//! The heads card: with several heads, a button per head and every head's
//! weights side by side as small maps; picking one shows that head in the
//! four diagrams. A single head, the lessons' layer, has no card.
//!
//! Built as: markup, an `ActionCard` (ARCHITECTURE.md: Adding a card).

mod action;
mod markup;

use crate::action::Heard;
use crate::diagrams::matrix::raster::draw_pixels;
use crate::i18n::LangContext;
use crate::page::{drawn, ActionCard};
use crate::state::lab;
use action::{apply, HeadsAction};
use leptos::prelude::*;

/// Which head the four diagrams show, said in their titles when there are
/// several (" · head 2 of 4"); nothing for one head.
#[component]
pub fn ShownHead() -> impl IntoView {
    let lab = lab();
    let LangContext(lang) = expect_context::<LangContext>();
    let said = move || {
        lab.shown_head
            .get()
            .map(|head| format!(" · {}", crate::i18n::heads::head_of(head, lang.get())))
    };
    view! { <span class="shown-head" data-testid="shown-head">{said}</span> }
}

/// Every head's weights, and the picker of the head the diagrams show.
#[component]
pub fn Heads() -> impl IntoView {
    let lab = lab();
    let layer = lab.layer;
    let LangContext(lang) = expect_context::<LangContext>();
    let focus = lab.focus;
    let maps = Memo::new(move |_| layer.with(|l| markup::maps(l.as_ref())));
    // The same for any weights of the same shape: new weights patch nothing.
    let markup = Memo::new(move |_| layer.with(|l| markup::heads(l.as_ref(), lang.get())));
    let act = Callback::new(move |heard: Heard| {
        let Some(action) = HeadsAction::read(&heard.reading()) else {
            return;
        };
        let heads = layer.with_untracked(|l| l.as_ref().map_or(1, |l| l.heads()));
        let head = apply(heads, action);
        if head != focus.head.get_untracked() {
            focus.head.set(head);
        }
    });
    let node = NodeRef::new();
    let card = view! {
        <ActionCard
            node=node
            class="card heads"
            testid="heads-view"
            markup=markup
            on_action=act
            chosen=focus.head
        />
    };
    // The maps of a card off screen wait, unread, for it to come into view:
    // with four heads at T = 16 their 1,024 values cost more than the rest
    // of an input on screen.
    let drawn = drawn(node);
    // After the card's own patch (an effect made first runs first), which
    // may have made the maps anew: each map's colours, a pixel a cell, and
    // its values.
    Effect::new(move |_| {
        markup.track();
        if !drawn.get() {
            return;
        }
        maps.with(|maps| {
            for (i, cells) in maps.iter().enumerate() {
                let find = |what: &str| {
                    let selector = format!("{what}[data-head=\"{i}\"]");
                    document().query_selector(&selector).ok().flatten()
                };
                let side = cells.nrows();
                if let Some(canvas) = find("canvas.head-pixels") {
                    draw_pixels(&canvas, &markup::pixels(cells), side as u32, side as u32);
                }
                if let Some(svg) = find("svg.head-weights") {
                    let _ = svg.set_attribute("data-values", &markup::values(cells));
                }
            }
        });
    });
    card
}
