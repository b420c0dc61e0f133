use super::*;
use crate::controls::action::{apply, Action, Desk};
use attention_core::presets::{self, Preset};

fn desk() -> Desk {
    Desk {
        scenario: presets::sentence(),
        query: 1,
        sequence: 0,
        head: 0,
        layer: 0,
        seed: 42,
        choice: Choice::Preset(Preset::Sentence),
    }
}

fn page(desk: &Desk, notice: Option<&LabError>) -> String {
    controls(&ControlsView {
        shown: &Shown::of(&desk.scenario),
        sequence: desk.sequence,
        choice: desk.choice,
        lang: Lang::En,
        notice,
    })
}

#[test]
fn every_token_gets_a_chip_with_its_actions() {
    let html = page(&desk(), None);
    for control in [
        Control::Select,
        Control::Rename,
        Control::Pad,
        Control::Remove,
    ] {
        let action = control.name();
        assert_eq!(
            html.matches(&format!("data-action=\"{action}\"")).count(),
            4,
            "{action}"
        );
    }
    // Every chip is written unchosen: `highlight.js` `choose` marks the selected one.
    assert!(html.contains("<li class=\"token\" role=\"row\"><span role=\"gridcell\"><button class=\"token-select\" data-testid=\"token\" data-action=\"select\" data-index=\"1\" tabindex=\"-1\" aria-pressed=\"false\" data-follows=\"\">喜欢</button></span>"));
    // The list is one grid with one tab stop, the first token's chip.
    assert_eq!(html.matches("role=\"grid\"").count(), 1);
    assert_eq!(html.matches("role=\"gridcell\"").count(), 16);
    assert_eq!(html.matches("tabindex=\"0\"").count(), 1);
    assert!(html.contains(
        "data-index=\"0\" tabindex=\"0\" aria-pressed=\"false\" data-follows=\"\">我</button>"
    ));
    assert!(!html.contains("aria-pressed=\"true\""));
    assert_eq!(
        html,
        page(&Desk { query: 3, ..desk() }, None),
        "the query changes nothing"
    );
    assert!(html.contains("value=\"篮球\""));
    assert!(!html.contains("data-testid=\"notice\""));
    assert!(
        !html.contains("data-testid=\"sequence\""),
        "one sequence needs no picker"
    );
}

#[test]
fn settings_show_the_scenarios_sizes_and_switches() {
    let mut d = desk();
    apply(&mut d, Action::Causal(true)).expect("allowed");
    apply(&mut d, Action::TogglePad(2)).expect("token 2 exists");
    let html = page(&d, None);
    assert!(html.contains("d_model (input features) = 4"));
    assert!(html.contains("data-testid=\"causal\" data-action=\"causal\" checked=\"\""));
    assert!(html.contains("data-testid=\"scale\" data-action=\"scale\" checked=\"\""));
    assert!(html.contains("<li class=\"token padded\" role=\"row\">"));
    assert!(html.contains("data-testid=\"seed\""));
    assert!(html.contains("<option value=\"sentence\" selected=\"\">"));
}

#[test]
fn new_weights_inputs_or_seed_rewrite_none_of_the_markup() {
    let d = desk();
    let html = page(&d, None);
    let mut redrawn = d.clone();
    apply(&mut redrawn, Action::Randomize).expect("new weights");
    redrawn.scenario.x[[0, 1, 2]] = 0.75;
    assert_ne!(redrawn.seed, d.seed);
    assert_ne!(redrawn.scenario, d.scenario);
    assert_eq!(page(&redrawn, None), html);
    let mut renamed = d.clone();
    apply(&mut renamed, Action::Rename(1, "爱".into())).expect("a new label");
    assert_ne!(
        page(&renamed, None),
        html,
        "what the controls show does rewrite it"
    );
}

#[test]
fn a_batch_gets_a_sequence_picker_and_a_refusal_is_explained() {
    let mut d = desk();
    apply(&mut d, Action::Pick(Choice::Preset(Preset::AudioFrames))).expect("runs");
    apply(&mut d, Action::Sequence(1)).expect("second clip");
    let html = page(&d, Some(&LabError::LastToken));
    assert!(html.contains("<option value=\"1\" selected=\"\">2</option>"));
    assert!(html.contains("data-testid=\"notice\""));
    assert!(html.contains(crate::i18n::controls::NOTES_AUDIO.en));
}

#[test]
fn labels_that_look_like_markup_stay_text() {
    let mut d = desk();
    apply(
        &mut d,
        Action::Rename(0, "<img src=x onerror=alert(1)>".into()),
    )
    .expect("a valid label");
    let html = page(&d, None);
    assert!(!html.contains("<img"));
    assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;"));
}

#[test]
fn the_heads_slider_and_w_o_switch_follow_the_layer() {
    let mut d = desk();
    let html = page(&d, None);
    assert!(html.contains("data-testid=\"heads\" data-action=\"heads\" min=\"1\" max=\"8\" step=\"1\" value=\"1\""), "{html}");
    assert!(html.contains("data-testid=\"d-k\" data-action=\"d-k\" min=\"2\" max=\"16\""));
    assert!(html.contains("data-testid=\"use-w-o\" data-action=\"use-w-o\"/>"));
    assert!(!html.contains("randomize-w-o"));
    apply(&mut d, Action::Heads(8)).unwrap();
    let html = page(&d, None);
    assert!(html.contains("value=\"8\""));
    // Eight heads: d_k from 1, and at most 64 columns in all.
    assert!(
        html.contains(
            "data-testid=\"d-k\" data-action=\"d-k\" min=\"1\" max=\"8\" step=\"1\" value=\"1\""
        ),
        "{html}"
    );
    assert!(html.contains("data-testid=\"use-w-o\" data-action=\"use-w-o\" checked=\"\"/>"));
    assert!(html.contains("data-testid=\"randomize-w-o\""));
}
