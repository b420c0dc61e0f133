//! The selected score worked out: the rows Q_i and K_j side by side, their
//! dot product term by term, and the scaling that turns it into α_ij.

use crate::app::{Focus, LabScenario, LabView};
use crate::diagrams::matrix::{MatrixGrid, Palette};
use crate::geometry::dot_text::{dot_expansion, scaling_step, unscaled_step};
use crate::geometry::format::subscript;
use crate::i18n::{self, tr};
use crate::lab::SequenceTrace;
use leptos::prelude::*;
use ndarray::{Array2, Axis};

/// Everything shown about score (i, j), read from the trace.
#[derive(Clone, Debug, Default, PartialEq)]
struct Detail {
    q: Array2<f64>,
    k: Array2<f64>,
    q_name: Vec<String>,
    k_name: Vec<String>,
    columns: Vec<String>,
    expansion: String,
    step: String,
    masked: bool,
}

impl Detail {
    /// The detail of score (i, j), or `None` while the selection lies outside
    /// the sequence (it is clamped a moment after tokens are removed).
    fn new(t: &SequenceTrace, (i, j): (usize, usize), scaling_on: bool) -> Option<Self> {
        if i >= t.len() || j >= t.len() {
            return None;
        }
        let (q, k) = (t.q.row(i), t.k.row(j));
        let raw = *t.scores.get((i, j))?;
        let step = if scaling_on {
            scaling_step(i, j, raw, t.d_k(), *t.scaled.get((i, j))?)
        } else {
            unscaled_step(i, j, raw)
        };
        Some(Self {
            expansion: dot_expansion(i, j, &q.to_vec(), &k.to_vec()),
            q: q.to_owned().insert_axis(Axis(0)),
            k: k.to_owned().insert_axis(Axis(0)),
            q_name: vec![format!("Q{}", subscript(i + 1))],
            k_name: vec![format!("K{}", subscript(j + 1))],
            columns: (1..=t.d_k()).map(|c| c.to_string()).collect(),
            step,
            masked: !*t.allowed.get((i, j))?,
        })
    }
}

/// The worked dot product of the selected query and key.
#[component]
pub fn Expansion() -> impl IntoView {
    let LabView(view) = expect_context::<LabView>();
    let LabScenario(scenario) = expect_context::<LabScenario>();
    let focus = expect_context::<Focus>();
    let scaling_on = Memo::new(move |_| scenario.with(|s| s.options.scale));
    let detail = Memo::new(move |_| {
        let pick = (focus.query.get(), focus.key.get());
        let scaling_on = scaling_on.get();
        view.with(|v| v.as_ref().and_then(|t| Detail::new(t, pick, scaling_on)))
            .unwrap_or_default()
    });
    let part = move |f: fn(&Detail) -> Array2<f64>| Signal::derive(move || detail.with(f));
    let name = move |f: fn(&Detail) -> Vec<String>| Signal::derive(move || detail.with(f));

    view! {
        <div class="dot-detail" data-testid="dot-detail">
            <div class="scroll">
                <MatrixGrid
                    testid="q-row"
                    aria=i18n::Q_ROW_ARIA
                    values=part(|d| d.q.clone())
                    row_labels=name(|d| d.q_name.clone())
                    col_labels=name(|d| d.columns.clone())
                    palette=Palette::Signed
                    highlight_rows=vec![0]
                />
                <MatrixGrid
                    testid="k-row"
                    aria=i18n::K_ROW_ARIA
                    values=part(|d| d.k.clone())
                    row_labels=name(|d| d.k_name.clone())
                    col_labels=name(|d| d.columns.clone())
                    palette=Palette::Signed
                    highlight_rows=vec![0]
                />
            </div>
            <p class="formula" data-testid="dot-expansion">
                {move || detail.with(|d| d.expansion.clone())}
            </p>
            <p class="formula" data-testid="dot-scaling">
                {move || detail.with(|d| d.step.clone())}
            </p>
            <Show when=move || !scaling_on.get()>
                <p class="note" data-testid="dot-scaling-off">{tr(i18n::SCALING_OFF)}</p>
            </Show>
            <Show when=move || detail.with(|d| d.masked)>
                <p class="note masked-note" data-testid="dot-masked">
                    {tr(i18n::SCORE_MASKED)}
                </p>
            </Show>
        </div>
    }
}
