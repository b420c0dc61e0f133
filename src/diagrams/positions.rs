//! The positions diagram, with sinusoidal or learned positions: X + P, the input that
//! the projections take. X's cells can be edited here, and P's too when
//! the positions are learned.
//!
//! Built as: a view of heatmaps, `MatrixGrid`s and `SvgHost`s (ARCHITECTURE.md: Adding a card).

use crate::diagrams::editor::{heatmap_of, Editing};
use crate::diagrams::matrix::{numbered, view_part, MatrixGrid, Palette};
use crate::geometry::extent::symmetric_extent;
use crate::i18n::{order as text, projection, tr};
use crate::lab::{Editable, SequenceTrace};
use crate::state::lab;
use attention_core::positions::Positions;
use leptos::prelude::*;
use ndarray::{Array2, Axis};

/// X, the positions P added to it, and their sum; hidden without them.
#[component]
pub fn PositionsCard() -> impl IntoView {
    let lab = lab();
    let view = lab.view;
    let trace = lab.trace;
    let scenario = lab.scenario;
    let focus = lab.focus;
    let positions =
        Memo::new(move |_| view.with(|v| v.as_ref().map_or(Positions::None, |v| v.positions)));
    let shown =
        Memo::new(move |_| view.with(|v| v.as_ref().is_some_and(SequenceTrace::adds_positions)));
    let x = Signal::from(Memo::new(move |_| {
        if !shown.get() {
            return Array2::default((0, 0));
        }
        let b = focus.sequence.get();
        scenario.with(|s| {
            let b = b.min(s.x.dim().0.saturating_sub(1));
            s.x.index_axis(Axis(0), b).to_owned()
        })
    }));
    let p = Signal::from(Memo::new(move |_| {
        trace.with(|t| {
            t.as_ref()
                .ok()
                .and_then(|t| t.added_positions.clone())
                .unwrap_or_default()
        })
    }));
    let encoded = Signal::from(Memo::new(move |_| {
        view.with(|v| {
            v.as_ref()
                .filter(|v| v.adds_positions())
                .map(|v| v.x.clone())
                .unwrap_or_default()
        })
    }));
    let extent = Signal::from(Memo::new(move |_| {
        [x, p, encoded]
            .into_iter()
            .map(|m| m.with(symmetric_extent))
            .fold(0.0, f64::max)
    }));
    let tokens = view_part(view, |t| &t.labels);
    let places = Signal::from(Memo::new(move |_| {
        // Positions count from 0, as the formula does.
        (0..tokens.with(Vec::len))
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
    }));
    let features = Signal::from(Memo::new(move |_| numbered(x.with(Array2::ncols))));
    let query_row = Signal::derive(move || vec![focus.query.get()]);
    // P is the learner's only when the positions are learned.
    let editing = Editing::new(move |which| {
        which == Editable::P && positions.get_untracked() != Positions::Learned
    });
    let explain = move || match positions.get() {
        Positions::Learned => text::LEARNED_EXPLAIN,
        _ => text::SINUSOIDAL_EXPLAIN,
    };
    let lang = expect_context::<crate::i18n::LangContext>().0;

    view! {
        <section class="card" data-diagram="positions" data-testid="positions-card" hidden=move || !shown.get()>
            <h2>{tr(text::ADDED_TITLE)}</h2>
            <p class="explain">{move || explain().get(lang.get())}</p>
            <div class="scroll">
                <div class="projection">
                    <figure>
                        <figcaption>"X"</figcaption>
                        <MatrixGrid
                            testid="x-input"
                            symbol="X"
                            aria=projection::X_ARIA
                            values=x
                            row_labels=tokens
                            col_labels=features
                            palette=Palette::Signed
                            extent=extent
                            highlight_rows=query_row
                            on_select=editing.select(Editable::X)
                            on_drag=editing.drag(Editable::X)
                        />
                    </figure>
                    <span class="operator">"+"</span>
                    <figure>
                        <figcaption>"P"</figcaption>
                        <MatrixGrid
                            testid=heatmap_of(Editable::P)
                            symbol="P"
                            aria=text::P_ARIA
                            values=p
                            row_labels=places
                            col_labels=features
                            palette=Palette::Signed
                            extent=extent
                            highlight_rows=query_row
                            on_select=editing.select(Editable::P)
                            on_drag=editing.drag(Editable::P)
                        />
                    </figure>
                    <span class="operator">"="</span>
                    <figure>
                        <figcaption>"X + P"</figcaption>
                        <MatrixGrid
                            testid="x-encoded"
                            symbol="X + P"
                            aria=text::ENCODED_ARIA
                            values=encoded
                            row_labels=tokens
                            col_labels=features
                            palette=Palette::Signed
                            extent=extent
                            highlight_rows=query_row
                        />
                    </figure>
                </div>
            </div>
            {editing.editor()}
        </section>
    }
}
