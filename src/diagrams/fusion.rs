//! Diagram 4: the fusion B_i = Σ_j α′_ij V_j. Each value row V_j flows into
//! the selected query's output row B_i along a connector as wide as its
//! weight; under B_i every component's bar stacks the T terms α′_ij·V_jc in
//! the tokens' colours; below, the whole output matrix B.

mod bars;
mod flow_svg;

use crate::app::{Focus, LabView};
use crate::diagrams::matrix::{MatrixGrid, Palette};
use crate::geometry::flow::token_colour;
use crate::geometry::format::{subscript, sum_of_products};
use crate::i18n::{self, tr};
use flow_svg::FusionFlow;
use leptos::prelude::*;
use ndarray::Array2;

/// Row `i` of `m` as a plain vector, empty when there is no such row, so a
/// selection that is briefly out of range never panics.
fn row(m: &Array2<f64>, i: usize) -> Vec<f64> {
    m.outer_iter()
        .nth(i)
        .map(|r| r.to_vec())
        .unwrap_or_default()
}

/// How each V_j, scaled by its weight, flows into B_i; hovering or focusing a
/// component's bar writes its sum out; the output matrix B selects queries.
#[component]
pub fn Fusion() -> impl IntoView {
    let LabView(view) = expect_context::<LabView>();
    let focus = expect_context::<Focus>();
    // The query, kept inside the sequence while a removed token's selection
    // is being clamped by the app.
    let query = Memo::new(move |_| {
        let tokens = view.with(|v| v.as_ref().map_or(1, |t| t.len()));
        focus.query.get().min(tokens.saturating_sub(1))
    });
    // The component whose sum is written out; it stays after the pointer
    // leaves so the learner can read it, and phones can set it with a tap.
    let component = RwSignal::new(None::<usize>);

    let sum = move || {
        let c = component.get()?;
        let i = query.get();
        view.with(|v| {
            let t = v.as_ref()?;
            let column = t.v.columns().into_iter().nth(c)?.to_vec();
            let sum = sum_of_products(&row(&t.weights, i), &column, 8);
            Some(format!(
                "B{},{} = {sum}",
                subscript(i + 1),
                subscript(c + 1)
            ))
        })
    };
    let hint = tr(i18n::FUSION_HINT);
    let legend = move || {
        view.with(|v| {
            v.as_ref()
                .map(|t| t.labels.clone())
                .unwrap_or_default()
                .into_iter()
                .enumerate()
                .map(|(j, label)| {
                    view! {
                        <li data-token=j>
                            <span
                                class="fusion-swatch"
                                style:background-color=token_colour(j).hex()
                            ></span>
                            {label}
                        </li>
                    }
                })
                .collect_view()
        })
    };

    let output =
        Memo::new(move |_| view.with(|v| v.as_ref().map(|t| t.output.clone()).unwrap_or_default()));
    let labels =
        Memo::new(move |_| view.with(|v| v.as_ref().map(|t| t.labels.clone()).unwrap_or_default()));
    let components = Memo::new(move |_| {
        let d = output.with(Array2::ncols);
        (1..=d).map(|c| c.to_string()).collect::<Vec<_>>()
    });
    let select_query = Callback::new(move |(r, _): (usize, usize)| focus.query.set(r));

    view! {
        <section class="card fusion" data-diagram="fusion">
            <h2>{tr(i18n::FUSION_TITLE)}</h2>
            <p class="explain">{tr(i18n::FUSION_EXPLAINED)}</p>
            <Show when=move || view.with(Option::is_some)>
                <div class="fusion-body">
                    <div class="fusion-main">
                        <div class="scroll">
                            <FusionFlow query=query component=component />
                        </div>
                        <p class="fusion-sum" data-testid="fusion-sum" aria-live="polite">
                            {move || sum().unwrap_or_else(|| hint.get().to_string())}
                        </p>
                        <div class="fusion-legend" data-testid="fusion-legend">
                            <span class="fusion-legend-title">{tr(i18n::FUSION_LEGEND)}</span>
                            <ul>{legend}</ul>
                        </div>
                    </div>
                    <div class="fusion-output">
                        <h3>{tr(i18n::FUSION_OUTPUT_TITLE)}</h3>
                        <div class="scroll">
                            <MatrixGrid
                                testid="output"
                                aria=i18n::FUSION_OUTPUT_ARIA
                                values=output
                                row_labels=labels
                                col_labels=components
                                palette=Palette::Signed
                                highlight_rows=Signal::derive(move || vec![query.get()])
                                on_select=select_query
                            />
                        </div>
                    </div>
                </div>
            </Show>
        </section>
    }
}
