//! A labelled matrix drawn as a heatmap: the building block of every diagram.
//! The markup is written by [`markup`] and shown by [`SvgHost`], which turns
//! pointer and keyboard events on cells back into callbacks.

pub mod markup;
pub mod raster;

use crate::geometry::raster::is_raster;
use crate::i18n::{LangContext, Msg};
use crate::page::{CellEvent, SvgHost};
use crate::state::lab;
use leptos::either::Either;
use leptos::prelude::*;
use markup::MatrixSpec;
use ndarray::Array2;
use raster::{RasterHeatmap, RasterInputs};

/// Which colour scale a matrix uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Palette {
    /// Signed values (X, W, Q, K, V, scores): diverging blue–white–red around 0.
    Signed,
    /// Attention weights in [0, 1]: sequential viridis.
    Weight,
}

/// One part of the shown sequence (a matrix, the labels, …) as a memoised
/// signal, empty while the scenario cannot be computed. Memoised so every read
/// of it is a cheap borrow, not a fresh copy. `pick` is a plain function
/// pointer so that all parts of one type share one copy of the memo's code.
pub fn view_part<T>(
    view: Memo<Option<crate::lab::SequenceTrace>>,
    pick: fn(&crate::lab::SequenceTrace) -> &T,
) -> Signal<T>
where
    T: Clone + Default + PartialEq + Send + Sync + 'static,
{
    Memo::new(move |_| view.with(|v| v.as_ref().map(|v| pick(v).clone()).unwrap_or_default()))
        .into()
}

/// Labels `1` to `n`, for columns or rows that have no names of their own.
pub fn numbered(n: usize) -> Vec<String> {
    (1..=n).map(|i| i.to_string()).collect()
}

/// A matrix heatmap with row and column labels. Each cell is a `<rect>` with
/// `data-row`, `data-col` and `data-value` (full precision), or, past
/// `geometry::raster::MAX_DRAWN` rows or columns, a pixel of a raster with a
/// magnifier whose cells carry the same attributes ([`raster`]).
#[component]
pub fn MatrixGrid(
    /// `data-testid` of the `<svg>`, from the DOM contract (e.g. `"q"`).
    testid: &'static str,
    /// The matrix's name in the formulas (`α′`), first in each cell's name.
    symbol: &'static str,
    /// What the matrix shows, for screen readers (`aria-label`).
    aria: Msg,
    /// Whether it holds the shown head's numbers, which its name then says
    /// when there are several heads ("W_Q, head 2 of 4").
    #[prop(optional)]
    of_head: bool,
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
    /// The magnitude at both ends of a signed scale, shared by matrices drawn
    /// side by side so one colour means one value; by default the matrix's own largest.
    #[prop(into, optional)]
    extent: Option<Signal<f64>>,
    /// Rows to emphasise, e.g. the selected query's row.
    #[prop(into, optional)]
    highlight_rows: Signal<Vec<usize>>,
    /// Columns to emphasise.
    #[prop(into, optional)]
    highlight_cols: Signal<Vec<usize>>,
    /// Whether each cell is allowed; `false` cells are drawn masked and marked `data-masked="true"`.
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
    let LangContext(lang) = expect_context::<LangContext>();
    let lab = lab();
    let tables = lab.tables;
    let name = Memo::new(move |_| {
        let what = aria.get(lang.get());
        // Only a head's grid follows the head: the others never rerun.
        match of_head.then(|| lab.shown_head.get()).flatten() {
            Some(head) => format!("{what}, {}", crate::i18n::heads::head_of(head, lang.get())),
            None => what.to_owned(),
        }
    });
    let draggable = on_drag.is_some();
    // Memoised so a label signal that merely re-fires does not rewrite the markup.
    let labels = Memo::new(move |_| (row_labels.get(), col_labels.get()));
    // The values as last seen and which cells their last change touched; the
    // first drawing marks nothing, nor does a change of shape.
    let changes = Memo::new(
        move |previous: Option<&(Array2<f64>, Option<Array2<bool>>)>| {
            values.with(|now| {
                let marks = previous
                    .filter(|(before, _)| before.dim() == now.dim())
                    .map(|(before, _)| {
                        ndarray::Zip::from(before)
                            .and(now)
                            .map_collect(|a, b| a.to_bits() != b.to_bits())
                    });
                (now.clone(), marks)
            })
        },
    );
    // The structure (shape, labels, language, mode) is written as full markup;
    // values and highlights only repaint the cells already drawn, which keeps an
    // edit within a frame. Values are read untracked here: a repaint follows.
    let spec_of = move |values: &Array2<f64>, f: &dyn Fn(&MatrixSpec) -> String| {
        let (rows, cols) = labels.get();
        let allowed = masked.get();
        let changed = changes.with(|(_, marks)| marks.clone());
        f(&MatrixSpec {
            testid,
            symbol,
            masked_word: crate::i18n::MASKED.get(lang.get()),
            aria: &name.get(),
            values,
            origin: (0, 0),
            row_labels: &rows,
            col_labels: &cols,
            palette,
            extent: extent.map(|e| e.get()),
            allowed: allowed.as_ref(),
            changed: changed.as_ref(),
            decimals: 2,
            draggable,
            painted: true,
        })
    };
    let shape = Memo::new(move |_| values.with(Array2::dim));
    let markup = Memo::new(move |_| {
        if tables.get() {
            values.with(|v| spec_of(v, &markup::table))
        } else {
            shape.track();
            labels.track();
            lang.track();
            name.track();
            untrack(|| values.with(|v| spec_of(v, &markup::heatmap)))
        }
    });
    let repaint = Memo::new(move |_| {
        if tables.get() {
            String::new()
        } else {
            values.with(|v| spec_of(v, &markup::paint))
        }
    });
    let on_cell = Callback::new(move |event: CellEvent| match event {
        CellEvent::Hover(cell) => {
            if let Some(callback) = on_hover {
                callback.run(cell);
            }
        }
        CellEvent::Select(cell) => {
            if let Some(callback) = on_select {
                callback.run(cell);
            }
        }
        CellEvent::Drag(cell, dy) => {
            if let Some(callback) = on_drag {
                callback.run((cell, dy));
            }
        }
    });
    let lit = Signal::derive(move || (highlight_rows.get(), highlight_cols.get()));
    let raster = Memo::new(move |_| is_raster(shape.get()));
    let inputs = RasterInputs {
        testid,
        symbol,
        aria: name,
        values,
        labels,
        palette,
        extent,
        lit,
        shape,
        masked,
    };
    // The markup memos above are read only while the SVG is shown, so a raster
    // never writes a drawn cell.
    move || {
        if raster.get() {
            Either::Left(
                view! { <RasterHeatmap inputs=inputs on_hover=on_hover on_select=on_select /> },
            )
        } else {
            Either::Right(view! {
                <SvgHost
                    markup=markup
                    on_cell=on_cell
                    draggable=draggable
                    repaint=Signal::from(repaint)
                    lit=lit
                />
            })
        }
    }
}
