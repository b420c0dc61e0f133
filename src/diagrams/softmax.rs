//! Diagram 3: softmax of the selected query's row as bars, beside the full weights matrix.

use crate::diagrams::weights_heatmap::WeightsHeatmap;
use leptos::prelude::*;

/// The softmax bars of query i and the weights heatmap with row sums.
#[component]
pub fn Softmax() -> impl IntoView {
    view! {
        <section class="card" data-diagram="softmax">
            <div class="scroll">
                <WeightsHeatmap sequence=0 />
            </div>
        </section>
    }
}
