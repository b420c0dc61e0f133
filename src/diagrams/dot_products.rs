//! Diagram 2: the score matrix QKᵀ/√d_k, with one dot product expanded term by term.

use leptos::prelude::*;

/// The T×T scaled scores; selecting a cell expands its dot product.
#[component]
pub fn DotProducts() -> impl IntoView {
    view! { <section class="card" data-diagram="dot-products"></section> }
}
