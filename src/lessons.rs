//! The lessons, and the menu at the top of the page that opens them. A
//! lesson is an example scenario, the walkthrough step it starts on and the
//! card it is about; choosing it in the menu opens all three, the card
//! unfolded and scrolled into view. Picking a lesson's scenario in "Input and
//! settings" (or in a link) opens its card too. The link names the lesson
//! (`lesson=`). Adding a lesson is a variant here and its arms in
//! [`Lesson::spec`], with its title in `i18n/lessons.rs`.
//!
//! Built as: markup, an `ActionCard` (ARCHITECTURE.md: Adding a card).

mod menu;

use crate::action::Heard;
use crate::cards::Card;
use crate::controls::scenarios::{Choice, Picked};
use crate::i18n::{lessons as titles, LangContext, Msg};
use crate::page::{shown_card, ActionCard};
use crate::state::lab;
use crate::walkthrough::{Step, Tour};
use attention_core::presets::Preset;
use leptos::prelude::*;
use menu::{menu, MenuAction};

/// A lesson of the menu.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lesson {
    /// The seed lessons: one head, Q, K and V to the fused B.
    #[default]
    OneHead,
    SeveralHeads,
    WordOrder,
    Generation,
    /// The transformer block around the attention: residuals, LayerNorm,
    /// the feed-forward network, stacked layers.
    Block,
    Training,
    WhyScale,
}

/// What opening a lesson does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LessonSpec {
    /// Its name in links (`lesson=`) and in the menu's `data-lesson`.
    pub id: &'static str,
    /// Its name in the menu.
    pub title: Msg,
    /// The example it opens, or `None` to keep the scenario on screen: the
    /// training card and the √d_k experiment bring numbers of their own.
    pub preset: Option<Preset>,
    /// The walkthrough step it starts on.
    pub step: Step,
    /// The card it is about, unfolded and scrolled into view.
    pub card: Card,
}

impl Lesson {
    /// Every lesson, in the menu's order: the order a course takes them.
    pub const ALL: [Lesson; 7] = [
        Lesson::OneHead,
        Lesson::SeveralHeads,
        Lesson::WordOrder,
        Lesson::Generation,
        Lesson::Block,
        Lesson::Training,
        Lesson::WhyScale,
    ];

    /// The lesson's entry in the menu.
    pub const fn spec(self) -> LessonSpec {
        let (id, title, preset, step, card) = match self {
            Lesson::OneHead => (
                "one-head",
                titles::ONE_HEAD,
                Some(Preset::Sentence),
                Step::Input,
                Card::Projection,
            ),
            Lesson::SeveralHeads => (
                "heads",
                titles::SEVERAL_HEADS,
                Some(Preset::PronounHeads),
                Step::Heads,
                Card::Heads,
            ),
            Lesson::WordOrder => (
                "word-order",
                titles::WORD_ORDER,
                Some(Preset::WordOrder),
                Step::Positions,
                Card::WordOrder,
            ),
            Lesson::Generation => (
                "generation",
                titles::GENERATION,
                Some(Preset::Generation),
                Step::Generation,
                Card::Generation,
            ),
            Lesson::Block => (
                "block",
                titles::BLOCK,
                Some(Preset::Block),
                Step::Residual,
                Card::Block,
            ),
            Lesson::Training => (
                "training",
                titles::TRAINING,
                None,
                Step::Learning,
                Card::Training,
            ),
            Lesson::WhyScale => (
                "why-scale",
                titles::WHY_SCALE,
                None,
                Step::Scaling,
                Card::Experiment,
            ),
        };
        LessonSpec {
            id,
            title,
            preset,
            step,
            card,
        }
    }

    /// The lesson named `id` in a link.
    pub fn from_id(id: &str) -> Option<Lesson> {
        Lesson::ALL.into_iter().find(|l| l.spec().id == id)
    }

    /// The lesson a picked scenario belongs to: the one that opens it, or
    /// for the seed lessons' other examples the first lesson; `None` for a
    /// scenario of the learner's own, which leaves the lesson as it was.
    pub fn of_choice(choice: Choice) -> Option<Lesson> {
        let Choice::Preset(preset) = choice else {
            return None;
        };
        let opens = |l: &Lesson| l.spec().preset == Some(preset);
        Some(Lesson::ALL.into_iter().find(opens).unwrap_or_default())
    }
}

/// The lesson the learner is in, shared with the link.
#[derive(Clone, Copy)]
pub struct CurrentLesson(pub RwSignal<Lesson>);

/// Unfolds `card` (its first fold) and keeps it at the top of the screen, once the page
/// shows what the last change made (a new scenario may show or hide cards),
/// and after the walkthrough has followed its step (`Tour::go`, which also
/// waits for the frame): the lesson's card is what the learner asked for.
fn bring(card: Card) {
    request_animation_frame(move || {
        set_timeout(
            move || {
                let Some(shown) = shown_card(card) else {
                    return;
                };
                crate::action::open_card(&shown);
                keep_at_top(shown, SETTLE_FRAMES, 0);
            },
            std::time::Duration::ZERO,
        );
    });
}

