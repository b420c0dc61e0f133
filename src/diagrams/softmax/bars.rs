//! The selected query's weights α′_i1 … α′_iT as bars, one per key, with the
//! softmax of the bar under the pointer worked out below.

use super::formula::WeightFormula;
use crate::app::{Focus, LabView};
use crate::geometry::bars::{short_label, BarLayout};
use crate::geometry::colour::weight_colour;
use crate::geometry::format::{js_number, two_decimals};
use crate::i18n::{self, tr};
use crate::lab::SequenceTrace;
use leptos::prelude::*;

/// Width of one key's column and height of the chart, in SVG units.
const SLOT: f64 = 56.0;
const HEIGHT: f64 = 190.0;
/// Longest key label under a bar; the full label is in its tooltip.
const LABEL_CHARS: usize = 6;

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
    fn new(t: &SequenceTrace, i: usize) -> Option<Self> {
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
    let focus = expect_context::<Focus>();
    let row = Memo::new(move |_| {
        let i = focus.query.get();
        view.with(|v| v.as_ref().and_then(|t| QueryRow::new(t, i)))
            .unwrap_or_default()
    });
    let keys = Memo::new(move |_| row.with(|r| r.weights.len()));
    let hovered = RwSignal::new(None::<usize>);
    let shown = Signal::derive(move || hovered.get().unwrap_or_else(|| focus.key.get()));
    let sum = Memo::new(move |_| row.with(|r| r.weights.iter().sum::<f64>()));
    let aria = tr(i18n::BARS_ARIA);

    let bar = move |j: usize, layout: BarLayout| {
        let weight = move || row.with(|r| r.weights.get(j).copied().unwrap_or(0.0));
        let masked = move || row.with(|r| r.allowed.get(j) == Some(&false));
        let label = move || row.with(|r| r.labels.get(j).cloned().unwrap_or_default());
        let rect = move || layout.bar(j, weight());
        let number = move || layout.value_label(j, weight());
        let slot = layout.slot(j);
        let (key_x, key_y) = layout.key_label(j);
        let choose = move || focus.key.set(j);
        view! {
            <g
                class="bar"
                class:masked=masked
                class:active=move || shown.get() == j
                tabindex="0"
                on:pointerenter=move |_| hovered.set(Some(j))
                on:pointerleave=move |_| hovered.set(None)
                on:focus=move |_| hovered.set(Some(j))
                on:blur=move |_| hovered.set(None)
                on:click=move |_| choose()
                on:keydown=move |e| {
                    if e.key() == "Enter" || e.key() == " " {
                        e.prevent_default();
                        choose();
                    }
                }
            >
                <title>{label}</title>
                <rect class="bar-slot" x=slot.x y=slot.y width=slot.width height=slot.height />
                <rect
                    class="bar-value"
                    x=move || rect().x
                    y=move || rect().y
                    width=move || rect().width
                    height=move || rect().height
                    fill=move || weight_colour(weight()).hex()
                    data-col=j
                    data-value=move || js_number(weight())
                    data-masked=move || masked().then_some("true")
                />
                <text class="bar-number" x=move || number().0 y=move || number().1>
                    {move || two_decimals(weight())}
                </text>
                <text class="bar-key" x=key_x y=key_y>
                    {move || short_label(&label(), LABEL_CHARS)}
                </text>
            </g>
        }
    };
    let chart = move || {
        let n = keys.get();
        let layout = BarLayout::new(n, n as f64 * SLOT, HEIGHT);
        let (width, base, top) = (layout.width, layout.baseline(), layout.top());
        view! {
            <svg
                class="diagram bars"
                data-testid="softmax-bars"
                role="img"
                aria-label=aria
                viewBox=format!("0 0 {width} {HEIGHT}")
                width=width
                height=HEIGHT
            >
                <defs>
                    <pattern
                        id="softmax-hatch"
                        width="6"
                        height="6"
                        patternUnits="userSpaceOnUse"
                        patternTransform="rotate(45)"
                    >
                        <line x1="0" y1="0" x2="0" y2="6" class="hatch-line" />
                    </pattern>
                </defs>
                <line class="bar-guide" x1=0 x2=width y1=top y2=top />
                <line class="bar-baseline" x1=0 x2=width y1=base y2=base />
                {(0..n).map(|j| bar(j, layout)).collect_view()}
            </svg>
        }
    };

    view! {
        <div class="softmax-side">
            <p class="caption">
                {tr(i18n::BARS_CAPTION)}
                ": "
                <strong>{move || row.with(|r| r.labels.get(r.query).cloned().unwrap_or_default())}</strong>
            </p>
            <div class="scroll">{chart}</div>
            <p class="hint">{tr(i18n::BARS_HINT)}</p>
            <WeightFormula row=row key=shown />
            <p class="row-sum-line" data-testid="softmax-row-sum" data-value=move || js_number(sum.get())>
                {tr(i18n::ROW_SUM)}
                ": Σ = "
                {move || two_decimals(sum.get())}
            </p>
        </div>
    }
}
