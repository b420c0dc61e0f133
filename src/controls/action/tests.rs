use super::*;
use crate::action::Kind;
use attention_core::presets::{self, Preset};

fn desk() -> Desk {
    Desk {
        scenario: presets::sentence(),
        query: 0,
        sequence: 0,
        head: 0,
        layer: 0,
        seed: 42,
        choice: Choice::Preset(Preset::Sentence),
    }
}

fn read(event: Kind, control: Control, index: usize, value: &str, checked: bool) -> Option<Action> {
    Action::read(&Reading {
        event,
        action: control.name(),
        index,
        value,
        checked,
    })
}

#[test]
fn events_read_back_into_actions() {
    assert_eq!(
        read(Kind::Click, Control::Select, 2, "", false),
        Some(Action::SelectToken(2))
    );
    assert_eq!(
        read(Kind::Click, Control::Pad, 1, "", false),
        Some(Action::TogglePad(1))
    );
    assert_eq!(
        read(Kind::Enter, Control::NewToken, 0, "球", false),
        Some(Action::Add("球".into()))
    );
    assert_eq!(
        read(Kind::Change, Control::Causal, 0, "on", true),
        Some(Action::Causal(true))
    );
    assert_eq!(
        read(Kind::Input, Control::DK, 0, "8", false),
        Some(Action::DK(8))
    );
    assert_eq!(
        read(Kind::Change, Control::Scenario, 0, "pronoun", false),
        Some(Action::Pick(Choice::Preset(Preset::Pronoun)))
    );
    // Typing into a field is not an edit until it is committed, and garbage is no action.
    assert_eq!(read(Kind::Input, Control::Rename, 0, "x", false), None);
    assert_eq!(
        read(Kind::Change, Control::Seed, 0, "-3", false),
        Some(Action::BadSeed("-3".into()))
    );
    assert_eq!(
        read(Kind::Change, Control::Scenario, 0, "<script>", false),
        None
    );
    assert_eq!(Action::read(&Reading::click("nothing", 0)), None);
}

#[test]
fn edits_change_the_scenario_through_the_lab() {
    let mut d = desk();
    apply(&mut d, Action::Add("球".into())).expect("a fifth token fits");
    assert_eq!(d.scenario.x.dim().1, 5);
    apply(&mut d, Action::DK(8)).expect("8 is a valid d_k");
    assert_eq!(d.scenario.head.w_q.ncols(), 8);
    apply(&mut d, Action::Causal(true)).expect("always allowed");
    assert!(d.scenario.options.causal);
    apply(&mut d, Action::TogglePad(1)).expect("token 1 exists");
    assert!(d.scenario.run().expect("runs").into_head(0).weights[(0, 0, 1)] == 0.0);
}

#[test]
fn a_refused_edit_leaves_everything_as_it_was() {
    let mut d = desk();
    let before = d.clone();
    assert_eq!(
        apply(&mut d, Action::Rename(0, "  ".into())),
        Err(LabError::BadLabel)
    );
    assert_eq!(
        apply(&mut d, Action::DModel(99)),
        Err(LabError::BadSize(99))
    );
    assert_eq!(d, before);
}

#[test]
fn seeds_draw_weights_and_randomize_takes_the_next_seed() {
    let mut by_seed = desk();
    apply(&mut by_seed, Action::Seed(43)).expect("any seed");
    let mut next = desk();
    apply(&mut next, Action::Randomize).expect("always allowed");
    assert_eq!(
        (next.seed, &next.scenario.head),
        (43, &by_seed.scenario.head)
    );
    assert_ne!(next.scenario.head, desk().scenario.head);
}

#[test]
fn picking_a_scenario_starts_it_from_its_first_token() {
    let mut d = desk();
    d.query = 3;
    apply(&mut d, Action::Pick(Choice::Preset(Preset::AudioFrames))).expect("presets run");
    assert_eq!((d.query, d.scenario.x.dim().0), (0, 2));
    apply(&mut d, Action::Sequence(5)).expect("clamped");
    assert_eq!(d.sequence, 1);
    let current = d.scenario.clone();
    apply(&mut d, Action::Pick(Choice::Current)).expect("keeps the scenario");
    assert_eq!((d.scenario, d.choice), (current, Choice::Current));
}

