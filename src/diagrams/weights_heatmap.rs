//! The attention weights α′ of one sequence as a T×T heatmap, with row sums.

use crate::app::{LabScenario, LabTrace};
use crate::geometry::colour::weight_colour;
use crate::geometry::format::{js_number, two_decimals};
use crate::geometry::grid::Grid;
use crate::i18n::{self, tr};
use crate::lab::token_labels;
use leptos::prelude::*;
use ndarray::{s, Array2};

const CELL: f64 = 44.0;
/// Stops of the legend's gradient; enough that it looks continuous.
const LEGEND_STOPS: usize = 11;

/// A T×T heatmap of α′: row i is query i, column j is key j. Masked keys are
/// drawn hatched and carry `data-masked="true"`.
#[component]
pub fn WeightsHeatmap(
    /// Which sequence of the batch to draw (0 for a single sequence).
    sequence: usize,
) -> impl IntoView {
    let LabTrace(trace) = expect_context::<LabTrace>();
    let LabScenario(scenario) = expect_context::<LabScenario>();
    let aria = tr(i18n::WEIGHTS_ARIA);
    let row_sum_title = tr(i18n::ROW_SUM);
    let legend_title = tr(i18n::LEGEND_WEIGHT);

    move || {
        let labels = scenario.with(token_labels);
        trace.with(|result| {
            let trace = result.as_ref().ok()?;
            let b = sequence.min(trace.weights.dim().0 - 1);
            let weights = trace.weights.slice(s![b, .., ..]).to_owned();
            let allowed = trace.allowed.slice(s![b, .., ..]).to_owned();
            Some(heatmap(
                &weights,
                &allowed,
                &labels,
                aria(),
                row_sum_title(),
                legend_title(),
            ))
        })
    }
}

fn heatmap(
    weights: &Array2<f64>,
    allowed: &Array2<bool>,
    labels: &[String],
    aria: &'static str,
    row_sum_title: &'static str,
    legend_title: &'static str,
) -> impl IntoView {
    let t = weights.nrows();
    let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(1);
    // One extra column holds the row sums.
    let grid = Grid::new(t, t + 1, CELL, longest);
    let (width, grid_height) = grid.size();
    let legend_y = grid_height + CELL * 0.3;
    let height = legend_y + CELL * 0.9;
    let label = |i: usize| labels.get(i).cloned().unwrap_or_default();

    let cells = weights
        .indexed_iter()
        .map(|((r, c), &w)| {
            let rect = grid.cell_rect(r, c);
            let (cx, cy) = rect.centre();
            let fill = weight_colour(w);
            let masked = !allowed[[r, c]];
            view! {
                <rect
                    class="cell"
                    class:masked=masked
                    x=rect.x y=rect.y width=rect.width height=rect.height
                    fill=fill.hex()
                    data-row=r data-col=c data-value=js_number(w)
                    data-masked=masked.then_some("true")
                />
                <text x=cx y=cy class="cell-value" fill=fill.text_colour().hex()>
                    {two_decimals(w)}
                </text>
            }
        })
        .collect_view();
    let row_sums = weights
        .rows()
        .into_iter()
        .enumerate()
        .map(|(r, row)| {
            let (cx, cy) = grid.cell_rect(r, t).centre();
            let sum = row.sum();
            view! {
                <text x=cx y=cy class="row-sum" data-row-sum=r data-value=js_number(sum)>
                    {two_decimals(sum)}
                </text>
            }
        })
        .collect_view();
    let row_labels = (0..t)
        .map(|r| {
            let (x, y) = grid.row_label(r);
            view! { <text x=x y=y class="row-label">{label(r)}</text> }
        })
        .collect_view();
    let col_labels = (0..t)
        .map(|c| {
            let (x, y) = grid.col_label(c);
            view! { <text x=x y=y class="col-label">{label(c)}</text> }
        })
        .collect_view();
    let (sum_x, sum_y) = grid.col_label(t);
    let legend_width = (width - grid.label_width).min(CELL * 5.0);
    let stops = (0..LEGEND_STOPS)
        .map(|i| {
            let at = i as f64 / (LEGEND_STOPS - 1) as f64;
            view! { <stop offset=at stop-color=weight_colour(at).hex() /> }
        })
        .collect_view();

    view! {
        <svg
            class="diagram"
            data-testid="weights"
            role="img"
            aria-label=aria
            viewBox=format!("0 0 {width} {height}")
            width=width
            height=height
        >
            <defs>
                <linearGradient id="weights-legend" x1="0" x2="1" y1="0" y2="0">
                    {stops}
                </linearGradient>
            </defs>
            {row_labels}
            {col_labels}
            <text x=sum_x y=sum_y class="col-label sum-label">"Σ"</text>
            <title>{row_sum_title}</title>
            {cells}
            {row_sums}
            <g class="legend" transform=format!("translate({} {legend_y})", grid.label_width)>
                <rect width=legend_width height=CELL * 0.25 fill="url(#weights-legend)" />
                <text x=0 y=CELL * 0.55 class="legend-tick">"0"</text>
                <text x=legend_width / 2.0 y=CELL * 0.55 class="legend-tick">{legend_title}</text>
                <text x=legend_width y=CELL * 0.55 class="legend-tick">"1"</text>
            </g>
        </svg>
    }
}
