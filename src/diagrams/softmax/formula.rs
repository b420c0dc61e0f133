//! The softmax of one weight with its numbers, under the bars: which key is
//! explained follows the pointer or keyboard focus, else the selected key.

use super::bars::QueryRow;
use crate::geometry::softmax_text::{explain_weight, Piece, WeightStep};
use crate::i18n::{self, tr};
use leptos::prelude::*;

/// `α′_ij = e^α_ij / Σₖ e^α_ik = … = weight` for key `key` of `row`, or why it is 0.
#[component]
pub fn WeightFormula(
    /// The selected query's scores, mask and weights.
    #[prop(into)]
    row: Signal<QueryRow>,
    /// The key whose weight is explained.
    #[prop(into)]
    key: Signal<usize>,
) -> impl IntoView {
    let step = Memo::new(move |_| {
        let j = key.get();
        row.with(|r| {
            let weight = *r.weights.get(j)?;
            Some(explain_weight(r.query, j, &r.scores, &r.allowed, weight))
        })
    });
    let pieces = move || match step.get() {
        Some(WeightStep::Formula { pieces, .. }) => pieces
            .into_iter()
            .map(|piece| match piece {
                Piece::Text(text) => text.into_any(),
                Piece::Sup(text) => view! { <sup>{text}</sup> }.into_any(),
            })
            .collect_view()
            .into_any(),
        Some(WeightStep::Masked) => tr(i18n::WEIGHT_MASKED).get().into_any(),
        None => ().into_any(),
    };
    let masked = move || matches!(step.get(), Some(WeightStep::Masked));
    let shifted = move || matches!(step.get(), Some(WeightStep::Formula { shifted: true, .. }));
    // Only worth saying when some key of the row is really left out.
    let partial_sum = move || {
        matches!(step.get(), Some(WeightStep::Formula { .. }))
            && row.with(|r| r.allowed.contains(&false))
    };

    view! {
        <p class="formula" class:note=masked data-testid="softmax-formula">
            {pieces}
        </p>
        <Show when=shifted>
            <p class="note" data-testid="softmax-shifted">{tr(i18n::SOFTMAX_SHIFTED)}</p>
        </Show>
        <Show when=partial_sum>
            <p class="note">{tr(i18n::SUM_OVER_ALLOWED)}</p>
        </Show>
    }
}
