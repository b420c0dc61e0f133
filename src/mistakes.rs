//! "Common mistakes": the lessons' warnings, each with a button that shows it
//! live in the app rather than only saying it. Markup speaking the cards'
//! protocol (`crate::action`).
//!
//! Built as: markup, an `ActionCard` (ARCHITECTURE.md: Adding a card).

mod checks;

use crate::action::{action_names, Heard, Kind, Reading};
use crate::i18n::{mistakes as text, Lang, LangContext, Msg};
use crate::lab;
use crate::page::ActionCard;
use crate::state::{lab, Focus};
use crate::svg::Markup;
use crate::walkthrough::{Step, Tour};
use attention_core::positions::Positions;
use attention_core::Scenario;
use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;

/// Seed for the numbers a demonstration draws when it cannot keep the W
/// matrices as they are.
const HEADS_SEED: u64 = 13;

/// One warning and where its demonstration is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mistake {
    /// Opens the √d_k experiment.
    SkipScaling,
    /// Draws new weights (the Random W button) and shows W_Q.
    FixedWeights,
    /// Points at the weights' row sums.
    IndependentWeights,
    /// Starts the walkthrough's learning step.
    NoBackprop,
    /// Switches between one head and two, counting the weights.
    MoreHeads,
    /// Takes the positions away and shuffles the tokens.
    KnowsOrder,
    /// Opens the generation card at its last step.
    CacheChanges,
    /// Gives the scenario a block if it has none, and points at the
    /// normalised rows' and columns' statistics.
    NormAcrossTokens,
    /// Gives the scenario a block if it has none, and points at a token's
    /// feed-forward output with the other tokens shuffled.
    FfnMixes,
}

impl Mistake {
    pub const ALL: [Mistake; 9] = [
        Mistake::SkipScaling,
        Mistake::FixedWeights,
        Mistake::IndependentWeights,
        Mistake::NoBackprop,
        Mistake::MoreHeads,
        Mistake::KnowsOrder,
        Mistake::CacheChanges,
        Mistake::NormAcrossTokens,
        Mistake::FfnMixes,
    ];

    fn text(self) -> (Msg, Msg) {
        match self {
            Mistake::SkipScaling => (text::SCALING_TITLE, text::SCALING_TEXT),
            Mistake::FixedWeights => (text::FIXED_TITLE, text::FIXED_TEXT),
            Mistake::IndependentWeights => (text::SUM_TITLE, text::SUM_TEXT),
            Mistake::NoBackprop => (text::BACKPROP_TITLE, text::BACKPROP_TEXT),
            Mistake::MoreHeads => (text::HEADS_TITLE, text::HEADS_TEXT),
            Mistake::KnowsOrder => (text::ORDER_TITLE, text::ORDER_TEXT),
            Mistake::CacheChanges => (text::CACHE_TITLE, text::CACHE_TEXT),
            Mistake::NormAcrossTokens => (text::NORM_TITLE, text::NORM_TEXT),
            Mistake::FfnMixes => (text::FFN_TITLE, text::FFN_TEXT),
        }
    }

    /// The element its demonstration scrolls to.
    pub fn target(self) -> &'static str {
        match self {
            Mistake::SkipScaling => "[data-testid=experiment]",
            Mistake::FixedWeights => "[data-testid=w-q]",
            Mistake::IndependentWeights => "[data-testid=row-sums]",
            Mistake::NoBackprop => "[data-diagram=projection]",
            Mistake::MoreHeads => "[data-testid=mistakes]",
            Mistake::KnowsOrder => "[data-testid=word-order-fold]",
            Mistake::CacheChanges => "[data-testid=generation-fold]",
            Mistake::NormAcrossTokens => "[data-testid=norm-check]",
            Mistake::FfnMixes => "[data-testid=ffn-check]",
        }
    }
}

action_names! {
    /// The card's controls, by their `data-action`.
    pub enum Control {
        Demo = "mistake-demo",
        Undo = "mistake-undo",
    }
}

/// One thing the learner did on the card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MistakeAction {
    /// Show this mistake live.
    Demo(Mistake),
    /// Put back the weights the last demonstration replaced.
    Undo,
}

