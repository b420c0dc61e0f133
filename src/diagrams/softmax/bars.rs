//! The selected query's weights α′_i1 … α′_iT as bars, one per key, with the
//! softmax of the bar under the pointer worked out below. The markup is
//! written by [`markup`]; this component only feeds it and listens.

mod markup;

use crate::i18n::{self, LangContext};
use crate::lab::SequenceTrace;
use crate::page::{CellEvent, SvgHost};
use crate::state::lab;
use leptos::prelude::*;

/// Row i of the trace: what the bars and the formula need.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct QueryRow {
    pub query: usize,
    pub labels: Vec<String>,
    /// The scaled scores α_i1 … α_iT.
    pub scores: Vec<f64>,
    pub allowed: Vec<bool>,
    pub weights: Vec<f64>,
}

impl QueryRow {
    /// Row `i` of `t`, or `None` while the selection lies outside the sequence.
    pub fn new(t: &SequenceTrace, i: usize) -> Option<Self> {
        (i < t.len()).then(|| Self {
            query: i,
            labels: t.labels.clone(),
            scores: t.scaled.row(i).to_vec(),
            allowed: t.allowed.row(i).to_vec(),
            weights: t.weights.row(i).to_vec(),
        })
    }
}

/// The bar chart of query i's weights, its formula and its row sum.
#[component]
pub fn SoftmaxBars() -> impl IntoView {
    let lab = lab();
    let view = lab.view;
    let LangContext(lang) = expect_context::<LangContext>();
    let focus = lab.focus;
    // The bar under the pointer or keyboard focus, whose softmax is explained.
    let hovered = RwSignal::new(None::<usize>);
    let row = Memo::new(move |_| {
        let i = focus.query.get();
        view.with(|v| v.as_ref().and_then(|t| QueryRow::new(t, i)))
            .unwrap_or_default()
    });
    let shown = move || hovered.get().unwrap_or_else(|| focus.key.get());
    let labels = Memo::new(move |_| view.with(|v| v.as_ref().map(|t| t.labels.clone())));
    // The bars' markup follows only the keys and the language; a new query,
    // new weights or another bar pointed at repaints the bars in place.
    let chart = Memo::new(move |_| {
        let aria = i18n::BARS_ARIA.get(lang.get());
        labels.with(|labels| markup::chart(labels.as_deref().unwrap_or_default(), aria))
    });
    let paint = Memo::new(move |_| {
        row.with(|row| markup::bar_paint(row, shown(), i18n::MASKED.get(lang.get())))
    });
    let heading = Memo::new(move |_| row.with(|row| markup::heading(row, lang.get())));
    let below = Memo::new(move |_| row.with(|row| markup::below(row, shown(), lang.get())));
    let on_cell = Callback::new(move |event: CellEvent| match event {
        CellEvent::Hover(cell) => hovered.set(cell.map(|(_, j)| j)),
        CellEvent::Select((_, j)) => focus.key.set(j),
        CellEvent::Drag(..) => {}
    });

    view! {
        <div class="softmax-side">
            <SvgHost markup=heading />
            <div class="scroll">
                <SvgHost markup=chart on_cell=on_cell bars=Signal::from(paint) />
            </div>
            <SvgHost markup=below />
        </div>
    }
}
