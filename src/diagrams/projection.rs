//! Diagram 1: the projections Q = XW_Q, K = XW_K and V = XW_V.

use leptos::prelude::*;

/// X times each W gives Q, K and V; hovering a result cell explains it.
#[component]
pub fn Projection() -> impl IntoView {
    view! { <section class="card" data-diagram="projection"></section> }
}