impl MistakeAction {
    /// The action an event means, or `None` for any other event and for a
    /// mistake that does not exist.
    pub fn read(r: &Reading) -> Option<Self> {
        Some(match (r.event, Control::named(r.action)?) {
            (Kind::Click, Control::Demo) => Self::Demo(*Mistake::ALL.get(r.index)?),
            (Kind::Click, Control::Undo) => Self::Undo,
            _ => return None,
        })
    }
}

/// How many numbers the layer's weights hold, for the heads mistake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    pub heads: usize,
    pub d: usize,
    /// Every head's d_k side by side.
    pub columns: usize,
    /// W_O's rows and columns, if the layer has it.
    pub w_o: Option<(usize, usize)>,
}

impl Count {
    pub fn of(s: &Scenario) -> Self {
        Count {
            heads: s.heads,
            d: s.attention(0).0.w_q.nrows(),
            columns: s.attention(0).0.w_q.ncols(),
            w_o: s.attention(0).1.map(|w| w.dim()),
        }
    }

    /// The sentence that counts them, in `lang`.
    fn sentence(self, lang: Lang) -> String {
        let qkv = text::HEADS_COUNT
            .get(lang)
            .replace("{h}", &self.heads.to_string())
            .replace("{d_k}", &(self.columns / self.heads.max(1)).to_string())
            .replace("{d}", &self.d.to_string())
            .replace("{columns}", &self.columns.to_string())
            .replace("{total}", &(3 * self.d * self.columns).to_string());
        let w_o = self.w_o.map_or_else(String::new, |(rows, d_out)| {
            text::W_O_COUNT
                .get(lang)
                .replace("{rows}", &rows.to_string())
                .replace("{d_out}", &d_out.to_string())
                .replace("{w_o}", &(rows * d_out).to_string())
        });
        format!("{qkv}{w_o}")
    }
}

/// The heads a demonstration switches to: from one, the fewest (two or
/// more) that share `columns` equally; from several, one. `None` when no
/// head count up to 8 shares them.
pub fn other_heads(heads: usize, columns: usize) -> Option<usize> {
    if heads > 1 {
        return Some(1);
    }
    (2..=lab::MAX_HEADS).find(|&h| columns.is_multiple_of(h))
}

/// The live numbers of the block's mistakes, while there is a block.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Checks {
    pub norm: Option<checks::NormCheck>,
    pub ffn: Option<checks::FfnCheck>,
}

/// The card's title and its list of warnings, each with its "show me" button (its index in
/// [`Mistake::ALL`]). While `undoable` names a mistake (its demonstration
/// replaced the learner's scenario and nothing has changed since), its item
/// offers to put it back. `count` is the layer's weights, counted; `checks`
/// the block's live numbers.
pub fn markup(lang: Lang, undoable: Option<Mistake>, count: Count, checks: &Checks) -> String {
    let mut m = Markup::new();
    m.open_fold("mistakes-fold", "h2", text::TITLE.get(lang));
    m.open("ul", &[("class", "mistakes")]);
    for (n, mistake) in Mistake::ALL.iter().enumerate() {
        let (title, body) = mistake.text();
        let index = n.to_string();
        m.open("li", &[]).element("strong", &[], title.get(lang));
        m.element("p", &[], body.get(lang));
        let button = [
            ("type", "button"),
            ("data-action", Control::Demo.name()),
            ("data-index", &index),
            ("data-testid", Control::Demo.name()),
        ];
        m.element("button", &button, text::SHOW.get(lang));
        if *mistake == Mistake::MoreHeads {
            let attrs = [("class", "note"), ("data-testid", "heads-count")];
            m.element("p", &attrs, &count.sentence(lang));
        }
        let check = match mistake {
            Mistake::NormAcrossTokens => {
                Some(("norm-check", checks.norm.as_ref().map(|c| c.sentence(lang))))
            }
            Mistake::FfnMixes => Some(("ffn-check", checks.ffn.as_ref().map(|c| c.sentence(lang)))),
            _ => None,
        };
        if let Some((testid, said)) = check {
            let said = said.unwrap_or_else(|| text::NO_BLOCK.get(lang).to_string());
            m.element("p", &[("class", "note"), ("data-testid", testid)], &said);
        }
        if undoable == Some(*mistake) {
            let button = [
                ("type", "button"),
                ("data-action", Control::Undo.name()),
                ("data-testid", Control::Undo.name()),
            ];
            let label = match mistake {
                Mistake::MoreHeads => text::UNDO_HEADS,
                Mistake::KnowsOrder => text::UNDO_SETTINGS,
                Mistake::NormAcrossTokens | Mistake::FfnMixes => text::UNDO_BLOCK,
                _ => text::UNDO,
            };
            m.element("button", &button, label.get(lang));
        }
        m.close("li");
    }
    m.close("ul");
    m.close("details");
    m.finish()
}

