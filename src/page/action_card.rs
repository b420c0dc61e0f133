//! A card written as markup: patched in place like a diagram, its controls
//! reaching the card through the cards' one listener (`crate::action`).

use super::patch::{choose, drawn_as, element_of, keep_patched};
use super::visibility::Drawn;
use crate::action::{listen, Heard, SELECT};
use leptos::html::Section;
use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;

/// A card written as markup, patched in place, whose controls reach
/// `on_action` through the cards' one listener (`crate::action::listen`).
#[component]
pub fn ActionCard(
    /// The card's `class`.
    class: &'static str,
    /// The card's `data-testid`.
    testid: &'static str,
    /// The card's content; the page is patched to match whenever it changes.
    #[prop(into)]
    markup: Signal<String>,
    /// Receives every event on a control that names an action.
    on_action: Callback<Heard>,
    /// Which of the card's controls named [`SELECT`] is chosen
    /// (`data-index`): marked by `highlight.js` `choose` on two elements,
    /// outside the markup, so a new choice rewrites nothing.
    #[prop(optional)]
    chosen: Option<RwSignal<usize>>,
    /// Fields whose value is written outside the markup, as (`data-testid`,
    /// value): a value that changes on its own, such as the seed with every
    /// new draw of weights, then rewrites nothing else.
    #[prop(optional, into)]
    values: Option<Signal<Vec<(&'static str, String)>>>,
    /// The card's element, for a card that also draws outside its markup
    /// and asks [`drawn`] whether it is on screen.
    #[prop(optional)]
    node: NodeRef<Section>,
) -> impl IntoView {
    let drawn = drawn_as(element_of(node), Drawn::Anywhere);
    keep_patched(node, markup, Some(drawn));
    if let Some(chosen) = chosen {
        Effect::new(move |_| {
            let index = chosen.get() as u32;
            if let Some(host) = node.get() {
                choose(&host, SELECT, index);
            }
        });
    }
    if let Some(values) = values {
        // After the markup's own patch (effects first run in the order they
        // are made), and again after each: a field the patch made anew
        // starts empty, as does a card's first drawing, which may come after
        // start-up (`drawn`).
        Effect::new(move |_| {
            markup.track();
            drawn.track();
            let Some(host) = node.get() else { return };
            values.with(|values| {
                for (testid, value) in values {
                    let field = host
                        .query_selector(&format!("[data-testid=\"{testid}\"]"))
                        .ok()
                        .flatten()
                        .and_then(|field| field.dyn_into::<web_sys::HtmlInputElement>().ok());
                    if let Some(field) = field.filter(|field| field.value() != *value) {
                        field.set_value(value);
                    }
                }
            });
        });
    }
    view! {
        <section
            class=class
            data-testid=testid
            node_ref={node}
            {..listen(on_action)}
        ></section>
    }
}
