//! Diagram 4: the fusion B_i = Σ_j α′_ij V_j. Each value row V_j flows into
//! the selected query's output row B_i along a connector as wide as its
//! weight; under B_i every component's bar stacks the T terms α′_ij·V_jc in
//! the tokens' colours; below, the whole output matrix B. The drawing and its
//! legend are written as markup by [`markup`] and shown by [`SvgHost`].
//!
//! Built as: a view of heatmaps, `MatrixGrid`s and `SvgHost`s (ARCHITECTURE.md: Adding a card).

mod bars;
mod contributors;
mod flow;
mod markup;
#[cfg(test)]
mod tests;

use crate::diagrams::heads::ShownHead;
use crate::diagrams::matrix::{view_part, MatrixGrid, Palette};
use crate::geometry::format::{subscript, sum_of_products};
use crate::geometry::raster::MAX_DRAWN;
use crate::i18n::{self, tr, LangContext};
use crate::lab::row_of;
use crate::page::{narrow_screen, CellEvent, SvgHost};
use crate::state::lab;
use leptos::prelude::*;
use markup::FusionSpec;

/// How each V_j, scaled by its weight, flows into B_i; hovering, focusing or
/// tapping a component's bar writes its sum out; the output matrix B selects queries.
#[component]
pub fn Fusion() -> impl IntoView {
    let lab = lab();
    let view = lab.view;
    let focus = lab.focus;
    let LangContext(lang) = expect_context::<LangContext>();
    // The query, kept inside the sequence while a removed token's selection
    // is being clamped by the app.
    let query = move || {
        let tokens = view.with(|v| v.as_ref().map_or(1, |t| t.len()));
        focus.query.get().min(tokens.saturating_sub(1))
    };
    // The component whose sum is written out; it stays after the pointer
    // leaves so the learner can read it, and phones can set it with a tap.
    let component = RwSignal::new(None::<usize>);
    // A phone draws B_i under the value rows: beside them it is twice as wide.
    let narrow = narrow_screen();

    // The SVG and, after it, the legend: one piece of markup for both.
    let markup = Memo::new(move |_| {
        let lang = lang.get();
        let (query, component, stacked) = (query(), component.get(), narrow.get());
        view.with(|v| {
            v.as_ref().map_or_else(String::new, |t| {
                let name = (query, t.labels.get(query).map_or("", String::as_str));
                let spec = |labels, v, weights, allowed, output, query| FusionSpec {
                    labels,
                    v,
                    weights,
                    allowed,
                    output,
                    query,
                    query_name: name,
                    component,
                    aria: i18n::FUSION_ARIA.get(lang),
                    masked_word: i18n::MASKED.get(lang),
                    legend_title: i18n::FUSION_LEGEND.get(lang),
                    tick_note: i18n::FUSION_TICK.get(lang),
                    stacked,
                };
                if t.len() > MAX_DRAWN {
                    let c = contributors::largest(t, query, i18n::FUSION_REST.get(lang));
                    markup::fusion(&spec(&c.labels, &c.v, &c.weights, &c.allowed, &c.output, 0))
                } else {
                    markup::fusion(&spec(
                        &t.labels, &t.v, &t.weights, &t.allowed, &t.output, query,
                    ))
                }
            })
        })
    });
    // Every bar column and cell of B_i is the host's cell (0, c). Leaving
    // keeps the component; setting it only when it changes spares rebuilding
    // the markup on every pointer move.
    let on_cell = Callback::new(move |event: CellEvent| {
        if let CellEvent::Hover(Some((_, c))) | CellEvent::Select((_, c)) = event {
            if component.get_untracked() != Some(c) {
                component.set(Some(c));
            }
        }
    });

    let sum = move || {
        let c = component.get()?;
        let i = query();
        view.with(|v| {
            let t = v.as_ref()?;
            let column = t.v.columns().into_iter().nth(c)?.to_vec();
            let total = *t.output.get((i, c))?;
            let sum = sum_of_products(&row_of(&t.weights, i), &column, total, 8);
            Some(format!(
                "B{},{} = {sum}",
                subscript(i + 1),
                subscript(c + 1)
            ))
        })
    };
    let hint = tr(i18n::FUSION_HINT);

    let output = view_part(view, |t| &t.output);
    let labels = view_part(view, |t| &t.labels);
    let components = Signal::derive(move || {
        let d = view.with(|v| v.as_ref().map_or(0, |t| t.output.ncols()));
        (1..=d).map(|c| c.to_string()).collect::<Vec<_>>()
    });
    let select_query = Callback::new(move |(r, _): (usize, usize)| focus.query.set(r));

    // The body is hidden rather than dropped while the scenario cannot be
    // computed: an attribute costs far less WebAssembly than a <Show>.
    view! {
        <section class="card fusion" data-diagram="fusion">
            <h2>{tr(i18n::FUSION_TITLE)}<ShownHead /></h2>
            <p class="explain">{tr(i18n::FUSION_EXPLAINED)}</p>
            <div class="fusion-body" hidden=move || view.with(Option::is_none)>
                <div class="fusion-main">
                    <SvgHost markup=markup on_cell=on_cell />
                    <p class="fusion-sum" data-testid="fusion-sum" aria-live="polite">
                        {move || sum().unwrap_or_else(|| hint.get().to_string())}
                    </p>
                    <p class="note" data-testid="rounded-note">{tr(i18n::ROUNDED)}</p>
                </div>
                <div class="fusion-output">
                    <h3>
                        {tr(i18n::FUSION_OUTPUT_TITLE)}
                        <span class="instruction">{tr(i18n::FUSION_OUTPUT_HINT)}</span>
                    </h3>
                    <div class="scroll">
                        <MatrixGrid
                            testid="output"
                            symbol="B"
                            aria=i18n::FUSION_OUTPUT_ARIA
                            of_head=true
                            values=output
                            row_labels=labels
                            col_labels=components
                            palette=Palette::Signed
                            highlight_rows=Signal::derive(move || vec![query()])
                            on_select=select_query
                        />
                    </div>
                </div>
            </div>
        </section>
    }
}
