//! The learner's controls: tokens, sizes, masks, scaling and random weights.

use leptos::prelude::*;

/// All controls that edit the scenario.
#[component]
pub fn Controls() -> impl IntoView {
    view! { <section class="card controls" data-testid="controls"></section> }
}
