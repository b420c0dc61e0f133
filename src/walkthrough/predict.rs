//! "Check yourself" in the softmax step: before the weights are revealed, the
//! learner picks the token they think the query attends to most; the answer
//! is then compared with the trace. In the LayerNorm step, with a block, the
//! learner guesses the standard deviation of a normalised row.

use super::action::Control;
use crate::geometry::format::two_decimals;
use crate::i18n::{walkthrough as text, Lang};
use crate::lab::{BlockView, SequenceTrace};
use crate::svg::Markup;
use attention_core::block::mean_and_variance;

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
    let labels: Vec<String> = (0..t.len()).map(|j| plain(j).to_string()).collect();
    guess_buttons(m, &labels, guess, best);
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
        said(m, &sentence, lang);
    }
    m.close("div");
}

/// One button per choice, `labels`; once `guess` is made, the right one
/// (`best`) and the picked one are marked.
fn guess_buttons(m: &mut Markup, labels: &[String], guess: Option<usize>, best: Option<usize>) {
    m.open("div", &[("class", "guesses"), ("role", "group")]);
    for (k, label) in labels.iter().enumerate() {
        let class = match (guess, best) {
            (Some(_), Some(b)) if b == k => "guess best",
            (Some(g), _) if g == k => "guess picked",
            _ => "guess",
        };
        let index = k.to_string();
        let attrs = [
            ("type", "button"),
            ("class", class),
            ("data-action", Control::Guess.name()),
            ("data-index", &index),
            ("data-testid", Control::Guess.name()),
        ];
        m.element("button", &attrs, label);
    }
    m.close("div");
}

/// The verdict, said politely, and how to guess again.
fn said(m: &mut Markup, sentence: &str, lang: Lang) {
    let attrs = [
        ("class", "verdict"),
        ("data-testid", "prediction-result"),
        ("aria-live", "polite"),
    ];
    m.element("p", &attrs, sentence);
    m.element("p", &[("class", "hint")], text::PREDICT_AGAIN.get(lang));
}

/// The LayerNorm question's choices, the right one (about 1) second.
const NORM_GUESSES: [crate::i18n::Msg; 4] = [
    text::NORM_GUESS_ZERO,
    text::NORM_GUESS_ONE,
    text::NORM_GUESS_ROOT_D,
    text::NORM_GUESS_SAME,
];
const NORM_ANSWER: usize = 1;

/// The LayerNorm question for token i of the shown layer, and once `guess`
/// is made, the verdict with the normalised row's standard deviation.
pub fn norm_prediction(m: &mut Markup, b: &BlockView, i: usize, guess: Option<usize>, lang: Lang) {
    let norm = &b.norm_1;
    let token = b.labels.get(i).map_or("", String::as_str);
    m.open(
        "div",
        &[("class", "prediction"), ("data-testid", "prediction")],
    );
    let prompt = text::NORM_PREDICT_PROMPT
        .get(lang)
        .replace("{token}", token);
    m.element("p", &[], &prompt);
    let labels: Vec<String> = NORM_GUESSES
        .iter()
        .map(|c| c.get(lang).to_string())
        .collect();
    guess_buttons(m, &labels, guess, Some(NORM_ANSWER));
    if let Some(g) = guess {
        let row = norm
            .normalised
            .row(i.min(norm.normalised.nrows().saturating_sub(1)));
        let (_, variance) = mean_and_variance(row);
        let verdict = if g == NORM_ANSWER {
            text::NORM_RIGHT
        } else {
            text::NORM_WRONG
        };
        let sentence = verdict
            .get(lang)
            .replace("{s}", &two_decimals(variance.sqrt()))
            .replace(
                "{before}",
                &two_decimals(norm.std.get(i).copied().unwrap_or(0.0)),
            );
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
