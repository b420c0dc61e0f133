//! Diagram 5, with several heads or a W_O: the heads' outputs joined side by
//! side and multiplied by the output projection, Concat(head₁, …, head_h)·W_O
//! = output. W_O's cells can be edited like X's and the W matrices'.
//!
//! Built as: a view of heatmaps, `MatrixGrid`s and `SvgHost`s (ARCHITECTURE.md: Adding a card).

use crate::diagrams::editor::{heatmap_of, Editing};
use crate::diagrams::matrix::{numbered, view_part, MatrixGrid, Palette};
use crate::geometry::extent::symmetric_extent;
use crate::i18n::{heads as text, tr, walkthrough};
use crate::lab::{Editable, LayerView};
use crate::state::lab;
use leptos::prelude::*;
use ndarray::Array2;

/// Column labels of the joined heads: `1·1, 1·2, 2·1, …` (head · column).
pub fn concat_labels(heads: usize, width: usize) -> Vec<String> {
    (1..=heads)
        .flat_map(|h| (1..=width).map(move |c| format!("{h}·{c}")))
        .collect()
}

/// A part of the layer's shown sequence as a memoised signal, empty while
/// there is no layer to show.
fn layer_part(
    layer: Memo<Option<LayerView>>,
    pick: fn(&LayerView) -> Array2<f64>,
) -> Signal<Array2<f64>> {
    Memo::new(move |_| layer.with(|l| l.as_ref().map(pick).unwrap_or_default())).into()
}

/// The joined heads, W_O and the layer's output; hidden for the lessons' one head.
#[component]
pub fn OutputProjection() -> impl IntoView {
    let lab = lab();
    let layer = lab.layer;
    let view = lab.view;
    let focus = lab.focus;
    let editing = Editing::new(|_| false);

    let concat = layer_part(layer, |l| l.concat.clone());
    let w_o = layer_part(layer, |l| l.w_o.clone().unwrap_or_default());
    let output = layer_part(layer, |l| l.output.clone());
    let has_w_o = Memo::new(move |_| layer.with(|l| l.as_ref().is_some_and(|l| l.w_o.is_some())));
    // One colour scale for the three, so one colour means one value.
    let extent = Signal::from(Memo::new(move |_| {
        let largest = |m: Signal<Array2<f64>>| m.with(symmetric_extent);
        largest(concat).max(largest(w_o)).max(largest(output))
    }));
    let tokens = view_part(view, |t| &t.labels);
    let joined = Signal::from(Memo::new(move |_| {
        layer.with(|l| {
            l.as_ref().map_or_else(Vec::new, |l| {
                concat_labels(l.heads(), l.concat.ncols() / l.heads().max(1))
            })
        })
    }));
    let outputs = Signal::from(Memo::new(move |_| numbered(output.with(Array2::ncols))));
    // The selected query's row, in the joined heads and the output.
    let query_row = Signal::derive(move || vec![focus.query.get()]);
    // Looked up once: `tr` inside the closure would build a signal per change.
    let (edit_hint, no_w_o) = (tr(text::EDIT_W_O), tr(text::NO_W_O));

    view! {
        <section
            class="card"
            data-diagram="output-projection"
            hidden=move || layer.with(Option::is_none)
        >
            <h2>{tr(walkthrough::OUTPUT_TITLE)}</h2>
            <p class="explain">{tr(walkthrough::OUTPUT_TEXT)}</p>
            <div class="scroll">
                <div class="projection output-projection">
                    <figure>
                        <figcaption>{tr(text::CONCAT)}</figcaption>
                        <MatrixGrid
                            testid="concat"
                            symbol="Concat"
                            aria=text::CONCAT_ARIA
                            values=concat
                            row_labels=tokens
                            col_labels=joined
                            palette=Palette::Signed
                            extent=extent
                            highlight_rows=query_row
                        />
                    </figure>
                    // Without W_O the output is the joined heads themselves.
                    <span class="operator" hidden=move || !has_w_o.get()>"×"</span>
                    <figure hidden=move || !has_w_o.get()>
                        <figcaption>"W_O"</figcaption>
                        <MatrixGrid
                            testid=heatmap_of(Editable::WO)
                            symbol="W_O"
                            aria=text::W_O_ARIA
                            values=w_o
                            row_labels=joined
                            col_labels=outputs
                            palette=Palette::Signed
                            extent=extent
                            on_select=editing.select(Editable::WO)
                            on_drag=editing.drag(Editable::WO)
                        />
                    </figure>
                    <span class="operator">"="</span>
                    <figure>
                        <figcaption>{tr(text::OUTPUT)}</figcaption>
                        <MatrixGrid
                            testid="layer-output"
                            symbol="MultiHead"
                            aria=text::OUTPUT_ARIA
                            values=output
                            row_labels=tokens
                            col_labels=outputs
                            palette=Palette::Signed
                            extent=extent
                            highlight_rows=query_row
                        />
                    </figure>
                </div>
            </div>
            <p class="note" data-testid="output-projection-note">
                {move || if has_w_o.get() { edit_hint.get() } else { no_w_o.get() }}
            </p>
            {editing.editor()}
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joined_columns_name_their_head() {
        assert_eq!(concat_labels(2, 2), ["1·1", "1·2", "2·1", "2·2"]);
        assert!(concat_labels(1, 0).is_empty());
    }
}