/// The other cards' state a demonstration moves.
#[derive(Clone, Copy)]
struct Pages {
    shuffle: RwSignal<u64>,
    focus: Focus,
}

/// Carries out a mistake's demonstration.
fn demonstrate(mistake: Mistake, tour: Tour, scenario: RwSignal<Scenario>, pages: Pages) {
    if mistake == Mistake::KnowsOrder {
        // Positions none never fails; the causal mask goes too, as it ties
        // outputs to places by itself; a new shuffle shows something moved.
        scenario.update(|s| {
            let _ = lab::set_positions(s, Positions::None, 0);
            s.options.causal = false;
        });
        pages.shuffle.update(|seed| *seed = seed.wrapping_add(1));
    }
    if mistake == Mistake::CacheChanges {
        // The last step (a step is a query), whatever the sentence's length.
        let last = scenario.with_untracked(|s| s.x.dim().1) - 1;
        pages.focus.query.set(last);
    }
    if mistake == Mistake::MoreHeads {
        // The same W matrices cut into other parts, every number kept: when
        // they cannot be (one head over a prime width past 8), the layer is
        // split the way the heads slider does.
        scenario.update(|s| {
            let split = other_heads(s.heads, s.attention(0).0.w_q.ncols())
                .is_some_and(|h| lab::split_heads(s, h).is_ok());
            if !split {
                let _ = lab::set_heads(s, if s.heads == 1 { 2 } else { 1 }, HEADS_SEED);
            }
        });
    }
    if matches!(mistake, Mistake::NormAcrossTokens | Mistake::FfnMixes) {
        // A block around the learner's own layer, if there is none yet.
        scenario.update(|s| {
            if s.block.is_none() {
                if let Ok(with) = lab::block::with_block(s, 1, HEADS_SEED) {
                    *s = with;
                }
            }
        });
    }
    if mistake == Mistake::NoBackprop {
        tour.step.set(Some(Step::Learning));
    }
    if mistake == Mistake::FixedWeights {
        // Pressing the controls' own button keeps its seed display in step.
        if let Ok(Some(button)) = document().query_selector("[data-testid=randomize]") {
            if let Some(button) = button.dyn_ref::<web_sys::HtmlElement>() {
                button.click();
            }
        }
    }
    let Ok(Some(target)) = document().query_selector(mistake.target()) else {
        return;
    };
    crate::action::unfold(&target);
    target.scroll_into_view();
}

