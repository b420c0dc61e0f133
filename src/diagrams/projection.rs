//! Diagram 1: the projections Q = XW_Q, K = XW_K and V = XW_V.
//!
//! Built as: a view of heatmaps, `MatrixGrid`s and `SvgHost`s (ARCHITECTURE.md: Adding a card).

use crate::diagrams::editor::{heatmap_of, Editing};
use crate::diagrams::heads::ShownHead;
use crate::diagrams::legend::ColourLegend;
use crate::diagrams::matrix::{numbered, view_part, MatrixGrid, Palette};
use crate::geometry::extent::symmetric_extent;
use crate::geometry::format::{subscript, sum_of_products};
use crate::i18n::{order, projection as text, tr, Msg};
use crate::lab::{Editable, SequenceTrace};
use crate::state::lab;
use leptos::prelude::*;
use ndarray::Array2;

/// Which result matrix a hovered cell belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Product {
    Q,
    K,
    V,
}

/// Everything that names one projection on screen: its matrices' labels, test
/// ids and descriptions, and which weights the learner edits.
struct Names {
    result: &'static str,
    weights: &'static str,
    result_testid: &'static str,
    result_aria: Msg,
    weights_aria: Msg,
    editable: Editable,
    weights_of: fn(&SequenceTrace) -> &Array2<f64>,
    result_of: fn(&SequenceTrace) -> &Array2<f64>,
}

impl Product {
    fn names(self) -> Names {
        match self {
            Product::Q => Names {
                result: "Q",
                weights: "W_Q",
                result_testid: "q",
                result_aria: text::Q_ARIA,
                weights_aria: text::W_Q_ARIA,
                editable: Editable::WQ,
                weights_of: |v| &v.w_q,
                result_of: SequenceTrace::q_projected,
            },
            Product::K => Names {
                result: "K",
                weights: "W_K",
                result_testid: "k",
                result_aria: text::K_ARIA,
                weights_aria: text::W_K_ARIA,
                editable: Editable::WK,
                weights_of: |v| &v.w_k,
                result_of: SequenceTrace::k_projected,
            },
            Product::V => Names {
                result: "V",
                weights: "W_V",
                result_testid: "v",
                result_aria: text::V_ARIA,
                weights_aria: text::W_V_ARIA,
                editable: Editable::WV,
                weights_of: |v| &v.w_v,
                result_of: |v| &v.v,
            },
        }
    }
}

/// `Q₂,₃ = X₂ · W_Q[:,3] = 0.31×1.20 + … = 1.73`: how one cell of Q, K or V is made.
fn explain_cell(
    view: &SequenceTrace,
    product: Product,
    (row, col): (usize, usize),
) -> Option<String> {
    // The total is the trace's; reading it first keeps the row and column
    // lookups in range.
    let total = *(product.names().result_of)(view).get((row, col))?;
    let x_row = view.x.row(row);
    let w_col = (product.names().weights_of)(view).column(col);
    Some(format!(
        "{name}{r},{c} = X{r} · W_{name}[:, {column}] = {sum}",
        name = product.names().result,
        r = subscript(row + 1),
        c = subscript(col + 1),
        column = col + 1,
        sum = sum_of_products(&x_row.to_vec(), &w_col.to_vec(), total, 8),
    ))
}

