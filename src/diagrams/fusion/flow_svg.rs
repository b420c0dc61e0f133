//! The fusion SVG: value rows on the left, connectors, the output row B_i and
//! (from [`super::bars`]) the stacked bars. The elements are rebuilt only when
//! the shape or the labels change; positions, widths and numbers update in
//! place, so a bar keeps keyboard focus while the learner changes the query.

use super::bars::bar_columns;
use crate::app::LabView;
use crate::geometry::colour::signed_colour;
use crate::geometry::extent::symmetric_extent;
use crate::geometry::flow::frame::FusionFrame;
use crate::geometry::flow::layout::FusionLayout;
use crate::geometry::flow::{emphasis, token_colour, Connector};
use crate::geometry::format::{js_number, subscript, two_decimals};
use crate::i18n::{self, tr};
use leptos::prelude::*;

/// Side of one cell, in SVG units.
const CELL: f64 = 36.0;
/// The smallest share of its natural size the SVG may shrink to. Shrinking
/// keeps B_i and its bars beside the value rows on a phone, which is the
/// point of the diagram; below this the numbers become unreadable, so a
/// larger scenario scrolls inside its box instead.
const MIN_SCALE: f64 = 0.65;

/// The flow of every V_j into B_i, with the stacked bars under B_i.
#[component]
pub fn FusionFlow(
    /// The selected query i, already clamped to the sequence.
    query: Memo<usize>,
    /// The component whose sum is written out; set by hovering, focusing or
    /// tapping a bar or a cell of B_i.
    component: RwSignal<Option<usize>>,
) -> impl IntoView {
    let LabView(view) = expect_context::<LabView>();
    let shape = Memo::new(move |_| {
        view.with(|v| v.as_ref().map(|t| (t.len(), t.v.ncols(), t.labels.clone())))
    });
    let layout = Memo::new(move |_| {
        shape.with(|s| {
            s.as_ref().map(|(tokens, d, labels)| {
                let longest = labels.iter().map(|l| l.chars().count()).max();
                FusionLayout::new(*tokens, *d, CELL, longest.unwrap_or(1))
            })
        })
    });
    let frame = Memo::new(move |_| {
        let layout = layout.get()?;
        let i = query.get();
        view.with(|v| {
            let t = v.as_ref()?;
            Some(FusionFrame::new(&layout, &t.weights, i, &t.v, &t.output))
        })
    });
    let extent =
        Memo::new(move |_| view.with(|v| v.as_ref().map_or(1.0, |t| symmetric_extent(&t.v))));
    let weight = move |j: usize| {
        view.with(|v| {
            v.as_ref()
                .and_then(|t| t.weights.get((query.get(), j)).copied())
        })
        .unwrap_or(0.0)
    };
    let masked = move |j: usize| {
        view.with(|v| {
            v.as_ref()
                .and_then(|t| t.allowed.get((query.get(), j)).copied())
        }) == Some(false)
    };
    let value = move |j: usize, c: usize| {
        view.with(|v| v.as_ref().and_then(|t| t.v.get((j, c)).copied()))
            .unwrap_or(0.0)
    };
    let output = move |c: usize| {
        view.with(|v| {
            v.as_ref()
                .and_then(|t| t.output.get((query.get(), c)).copied())
        })
        .unwrap_or(0.0)
    };
    let connector =
        move |j: usize| frame.with(|f| f.as_ref().and_then(|f| f.connectors.get(j).copied()));
    let lang = expect_context::<i18n::LangContext>().0;
    let masked_word = tr(i18n::FUSION_MASKED);

    // One value cell or output cell: a signed-colour square with its number.
    let cell = move |rect: crate::geometry::grid::Rect, number: Signal<f64>, lit: Signal<bool>| {
        let (cx, cy) = rect.centre();
        let fill = move || signed_colour(number.get(), extent.get());
        view! {
            <rect
                class="cell"
                class:lit=move || lit.get()
                x=rect.x y=rect.y width=rect.width height=rect.height
                fill=move || fill().hex()
            />
            <text x=cx y=cy class="cell-value" fill=move || fill().text_colour().hex()>
                {move || two_decimals(number.get())}
            </text>
        }
    };

    move || {
        let (tokens, d, labels) = shape.get()?;
        let layout = layout.get()?;
        let (width, height) = layout.size();
        let col_labels = (0..d)
            .map(|c| {
                let (vx, vy) = layout.values.col_label(c);
                let (bx, by) = layout.output_col_label(c);
                let name = (c + 1).to_string();
                view! {
                    <text x=vx y=vy class="col-label">{name.clone()}</text>
                    <text x=bx y=by class="col-label">{name}</text>
                }
            })
            .collect_view();
        let value_rows = (0..tokens)
            .map(|j| {
                let swatch = layout.swatch(j);
                let (lx, ly) = layout.values.row_label(j);
                let label = labels.get(j).cloned().unwrap_or_default();
                let cells = (0..d)
                    .map(|c| {
                        let number = Signal::derive(move || value(j, c));
                        let lit = Signal::derive(move || component.get() == Some(c));
                        cell(layout.value_cell(j, c), number, lit)
                    })
                    .collect_view();
                view! {
                    <g
                        class="fusion-value-row"
                        class:masked=move || masked(j)
                        opacity=move || emphasis(weight(j))
                    >
                        <rect
                            class="fusion-swatch"
                            x=swatch.x y=swatch.y width=swatch.width height=swatch.height
                            fill=token_colour(j).hex()
                        />
                        <text x=lx y=ly class="row-label">{label}</text>
                        {cells}
                    </g>
                }
            })
            .collect_view();
        let paths = (0..tokens)
            .map(|j| {
                let c = move || {
                    connector(j).unwrap_or(Connector::new((0.0, 0.0), (0.0, 0.0), 0.0, 0.0))
                };
                view! {
                    <path
                        class="connector"
                        class:faint=move || c().is_faint()
                        class:masked=move || masked(j)
                        d=move || c().path()
                        stroke=token_colour(j).hex()
                        stroke-width=move || c().width
                        stroke-opacity=move || c().opacity
                        fill="none"
                        data-row=j
                        data-weight=move || js_number(weight(j))
                        data-masked=move || masked(j).then_some("true")
                    />
                }
            })
            .collect_view();
        let weight_labels = (0..tokens)
            .map(|j| {
                let at = move || connector(j).map_or((0.0, 0.0), |c| c.label_point());
                let text = move || {
                    if masked(j) {
                        masked_word.get().to_string()
                    } else {
                        two_decimals(weight(j))
                    }
                };
                view! {
                    <text
                        class="connector-label"
                        class:masked=move || masked(j)
                        x=move || at().0
                        y=move || at().1
                    >
                        {text}
                    </text>
                }
            })
            .collect_view();
        let output_cells = (0..d)
            .map(|c| {
                let number = Signal::derive(move || output(c));
                let lit = Signal::derive(move || component.get() == Some(c));
                view! {
                    <g
                        class="fusion-output-cell"
                        on:pointerenter=move |_| component.set(Some(c))
                        on:click=move |_| component.set(Some(c))
                    >
                        {cell(layout.output_cell(c), number, lit)}
                    </g>
                }
            })
            .collect_view();
        let (caption_x, caption_y) = layout.output_caption();
        let caption_labels = labels.clone();
        let caption = move || {
            let i = query.get();
            let name = caption_labels.get(i).cloned().unwrap_or_default();
            format!("B{} · {name}", subscript(i + 1))
        };
        let (vx, vy) = (
            layout.values.label_width / 2.0,
            layout.values.col_label(0).1,
        );
        Some(view! {
            <svg
                class="diagram fusion-flow"
                data-testid="fusion"
                role="img"
                aria-label=move || i18n::FUSION_ARIA.get(lang.get())
                viewBox=format!("0 0 {width} {height}")
                width=width
                height=height
                style=format!("min-width: {}px", (width * MIN_SCALE).round())
            >
                <text x=vx y=vy class="matrix-name">"V"</text>
                {col_labels}
                {value_rows}
                {paths}
                {weight_labels}
                {output_cells}
                <text x=caption_x y=caption_y class="matrix-name">{caption}</text>
                {bar_columns(layout, frame, component, labels, view, query)}
            </svg>
        })
    }
}