#[test]
fn picking_the_long_diarization_gives_its_two_clips_of_200_frames() {
    let mut d = desk();
    d.query = 3;
    let long = Choice::Preset(Preset::LongDiarization);
    assert_eq!(
        read(
            Kind::Change,
            Control::Scenario,
            0,
            "diarization-long",
            false
        ),
        Some(Action::Pick(long))
    );
    // Picking checks no size: the lab's 64-token limit is for links and imports.
    apply(&mut d, Action::Pick(long)).expect("presets run");
    assert_eq!(d.scenario, presets::long_diarization());
    assert_eq!((d.choice, d.query, d.sequence), (long, 0, 0));
    assert_eq!(d.scenario.x.dim(), (2, 200, 8));
    apply(&mut d, Action::Sequence(1)).expect("the second clip");
    assert_eq!(d.sequence, 1);
    apply(&mut d, Action::SelectToken(150)).expect("a padding frame");
    apply(&mut d, Action::Reset).expect("reset");
    assert_eq!((d.scenario, d.choice), (presets::long_diarization(), long));
}

#[test]
fn reset_returns_to_the_chosen_scenarios_defaults() {
    assert_eq!(
        read(Kind::Click, Control::Reset, 0, "", false),
        Some(Action::Reset)
    );
    let mut d = desk();
    apply(&mut d, Action::Pick(Choice::Preset(Preset::Pronoun))).expect("picked");
    apply(&mut d, Action::Causal(true)).expect("edited");
    apply(&mut d, Action::SelectToken(3)).expect("selected");
    apply(&mut d, Action::Reset).expect("reset");
    assert_eq!(d.scenario, presets::pronoun());
    assert_eq!((d.query, d.choice), (0, Choice::Preset(Preset::Pronoun)));
    // One's own scenario has no defaults of its own: it goes back to the lesson's sentence.
    apply(&mut d, Action::Pick(Choice::Current)).expect("own");
    apply(&mut d, Action::Remove(0)).expect("edited");
    apply(&mut d, Action::Reset).expect("reset");
    assert_eq!(d.scenario, presets::sentence());
}

#[test]
fn heads_split_the_layer_and_keep_the_shown_head_among_them() {
    assert_eq!(
        read(Kind::Input, Control::Heads, 0, "2", false),
        Some(Action::Heads(2))
    );
    assert_eq!(
        read(Kind::Change, Control::UseWO, 0, "", true),
        Some(Action::OutputProjection(true))
    );
    assert_eq!(
        read(Kind::Click, Control::RandomizeWO, 0, "", false),
        Some(Action::RandomizeWO)
    );
    let mut d = desk();
    apply(&mut d, Action::Heads(4)).unwrap();
    assert_eq!((d.scenario.heads, lab::head_width(&d.scenario)), (4, 1));
    d.head = 3;
    // Fewer heads keep the shown head among them.
    apply(&mut d, Action::Heads(2)).unwrap();
    assert_eq!(d.head, 1);
    let before = d.clone();
    assert_eq!(apply(&mut d, Action::Heads(9)), Err(LabError::BadHeads(9)));
    assert_eq!(d, before);
    let w_o = d.scenario.w_o.clone();
    apply(&mut d, Action::RandomizeWO).unwrap();
    assert_ne!(d.scenario.w_o, w_o);
    assert_eq!(d.scenario.head, before.scenario.head);
    apply(&mut d, Action::OutputProjection(false)).unwrap();
    assert_eq!(d.scenario.w_o, None);
    // Picking a scenario starts again from its first head.
    d.head = 1;
    apply(&mut d, Action::Pick(Choice::Preset(Preset::Pronoun))).unwrap();
    assert_eq!((d.head, d.scenario.heads), (0, 1));
}

#[test]
fn the_positions_choice_in_the_settings_sets_the_scenarios_positions() {
    use attention_core::positions::Positions;
    let rope = read(Kind::Change, Control::Positions, 0, "rope", false);
    assert_eq!(rope, Some(Action::Positions(Positions::Rope)));
    assert_eq!(
        read(Kind::Change, Control::Positions, 0, "spiral", false),
        None
    );
    let mut d = desk();
    apply(&mut d, Action::Positions(Positions::Sinusoidal)).expect("sinusoidal");
    assert_eq!(d.scenario.options.positions, Positions::Sinusoidal);
    assert!(d.scenario.run().is_ok());
    apply(&mut d, Action::Positions(Positions::None)).expect("none");
    assert_eq!(d.scenario.options.positions, Positions::None);
}
