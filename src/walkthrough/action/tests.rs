use super::*;
use crate::action::Kind;

fn click(control: Control, index: usize) -> Option<TourAction> {
    TourAction::read(&Reading::click(control.name(), index))
}

fn running(step: Step) -> Walk {
    Walk {
        step: Some(step),
        guess: None,
        finished: false,
    }
}

#[test]
fn every_button_and_link_reads_back_into_its_action() {
    for step in Step::ALL {
        assert_eq!(
            click(Control::Step, step.index()),
            Some(TourAction::Show(step))
        );
    }
    assert_eq!(click(Control::Guess, 3), Some(TourAction::Guess(3)));
    assert_eq!(click(Control::StepControl, 1), Some(TourAction::Control(1)));
    assert_eq!(click(Control::Toggle, 0), Some(TourAction::Toggle));
    assert_eq!(click(Control::Previous, 0), Some(TourAction::Previous));
    assert_eq!(click(Control::Next, 0), Some(TourAction::Next));
    assert_eq!(click(Control::Finish, 0), Some(TourAction::Finish));
}

#[test]
fn garbage_other_events_and_other_keys_are_no_action() {
    assert_eq!(click(Control::Step, Step::ALL.len()), None);
    assert_eq!(TourAction::read(&Reading::click("next", 0)), None);
    assert_eq!(TourAction::read(&Reading::click("", 0)), None);
    let changed = Reading {
        event: Kind::Change,
        ..Reading::click(Control::Next.name(), 0)
    };
    assert_eq!(TourAction::read(&changed), None);
    assert_eq!(
        TourAction::read_key("ArrowLeft"),
        Some(TourAction::Previous)
    );
    assert_eq!(TourAction::read_key("ArrowRight"), Some(TourAction::Next));
    assert_eq!(TourAction::read_key("ArrowUp"), None);
    assert_eq!(TourAction::read_key("Enter"), None);
}

#[test]
fn toggle_starts_at_the_first_step_and_leaves_forgetting_the_guess() {
    let mut walk = Walk::default();
    assert_eq!(apply(&mut walk, TourAction::Toggle), Then::Stay);
    assert_eq!(walk, running(Step::Input));
    walk.guess = Some(2);
    apply(&mut walk, TourAction::Toggle);
    assert_eq!(walk, Walk::default());
    let mut last = running(Step::Learning);
    assert_eq!(apply(&mut last, TourAction::Finish), Then::Stay);
    assert_eq!(last.step, None);
}

#[test]
fn only_finish_at_the_last_step_finishes_the_walkthrough() {
    let last = *Step::ALL.last().unwrap_or(&Step::Input);
    let mut walk = running(last);
    apply(&mut walk, TourAction::Finish);
    assert!(walk.finished && walk.step.is_none());
    // Starting again keeps it finished: an LMS was told so already.
    apply(&mut walk, TourAction::Toggle);
    assert!(walk.finished);
    for early in [Step::Input, Step::ALL[Step::ALL.len() - 2]] {
        let mut walk = running(early);
        apply(&mut walk, TourAction::Finish);
        apply(&mut walk, TourAction::Toggle);
        apply(&mut walk, TourAction::Previous);
        assert!(!walk.finished, "{early:?}");
    }
}

#[test]
fn previous_and_next_move_within_the_steps_only_while_it_runs() {
    let mut walk = running(Step::Input);
    assert_eq!(
        apply(&mut walk, TourAction::Next),
        Then::Went(Step::Projection)
    );
    assert_eq!(
        apply(&mut walk, TourAction::Previous),
        Then::Went(Step::Input)
    );
    assert_eq!(
        apply(&mut walk, TourAction::Previous),
        Then::Went(Step::Input)
    );
    let mut free = Walk::default();
    assert_eq!(apply(&mut free, TourAction::Next), Then::Stay);
    assert_eq!(free, Walk::default());
}

#[test]
fn a_step_link_shows_its_diagram_and_moves_only_a_running_walkthrough() {
    let mut free = Walk::default();
    assert_eq!(
        apply(&mut free, TourAction::Show(Step::Scores)),
        Then::ShowDiagram(Step::Scores)
    );
    assert_eq!(free.step, None);
    let mut walk = running(Step::Input);
    apply(&mut walk, TourAction::Show(Step::Fusion));
    assert_eq!(walk.step, Some(Step::Fusion));
}

#[test]
fn a_guess_is_kept_and_a_control_button_brings_the_steps_control() {
    let mut walk = running(Step::Softmax);
    assert_eq!(apply(&mut walk, TourAction::Guess(2)), Then::Stay);
    assert_eq!(walk.guess, Some(2));
    let mut scaling = running(Step::Scaling);
    assert_eq!(
        apply(&mut scaling, TourAction::Control(1)),
        Then::Bring("d-k")
    );
    // A control the step does not ask for, or no step at all: nothing.
    assert_eq!(apply(&mut scaling, TourAction::Control(9)), Then::Stay);
    assert_eq!(
        apply(&mut Walk::default(), TourAction::Control(0)),
        Then::Stay
    );
}
