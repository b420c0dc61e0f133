//! The row sums of the weights, as a column lined up with the weights grid:
//! the visible check that softmax gives every query a budget of exactly 1.

use crate::app::ShowTables;
use crate::diagrams::matrix::markup::CELL;
use crate::geometry::format::{js_number, two_decimals};
use crate::geometry::grid::Grid;
use crate::i18n::{self, tr};
use leptos::prelude::*;

/// One sum per row, each with `data-row-sum` and `data-value` (full
/// precision); an SVG column beside the heatmap, or a table in table mode.
#[component]
pub fn RowSums(
    /// The sum of each row of α′, query by query.
    #[prop(into)]
    sums: Signal<Vec<f64>>,
    /// The selected query, whose sum is emphasised like its row.
    #[prop(into)]
    selected: Signal<usize>,
) -> impl IntoView {
    let ShowTables(tables) = expect_context::<ShowTables>();
    let rows = Memo::new(move |_| sums.with(Vec::len));
    let aria = tr(i18n::ROW_SUMS_ARIA);
    let value = move |r: usize| sums.with(|s| s.get(r).copied().unwrap_or(0.0));

    move || {
        let rows = rows.get();
        if tables.get() {
            let body = (0..rows)
                .map(|r| {
                    view! {
                        <tr>
                            <td data-row-sum=r data-value=move || js_number(value(r))>
                                {move || two_decimals(value(r))}
                            </td>
                        </tr>
                    }
                })
                .collect_view();
            return view! {
                <table class="matrix-table row-sums" data-testid="row-sums">
                    <caption>{tr(i18n::ROW_SUM)}</caption>
                    <thead>
                        <tr>
                            <th scope="col">"Σ"</th>
                        </tr>
                    </thead>
                    <tbody>{body}</tbody>
                </table>
            }
            .into_any();
        }
        // The same grid geometry as the heatmap, one column wide, so each sum
        // sits level with its row; the label width is not needed here.
        let grid = Grid::new(rows, 1, CELL, 1);
        let (_, height) = grid.size();
        let width = CELL * 1.3;
        let texts = (0..rows)
            .map(|r| {
                let (_, y) = grid.cell_rect(r, 0).centre();
                view! {
                    <text
                        x=width / 2.0
                        y=y
                        class="row-sum"
                        class:selected=move || selected.get() == r
                        data-row-sum=r
                        data-value=move || js_number(value(r))
                    >
                        {move || two_decimals(value(r))}
                    </text>
                }
            })
            .collect_view();
        view! {
            <svg
                class="diagram row-sums"
                data-testid="row-sums"
                role="img"
                aria-label=aria
                viewBox=format!("0 0 {width} {height}")
                width=width
                height=height
            >
                <text x=width / 2.0 y=grid.col_label(0).1 class="sum-label">"Σ"</text>
                {texts}
            </svg>
        }
        .into_any()
    }
}
