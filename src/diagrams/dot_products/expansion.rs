//! The selected score worked out: the rows Q_i and K_j side by side, their
//! dot product term by term, and the scaling that turns it into α_ij.

use crate::diagrams::matrix::{MatrixGrid, Palette};
use crate::geometry::dot_text::{dot_expansion, scaling_step, unscaled_step};
use crate::geometry::format::subscript;
use crate::i18n::{self, Lang, LangContext};
use crate::lab::SequenceTrace;
use crate::page::SvgHost;
use crate::state::lab;
use crate::svg::Markup;
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
    scaling_on: bool,
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
            expansion: dot_expansion(i, j, &q.to_vec(), &k.to_vec(), raw),
            q: q.to_owned().insert_axis(Axis(0)),
            k: k.to_owned().insert_axis(Axis(0)),
            q_name: vec![format!("Q{}", subscript(i + 1))],
            k_name: vec![format!("K{}", subscript(j + 1))],
            columns: (1..=t.d_k()).map(|c| c.to_string()).collect(),
            step,
            masked: !*t.allowed.get((i, j))?,
            scaling_on,
        })
    }

    /// The worked lines under the two rows, in `lang`: the expansion, the
    /// scaling step, and notes when scaling is off or the key is masked.
    fn lines(&self, lang: Lang) -> String {
        let mut m = Markup::new();
        m.element(
            "p",
            &[("class", "formula"), ("data-testid", "dot-expansion")],
            &self.expansion,
        );
        m.element(
            "p",
            &[("class", "formula"), ("data-testid", "dot-scaling")],
            &self.step,
        );
        if !self.scaling_on {
            let note = [("class", "note"), ("data-testid", "dot-scaling-off")];
            m.element("p", &note, i18n::SCALING_OFF.get(lang));
        }
        if self.masked {
            let note = [("class", "note masked-note"), ("data-testid", "dot-masked")];
            m.element("p", &note, i18n::SCORE_MASKED.get(lang));
        }
        m.finish()
    }
}

/// The worked dot product of the selected query and key.
#[component]
pub fn Expansion() -> impl IntoView {
    let lab = lab();
    let view = lab.view;
    let scenario = lab.scenario;
    let LangContext(lang) = expect_context::<LangContext>();
    let focus = lab.focus;
    let detail = Memo::new(move |_| {
        let pick = (focus.query.get(), focus.key.get());
        let scaling_on = scenario.with(|s| s.options.scale);
        view.with(|v| v.as_ref().and_then(|t| Detail::new(t, pick, scaling_on)))
            .unwrap_or_default()
    });
    let part = move |f: fn(&Detail) -> Array2<f64>| Signal::derive(move || detail.with(f));
    let name = move |f: fn(&Detail) -> Vec<String>| Signal::derive(move || detail.with(f));
    let lines = Signal::derive(move || detail.with(|d| d.lines(lang.get())));
    // Q_i and K_j are drawn alike, each as one highlighted row of its matrix.
    let row = move |testid, symbol, aria, values, label| {
        view! {
            <MatrixGrid
                testid
                symbol
                aria
                values=part(values)
                row_labels=name(label)
                col_labels=name(|d| d.columns.clone())
                palette=Palette::Signed
                highlight_rows=vec![0]
            />
        }
    };

    view! {
        <div class="dot-detail" data-testid="dot-detail">
            <div class="scroll">
                {row("q-row", "Q", i18n::Q_ROW_ARIA, |d| d.q.clone(), |d| d.q_name.clone())}
                {row("k-row", "K", i18n::K_ROW_ARIA, |d| d.k.clone(), |d| d.k_name.clone())}
            </div>
            <SvgHost markup=lines />
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::token_labels;
    use attention_core::presets;

    fn sentence() -> SequenceTrace {
        let scenario = presets::sentence();
        let trace = scenario.run().unwrap().into_head(0);
        SequenceTrace::new(&trace, 0, token_labels(&scenario))
    }

    #[test]
    fn the_lines_expand_the_selected_score_and_its_scaling() {
        let t = sentence();
        let detail = Detail::new(&t, (2, 1), true).unwrap();
        assert_eq!(detail.q.row(0), t.q.row(2));
        assert_eq!(detail.k.row(0), t.k.row(1));
        let html = detail.lines(Lang::En);
        assert!(html.starts_with("<p class=\"formula\" data-testid=\"dot-expansion\">Q₃·K₂ = "));
        assert!(html.contains("data-testid=\"dot-scaling\">α₃₂ = "));
        assert!(!html.contains("dot-scaling-off") && !html.contains("dot-masked"));
        assert_eq!(Detail::new(&t, (9, 0), true), None);
    }

    #[test]
    fn notes_say_when_scaling_is_off_and_when_the_key_is_masked() {
        let mut t = sentence();
        t.allowed[[0, 3]] = false;
        let html = Detail::new(&t, (0, 3), false).unwrap().lines(Lang::Zh);
        assert!(html.contains("data-testid=\"dot-scaling\">α₁₄ = Q₁·K₄ = "));
        assert!(html.contains(i18n::SCALING_OFF.zh));
        assert!(html.contains(&format!(
            "<p class=\"note masked-note\" data-testid=\"dot-masked\">{}</p>",
            i18n::SCORE_MASKED.zh
        )));
    }
}
