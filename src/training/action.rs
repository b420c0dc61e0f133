//! What the learner did on the training card, as data (the cards' protocol,
//! `crate::action`), and its effect on the run: the trainer, the optimizer
//! and whether Play is on. What the lab and the browser must do afterwards
//! (show the trainer's head, select its query, start animation frames) comes
//! back as [`Then`] for the card's shell. Pure, so tested natively.

use super::markup::lr_of;
use super::{finished, watched_row, OptimizerKind};
use crate::action::{action_names, Kind, Reading};
use attention_core::train::{task, TaskId, Trainer};
use attention_core::Scenario;

/// Steps per animation frame: the default task reaches its goal in about a
/// second at 60 frames a second, slowly enough to watch.
pub const STEPS_PER_FRAME: usize = 2;
/// How Play paces itself: a few steps every animation frame, or, for a
/// learner whose system asks for reduced motion, the same pace of learning
/// drawn at most twice a second (`prefers-reduced-motion`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pace {
    EveryFrame,
    Calm,
}

impl Pace {
    /// Milliseconds between two drawings in [`Pace::Calm`].
    pub const CALM_MS: u32 = 500;

    /// The steps taken before each drawing: a calm drawing comes after as
    /// many as half a second of frames at 60 a second would take.
    pub fn steps(self) -> usize {
        match self {
            Pace::EveryFrame => STEPS_PER_FRAME,
            Pace::Calm => STEPS_PER_FRAME * 60 * Pace::CALM_MS as usize / 1000,
        }
    }
}

/// Every run starts from this seed, so Reset gives the same start again.
const SEED: u64 = 1;
/// The numbers of heads the card offers: each splits every task's eight
/// columns of W_Q, W_K and W_V evenly.
pub const HEADS: [usize; 3] = [1, 2, 4];

action_names! {
    /// The card's controls, by their `data-action`.
    pub enum Control {
        Task = "train-task",
        Heads = "train-heads",
        Optimizer = "train-optimizer",
        Rate = "train-lr",
        Play = "train-play",
        Step = "train-step",
        Reset = "train-reset",
        LearningStep = "learning-step",
    }
}

/// One thing the learner did on the card.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TrainingAction {
    /// Start the task afresh.
    Task(TaskId),
    /// Start the task afresh with this many heads side by side.
    Heads(usize),
    Optimizer(OptimizerKind),
    /// The learning-rate slider moved to this position (see `markup::lr_of`).
    Rate(i32),
    /// Play, or pause while playing.
    Play,
    /// One step, pausing Play.
    Step,
    /// The current task afresh, from the same seed.
    Reset,
    /// Open the walkthrough's step about learning.
    LearningStep,
}

impl TrainingAction {
    /// The action an event means, or `None` for events the card does not act
    /// on and for values no control of the card can hold.
    pub fn read(r: &Reading) -> Option<Self> {
        Some(match (r.event, Control::named(r.action)?) {
            (Kind::Change, Control::Task) => Self::Task(TaskId::from_id(r.value)?),
            (Kind::Change, Control::Heads) => {
                Self::Heads(r.value.parse().ok().filter(|h| HEADS.contains(h))?)
            }
            (Kind::Change, Control::Optimizer) => {
                Self::Optimizer(OptimizerKind::ALL.into_iter().find(|k| k.id() == r.value)?)
            }
            (Kind::Input, Control::Rate) => Self::Rate(r.value.trim().parse().ok()?),
            (Kind::Click, Control::Play) => Self::Play,
            (Kind::Click, Control::Step) => Self::Step,
            (Kind::Click, Control::Reset) => Self::Reset,
            (Kind::Click, Control::LearningStep) => Self::LearningStep,
            _ => return None,
        })
    }
}

/// A run of training: the trainer and how it is driven.
#[derive(Clone, Debug)]
pub struct Coach {
    pub trainer: Trainer,
    pub optimizer: OptimizerKind,
    pub lr: f64,
    pub playing: bool,
    /// Whether Play stops at the goal: only when it started above it.
    pub stop_at_goal: bool,
}

