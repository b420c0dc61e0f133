//! A labelled matrix drawn as a heatmap: the building block of every diagram.
//! The grid's structure is rebuilt only when its shape or labels change; each
//! cell's colour, value and highlight update in place, so an edit repaints fast.

use crate::geometry::colour::{signed_colour, weight_colour, Rgb};
use crate::geometry::extent::symmetric_extent;
use crate::geometry::format::{js_number, two_decimals};
use crate::geometry::grid::Grid;
use crate::i18n::Msg;
use leptos::prelude::*;
use ndarray::Array2;

/// Side of one cell, in SVG units.
pub const CELL: f64 = 40.0;

/// Which colour scale a matrix uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Palette {
    /// Signed values (X, W, Q, K, V, scores): diverging blue–white–red around 0.
    Signed,
    /// Attention weights in [0, 1]: sequential viridis.
    Weight,
}

impl Palette {
    fn colour(self, value: f64, extent: f64) -> Rgb {
        match self {
            Palette::Signed => signed_colour(value, extent),
            Palette::Weight => weight_colour(value),
        }
    }
}

/// One matrix of the shown sequence as a memoised signal, empty while the
/// scenario cannot be computed. Memoised so each cell's read is a cheap borrow.
pub fn view_matrix(
    view: Memo<Option<crate::lab::SequenceTrace>>,
    pick: impl Fn(&crate::lab::SequenceTrace) -> &Array2<f64> + Send + Sync + 'static,
) -> Signal<Array2<f64>> {
    Memo::new(move |_| view.with(|v| v.as_ref().map(|v| pick(v).clone()).unwrap_or_default()))
        .into()
}

