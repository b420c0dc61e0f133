//! The walkthrough card's body as HTML and MathML: the general formula with
//! its parts linked to their diagrams, then either the memory aids (free
//! explore) or the current step: its text, live formulas and PyTorch lines.
//! Pure, so tests read it natively.

use super::action::Control;
use super::formulas::{step_formulas, Selection, Shown};
use super::steps::Step;
use crate::i18n::{walkthrough as text, Lang};
use crate::lab::{BlockView, LayerView, SequenceTrace};
use crate::mathml::Math;
use crate::svg::Markup;

/// What the card shows.
pub struct TourView<'a> {
    /// The current step, or `None` in free explore.
    pub step: Option<Step>,
    pub lang: Lang,
    /// The shown sequence, or `None` while the scenario cannot be computed.
    pub trace: Option<&'a SequenceTrace>,
    /// The shown sequence of a layer of several heads or with W_O.
    pub layer: Option<&'a LayerView>,
    /// The shown layer of a transformer block, if there is one.
    pub block: Option<&'a BlockView>,
    pub at: Selection,
    /// The learner's prediction of the most attended key, if made.
    pub guess: Option<usize>,
}

/// `Attention(Q,K,V) = softmax(QKᵀ/√d_k)·V`, each part a link to the step
/// (and so the diagram) that computes it.
pub fn general_formula(lang: Lang) -> String {
    let title = |step: Step| step.title().get(lang);
    let mut f = Math::new(Some(text::GENERAL_FORMULA_LABEL.get(lang)));
    f.mi("Attention").mo("(");
    f.open_link(
        Control::Step.name(),
        Step::Projection.index(),
        title(Step::Projection),
    );
    f.mi("Q").mo(",").mi("K").mo(",").mi("V").close("mrow");
    f.mo(")").mo("=");
    f.open_link(
        Control::Step.name(),
        Step::Softmax.index(),
        title(Step::Softmax),
    );
    f.mi("softmax").close("mrow").mo("(").open("mfrac");
    f.open_link(
        Control::Step.name(),
        Step::Scores.index(),
        title(Step::Scores),
    );
    f.mi("Q")
        .open("msup")
        .mi("K")
        .mi("T")
        .close("msup")
        .close("mrow");
    f.open_link(
        Control::Step.name(),
        Step::Scaling.index(),
        title(Step::Scaling),
    );
    f.open("msqrt")
        .open("msub")
        .mi("d")
        .mi("k")
        .close("msub")
        .close("msqrt");
    f.close("mrow").close("mfrac").mo(")");
    f.open_link(
        Control::Step.name(),
        Step::Fusion.index(),
        title(Step::Fusion),
    );
    f.mi("V").close("mrow");
    f.finish()
}

/// The whole body of the card.
pub fn body(view: &TourView) -> String {
    let lang = view.lang;
    let mut m = Markup::new();
    bar(&mut m, view.step, lang);
    m.open("div", &[("class", "general-formula")])
        .raw(&general_formula(lang))
        .close("div");
    m.element(
        "p",
        &[("class", "hint")],
        text::GENERAL_FORMULA_HINT.get(lang),
    );
    match view.step {
        None => memory_aids(&mut m, lang),
        Some(step) => step_body(&mut m, view, step),
    }
    m.finish()
}

/// The title and the buttons: start or leave the walkthrough, and while it
/// runs, Previous and Next.
fn bar(m: &mut Markup, step: Option<Step>, lang: Lang) {
    // Each button's action is its test id.
    let button = |m: &mut Markup, action: &str, label: &str, state: Option<(&str, &str)>| {
        let mut attrs = vec![
            ("type", "button"),
            ("data-action", action),
            ("data-testid", action),
        ];
        attrs.extend(state);
        m.element("button", &attrs, label);
    };
    m.open("div", &[("class", "walkthrough-bar")]);
    m.element("h2", &[], text::CARD_TITLE.get(lang));
    let (label, pressed) = if step.is_some() {
        (text::FREE_EXPLORE, "true")
    } else {
        (text::START, "false")
    };
    let toggle = Some(("aria-pressed", pressed));
    button(m, Control::Toggle.name(), label.get(lang), toggle);
    if let Some(step) = step {
        // Previous and Next are disabled where they would not move.
        let end = |at_end: bool| at_end.then_some(("disabled", ""));
        m.open("span", &[("class", "step-nav")]);
        let first = end(step.previous() == step);
        button(m, Control::Previous.name(), text::PREVIOUS.get(lang), first);
        // The last step ends the walkthrough rather than offering a dead Next.
        if step.next() == step {
            button(m, Control::Finish.name(), text::FINISH.get(lang), None);
        } else {
            button(m, Control::Next.name(), text::NEXT.get(lang), None);
        }
        m.close("span");
    }
    m.close("div");
}

