use super::*;
use crate::action::Kind;

fn read(event: Kind, control: Control, value: &str) -> Option<TrainingAction> {
    TrainingAction::read(&Reading::of(event, control.name(), value))
}

#[test]
fn every_control_reads_back_into_its_action() {
    assert_eq!(
        read(Kind::Change, Control::Task, "retrieve"),
        Some(TrainingAction::Task(TaskId::Retrieve))
    );
    assert_eq!(
        read(Kind::Change, Control::Heads, "2"),
        Some(TrainingAction::Heads(2))
    );
    assert_eq!(
        read(Kind::Change, Control::Optimizer, "sgd"),
        Some(TrainingAction::Optimizer(OptimizerKind::Sgd))
    );
    assert_eq!(
        read(Kind::Input, Control::Rate, "-150"),
        Some(TrainingAction::Rate(-150))
    );
    assert_eq!(
        read(Kind::Click, Control::Play, ""),
        Some(TrainingAction::Play)
    );
    assert_eq!(
        read(Kind::Click, Control::Step, ""),
        Some(TrainingAction::Step)
    );
    assert_eq!(
        read(Kind::Click, Control::Reset, ""),
        Some(TrainingAction::Reset)
    );
    assert_eq!(
        read(Kind::Click, Control::LearningStep, ""),
        Some(TrainingAction::LearningStep)
    );
}

#[test]
fn garbage_and_other_events_are_no_action() {
    assert_eq!(read(Kind::Change, Control::Task, "chess"), None);
    assert_eq!(read(Kind::Change, Control::Optimizer, "Adam"), None);
    // Only the head counts the card offers: 3 does not divide the columns.
    assert_eq!(read(Kind::Change, Control::Heads, "3"), None);
    assert_eq!(read(Kind::Change, Control::Heads, "two"), None);
    assert_eq!(read(Kind::Input, Control::Rate, "0.5"), None);
    assert_eq!(read(Kind::Input, Control::Rate, ""), None);
    assert_eq!(read(Kind::Change, Control::Rate, "-150"), None);
    assert_eq!(read(Kind::Enter, Control::Play, ""), None);
    assert_eq!(TrainingAction::read(&Reading::click("play", 0)), None);
}

#[test]
fn a_new_task_starts_afresh_paused_on_its_query() {
    let mut coach = Coach::default();
    let lab = coach.trainer.scenario();
    apply(&mut coach, TrainingAction::Step, &lab);
    coach.playing = true;
    let then = apply(&mut coach, TrainingAction::Task(TaskId::SameSpeaker), &lab);
    assert_eq!(coach.trainer.task().id(), TaskId::SameSpeaker);
    assert_eq!((coach.trainer.steps(), coach.playing), (0, false));
    let row = watched_row(coach.trainer.task().loss());
    assert_eq!(
        then,
        Then {
            select: Some(row),
            show: true,
            ..Then::default()
        }
    );
}

#[test]
fn reset_gives_the_same_start_again() {
    let mut coach = Coach::default();
    let start = coach.trainer.scenario();
    for _ in 0..3 {
        apply(&mut coach, TrainingAction::Step, &start);
    }
    assert_eq!(coach.trainer.steps(), 3);
    assert_ne!(coach.trainer.scenario(), start);
    let then = apply(&mut coach, TrainingAction::Reset, &start);
    assert_eq!((coach.trainer.scenario(), then.show), (start, true));
    assert_eq!(coach.trainer.task().id(), TaskId::Pronoun);
}

#[test]
fn the_optimizer_takes_its_usual_rate_and_the_slider_sets_another() {
    let mut coach = Coach::default();
    let lab = coach.trainer.scenario();
    let then = apply(
        &mut coach,
        TrainingAction::Optimizer(OptimizerKind::Sgd),
        &lab,
    );
    assert_eq!(then, Then::default());
    assert_eq!(coach.lr, OptimizerKind::Sgd.usual_lr());
    assert_eq!(coach.trainer.optimizer(), OptimizerKind::Sgd.with(1.0));
    apply(&mut coach, TrainingAction::Rate(-100), &lab);
    assert!((coach.lr - 0.1).abs() < 1e-12, "{}", coach.lr);
    assert_eq!(coach.trainer.optimizer(), OptimizerKind::Sgd.with(coach.lr));
    assert_eq!(coach.optimizer, OptimizerKind::Sgd);
}