/// How many frames a lesson's card is kept at the top of the screen while
/// the page settles: about half a second.
const SETTLE_FRAMES: u32 = 30;

/// Scrolls `card` to the top of the screen, and again in the frames after
/// while the cards above it still change height (one drawn as the page
/// passes it, the walkthrough's column coming or going), for at most
/// `frames` frames, and no longer once it has stayed put for three.
fn keep_at_top(card: web_sys::Element, frames: u32, still: u32) {
    let off = card.get_bounding_client_rect().top().abs() > 2.0;
    if off {
        card.scroll_into_view();
    }
    let still = if off { 0 } else { still + 1 };
    if frames > 0 && still < 3 {
        request_animation_frame(move || keep_at_top(card, frames - 1, still));
    }
}

/// The menu of lessons at the top of the page: one tab stop, the arrow keys
/// moving along it, the current lesson marked `aria-current`.
#[component]
pub fn LessonMenu(
    /// Whether the link opened the page on a lesson or a lesson's scenario,
    /// whose card is then brought into view at once.
    opened_from_link: bool,
) -> impl IntoView {
    let CurrentLesson(current) = expect_context::<CurrentLesson>();
    let Picked(picked) = expect_context::<Picked>();
    let tour = expect_context::<Tour>();
    let LangContext(lang) = expect_context::<LangContext>();
    let lab = lab();

    // A scenario picked anywhere (the picker, Back, a link) opens its lesson.
    Effect::new(move |before: Option<Choice>| {
        let choice = picked.get();
        if before.is_some_and(|b| b != choice) {
            if let Some(lesson) = Lesson::of_choice(choice) {
                if lesson != current.get_untracked() {
                    current.set(lesson);
                }
            }
        }
        choice
    });
    // A new lesson brings its card, and so does a link that opens on a later
    // lesson; a visit to the first lesson starts at the top of the page.
    Effect::new(move |before: Option<Lesson>| {
        let lesson = current.get();
        let brings = match before {
            Some(before) => before != lesson,
            None => opened_from_link && lesson != Lesson::OneHead,
        };
        if brings {
            bring(lesson.spec().card);
        }
        lesson
    });

    let open = move |lesson: Lesson| {
        let spec = lesson.spec();
        if let Some(preset) = spec.preset {
            let choice = Choice::Preset(preset);
            if picked.get_untracked() != choice {
                lab.focus.query.set(0);
                lab.focus.sequence.set(0);
                lab.focus.head.set(0);
                lab.scenario.set(preset.scenario());
                picked.set(choice);
            }
        }
        tour.step.set(Some(spec.step));
        if current.get_untracked() == lesson {
            // Chosen again: the learner wants to see it again.
            bring(spec.card);
        } else {
            current.set(lesson);
        }
    };
    let markup = Memo::new(move |_| menu(current.get(), lang.get()));
    let act = Callback::new(move |heard: Heard| {
        if let Some(MenuAction::Open(lesson)) = MenuAction::read(&heard.reading()) {
            open(lesson);
        }
    });
    view! { <ActionCard class="lessons" testid="lessons" markup=markup on_action=act /> }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lesson_round_trips_through_its_link_name() {
        for lesson in Lesson::ALL {
            assert_eq!(Lesson::from_id(lesson.spec().id), Some(lesson));
        }
        assert_eq!(Lesson::from_id("nope"), None);
        let ids: std::collections::HashSet<_> = Lesson::ALL.map(|l| l.spec().id).into();
        assert_eq!(
            ids.len(),
            Lesson::ALL.len(),
            "two lessons share a link name"
        );
    }

    #[test]
    fn a_lesson_starts_on_a_step_about_its_card_or_beside_it() {
        // The lessons of one card each start on the step about that card.
        for lesson in [Lesson::SeveralHeads, Lesson::Generation, Lesson::Block] {
            let spec = lesson.spec();
            assert_eq!(spec.step.card(), spec.card, "{lesson:?}");
        }
        // Word order: its step is about the positions, shown beside it.
        assert_eq!(Lesson::WordOrder.spec().step.card(), Card::Positions);
    }

    #[test]
    fn a_picked_scenario_opens_the_lesson_it_belongs_to() {
        for lesson in Lesson::ALL {
            if let Some(preset) = lesson.spec().preset {
                assert_eq!(Lesson::of_choice(Choice::Preset(preset)), Some(lesson));
            }
        }
        // The seed lessons' other examples are the first lesson's.
        let pronoun = Choice::Preset(Preset::Pronoun);
        assert_eq!(Lesson::of_choice(pronoun), Some(Lesson::OneHead));
        assert_eq!(Lesson::of_choice(Choice::Blank), None);
        assert_eq!(Lesson::of_choice(Choice::Current), None);
    }
}
