//! "Check yourself" in the softmax step: before the weights are revealed, the
//! learner picks the token they think the query attends to most; the answer
//! is then compared with the trace.

use super::action::Control;
use crate::geometry::format::two_decimals;
use crate::i18n::{walkthrough as text, Lang};
use crate::lab::SequenceTrace;
use crate::svg::Markup;

/// The key with the largest weight in query `i`'s row (the first, on a tie).
pub fn most_attended(t: &SequenceTrace, i: usize) -> Option<usize> {
    let row = t.weights.outer_iter().nth(i)?;
    let mut best = None::<(usize, f64)>;
    for (j, &w) in row.iter().enumerate() {
        if best.is_none_or(|(_, b)| w > b) {
            best = Some((j, w));
        }
    }
    best.map(|(j, _)| j)
}

/// The question, one button per token, and once `guess` is made, the verdict.
pub fn prediction(m: &mut Markup, t: &SequenceTrace, i: usize, guess: Option<usize>, lang: Lang) {
    // Named with their position: a sentence may hold the same word twice.
    let label = |j: usize| {
        let token = t.labels.get(j).map_or("", String::as_str);
        text::TOKEN_AT
            .get(lang)
            .replace("{token}", token)
            .replace("{n}", &(j + 1).to_string())
    };
    let plain = |j: usize| t.labels.get(j).map_or("", String::as_str);
    let weight = |j: usize| two_decimals(t.weights.get((i, j)).copied().unwrap_or(0.0));
    let best = most_attended(t, i);
    m.open(
        "div",
        &[("class", "prediction"), ("data-testid", "prediction")],
    );
    m.element(
        "p",
        &[],
        &text::PREDICT_PROMPT.get(lang).replace("{token}", &label(i)),
    );
    m.open("div", &[("class", "guesses"), ("role", "group")]);
    for j in 0..t.len() {
        let class = match (guess, best) {
            (Some(_), Some(b)) if b == j => "guess best",
            (Some(g), _) if g == j => "guess picked",
            _ => "guess",
        };
        let index = j.to_string();
        let attrs = [
            ("type", "button"),
            ("class", class),
            ("data-action", Control::Guess.name()),
            ("data-index", &index),
            ("data-testid", Control::Guess.name()),
        ];
        m.element("button", &attrs, plain(j));
    }
    m.close("div");
    if let (Some(g), Some(b)) = (guess, best) {
        let verdict = if g == b {
            text::PREDICT_RIGHT
        } else {
            text::PREDICT_WRONG
        };
        let sentence = verdict
            .get(lang)
            .replace("{best}", &label(b))
            .replace("{weight}", &weight(b))
            .replace("{guess}", &label(g))
            .replace("{guess_weight}", &weight(g));
        let attrs = [
            ("class", "verdict"),
            ("data-testid", "prediction-result"),
            ("aria-live", "polite"),
        ];
        m.element("p", &attrs, &sentence);
        m.element("p", &[("class", "hint")], text::PREDICT_AGAIN.get(lang));
    }
    m.close("div");
}
