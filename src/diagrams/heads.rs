//! The heads card: with several heads, a button per head and every head's
//! weights side by side as small maps; picking one shows that head in the
//! four diagrams. A single head, the lessons' layer, has no card.
//!
//! Built as: markup, an `ActionCard` (ARCHITECTURE.md: Adding a card).

mod action;
mod markup;

use crate::action::Heard;
use crate::diagrams::matrix::raster::draw_pixels;
use crate::diagrams::matrix::view_part;
use crate::geometry::thumbnail::MapLayout;
use crate::i18n::{heads as text, LangContext};
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
    let labels = view_part(lab.view, |t| &t.labels);
    // Where a map's cells sit, and what its rows and columns are called
    // (tokens, or pooled positions).
    let layout = Memo::new(move |_| {
        let tokens = layer.with(|l| {
            let first = l.as_ref().and_then(|l| l.weights.first());
            first.map_or(0, |w| w.nrows())
        });
        markup::layout(tokens)
    });
    let names = Memo::new(move |_| labels.with(|l| markup::cell_names(l, layout.get().thumbnail)));
    // The same for any weights of the same shape: new weights patch nothing.
    let markup = Memo::new(move |_| {
        layer.with(|l| labels.with(|names| markup::heads(l.as_ref(), names, lang.get())))
    });
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
                    let aria = names.with(|n| markup::map_aria(n, i, cells, lang.get()));
                    let _ = svg.set_attribute("aria-label", &aria);
                }
            }
        });
    });
    // Pointing at (or tapping) a map's cell says its query, key and weight
    // under the maps; leaving the card brings the hint back.
    crate::action::on_events(node, "pointermove pointerdown pointerleave", move |e| {
        let Some(readout) = node
            .get_untracked()
            .and_then(|card| card.query_selector(".head-readout").ok().flatten())
        else {
            return;
        };
        if e.type_() == "pointerleave" {
            readout.set_text_content(Some(text::READOUT_HINT.get(lang.get_untracked())));
            return;
        }
        let Some(reading) = reading_at(
            &e,
            layout.get_untracked(),
            maps,
            names,
            lang.get_untracked(),
        ) else {
            return;
        };
        readout.set_text_content(Some(&reading));
    });
    card
}

/// What the cell under the pointer of `e` says, if it is over a map's cell.
fn reading_at(
    e: &web_sys::Event,
    layout: MapLayout,
    maps: Memo<Vec<ndarray::Array2<f64>>>,
    names: Memo<Vec<String>>,
    lang: crate::i18n::Lang,
) -> Option<String> {
    use leptos::wasm_bindgen::JsCast;
    let pointer = e.dyn_ref::<web_sys::PointerEvent>()?;
    let target = e.target()?.dyn_into::<web_sys::Element>().ok()?;
    let svg = target.closest("svg.head-weights").ok()??;
    let head: usize = svg.get_attribute("data-head")?.parse().ok()?;
    // The SVG is drawn at its own size; the ratio keeps a zoomed page right.
    let bounds = svg.get_bounding_client_rect();
    let (width, height) = layout.size();
    let x = (f64::from(pointer.client_x()) - bounds.left()) * width / bounds.width().max(1.0);
    let y = (f64::from(pointer.client_y()) - bounds.top()) * height / bounds.height().max(1.0);
    let cell = layout.cell_at(x, y)?;
    let weight = maps.with_untracked(|m| m.get(head).and_then(|w| w.get(cell).copied()))?;
    Some(names.with_untracked(|n| markup::cell_reading(n, head, cell, weight, lang)))
}
