//! The training card: a toy task with a label, and the core's trainer learning
//! W_Q and W_K by backpropagation, a few steps per animation frame so the page
//! stays smooth. While it trains, the scenario is the trainer's, so the four
//! diagrams, the W matrices and the link follow every step; when it stops the
//! learned head is a scenario like any other. Markup patched in place, speaking
//! the cards' protocol (`crate::action`): [`action`] reads and applies events.
//!
//! Built as: markup, an `ActionCard` (ARCHITECTURE.md: Adding a card).

pub mod action;
mod curve;
pub mod markup;

use crate::action::Heard;
use crate::controls::scenarios::{Choice, Picked};
use crate::i18n::{training as text, LangContext, Msg};
use crate::page::ActionCard;
use crate::state::lab;
use crate::walkthrough::{Step, Tour};
use action::{apply, frame, Coach, Pace, TrainingAction};
use attention_core::train::{Loss, Optimizer};
use attention_core::Scenario;
use leptos::prelude::*;
use markup::TrainingView;

/// Play stops here, so a forgotten tab does not grow the curve forever.
const MAX_STEPS: usize = 20_000;

/// The optimizers the card offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptimizerKind {
    Sgd,
    Momentum,
    Adam,
}

impl OptimizerKind {
    pub const ALL: [OptimizerKind; 3] = [
        OptimizerKind::Sgd,
        OptimizerKind::Momentum,
        OptimizerKind::Adam,
    ];

    pub fn id(self) -> &'static str {
        match self {
            OptimizerKind::Sgd => "sgd",
            OptimizerKind::Momentum => "momentum",
            OptimizerKind::Adam => "adam",
        }
    }

    pub fn name(self) -> Msg {
        match self {
            OptimizerKind::Sgd => text::SGD,
            OptimizerKind::Momentum => text::MOMENTUM,
            OptimizerKind::Adam => text::ADAM,
        }
    }

    /// A learning rate that trains the tasks at a watchable pace.
    pub fn usual_lr(self) -> f64 {
        match self {
            OptimizerKind::Sgd => 1.0,
            OptimizerKind::Momentum => 0.1,
            OptimizerKind::Adam => 0.02,
        }
    }

    pub fn with(self, lr: f64) -> Optimizer {
        match self {
            OptimizerKind::Sgd => Optimizer::sgd(lr),
            OptimizerKind::Momentum => Optimizer::momentum(lr),
            OptimizerKind::Adam => Optimizer::adam(lr),
        }
    }
}

/// The query row a task's loss is about, to select when it starts.
pub fn watched_row(loss: &Loss) -> usize {
    match loss {
        Loss::AttendTo(targets) => targets.first().map_or(0, |t| t.query),
        Loss::Output(targets) => targets.first().map_or(0, |t| t.query),
    }
}

/// Whether Play stops: the loss is below the task's goal, or the run has
/// reached [`MAX_STEPS`].
pub fn finished(loss: f64, threshold: f64, steps: usize) -> bool {
    loss < threshold || steps >= MAX_STEPS
}

/// Puts the trainer's head in the lab: every diagram shows it.
fn show(coach: RwSignal<Coach>, scenario: RwSignal<Scenario>) {
    scenario.set(coach.with_untracked(|c| c.trainer.scenario()));
}

/// The pace the learner's system asks for: calm if it asks for reduced motion.
fn pace() -> Pace {
    let reduced = window()
        .match_media("(prefers-reduced-motion: reduce)")
        .ok()
        .flatten()
        .is_some_and(|query| query.matches());
    if reduced {
        Pace::Calm
    } else {
        Pace::EveryFrame
    }
}

/// One drawing of Play (`action::frame` decides), then the next: in the next
/// animation frame, or half a second on at a calm pace. Each Play is run
/// number `run` of `runs`: a chain left from an earlier Play (paused and
/// played again before its next drawing) stops, so two never draw at once.
fn play(coach: RwSignal<Coach>, scenario: RwSignal<Scenario>, runs: StoredValue<u32>, run: u32) {
    if runs.get_value() != run {
        return;
    }
    let pace = pace();
    let stepped = scenario.with_untracked(|lab| coach.try_update(|c| frame(c, lab, pace)));
    if stepped == Some(true) {
        show(coach, scenario);
    }
    if coach.with_untracked(|c| c.playing) {
        let next = move || play(coach, scenario, runs, run);
        match pace {
            Pace::EveryFrame => request_animation_frame(next),
            Pace::Calm => set_timeout(next, std::time::Duration::from_millis(Pace::CALM_MS.into())),
        }
    }
}

/// The training card.
#[component]
pub fn Training() -> impl IntoView {
    let lab = lab();
    let scenario = lab.scenario;
    let LangContext(lang) = expect_context::<LangContext>();
    let focus = lab.focus;
    let Picked(picked) = expect_context::<Picked>();
    let tour = expect_context::<Tour>();
    let coach = RwSignal::new(Coach::default());
    let runs = StoredValue::new(0u32);

    let markup = Memo::new(move |_| {
        let lang = lang.get();
        coach.with(|c| {
            markup::training(&TrainingView {
                lang,
                trainer: &c.trainer,
                optimizer: c.optimizer,
                lr: c.lr,
                playing: c.playing,
            })
        })
    });

    // The pure `apply` decides; what is left here reaches other cards and
    // the browser.
    let act = Callback::new(move |heard: Heard| {
        let Some(action) = TrainingAction::read(&heard.reading()) else {
            return;
        };
        let then = scenario
            .with_untracked(|lab| coach.try_update(|c| apply(c, action, lab)))
            .unwrap_or_default();
        if then.own {
            picked.set(Choice::Current);
        }
        if let Some(row) = then.select {
            focus.query.set(row);
            focus.sequence.set(0);
        }
        if then.show {
            show(coach, scenario);
        }
        if then.play {
            runs.update_value(|run| *run += 1);
            play(coach, scenario, runs, runs.get_value());
        }
        if then.learning {
            tour.go(Step::Learning);
        }
    });

    view! { <ActionCard class="card training" testid="training" markup=markup on_action=act /> }
}

#[cfg(test)]
mod tests {
    use super::{finished, MAX_STEPS};

    #[test]
    fn play_stops_at_the_goal_or_the_step_limit() {
        assert!(!finished(0.3, 0.05, 10));
        assert!(finished(0.049, 0.05, 10));
        assert!(!finished(0.3, 0.05, MAX_STEPS - 1));
        assert!(finished(0.3, 0.05, MAX_STEPS));
        assert!(
            !finished(f64::NAN, 0.05, 3),
            "a NaN loss is no goal reached"
        );
    }
}