fn memory_aids(m: &mut Markup, lang: Lang) {
    m.open("dl", &[("class", "memory-aids")]);
    m.element("dt", &[], text::MNEMONIC_TITLE.get(lang));
    m.element(
        "dd",
        &[("data-testid", "mnemonic")],
        text::MNEMONIC.get(lang),
    );
    m.element("dt", &[], text::ANALOGY_TITLE.get(lang));
    m.element("dd", &[("data-testid", "analogy")], text::ANALOGY.get(lang));
    m.close("dl");
}

/// The step's dots (each a link), indicator, text, prediction, formulas and code.
fn step_body(m: &mut Markup, view: &TourView, step: Step) {
    let lang = view.lang;
    let indicator = text::STEP_OF
        .get(lang)
        .replace("{n}", &(step.index() + 1).to_string())
        .replace("{total}", &Step::ALL.len().to_string());
    m.start("div")
        .attr("class", "step")
        .attr("data-testid", Control::Step.name())
        .attr("data-step", step.id())
        .end();
    // One tab stop, always on the first dot (a stop that moved with the step
    // could be left beside one the arrows moved): the arrows walk the others.
    m.start("ol")
        .attr("class", "step-dots")
        .attr("aria-label", &indicator)
        .attr("data-rove", "")
        .end();
    for other in Step::ALL {
        let index = other.index().to_string();
        let number = (other.index() + 1).to_string();
        let current = other == step;
        let mut attrs = vec![
            ("class", if current { "current" } else { "" }),
            ("data-action", Control::Step.name()),
            ("data-index", index.as_str()),
            ("role", "link"),
            ("title", other.title().get(lang)),
        ];
        attrs.push(("tabindex", if other.index() == 0 { "0" } else { "-1" }));
        if current {
            attrs.push(("aria-current", "step"));
        }
        m.open("li", &[])
            .element("span", &attrs, &number)
            .close("li");
    }
    m.close("ol");
    let indicator_attrs = [
        ("class", "step-indicator"),
        ("data-testid", "step-indicator"),
    ];
    m.element("p", &indicator_attrs, &indicator);
    m.element("h3", &[], step.title().get(lang));
    m.element("p", &[("class", "step-text")], step.explanation().get(lang));
    // On a narrow screen stepping does not scroll (the text would go); this does.
    let here = step.index().to_string();
    let show = [
        ("type", "button"),
        ("class", "show-diagram"),
        ("data-action", Control::Step.name()),
        ("data-index", &here),
    ];
    m.element("button", &show, text::SHOW_DIAGRAM.get(lang));
    let controls = step.controls();
    if !controls.is_empty() {
        m.open("p", &[("class", "step-controls")]);
        for (k, control) in controls.iter().enumerate() {
            let index = k.to_string();
            let attrs = [
                ("type", "button"),
                ("data-action", Control::StepControl.name()),
                ("data-index", &index),
                ("data-testid", Control::StepControl.name()),
                ("data-control", control.testid),
            ];
            m.element("button", &attrs, control.label.get(lang));
        }
        m.close("p");
    }
    // Softmax's numbers, and a block's LayerNorm, stay hidden until the
    // learner has predicted them.
    let asks = step == Step::Softmax || (step == Step::LayerNorm && view.block.is_some());
    let revealed = !asks || view.guess.is_some();
    if let Some(t) = view.trace {
        if step == Step::Softmax {
            super::predict::prediction(m, t, view.at.query, view.guess, lang);
        }
        if let (Step::LayerNorm, Some(b)) = (step, view.block) {
            super::predict::norm_prediction(m, b, view.at.query, view.guess, lang);
        }
        if revealed {
            m.element("h4", &[], text::LIVE_NUMBERS.get(lang));
            m.open(
                "div",
                &[("class", "step-formulas"), ("data-testid", "step-formulas")],
            );
            let shown = Shown {
                trace: t,
                layer: view.layer,
                block: view.block,
            };
            for formula in step_formulas(step, shown, view.at, lang) {
                m.raw(&formula);
            }
            m.close("div");
        }
    }
    m.element("h4", &[], text::IN_PYTORCH.get(lang));
    let code_attrs = [("class", "step-code"), ("data-testid", "step-code")];
    m.element("pre", &code_attrs, step.pytorch().get(lang));
    m.element("p", &[("class", "hint")], text::KEYS_HINT.get(lang));
    m.close("div");
}

#[cfg(test)]
mod tests;
