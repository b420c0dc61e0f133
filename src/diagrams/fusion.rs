//! Diagram 4: the fusion B_i = Σ_j α′_ij V_j.

use leptos::prelude::*;

/// How each V_j, scaled by its weight, flows into B_i.
#[component]
pub fn Fusion() -> impl IntoView {
    view! { <section class="card" data-diagram="fusion"></section> }
}