#[test]
fn play_takes_the_lab_back_only_when_it_shows_other_work() {
    let mut coach = Coach::default();
    let own = attention_core::presets::sentence();
    let then = apply(&mut coach, TrainingAction::Play, &own);
    assert!(coach.playing && coach.stop_at_goal);
    let row = watched_row(coach.trainer.task().loss());
    assert_eq!(
        then,
        Then {
            select: Some(row),
            own: true,
            show: true,
            play: true,
            learning: false,
        }
    );
    // Pressed again it pauses, and does nothing else.
    let lab = coach.trainer.scenario();
    assert_eq!(
        apply(&mut coach, TrainingAction::Play, &lab),
        Then::default()
    );
    assert!(!coach.playing);
    // On the trainer's own head, Play only plays.
    let then = apply(&mut coach, TrainingAction::Play, &lab);
    assert_eq!(
        then,
        Then {
            play: true,
            ..Then::default()
        }
    );
}

#[test]
fn step_pauses_and_steps_once() {
    let mut coach = Coach {
        playing: true,
        ..Coach::default()
    };
    let lab = coach.trainer.scenario();
    let then = apply(&mut coach, TrainingAction::Step, &lab);
    assert_eq!((coach.trainer.steps(), coach.playing), (1, false));
    assert_eq!(
        then,
        Then {
            show: true,
            ..Then::default()
        }
    );
    let then = apply(&mut coach, TrainingAction::LearningStep, &lab);
    assert_eq!((then.learning, coach.trainer.steps()), (true, 1));
}

#[test]
fn frames_step_until_the_goal_or_until_the_learner_takes_over() {
    let mut coach = Coach::default();
    let lab = coach.trainer.scenario();
    // Paused: no step.
    assert!(!frame(&mut coach, &lab, Pace::EveryFrame));
    apply(&mut coach, TrainingAction::Play, &lab);
    let lab = coach.trainer.scenario();
    assert!(frame(&mut coach, &lab, Pace::EveryFrame));
    assert_eq!(coach.trainer.steps(), STEPS_PER_FRAME);
    // Another scenario in the lab stops Play without a step.
    assert!(!frame(
        &mut coach,
        &attention_core::presets::sentence(),
        Pace::EveryFrame
    ));
    assert_eq!(
        (coach.playing, coach.trainer.steps()),
        (false, STEPS_PER_FRAME)
    );
    // Played to the end, it stops at the goal.
    let lab = coach.trainer.scenario();
    apply(&mut coach, TrainingAction::Play, &lab);
    let mut frames = 0;
    while coach.playing && frames < 10_000 {
        let lab = coach.trainer.scenario();
        frame(&mut coach, &lab, Pace::EveryFrame);
        frames += 1;
    }
    assert!(!coach.playing, "still playing after {frames} frames");
    assert!(coach.trainer.loss() < coach.trainer.task().threshold());
}

#[test]
fn heads_restart_the_task_split_and_a_new_task_or_reset_keeps_them() {
    let mut coach = Coach::default();
    let lab = coach.trainer.scenario();
    apply(&mut coach, TrainingAction::Step, &lab);
    coach.playing = true;
    let then = apply(&mut coach, TrainingAction::Heads(2), &lab);
    assert_eq!((coach.trainer.steps(), coach.playing), (0, false));
    assert!(then.show && then.select.is_some());
    let start = coach.trainer.scenario();
    assert_eq!(
        (start.heads, coach.trainer.task().id()),
        (2, TaskId::Pronoun)
    );
    apply(&mut coach, TrainingAction::Step, &start);
    apply(&mut coach, TrainingAction::Reset, &start);
    assert_eq!(coach.trainer.scenario(), start);
    apply(&mut coach, TrainingAction::Task(TaskId::Retrieve), &start);
    assert_eq!(coach.trainer.task().heads(), 2);
    assert_eq!(coach.trainer.scenario().heads, 2);
    apply(&mut coach, TrainingAction::Heads(1), &start);
    assert_eq!(coach.trainer.scenario().heads, 1);
}

#[test]
fn a_calm_pace_learns_as_fast_and_draws_at_most_twice_a_second() {
    // Half a second of frames at 60 a second, in one drawing.
    assert_eq!(Pace::Calm.steps(), 30 * Pace::EveryFrame.steps());
    assert_eq!(Pace::CALM_MS, 500);
    let mut coach = Coach::default();
    let lab = coach.trainer.scenario();
    apply(&mut coach, TrainingAction::Play, &lab);
    let lab = coach.trainer.scenario();
    assert!(frame(&mut coach, &lab, Pace::Calm));
    assert_eq!(coach.trainer.steps(), Pace::Calm.steps());
    // The default task still reaches its goal within a few drawings.
    let mut drawings = 1;
    while coach.playing && drawings < 20 {
        let lab = coach.trainer.scenario();
        frame(&mut coach, &lab, Pace::Calm);
        drawings += 1;
    }
    assert!(
        !coach.playing,
        "still playing after {drawings} calm drawings"
    );
}