/// A matrix heatmap with row and column labels. Each cell is a `<rect>` with
/// `data-row`, `data-col` and `data-value` (full precision).
#[component]
pub fn MatrixGrid(
    /// `data-testid` of the `<svg>`, from the DOM contract (e.g. `"q"`).
    testid: &'static str,
    /// What the matrix shows, for screen readers (`aria-label`).
    aria: Msg,
    /// The numbers to draw.
    #[prop(into)]
    values: Signal<Array2<f64>>,
    /// One label per row (usually the tokens).
    #[prop(into)]
    row_labels: Signal<Vec<String>>,
    /// One label per column.
    #[prop(into)]
    col_labels: Signal<Vec<String>>,
    /// The colour scale.
    palette: Palette,
    /// Rows to emphasise, e.g. the selected query's row.
    #[prop(into, optional)]
    highlight_rows: Signal<Vec<usize>>,
    /// Columns to emphasise.
    #[prop(into, optional)]
    highlight_cols: Signal<Vec<usize>>,
    /// Cells that are masked: drawn hatched and marked `data-masked="true"`.
    #[prop(into, optional)]
    masked: Signal<Option<Array2<bool>>>,
    /// Called with the cell under the pointer or keyboard focus, and `None` when it leaves.
    #[prop(optional)]
    on_hover: Option<Callback<Option<(usize, usize)>>>,
    /// Called when a cell is clicked, or Enter or Space is pressed on it.
    #[prop(optional)]
    on_select: Option<Callback<(usize, usize)>>,
    /// Called while a cell is dragged vertically, with the pointer's movement
    /// in pixels since the last call (positive is downward).
    #[prop(optional)]
    on_drag: Option<Callback<((usize, usize), f64)>>,
) -> impl IntoView {
    let lang = expect_context::<crate::i18n::LangContext>().0;
    let shape = Memo::new(move |_| values.with(Array2::dim));
    let extent = Memo::new(move |_| values.with(symmetric_extent));
    let labels = Memo::new(move |_| (row_labels.get(), col_labels.get()));
    let interactive = on_hover.is_some() || on_select.is_some();
    // The cell being dragged and the pointer's last y, between pointer events.
    let dragging = StoredValue::new(None::<((usize, usize), f64)>);

    let cell = move |r: usize, c: usize, grid: Grid| {
        let rect = grid.cell_rect(r, c);
        let (cx, cy) = rect.centre();
        let value = move || values.with(|v| v.get((r, c)).copied().unwrap_or(0.0));
        let fill = move || palette.colour(value(), extent.get());
        let is_masked =
            move || masked.with(|m| m.as_ref().and_then(|m| m.get((r, c)).copied()) == Some(false));
        let lit = move || {
            highlight_rows.with(|h| h.contains(&r)) || highlight_cols.with(|h| h.contains(&c))
        };
        let hover = move |cell: Option<(usize, usize)>| {
            if let Some(callback) = on_hover {
                callback.run(cell);
            }
        };
        let select = move || {
            if let Some(callback) = on_select {
                callback.run((r, c));
            }
        };
        view! {
            <g class="cell-group" class:lit=lit>
                <rect
                    class="cell"
                    class:masked=is_masked
                    class:draggable=on_drag.is_some()
                    x=rect.x y=rect.y width=rect.width height=rect.height
                    fill=move || fill().hex()
                    data-row=r data-col=c
                    data-value=move || js_number(value())
                    data-masked=move || is_masked().then_some("true")
                    tabindex=interactive.then_some("0")
                    on:pointerenter=move |_| hover(Some((r, c)))
                    on:pointerleave=move |_| hover(None)
                    on:focus=move |_| hover(Some((r, c)))
                    on:blur=move |_| hover(None)
                    on:click=move |_| select()
                    on:pointerdown=move |e| {
                        if on_drag.is_some() {
                            // Capture keeps the drag going when the pointer leaves the cell.
                            if let Some(target) = e.target() {
                                use leptos::wasm_bindgen::JsCast;
                                if let Ok(element) = target.dyn_into::<web_sys::Element>() {
                                    let _ = element.set_pointer_capture(e.pointer_id());
                                }
                            }
                            dragging.set_value(Some(((r, c), f64::from(e.client_y()))));
                        }
                    }
                    on:pointermove=move |e| {
                        if let (Some(callback), Some((cell, last_y))) = (on_drag, dragging.get_value()) {
                            let y = f64::from(e.client_y());
                            if (e.buttons() & 1) == 1 && y != last_y {
                                dragging.set_value(Some((cell, y)));
                                callback.run((cell, y - last_y));
                            }
                        }
                    }
                    on:pointerup=move |_| dragging.set_value(None)
                    on:keydown=move |e| {
                        if e.key() == "Enter" || e.key() == " " {
                            e.prevent_default();
                            select();
                        }
                    }
                />
                <text x=cx y=cy class="cell-value" fill=move || fill().text_colour().hex()>
                    {move || two_decimals(value())}
                </text>
            </g>
        }
    };

    let tables = expect_context::<crate::app::ShowTables>().0;
    move || {
        let (rows, cols) = shape.get();
        let (row_names, col_names) = labels.get();
        if tables.get() {
            return table(testid, aria.get(lang.get()), values, &row_names, &col_names).into_any();
        }
        let longest = row_names
            .iter()
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(1);
        let grid = Grid::new(rows, cols, CELL, longest);
        let (width, height) = grid.size();
        let cells = (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .map(|(r, c)| cell(r, c, grid))
            .collect_view();
        let row_text = (0..rows)
            .map(|r| {
                let (x, y) = grid.row_label(r);
                let name = row_names.get(r).cloned().unwrap_or_default();
                view! { <text x=x y=y class="row-label">{name}</text> }
            })
            .collect_view();
        let col_text = (0..cols)
            .map(|c| {
                let (x, y) = grid.col_label(c);
                let name = col_names.get(c).cloned().unwrap_or_default();
                view! { <text x=x y=y class="col-label">{name}</text> }
            })
            .collect_view();
        view! {
            <svg
                class="diagram matrix"
                data-testid=testid
                role="img"
                aria-label=move || aria.get(lang.get())
                viewBox=format!("0 0 {width} {height}")
                width=width
                height=height
            >
                {row_text}
                {col_text}
                {cells}
            </svg>
        }
        .into_any()
    }
}

/// The same numbers as an HTML table, for the "show as tables" switch and for
/// screen readers. Cells keep the `data-*` hooks of the heatmap.
fn table(
    testid: &'static str,
    caption: &'static str,
    values: Signal<Array2<f64>>,
    row_names: &[String],
    col_names: &[String],
) -> impl IntoView {
    let (rows, cols) = values.with_untracked(Array2::dim);
    let header = col_names
        .iter()
        .map(|name| view! { <th scope="col">{name.clone()}</th> })
        .collect_view();
    let body = (0..rows)
        .map(|r| {
            let cells = (0..cols)
                .map(|c| {
                    let value = move || values.with(|v| v.get((r, c)).copied().unwrap_or(0.0));
                    view! {
                        <td data-row=r data-col=c data-value=move || js_number(value())>
                            {move || two_decimals(value())}
                        </td>
                    }
                })
                .collect_view();
            let name = row_names.get(r).cloned().unwrap_or_default();
            view! {
                <tr>
                    <th scope="row">{name}</th>
                    {cells}
                </tr>
            }
        })
        .collect_view();
    view! {
        <table class="matrix-table" data-testid=testid>
            <caption>{caption}</caption>
            <thead>
                <tr>
                    <th></th>
                    {header}
                </tr>
            </thead>
            <tbody>{body}</tbody>
        </table>
    }
}