/// X times each W gives Q, K and V; hovering a result cell explains it, and
/// the cells of X and the W matrices can be edited.
#[component]
pub fn Projection() -> impl IntoView {
    let lab = lab();
    let view = lab.view;
    let focus = lab.focus;
    let hovered = RwSignal::new(None::<(Product, usize, usize)>);

    // One colour scale for X, the W matrices and Q, K, V, so one colour means one value.
    let extent = Signal::from(Memo::new(move |_| {
        view.with(|v| {
            v.as_ref().map_or(1.0, |v| {
                [&v.x, &v.w_q, &v.w_k, &v.w_v, &v.q, &v.k, &v.v]
                    .into_iter()
                    .map(symmetric_extent)
                    .fold(0.0, f64::max)
            })
        })
    }));
    let tokens = view_part(view, |v| &v.labels);
    let features = Signal::from(Memo::new(move |_| {
        numbered(view.with(|v| v.as_ref().map_or(0, |v| v.x.ncols())))
    }));
    let columns = Signal::from(Memo::new(move |_| {
        numbered(view.with(|v| v.as_ref().map_or(0, SequenceTrace::d_k)))
    }));

    // X's row lights up for the hovered result cell's token, or else the selected query.
    let x_rows = Signal::derive(move || match hovered.get() {
        Some((_, row, _)) => vec![row],
        None => vec![focus.query.get()],
    });
    let w_cols = move |product: Product| {
        Signal::derive(move || match hovered.get() {
            Some((p, _, col)) if p == product => vec![col],
            _ => vec![],
        })
    };
    let result_rows = move |product: Product| {
        Signal::derive(move || match hovered.get() {
            Some((p, row, _)) if p == product => vec![row],
            Some(_) => vec![],
            None => vec![focus.query.get()],
        })
    };
    let hover = move |product: Product| {
        Callback::new(move |cell: Option<(usize, usize)>| {
            let next = cell.map(|(r, c)| (product, r, c));
            if hovered.get_untracked() != next {
                hovered.set(next);
            }
        })
    };
    // With positions added, the first matrix here is X + P: X itself is
    // edited in the positions card, beside P.
    let added =
        Memo::new(move |_| view.with(|v| v.as_ref().is_some_and(SequenceTrace::adds_positions)));
    let editing = Editing::new(move |which| which == Editable::X && added.get_untracked());
    let weight_row = move |product: Product| {
        let names = product.names();
        view! {
            <div class="projection-step">
                <span class="operator">"×"</span>
                <figure>
                    <figcaption>{names.weights}</figcaption>
                    <MatrixGrid
                        testid=heatmap_of(names.editable)
                        symbol=names.weights
                        aria=names.weights_aria
                        of_head=true
                        values=view_part(view, names.weights_of)
                        row_labels=features
                        col_labels=columns
                        palette=Palette::Signed
                        extent=extent
                        highlight_cols=w_cols(product)
                        on_select=editing.select(names.editable)
                        on_drag=editing.drag(names.editable)
                    />
                </figure>
                <span class="operator">"="</span>
                <figure>
                    <figcaption>{names.result}</figcaption>
                    <MatrixGrid
                        testid=names.result_testid
                        symbol=names.result
                        aria=names.result_aria
                        of_head=true
                        values=view_part(view, names.result_of)
                        row_labels=tokens
                        col_labels=columns
                        palette=Palette::Signed
                        extent=extent
                        highlight_rows=result_rows(product)
                        on_hover=hover(product)
                    />
                </figure>
            </div>
        }
    };
    // Looked up once: `tr` inside the closure would build a new signal per hover.
    let hint = tr(text::HINT);
    let explanation = move || {
        hovered.get().and_then(|(p, r, c)| {
            view.with(|v| v.as_ref().and_then(|v| explain_cell(v, p, (r, c))))
        })
    };

    view! {
        // Where the page's skip link leads.
        <section class="card" data-diagram="projection" id="diagrams" tabindex="-1">
            <h2>{tr(text::TITLE)}<ShownHead /></h2>
            <p class="explain">{tr(text::EXPLAIN)}</p>
            <div class="scroll">
                <div class="projection">
                    <figure>
                        <figcaption>{move || if added.get() { "X + P" } else { "X" }}</figcaption>
                        <MatrixGrid
                            testid=heatmap_of(Editable::X)
                            symbol="X"
                            aria=text::X_ARIA
                            values=view_part(view, |v| &v.x)
                            row_labels=tokens
                            col_labels=features
                            palette=Palette::Signed
                            extent=extent
                            highlight_rows=x_rows
                            on_select=editing.select(Editable::X)
                            on_drag=editing.drag(Editable::X)
                        />
                    </figure>
                    <div class="projection-steps">
                        {weight_row(Product::Q)}
                        {weight_row(Product::K)}
                        {weight_row(Product::V)}
                    </div>
                </div>
            </div>
            <ColourLegend
                testid="projection-legend"
                palette=Palette::Signed
                extent=extent
                title=text::LEGEND_TITLE
                aria=text::LEGEND_ARIA
            />
            <p class="note" data-testid="changed-note">{tr(text::CHANGED_NOTE)}</p>
            <p class="note" hidden=move || !added.get()>{tr(order::EDIT_X_HERE)}</p>
            <p class="formula" data-testid="projection-explain" aria-live="polite">
                {move || explanation().unwrap_or_else(|| hint.get().to_string())}
            </p>
            {editing.editor()}
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use attention_core::presets::sentence;

    #[test]
    fn a_cell_is_explained_with_its_own_numbers() {
        let s = sentence();
        let trace = s.run().unwrap().into_head(0);
        let view = SequenceTrace::new(&trace, 0, crate::lab::token_labels(&s));
        let text = explain_cell(&view, Product::K, (1, 2)).unwrap();
        assert!(text.starts_with("K₂,₃ = X₂ · W_K[:, 3] = "), "{text}");
        let total = crate::geometry::format::two_decimals(view.k[[1, 2]]);
        assert!(text.ends_with(&format!("= {total}")), "{text}");
        assert_eq!(explain_cell(&view, Product::Q, (9, 0)), None);
    }
}