impl Default for Coach {
    /// The pronoun task with Adam at its usual rate, paused.
    fn default() -> Self {
        let optimizer = OptimizerKind::Adam;
        let lr = optimizer.usual_lr();
        Coach {
            trainer: Trainer::new(task(TaskId::Pronoun), optimizer.with(lr), SEED),
            optimizer,
            lr,
            playing: false,
            stop_at_goal: true,
        }
    }
}

impl Coach {
    fn past_goal(&self) -> bool {
        let t = &self.trainer;
        finished(t.loss(), t.task().threshold(), t.steps())
    }

    /// The query row the task's loss is about.
    fn row(&self) -> usize {
        watched_row(self.trainer.task().loss())
    }

    /// A fresh trainer for task `id` with `heads` heads from the usual seed,
    /// paused.
    fn restart(&mut self, id: TaskId, heads: usize) -> Then {
        self.playing = false;
        let one = task(id);
        let task = one.clone().with_heads(heads).unwrap_or(one);
        self.trainer = Trainer::new(task, self.optimizer.with(self.lr), SEED);
        Then {
            select: Some(self.row()),
            show: true,
            ..Then::default()
        }
    }

    /// Play or Step after other work: the lab takes the trainer's head again,
    /// as the learner's own scenario, showing the task's query.
    fn take_over(&self, lab: &Scenario) -> Then {
        if *lab == self.trainer.scenario() {
            return Then::default();
        }
        Then {
            select: Some(self.row()),
            own: true,
            show: true,
            ..Then::default()
        }
    }
}

/// What the card's shell does after an action.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Then {
    /// Select this query, in the first sequence.
    pub select: Option<usize>,
    /// The scenario picker says the lab holds the learner's own scenario.
    pub own: bool,
    /// Put the trainer's head in the lab.
    pub show: bool,
    /// Start Play's animation frames.
    pub play: bool,
    /// Open the walkthrough's learning step.
    pub learning: bool,
}

/// Carries out `action` on the run, with `lab` the scenario the lab shows now.
pub fn apply(coach: &mut Coach, action: TrainingAction, lab: &Scenario) -> Then {
    match action {
        TrainingAction::Task(id) => coach.restart(id, coach.trainer.task().heads()),
        TrainingAction::Heads(heads) => coach.restart(coach.trainer.task().id(), heads),
        TrainingAction::Reset => {
            let task = coach.trainer.task();
            coach.restart(task.id(), task.heads())
        }
        TrainingAction::Optimizer(kind) => {
            coach.optimizer = kind;
            coach.lr = kind.usual_lr();
            coach.trainer.set_optimizer(kind.with(coach.lr));
            Then::default()
        }
        TrainingAction::Rate(position) => {
            coach.lr = lr_of(position);
            coach.trainer.set_optimizer(coach.optimizer.with(coach.lr));
            Then::default()
        }
        TrainingAction::Play if coach.playing => {
            coach.playing = false;
            Then::default()
        }
        TrainingAction::Play => {
            let then = coach.take_over(lab);
            coach.stop_at_goal = !coach.past_goal();
            coach.playing = true;
            Then { play: true, ..then }
        }
        TrainingAction::Step => {
            let then = coach.take_over(lab);
            coach.playing = false;
            coach.trainer.step();
            Then { show: true, ..then }
        }
        TrainingAction::LearningStep => Then {
            learning: true,
            ..Then::default()
        },
    }
}

/// One drawing of Play at `pace`, with `lab` the scenario the lab shows
/// now: a few steps, unless Play is off or something else changed the lab since
/// the last frame (the learner took over: Play stops, keeping their work).
/// Play also stops at the goal when it started above it. Returns whether the
/// trainer stepped; `coach.playing` says whether to ask for another frame.
pub fn frame(coach: &mut Coach, lab: &Scenario, pace: Pace) -> bool {
    if !coach.playing {
        return false;
    }
    if *lab != coach.trainer.scenario() {
        coach.playing = false;
        return false;
    }
    for _ in 0..pace.steps() {
        coach.trainer.step();
    }
    if coach.stop_at_goal && coach.past_goal() {
        coach.playing = false;
    }
    true
}

#[cfg(test)]
mod tests;
