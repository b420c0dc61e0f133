//! The one way markup reaches the page: [`keep_patched`] hands a host's new
//! markup to `morph.js`, which changes only what differs, and waits while
//! the host is not [`drawn`] (`super::visibility`).

use super::visibility::{Drawn, Skipped};
use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;
use web_sys::Element;

#[wasm_bindgen::prelude::wasm_bindgen(module = "/src/page/morph.js")]
extern "C" {
    /// Patches `host`'s content to match `markup`, changing only what differs.
    fn morph(host: &Element, markup: &str);
}

#[wasm_bindgen::prelude::wasm_bindgen(module = "/src/page/paint.js")]
extern "C" {
    /// Repaints the heatmap cells in `host` from `matrix::markup::paint` lines.
    pub(super) fn paint(host: &Element, encoded: &str);
    /// Repaints the bars in `host` from `softmax::bars::markup::bar_paint` lines.
    #[wasm_bindgen(js_name = paintBars)]
    pub(super) fn paint_bars(host: &Element, encoded: &str);
}

#[wasm_bindgen::prelude::wasm_bindgen(module = "/src/page/highlight.js")]
extern "C" {
    /// Highlights the heatmap cells of these rows and columns in `host`.
    pub(super) fn light(host: &Element, rows: &[u32], cols: &[u32]);
    /// Marks the control named `action` (`data-action`) with this
    /// `data-index` in `host` as chosen.
    pub(super) fn choose(host: &Element, action: &str, index: u32);
}

/// Rows and columns of a heatmap to highlight (see `highlight.js` `light`).
pub type Lit = (Vec<usize>, Vec<usize>);

/// Whether `node` is drawn (`super::visibility::Skipped`): on screen, once start-up
/// reaches its card. Each diagram is watched on its own, so the ones out of
/// sight in a card partly on screen wait too. Effects that patch a diagram
/// wait while it is not drawn, without reading what they would draw, so
/// nothing off screen is computed either; they catch up as it comes near.
pub fn drawn<E>(node: NodeRef<E>) -> Memo<bool>
where
    E: leptos::html::ElementType,
    E::Output: AsRef<Element> + JsCast + Clone + Send + Sync + 'static,
{
    drawn_as(element_of(node), Drawn::OnScreen)
}

/// What a card shows, computed by `compute` only while the card is `drawn`:
/// off screen it keeps its last value, unread, and wakes no reader. The memo
/// owns that value instead of cloning it and counts every new one as changed,
/// so a view needs neither `Clone` nor `PartialEq`, whose code the bundle
/// would carry for every view's type.
pub fn while_drawn<T: Send + Sync + 'static>(
    drawn: Memo<bool>,
    compute: impl Fn() -> Option<T> + Send + Sync + 'static,
) -> Memo<Option<T>> {
    Memo::new_owning(move |previous: Option<Option<T>>| {
        if drawn.get() {
            (compute(), true)
        } else {
            (previous.flatten(), false)
        }
    })
}

/// `node`'s element, once it is made.
pub(super) fn element_of<E>(node: NodeRef<E>) -> Box<dyn Fn() -> Option<Element> + Send + Sync>
where
    E: leptos::html::ElementType,
    E::Output: AsRef<Element> + JsCast + Clone + Send + Sync + 'static,
{
    Box::new(move || {
        node.get()
            .map(|host| AsRef::<Element>::as_ref(&host).clone())
    })
}

/// Whether `host` is drawn, for any kind of element and either [`Drawn`]:
/// one copy of the memo in the bundle.
pub(super) fn drawn_as(
    host: Box<dyn Fn() -> Option<Element> + Send + Sync>,
    drawn: Drawn,
) -> Memo<bool> {
    let skipped = use_context::<Skipped>();
    Memo::new(move |_| match (skipped, host()) {
        (Some(skipped), Some(host)) => skipped.draws(&host, drawn),
        _ => true,
    })
}

/// Keeps `node`'s content patched to `markup` (see `morph.js`) for as long as
/// the component lives: the one way markup reaches the page. With `drawn`, it
/// waits while that is false: a diagram off screen (see [`drawn`]), or a card
/// made for later at start-up. A card's controls are drawn on screen or off
/// it: a keyboard can reach them, and must find them current.
pub fn keep_patched<E>(node: NodeRef<E>, markup: Signal<String>, drawn: Option<Memo<bool>>)
where
    E: leptos::html::ElementType,
    E::Output: AsRef<Element> + JsCast + Clone + Send + Sync + 'static,
{
    Effect::new(move |_| {
        if drawn.is_some_and(|d| !d.get()) {
            return;
        }
        let html = markup.get();
        if let Some(host) = node.get() {
            morph(host.as_ref(), &html);
        }
    });
}
