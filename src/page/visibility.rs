//! Which diagrams are on screen, followed in `visibility.js`, so the page
//! patches only what a learner can see; whether start-up has reached the
//! cards drawn after the first frame (the registry's `later`, `data-later`);
//! and which element of a card the page shows ([`shown_card`]).

use crate::cards::Card;
use leptos::prelude::*;

/// The element of `card` the page shows now, to scroll to: `None` while the
/// card is left out of the page (a link's `panels=`), hidden (the W_O and
/// positions cards without them) or empty (the heads card of one head, the
/// RoPE card without RoPE). Of two cards on one panel (positions and RoPE),
/// the one shown.
pub fn shown_card(card: Card) -> Option<web_sys::Element> {
    let selector = format!(
        "[data-card=\"{}\"]:not([data-unpicked]) > :not([hidden]):not(:empty)",
        card.panel()
    );
    document().query_selector(&selector).ok().flatten()
}

#[wasm_bindgen::prelude::wasm_bindgen(module = "/src/page/visibility.js")]
extern "C" {
    #[wasm_bindgen(js_name = watchSkipped)]
    fn watch_skipped(changed: &wasm_bindgen::closure::Closure<dyn FnMut()>, defer_later: bool);
    #[wasm_bindgen(js_name = isDrawn)]
    fn is_drawn(element: &web_sys::Element, anywhere: bool) -> bool;
    #[wasm_bindgen(js_name = drawAll)]
    fn draw_all(on: bool);
}

/// Which diagrams are off screen (followed one by one in `visibility.js` with an
/// `IntersectionObserver`), and whether start-up has reached the cards below
/// the four diagrams (`data-later`). A diagram is patched again when it
/// comes into view, so an input costs what is on screen, not everything the
/// page holds, nor everything in a card partly on screen.
#[derive(Clone, Copy)]
pub struct Skipped(Trigger);

/// Where a host is drawn (see [`Skipped::draws`]).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Drawn {
    /// While it is on screen: a diagram, or a card drawn as one (its
    /// element is the card).
    OnScreen,
    /// On screen or off it: a card's controls, which a keyboard can reach.
    Anywhere,
}

impl Skipped {
    /// Follows which diagrams are on screen. Until the observer first
    /// reports on one, it counts as on screen. With `defer_later`, the cards below
    /// the four diagrams are not drawn until the first frame has been.
    pub fn watch(defer_later: bool) -> Self {
        let changed = Trigger::new();
        let heard = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(move || changed.notify());
        watch_skipped(&heard, defer_later);
        // The listener lives as long as the page.
        heard.forget();
        Skipped(changed)
    }

    /// Whether the host `element` of the given kind is drawn, read
    /// reactively: never before start-up reaches its card, and then while
    /// it is on screen, or anywhere.
    pub fn draws(self, element: &web_sys::Element, drawn: Drawn) -> bool {
        self.0.track();
        is_drawn(element, drawn == Drawn::Anywhere)
    }

    /// Has every card drawn (`on`), as for an export that copies them all,
    /// or only those on screen.
    pub fn draw_all(self, on: bool) {
        draw_all(on);
        self.0.notify();
    }
}