/// The card of common mistakes with their live demonstrations.
#[component]
pub fn CommonMistakes() -> impl IntoView {
    let LangContext(lang) = expect_context::<LangContext>();
    let lab = lab();
    let scenario = lab.scenario;
    let tour = expect_context::<Tour>();
    let pages = Pages {
        shuffle: lab.shuffle,
        focus: lab.focus,
    };
    // The learner's scenario before a demonstration replaced it, and what the
    // demonstration made: Undo is offered only while that is still on screen,
    // so it never throws away work done after it.
    let replaced = RwSignal::new(None::<(Mistake, Scenario, Scenario)>);
    let undoable = Memo::new(move |_| {
        replaced.with(|r| {
            r.as_ref()
                .filter(|(_, _, made)| scenario.with(|s| s == made))
                .map(|(mistake, _, _)| *mistake)
        })
    });
    let count = Memo::new(move |_| scenario.with(Count::of));
    let (block, query) = (lab.block, lab.focus.query);
    let checks = Memo::new(move |_| {
        let i = query.get();
        block.with(|b| {
            let Some(b) = b.as_ref() else {
                return Checks::default();
            };
            let layer = scenario.with(|s| {
                s.block
                    .as_ref()
                    .and_then(|block| block.layers.get(b.layer).cloned())
            });
            Checks {
                norm: checks::NormCheck::new(b, i),
                ffn: layer.and_then(|layer| checks::FfnCheck::new(b, &layer, i)),
            }
        })
    });
    let body = Memo::new(move |_| {
        checks.with(|checks| markup(lang.get(), undoable.get(), count.get(), checks))
    });
    let act = Callback::new(
        move |heard: Heard| match MistakeAction::read(&heard.reading()) {
            Some(MistakeAction::Undo) => {
                if let Some((_, before, _)) = replaced.get_untracked() {
                    scenario.set(before);
                }
                replaced.set(None);
            }
            Some(MistakeAction::Demo(mistake)) => {
                let before = scenario.get_untracked();
                demonstrate(mistake, tour, scenario, pages);
                let made = scenario.get_untracked();
                if made != before {
                    replaced.set(Some((mistake, before, made)));
                }
            }
            None => {}
        },
    );
    view! { <ActionCard class="card" testid="mistakes" markup=body on_action=act /> }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mistake_has_its_text_and_a_demo_button_in_both_languages() {
        for lang in [Lang::Zh, Lang::En] {
            let count = Count::of(&attention_core::presets::sentence());
            let html = markup(lang, None, count, &Checks::default());
            assert!(!html.contains("mistake-undo"));
            assert_eq!(
                markup(lang, Some(Mistake::FixedWeights), count, &Checks::default())
                    .matches("data-testid=\"mistake-undo\"")
                    .count(),
                1
            );
            assert_eq!(
                html.matches("data-testid=\"mistake-demo\"").count(),
                Mistake::ALL.len()
            );
            for (n, mistake) in Mistake::ALL.iter().enumerate() {
                let (title, body) = mistake.text();
                let click = Reading::click(Control::Demo.name(), n);
                assert_eq!(
                    MistakeAction::read(&click),
                    Some(MistakeAction::Demo(*mistake))
                );
                assert!(html.contains(&format!("data-action=\"mistake-demo\" data-index=\"{n}\"")));
                assert!(html.contains(&crate::svg::escape(title.get(lang))));
                assert!(html.contains(&crate::svg::escape(body.get(lang))));
            }
        }
    }

    #[test]
    fn more_heads_keep_the_count_of_weights() {
        let mut s = attention_core::presets::sentence();
        let one = Count::of(&s);
        let sentence = |count: Count| markup(Lang::En, None, count, &Checks::default());
        let words = "W_Q, W_K and W_V hold 3 × 4 × 4 = 48 numbers<";
        assert!(sentence(one).contains(&format!("Now h = 1, each head d_k = 4: {words}")));
        let two = other_heads(1, 4).expect("4 columns in two heads");
        lab::split_heads(&mut s, two).expect("two heads");
        let split = sentence(Count::of(&s));
        assert!(
            split.contains(&format!("Now h = 2, each head d_k = 2: {words}")),
            "{split}"
        );
        assert_eq!(
            s.head,
            attention_core::presets::sentence().head,
            "the same numbers"
        );
        lab::split_heads(&mut s, other_heads(2, 4).expect("one")).expect("one head");
        lab::set_w_o(&mut s, true, 1).expect("no block");
        let back = markup(
            Lang::Zh,
            Some(Mistake::MoreHeads),
            Count::of(&s),
            &Checks::default(),
        );
        assert!(
            back.contains("共 3 × 4 × 4 = 48 个数，W_O 有 4 × 4 = 16 个"),
            "{back}"
        );
        assert!(back.contains(text::UNDO_HEADS.zh));
        // Three columns go to three heads; eleven to none of two to eight.
        assert_eq!((other_heads(1, 3), other_heads(1, 11)), (Some(3), None));
    }

    #[test]
    fn undo_reads_back_and_garbage_is_no_action() {
        let undo = Reading::click(Control::Undo.name(), 0);
        assert_eq!(MistakeAction::read(&undo), Some(MistakeAction::Undo));
        let past_the_end = Reading::click(Control::Demo.name(), Mistake::ALL.len());
        assert_eq!(MistakeAction::read(&past_the_end), None);
        let changed = Reading {
            event: Kind::Change,
            ..Reading::click(Control::Demo.name(), 0)
        };
        assert_eq!(MistakeAction::read(&changed), None);
        assert_eq!(MistakeAction::read(&Reading::click("undo", 0)), None);
    }
}
