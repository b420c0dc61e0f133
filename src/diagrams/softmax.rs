//! Diagram 3: softmax of the selected query's row as bars, beside the full
//! weights matrix with its row sums.
//!
//! Built as: a view of heatmaps, `MatrixGrid`s and `SvgHost`s (ARCHITECTURE.md: Adding a card).

mod bars;

/// The weights' symbol, as the lessons write it: first in every weight's
/// accessible name, in the heatmap and on the bars.
pub const WEIGHTS: &str = "α′";
mod formula;
mod row_sums;

use crate::diagrams::heads::ShownHead;
use crate::diagrams::legend::ColourLegend;
use crate::diagrams::matrix::{view_part, MatrixGrid, Palette};
use crate::geometry::raster::is_raster;
use crate::i18n::{self, tr, LangContext};
use crate::page::SvgHost;
use crate::state::lab;
use bars::SoftmaxBars;
use leptos::prelude::*;

/// The softmax bars of query i and the weights heatmap with row sums.
#[component]
pub fn Softmax() -> impl IntoView {
    let lab = lab();
    let view = lab.view;
    let LangContext(lang) = expect_context::<LangContext>();
    let tables = lab.tables;
    let focus = lab.focus;
    let weights = view_part(view, |t| &t.weights);
    let labels = view_part(view, |t| &t.labels);
    let allowed = Memo::new(move |_| view.with(|v| v.as_ref().map(|t| t.allowed.clone())));
    let sums = Memo::new(move |_| {
        // Summed here, not taken from the core, because the sums are the check
        // that the learner can see: each row of α′ really adds up to 1.
        let sums: Vec<f64> = weights.with(|w| w.rows().into_iter().map(|r| r.sum()).collect());
        let lang = lang.get();
        if weights.with(|w| is_raster(w.dim())) {
            row_sums::range(
                &sums,
                i18n::ROW_SUMS_FROM.get(lang),
                i18n::ROW_SUMS_TO.get(lang),
            )
        } else if tables.get() {
            row_sums::table(&sums, i18n::ROW_SUM.get(lang))
        } else {
            row_sums::svg(&sums, focus.query.get(), i18n::ROW_SUMS_ARIA.get(lang))
        }
    });
    // Weights run from 0 to 1 on their colour scale; a raster's (hundreds of
    // keys, so most weights are small) from 0 to its largest, or most cells
    // would look the same dark colour.
    let top = Memo::new(move |_| {
        weights.with(|w| {
            let largest = w.iter().copied().fold(0.0, f64::max);
            if is_raster(w.dim()) && largest > 0.0 {
                largest
            } else {
                1.0
            }
        })
    });
    let select = Callback::new(move |(i, j): (usize, usize)| {
        focus.query.set(i);
        focus.key.set(j);
    });

    view! {
        <section class="card" data-diagram="softmax">
            <h2>{tr(i18n::SOFTMAX_TITLE)}<ShownHead /></h2>
            <p class="explain">{tr(i18n::SOFTMAX_EXPLAINED)}</p>
            // Hidden rather than dropped while the scenario cannot be computed:
            // an attribute costs far less WebAssembly than a <Show>.
            <div class="diagram-pair" hidden=move || view.with(Option::is_none)>
                <SoftmaxBars />
                <div class="weights-side">
                    <p class="caption">{tr(i18n::WEIGHTS_EXPLAINED)}</p>
                    <div class="scroll">
                        <div class="weights-block">
                            <MatrixGrid
                                testid="weights"
                                symbol=WEIGHTS
                                aria=i18n::WEIGHTS_ARIA
                                of_head=true
                                values=weights
                                row_labels=labels
                                col_labels=labels
                                palette=Palette::Weight
                                extent=top
                                highlight_rows=Signal::derive(move || vec![focus.query.get()])
                                masked=allowed
                                on_select=select
                            />
                            <SvgHost markup=sums />
                        </div>
                        <ColourLegend
                            testid="weights-legend"
                            palette=Palette::Weight
                            extent=top
                            title=i18n::LEGEND_WEIGHT
                            aria=i18n::WEIGHTS_LEGEND_ARIA
                        />
                    </div>
                </div>
            </div>
        </section>
    }
}
