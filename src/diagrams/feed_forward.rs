//! The block's matrices for the shown layer, a row per token: LayerNorm₁'s
//! output with its γ and β, the feed-forward network (W₁, its hidden layer
//! before and after the activation, W₂, its output), LayerNorm₂'s output
//! with its γ and β, and the layer's output. W₁, W₂, γ and β can be edited
//! like X's cells. Hidden without a block.
//!
//! Built as: a view of heatmaps, `MatrixGrid`s and `SvgHost`s (ARCHITECTURE.md: Adding a card).

use crate::diagrams::editor::{heatmap_of, Editing};
use crate::diagrams::matrix::{numbered, view_part, MatrixGrid, Palette};
use crate::i18n::{block as text, tr, Msg};
use crate::lab::{BlockView, Editable};
use crate::state::lab;
use leptos::prelude::*;
use ndarray::Array2;

/// A part of the shown layer as a memoised signal, empty without a block.
fn block_part(
    block: Memo<Option<BlockView>>,
    pick: fn(&BlockView) -> Array2<f64>,
) -> Signal<Array2<f64>> {
    Memo::new(move |_| block.with(|b| b.as_ref().map(pick).unwrap_or_default())).into()
}

/// One heatmap of the card, with its caption.
#[component]
fn Part(
    caption: &'static str,
    testid: &'static str,
    symbol: &'static str,
    aria: Msg,
    values: Signal<Array2<f64>>,
    rows: Signal<Vec<String>>,
    #[prop(optional)] highlight_rows: Option<Signal<Vec<usize>>>,
    #[prop(optional)] editable: Option<(Editing, Editable)>,
) -> impl IntoView {
    let cols = Signal::from(Memo::new(move |_| numbered(values.with(Array2::ncols))));
    let highlight = highlight_rows.unwrap_or_else(|| Signal::derive(Vec::new));
    let grid = match editable {
        Some((editing, which)) => view! {
            <MatrixGrid
                testid=heatmap_of(which)
                symbol=symbol
                aria=aria
                values=values
                row_labels=rows
                col_labels=cols
                palette=Palette::Signed
                highlight_rows=highlight
                on_select=editing.select(which)
                on_drag=editing.drag(which)
            />
        }
        .into_any(),
        None => view! {
            <MatrixGrid
                testid=testid
                symbol=symbol
                aria=aria
                values=values
                row_labels=rows
                col_labels=cols
                palette=Palette::Signed
                highlight_rows=highlight
            />
        }
        .into_any(),
    };
    view! {
        <figure>
            <figcaption>{caption}</figcaption>
            {grid}
        </figure>
    }
}

/// LayerNorm and the feed-forward network of the shown layer, as heatmaps.
#[component]
pub fn FeedForward() -> impl IntoView {
    let lab = lab();
    let (block, focus) = (lab.block, lab.focus);
    let editing = Editing::new(|_| false);
    let tokens = view_part(lab.view, |t| &t.labels);
    let query_row = Signal::derive(move || vec![focus.query.get()]);
    let numbered_rows = |values: Signal<Array2<f64>>| {
        Signal::from(Memo::new(move |_| numbered(values.with(Array2::nrows))))
    };
    let named = |name: &'static str| Signal::derive(move || vec![name.to_string()]);
    let norm_1 = block_part(block, |b| b.norm_1.output.clone());
    let gamma_1 = block_part(block, |b| b.norm_1.gamma.clone());
    let beta_1 = block_part(block, |b| b.norm_1.beta.clone());
    let ffn_input = block_part(block, |b| b.ffn_input.clone());
    let w_1 = block_part(block, |b| b.w_1.clone());
    let hidden = block_part(block, |b| b.hidden.clone());
    let activated = block_part(block, |b| b.activated.clone());
    let w_2 = block_part(block, |b| b.w_2.clone());
    let ffn = block_part(block, |b| b.ffn.clone());
    let norm_2 = block_part(block, |b| b.norm_2.output.clone());
    let gamma_2 = block_part(block, |b| b.norm_2.gamma.clone());
    let beta_2 = block_part(block, |b| b.norm_2.beta.clone());
    let output = block_part(block, |b| b.output.clone());
    let hidden_rows = numbered_rows(w_2);
    let feature_rows = numbered_rows(w_1);
    view! {
        <section
            class="card feed-forward"
            data-diagram="feed-forward"
            hidden=move || block.with(Option::is_none)
        >
            <h2>{tr(text::MATRICES_TITLE)}</h2>
            <p class="explain">{tr(text::MATRICES_EXPLAIN)}</p>
            <div class="scroll">
                <div class="projection block-matrices">
                    <Part caption="LN₁" testid="norm-1" symbol="LN₁" aria=text::NORM_1_ARIA
                        values=norm_1 rows=tokens highlight_rows=query_row />
                    <Part caption="γ₁" testid="gamma-1" symbol="γ₁" aria=text::GAMMA_ARIA
                        values=gamma_1 rows=named("γ₁") editable=(editing, Editable::Gamma1) />
                    <Part caption="β₁" testid="beta-1" symbol="β₁" aria=text::BETA_ARIA
                        values=beta_1 rows=named("β₁") editable=(editing, Editable::Beta1) />
                </div>
                <div class="projection block-matrices">
                    <Part caption="x" testid="ffn-input" symbol="x" aria=text::FFN_INPUT
                        values=ffn_input rows=tokens highlight_rows=query_row />
                    <span class="operator">"×"</span>
                    <Part caption="W₁" testid="w-1" symbol="W₁" aria=text::W_1_ARIA
                        values=w_1 rows=feature_rows editable=(editing, Editable::W1) />
                    <span class="operator">"="</span>
                    <Part caption="x·W₁ + b₁" testid="ffn-hidden" symbol="H" aria=text::HIDDEN_ARIA
                        values=hidden rows=tokens highlight_rows=query_row />
                    <span class="operator">"→"</span>
                    <Part caption="act(H)" testid="ffn-activated" symbol="act(H)" aria=text::ACTIVATED_ARIA
                        values=activated rows=tokens highlight_rows=query_row />
                    <span class="operator">"×"</span>
                    <Part caption="W₂" testid="w-2" symbol="W₂" aria=text::W_2_ARIA
                        values=w_2 rows=hidden_rows editable=(editing, Editable::W2) />
                    <span class="operator">"="</span>
                    <Part caption="FFN" testid="ffn-out" symbol="FFN" aria=text::FFN_ARIA
                        values=ffn rows=tokens highlight_rows=query_row />
                </div>
                <div class="projection block-matrices">
                    <Part caption="LN₂" testid="norm-2" symbol="LN₂" aria=text::NORM_2_ARIA
                        values=norm_2 rows=tokens highlight_rows=query_row />
                    <Part caption="γ₂" testid="gamma-2" symbol="γ₂" aria=text::GAMMA_ARIA
                        values=gamma_2 rows=named("γ₂") editable=(editing, Editable::Gamma2) />
                    <Part caption="β₂" testid="beta-2" symbol="β₂" aria=text::BETA_ARIA
                        values=beta_2 rows=named("β₂") editable=(editing, Editable::Beta2) />
                    <Part caption="y" testid="block-output" symbol="y" aria=text::OUTPUT_ARIA
                        values=output rows=tokens highlight_rows=query_row />
                </div>
            </div>
            {editing.editor()}
        </section>
    }
}
