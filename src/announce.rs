//! What a screen reader hears after an action: the page's polite live region
//! (`announce.js`) says, in the page's language, the selected query's weights
//! after a query, an edit or new weights change them, and the walkthrough's
//! step after it moves. While the walkthrough asks the learner to guess, the
//! weights stay unsaid and out of the accessibility tree, as they stay
//! hidden on screen.

use crate::geometry::format::{rounded, two_decimals};
use crate::geometry::raster::weight_decimals;
use crate::i18n::{self, walkthrough as steps, Lang, LangContext};
use crate::lab::SequenceTrace;
use crate::state::lab;
use crate::walkthrough::{Step, Tour};
use leptos::prelude::*;

#[wasm_bindgen::prelude::wasm_bindgen(module = "/src/announce.js")]
extern "C" {
    /// Says `text` in the live region once the page settles; a later text
    /// of the same `kind` replaces it.
    pub(crate) fn announce(kind: &str, text: &str);
    /// Takes the weights' cards out of the accessibility tree and the
    /// keyboard's reach (`inert`), or puts them back.
    fn conceal(hidden: bool);
}

/// Past this many keys a query's weights are said as its heaviest few.
const SAID_IN_FULL: usize = 8;
/// How many of a long row's heaviest keys are said.
const HEAVIEST: usize = 3;

/// The sentence for query `i` of `t`: its weights in key order, or for a
/// long row its [`HEAVIEST`] keys by weight; with `hidden`, only the query
/// and what to do before the weights show.
pub fn query_sentence(t: &SequenceTrace, i: usize, hidden: bool, lang: Lang) -> String {
    let token = t.labels.get(i).map_or("", String::as_str);
    let (msg, weights) = match t.weights.outer_iter().nth(i) {
        _ if hidden => (i18n::ANNOUNCE_HIDDEN, String::new()),
        Some(row) if row.len() <= SAID_IN_FULL => {
            let each: Vec<String> = row.iter().map(|&w| two_decimals(w)).collect();
            (i18n::ANNOUNCE_WEIGHTS, each.join(", "))
        }
        Some(row) => {
            // The heaviest first, each picked in turn (a tie keeps key order):
            // a sort would cost kilobytes of WebAssembly for three picks.
            let mut keys: Vec<usize> = Vec::with_capacity(HEAVIEST);
            for _ in 0..HEAVIEST {
                let next = (0..row.len()).filter(|j| !keys.contains(j)).reduce(|a, b| {
                    if row[b] > row[a] {
                        b
                    } else {
                        a
                    }
                });
                keys.extend(next);
            }
            let each: Vec<String> = keys
                .iter()
                .map(|&j| {
                    let key = t.labels.get(j).map_or("", String::as_str);
                    format!("{key} {}", rounded(row[j], weight_decimals(row.len())))
                })
                .collect();
            (i18n::ANNOUNCE_HEAVIEST, each.join(", "))
        }
        None => return String::new(),
    };
    msg.get(lang)
        .replace("{token}", token)
        .replace("{weights}", &weights)
}

/// The sentence for the walkthrough at `step`: where it is and the step's title.
pub fn step_sentence(step: Step, lang: Lang) -> String {
    let place = steps::STEP_OF
        .get(lang)
        .replace("{n}", &(step.index() + 1).to_string())
        .replace("{total}", &Step::ALL.len().to_string());
    let colon = match lang {
        Lang::Zh => "：",
        Lang::En => ": ",
    };
    format!("{place}{colon}{}", step.title().get(lang))
}

/// What the page last said or hid, to tell what changed.
#[derive(Clone, Default, PartialEq)]
struct Said {
    sentence: String,
    step: Option<Step>,
    hidden: bool,
}

/// Feeds the live region (`index.html`) for as long as the app lives, and
/// keeps the weights out of the accessibility tree while the walkthrough
/// waits for a guess. Nothing is said at start-up: only what changes after it.
pub fn keep_announcing() {
    let LangContext(lang) = expect_context::<LangContext>();
    let lab = lab();
    let view = lab.view;
    let focus = lab.focus;
    let tour = expect_context::<Tour>();
    Effect::new(move |before: Option<Said>| {
        let (lang, query, hidden) = (lang.get(), focus.query.get(), tour.hides_weights());
        let now = Said {
            sentence: view.with(|v| {
                v.as_ref()
                    .map(|t| query_sentence(t, query, hidden, lang))
                    .unwrap_or_default()
            }),
            step: tour.step.get(),
            hidden,
        };
        let before = before.unwrap_or_else(|| Said {
            hidden: !hidden,
            ..now.clone()
        });
        if now.hidden != before.hidden {
            conceal(hidden);
        }
        if now.sentence != before.sentence {
            announce("query", &now.sentence);
        }
        if let Some(step) = now.step.filter(|&s| Some(s) != before.step) {
            announce("step", &step_sentence(step, lang));
        }
        now
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::format::two_decimals;
    use attention_core::presets;

    fn sentence_trace(t: usize) -> SequenceTrace {
        let scenario = if t == 4 {
            presets::sentence()
        } else {
            let labels: Vec<String> = (1..=t).map(|i| format!("t{i}")).collect();
            crate::lab::with_tokens(&presets::sentence(), &labels, 7).expect("a valid length")
        };
        let trace = scenario.run().expect("runs").into_head(0);
        SequenceTrace::new(&trace, 0, crate::lab::token_labels(&scenario))
    }

    #[test]
    fn a_short_row_is_said_weight_by_weight_in_each_language() {
        let t = sentence_trace(4);
        let weights: Vec<String> = t.weights.row(1).iter().map(|&w| two_decimals(w)).collect();
        assert_eq!(
            query_sentence(&t, 1, false, Lang::En),
            format!("Query 喜欢: weights {}", weights.join(", "))
        );
        assert_eq!(
            query_sentence(&t, 1, false, Lang::Zh),
            format!("查询词 喜欢：权重 {}", weights.join(", "))
        );
    }

    #[test]
    fn a_long_row_is_said_by_its_three_heaviest_keys() {
        let t = sentence_trace(40);
        let row = t.weights.row(5);
        let said = query_sentence(&t, 5, false, Lang::En);
        let mut order: Vec<usize> = (0..row.len()).collect();
        order.sort_by(|&a, &b| row[b].total_cmp(&row[a]).then(a.cmp(&b)));
        let heaviest: Vec<String> = order[..HEAVIEST]
            .iter()
            .map(|&j| format!("t{} {}", j + 1, rounded(row[j], 3)))
            .collect();
        assert_eq!(
            said,
            format!("Query t6: most weight on {}", heaviest.join(", "))
        );
    }

    #[test]
    fn before_the_guess_no_weight_is_said() {
        let t = sentence_trace(4);
        let said = query_sentence(&t, 2, true, Lang::En);
        assert!(said.starts_with("Query 打: guess"), "{said}");
        assert!(!said.chars().any(|c| c.is_ascii_digit()), "{said}");
        assert_eq!(query_sentence(&t, 9, false, Lang::En), "", "no such query");
    }

    #[test]
    fn a_step_is_said_with_its_place_and_title() {
        assert_eq!(
            step_sentence(Step::Scores, Lang::En),
            format!("Step 3 of 16: {}", Step::Scores.title().en)
        );
        assert!(step_sentence(Step::Softmax, Lang::Zh).starts_with("第 5 步，共 16 步："));
    }
}
