//! Diagram 2: the score matrix QKᵀ/√d_k, with one dot product expanded term by term.
//!
//! Built as: a view of heatmaps, `MatrixGrid`s and `SvgHost`s (ARCHITECTURE.md: Adding a card).

mod expansion;

use crate::diagrams::heads::ShownHead;
use crate::diagrams::legend::ColourLegend;
use crate::diagrams::matrix::{view_part, MatrixGrid, Palette};
use crate::geometry::extent::symmetric_extent;
use crate::i18n::{self, tr};
use crate::state::lab;
use expansion::Expansion;
use leptos::prelude::*;

/// The T×T scaled scores; selecting a cell expands its dot product.
#[component]
pub fn DotProducts() -> impl IntoView {
    let lab = lab();
    let view = lab.view;
    let focus = lab.focus;
    let scaled = view_part(view, |t| &t.scaled);
    let labels = view_part(view, |t| &t.labels);
    let allowed = Memo::new(move |_| view.with(|v| v.as_ref().map(|t| t.allowed.clone())));
    // The legend must span the same range as the heatmap, which colours by this extent.
    let extent = Memo::new(move |_| scaled.with(symmetric_extent));
    let turned =
        Memo::new(move |_| view.with(|v| v.as_ref().is_some_and(|v| v.unrotated.is_some())));
    let select = Callback::new(move |(i, j): (usize, usize)| {
        focus.query.set(i);
        focus.key.set(j);
    });

    view! {
        <section class="card" data-diagram="dot-products">
            <h2>{tr(i18n::SCORES_TITLE)}<ShownHead /></h2>
            <p class="explain">
                {tr(i18n::SCORES_EXPLAINED)}
                <span class="instruction">{tr(i18n::SCORES_HINT)}</span>
            </p>
            // Under RoPE these Q and K are the turned ones, not the projection's.
            <p class="note" data-testid="scores-rope" hidden=move || !turned.get()>
                {tr(i18n::order::SCORES_TURNED)}
            </p>
            // Hidden rather than dropped while the scenario cannot be computed:
            // an attribute costs far less WebAssembly than a <Show>.
            <div class="diagram-pair" hidden=move || view.with(Option::is_none)>
                <div class="scroll">
                    <MatrixGrid
                        testid="scores"
                        symbol="α"
                        aria=i18n::SCORES_ARIA
                        of_head=true
                        values=scaled
                        row_labels=labels
                        col_labels=labels
                        palette=Palette::Signed
                        highlight_rows=Signal::derive(move || vec![focus.query.get()])
                        highlight_cols=Signal::derive(move || vec![focus.key.get()])
                        masked=allowed
                        on_select=select
                    />
                    <ColourLegend
                        testid="scores-legend"
                        palette=Palette::Signed
                        extent=extent
                        title=i18n::SCORES_LEGEND
                        aria=i18n::SCORES_LEGEND_ARIA
                    />
                </div>
                <Expansion />
            </div>
        </section>
    }
}
