//! The stacked bars under B_i: for each component c, the T terms α′_ij·V_jc
//! in their tokens' colours, positive ones stacked up from the zero line and
//! negative ones down, with a tick and the printed total B_ic.

use crate::geometry::flow::frame::{FusionFrame, PlacedSegment, PlacedTotal};
use crate::geometry::flow::layout::FusionLayout;
use crate::geometry::flow::token_colour;
use crate::geometry::format::{js_number, two_decimals};
use crate::lab::SequenceTrace;
use leptos::prelude::*;

/// The zero line and one focusable column per component. Hovering, focusing
/// or tapping a column sets `component`, which writes its sum out.
pub fn bar_columns(
    layout: FusionLayout,
    frame: Memo<Option<FusionFrame>>,
    component: RwSignal<Option<usize>>,
    labels: Vec<String>,
    view: Memo<Option<SequenceTrace>>,
    query: Memo<usize>,
) -> impl IntoView {
    let (tokens, d) = (layout.values.rows, layout.values.cols);
    let zero = move || frame.with(|f| f.as_ref().map_or(0.0, |f| f.zero));
    let (left, right) = layout.zero_line();
    let segment = move |c: usize, j: usize| {
        frame.with(|f| f.as_ref().and_then(|f| f.segments.get(c)?.get(j).copied()))
    };
    let total = move |c: usize| frame.with(|f| f.as_ref().and_then(|f| f.totals.get(c).copied()));
    // The factors of one term, for its tooltip.
    let factors = move |j: usize, c: usize| {
        view.with(|v| {
            let t = v.as_ref()?;
            Some((
                t.weights.get((query.get(), j)).copied()?,
                t.v.get((j, c)).copied()?,
            ))
        })
    };

    let columns = (0..d)
        .map(|c| {
            let hit = layout.column(c);
            let (bar_x, bar_width) = layout.bar(c);
            let segments = (0..tokens)
                .map(|j| {
                    let placed = move || {
                        segment(c, j).unwrap_or(PlacedSegment {
                            value: 0.0,
                            rect: hit,
                        })
                    };
                    let label = labels.get(j).cloned().unwrap_or_default();
                    let tooltip = move || {
                        let (w, v) = factors(j, c).unwrap_or((0.0, 0.0));
                        format!(
                            "{label}: {} × {} = {}",
                            two_decimals(w),
                            two_decimals(v),
                            two_decimals(w * v)
                        )
                    };
                    view! {
                        <rect
                            class="segment"
                            x=bar_x
                            width=bar_width
                            y=move || placed().rect.y
                            height=move || placed().rect.height
                            fill=token_colour(j).hex()
                            data-row=j
                            data-col=c
                            data-value=move || js_number(placed().value)
                        >
                            <title>{tooltip}</title>
                        </rect>
                    }
                })
                .collect_view();
            let placed_total = move || {
                total(c).unwrap_or(PlacedTotal {
                    value: 0.0,
                    y: 0.0,
                    label_y: 0.0,
                })
            };
            let (cx, _) = hit.centre();
            view! {
                <g
                    class="fusion-column"
                    class:lit=move || component.get() == Some(c)
                    data-component=c
                    tabindex="0"
                    on:pointerenter=move |_| component.set(Some(c))
                    on:focus=move |_| component.set(Some(c))
                    on:click=move |_| component.set(Some(c))
                >
                    <rect
                        class="column-hit"
                        x=hit.x y=hit.y width=hit.width height=hit.height
                    />
                    {segments}
                    <g
                        class="fusion-total"
                        data-testid="fusion-total"
                        data-col=c
                        data-value=move || js_number(placed_total().value)
                    >
                        <line
                            x1=hit.x
                            x2=hit.x + hit.width
                            y1=move || placed_total().y
                            y2=move || placed_total().y
                        />
                        <text x=cx y=move || placed_total().label_y>
                            {move || two_decimals(placed_total().value)}
                        </text>
                    </g>
                </g>
            }
        })
        .collect_view();

    view! {
        <line class="zero-line" x1=left x2=right y1=zero y2=zero />
        <text class="zero-label" x=left - 4.0 y=zero>"0"</text>
        {columns}
    }
}
