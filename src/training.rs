//! The training card: a toy task with a label, and the core's trainer learning
//! W_Q and W_K by backpropagation, a few steps per animation frame so the page
//! stays smooth. While it trains, the scenario is the trainer's, so the four
//! diagrams, the W matrices and the link follow every step; when it stops the
//! learned head is a scenario like any other. Markup patched in place with one
//! delegated listener, like the controls.

mod curve;
pub mod markup;

use crate::controls::control_of;
use crate::controls::scenarios::{Choice, Picked};
use crate::diagrams::host::keep_patched;
use crate::i18n::{training as text, LangContext, Msg};
use crate::state::{Focus, LabScenario};
use crate::walkthrough::{Step, Tour};
use attention_core::train::{task, Loss, Optimizer, TaskId, Trainer};
use leptos::html::Section;
use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;
use markup::TrainingView;
use web_sys::HtmlInputElement;

/// Steps per animation frame: the default task reaches its goal in about a
/// second at 60 frames a second, slowly enough to watch.
const STEPS_PER_FRAME: usize = 2;
/// Play stops here, so a forgotten tab does not grow the curve forever.
const MAX_STEPS: usize = 20_000;
/// Every run starts from this seed, so Reset gives the same start again.
const SEED: u64 = 1;

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

/// What a run of training shares between the listener and the frames.
#[derive(Clone, Copy)]
struct Run {
    trainer: StoredValue<Trainer>,
    playing: RwSignal<bool>,
    /// Whether Play stops at the goal: only when it started above it.
    stop_at_goal: StoredValue<bool>,
    tick: RwSignal<u64>,
    scenario: RwSignal<attention_core::Scenario>,
}

impl Run {
    /// Shows the trainer's head in every diagram, and redraws the card.
    fn show(self) {
        self.scenario
            .set(self.trainer.with_value(Trainer::scenario));
        self.tick.update(|t| *t += 1);
    }

    fn advance(self, steps: usize) {
        self.trainer.update_value(|t| {
            for _ in 0..steps {
                t.step();
            }
        });
        self.show();
    }

    fn past_goal(self) -> bool {
        self.trainer
            .with_value(|t| finished(t.loss(), t.task().threshold(), t.steps()))
    }

    /// Whether the lab still shows the trainer's head: an edit, an import or
    /// another scenario since the last frame means the learner took over.
    fn shown(self) -> bool {
        self.scenario
            .with_untracked(|s| self.trainer.with_value(|t| *s == t.scenario()))
    }
}

/// Whether Play stops: the loss is below the task's goal, or the run has
/// reached [`MAX_STEPS`].
pub fn finished(loss: f64, threshold: f64, steps: usize) -> bool {
    loss < threshold || steps >= MAX_STEPS
}

/// One animation frame of Play: a few steps, then the next frame. Play
/// stops, keeping the learner's work, when something else changed the lab.
fn frame(run: Run) {
    if !run.playing.get_untracked() {
        return;
    }
    if !run.shown() {
        run.playing.set(false);
        return;
    }
    run.advance(STEPS_PER_FRAME);
    if run.stop_at_goal.get_value() && run.past_goal() {
        run.playing.set(false);
        return;
    }
    request_animation_frame(move || frame(run));
}

/// The training card.
#[component]
pub fn Training() -> impl IntoView {
    let LabScenario(scenario) = expect_context::<LabScenario>();
    let LangContext(lang) = expect_context::<LangContext>();
    let focus = expect_context::<Focus>();
    let Picked(picked) = expect_context::<Picked>();
    let tour = expect_context::<Tour>();
    let node = NodeRef::<Section>::new();
    let optimizer = RwSignal::new(OptimizerKind::Adam);
    let lr = RwSignal::new(OptimizerKind::Adam.usual_lr());
    let run = Run {
        trainer: StoredValue::new(Trainer::new(
            task(TaskId::Pronoun),
            OptimizerKind::Adam.with(lr.get_untracked()),
            SEED,
        )),
        playing: RwSignal::new(false),
        stop_at_goal: StoredValue::new(true),
        tick: RwSignal::new(0),
        scenario,
    };

    let markup = Memo::new(move |_| {
        run.tick.track();
        run.trainer.with_value(|trainer| {
            markup::training(&TrainingView {
                lang: lang.get(),
                trainer,
                optimizer: optimizer.get(),
                lr: lr.get(),
                playing: run.playing.get(),
            })
        })
    });
    keep_patched(node, markup.into());

    // A fresh trainer for `id` from the usual seed, shown at once.
    let restart = move |id: TaskId| {
        run.playing.set(false);
        let fresh = Trainer::new(
            task(id),
            optimizer.get_untracked().with(lr.get_untracked()),
            SEED,
        );
        focus.query.set(watched_row(fresh.task().loss()));
        focus.sequence.set(0);
        run.trainer.set_value(fresh);
        run.show();
    };
    // The first Play or Step after other work shows the task's query, and
    // the lab shows the trainer's head again.
    let enter = move || {
        let (task_scenario, row) = run
            .trainer
            .with_value(|t| (t.scenario(), watched_row(t.task().loss())));
        if scenario.with_untracked(|s| *s != task_scenario) {
            picked.set(Choice::Current);
            focus.query.set(row);
            focus.sequence.set(0);
            run.show();
        }
    };
    let set_optimizer = move || {
        let chosen = optimizer.get_untracked().with(lr.get_untracked());
        run.trainer.update_value(|t| t.set_optimizer(chosen));
    };
    let act = move |event: web_sys::Event| {
        let Some((control, name)) = control_of(&event) else {
            return;
        };
        let value = || {
            control
                .dyn_ref::<HtmlInputElement>()
                .map(HtmlInputElement::value)
                .unwrap_or_else(|| event_target_value(&event))
        };
        match (event.type_().as_str(), name.as_str()) {
            ("change", "train-task") => {
                if let Some(id) = TaskId::from_id(&event_target_value(&event)) {
                    restart(id);
                }
            }
            ("change", "train-optimizer") => {
                let picked = event_target_value(&event);
                if let Some(kind) = OptimizerKind::ALL.into_iter().find(|k| k.id() == picked) {
                    optimizer.set(kind);
                    lr.set(kind.usual_lr());
                    set_optimizer();
                }
            }
            ("input", "train-lr") => {
                if let Ok(position) = value().parse::<i32>() {
                    lr.set(markup::lr_of(position));
                    set_optimizer();
                }
            }
            ("click", "train-play") => {
                if run.playing.get_untracked() {
                    run.playing.set(false);
                } else {
                    enter();
                    run.stop_at_goal.set_value(!run.past_goal());
                    run.playing.set(true);
                    frame(run);
                }
            }
            ("click", "train-step") => {
                enter();
                run.playing.set(false);
                run.advance(1);
            }
            ("click", "train-reset") => restart(run.trainer.with_value(|t| t.task().id())),
            ("click", "learning-step") => tour.go(Step::Learning),
            _ => {}
        }
    };

    view! {
        <section
            class="card training"
            data-testid="training"
            node_ref=node
            on:click=move |e| act(e.into())
            on:change=act
            on:input=act
        ></section>
    }
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
