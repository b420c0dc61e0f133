//! The DOM half of the protocol: the one delegated listener every card puts
//! on its root, which reads an event into a [`Heard`] (a [`Reading`] with the
//! elements it came from) for the card's callback.

use super::{kind_of, Kind, Reading};
use leptos::attr::Attribute;
use leptos::ev::{self, on};
use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;
use web_sys::{Element, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

/// An event on a card's control, read: what [`Reading`] holds, owned, and
/// the elements a card's shell may still need (to copy into, clear, upload
/// from).
pub struct Heard {
    pub event: Kind,
    pub action: String,
    pub index: usize,
    pub value: String,
    pub checked: bool,
    /// The element that names the action.
    pub control: Element,
    /// The element the value was read from: the one the control names with
    /// `data-field` (a test id inside the card), or else the control.
    pub field: Element,
    /// The card: the element the listener is on.
    pub host: Element,
}

impl Heard {
    /// What the card's pure `read` takes.
    pub fn reading(&self) -> Reading<'_> {
        Reading {
            event: self.event,
            action: &self.action,
            index: self.index,
            value: &self.value,
            checked: self.checked,
        }
    }
}

/// The element in a card with this `data-testid`.
pub fn part(host: &Element, testid: &str) -> Option<Element> {
    host.query_selector(&format!("[data-testid={testid}]"))
        .ok()
        .flatten()
}

/// Opens `element` if it is a fold (`details`), and every fold around it,
/// so that it shows and can take focus.
pub fn unfold(element: &Element) {
    let mut at = Some(element.clone());
    while let Some(fold) = at.and_then(|e| e.closest("details").ok().flatten()) {
        if let Some(details) = fold.dyn_ref::<web_sys::HtmlDetailsElement>() {
            details.set_open(true);
        }
        at = fold.parent_element();
    }
}

/// Opens a card that folds away, so that what it is about shows: the card
/// itself if it is a fold (the √d_k experiment), else its first fold (word
/// order, generation, training: their body under the heading).
pub fn open_card(card: &Element) {
    let fold = if card.tag_name() == "DETAILS" {
        Some(card.clone())
    } else {
        card.query_selector("details.fold").ok().flatten()
    };
    if let Some(fold) = fold {
        unfold(&fold);
    }
}

/// A field's value: an input's, a select's or a text area's, and nothing for
/// any other element.
fn value_of(field: &Element) -> String {
    if let Some(input) = field.dyn_ref::<HtmlInputElement>() {
        input.value()
    } else if let Some(select) = field.dyn_ref::<HtmlSelectElement>() {
        select.value()
    } else if let Some(area) = field.dyn_ref::<HtmlTextAreaElement>() {
        area.value()
    } else {
        String::new()
    }
}

/// Reads `event` on a card: the closest element with `data-action` inside
/// the card, and the kind of event it is for the card's actions.
fn hear(event: &web_sys::Event) -> Option<Heard> {
    let host = event.current_target()?.dyn_into::<Element>().ok()?;
    let target = event.target()?.dyn_into::<Element>().ok()?;
    let control = target.closest("[data-action]").ok()??;
    if !host.contains(Some(&control)) {
        return None;
    }
    let key = event
        .dyn_ref::<web_sys::KeyboardEvent>()
        .map(web_sys::KeyboardEvent::key)
        .unwrap_or_default();
    let kind = kind_of(&event.type_(), &key, &control.tag_name())?;
    // A key that activates a step dot or link must not scroll the page, and
    // a link that names an action is that action, not a navigation.
    if kind == Kind::Click && (!key.is_empty() || control.tag_name() == "A") {
        event.prevent_default();
    }
    let field = control
        .get_attribute("data-field")
        .and_then(|testid| part(&host, &testid))
        .unwrap_or_else(|| control.clone());
    Some(Heard {
        event: kind,
        action: control.get_attribute("data-action")?,
        index: control
            .get_attribute("data-index")
            .and_then(|i| i.parse().ok())
            .unwrap_or(0),
        value: value_of(&field),
        checked: field
            .dyn_ref::<HtmlInputElement>()
            .is_some_and(HtmlInputElement::checked),
        control,
        field,
        host,
    })
}

#[wasm_bindgen::prelude::wasm_bindgen(module = "/src/action/dom.js")]
extern "C" {
    #[wasm_bindgen(js_name = listenTo)]
    fn listen_to(element: &Element, types: &str, handler: &js_sys::Function);
}

/// Calls `handler` with every event of `types` (space-separated) on `node`'s
/// element, once it is made, for as long as the current owner lives: one
/// closure for a diagram's many events, where a Leptos `on:` for each would
/// cost its own copy of the listener code (2–5 KB of WebAssembly a diagram).
pub fn on_events<E>(
    node: NodeRef<E>,
    types: &'static str,
    handler: impl Fn(web_sys::Event) + 'static,
) where
    E: leptos::html::ElementType + 'static,
    E::Output: AsRef<Element> + JsCast + Clone + 'static,
{
    use leptos::wasm_bindgen::closure::Closure;
    // `Fn`, not `FnMut`: a handler may cause another of these events at
    // once (opening the cell editor moves focus out of the diagram), and only
    // a shared closure may be called again while it runs.
    let closure = Closure::<dyn Fn(web_sys::Event)>::new(handler);
    let function: js_sys::Function = closure.as_ref().unchecked_ref::<js_sys::Function>().clone();
    // Kept, so the function stays callable, until the owner is disposed of.
    StoredValue::new_local(closure);
    node.on_load(move |element| listen_to(element.as_ref(), types, &function));
}

/// The card's one listener, to spread onto its root element
/// (`<section {..listen(act)}>`): clicks, changes, input and key presses on
/// its controls reach `act` as [`Heard`]s. One function for every card, so
/// the listener's code is in the WebAssembly once.
pub fn listen(act: Callback<Heard>) -> impl Attribute {
    let run = move |event: &web_sys::Event| {
        if let Some(heard) = hear(event) {
            act.run(heard);
        }
    };
    // Keys that move within a composite (the token list) are its own, and
    // never the control's action.
    let key = move |event: web_sys::KeyboardEvent| {
        let target = event.target().and_then(|t| t.dyn_into::<Element>().ok());
        let key = super::plain_key(&event);
        if target
            .zip(key)
            .is_some_and(|(t, key)| super::rove(&t, &key))
        {
            event.prevent_default();
        } else {
            run(&event);
        }
    };
    (
        on(ev::click, move |e| run(&e)),
        on(ev::change, move |e| run(&e)),
        on(ev::input, move |e| run(&e)),
        on(ev::keydown, key),
    )
}
