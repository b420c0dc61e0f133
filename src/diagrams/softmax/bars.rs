//! The selected query's weights α′_i1 … α′_iT as bars, one per key, with the
//! softmax of the bar under the pointer worked out below. The markup is
//! written by [`markup::side`]; this component only feeds it and listens.

mod markup;

use crate::diagrams::host::{CellEvent, SvgHost};
use crate::i18n::LangContext;
use crate::lab::SequenceTrace;
use crate::state::{Focus, LabView};
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
    let LabView(view) = expect_context::<LabView>();
    let LangContext(lang) = expect_context::<LangContext>();
    let focus = expect_context::<Focus>();
    // The bar under the pointer or keyboard focus, whose softmax is explained.
    let hovered = RwSignal::new(None::<usize>);
    let side = Memo::new(move |_| {
        let i = focus.query.get();
        let shown = hovered.get().unwrap_or_else(|| focus.key.get());
        let row = view
            .with(|v| v.as_ref().and_then(|t| QueryRow::new(t, i)))
            .unwrap_or_default();
        markup::side(&row, shown, lang.get())
    });
    let on_cell = Callback::new(move |event: CellEvent| match event {
        CellEvent::Hover(cell) => hovered.set(cell.map(|(_, j)| j)),
        CellEvent::Select((_, j)) => focus.key.set(j),
        CellEvent::Drag(..) => {}
    });

    view! {
        <div class="softmax-side">
            <SvgHost markup=side on_cell=on_cell />
        </div>
    }
}
