use super::*;
use crate::action::Kind;
use crate::share::text::scenario_json;
use attention_core::presets;

fn read(event: Kind, control: Control, value: &str) -> Option<ShareAction> {
    ShareAction::read(&Reading::of(event, control.name(), value))
}

/// A change of the checkbox at `index`.
fn tick(control: Control, index: usize, checked: bool) -> Option<ShareAction> {
    ShareAction::read(&Reading {
        index,
        checked,
        ..Reading::of(Kind::Change, control.name(), "on")
    })
}

fn click(control: Control) -> Option<ShareAction> {
    read(Kind::Click, control, "")
}

#[test]
fn every_control_reads_back_into_its_action() {
    assert_eq!(click(Control::ExportSvg), Some(ShareAction::ExportSvg));
    assert_eq!(click(Control::ExportPng), Some(ShareAction::ExportPng));
    assert_eq!(
        click(Control::ExportScenario),
        Some(ShareAction::ExportScenario)
    );
    assert_eq!(click(Control::ExportTrace), Some(ShareAction::ExportTrace));
    assert_eq!(
        click(Control::ExportLatex),
        Some(ShareAction::Show(Format::Latex))
    );
    assert_eq!(
        click(Control::ExportNumpy),
        Some(ShareAction::Show(Format::Numpy))
    );
    assert_eq!(click(Control::CopyExport), Some(ShareAction::CopyExport));
    assert_eq!(click(Control::CopyEmbed), Some(ShareAction::CopyEmbed));
    assert_eq!(click(Control::Embed), Some(ShareAction::ToggleEmbed));
    assert_eq!(
        read(Kind::Change, Control::Matrix, "13"),
        Some(ShareAction::Matrix(13))
    );
    assert_eq!(
        read(Kind::Click, Control::Import, "{\"x\": 1}"),
        Some(ShareAction::Import("{\"x\": 1}".into()))
    );
    assert_eq!(
        read(Kind::Change, Control::Upload, "C:\\fakepath\\a.json"),
        Some(ShareAction::Upload)
    );
    assert_eq!(
        tick(Control::Panel, 8, true),
        Some(ShareAction::Panel(8, true))
    );
    assert_eq!(tick(Control::Lock, 0, true), Some(ShareAction::Lock(true)));
    assert_eq!(
        tick(Control::Lock, 0, false),
        Some(ShareAction::Lock(false))
    );
}

#[test]
fn garbage_and_other_events_are_no_action() {
    // A matrix or panel the card does not have, from a tampered page.
    let past_the_last = crate::share::markup::MATRICES.len().to_string();
    assert_eq!(read(Kind::Change, Control::Matrix, &past_the_last), None);
    assert_eq!(read(Kind::Change, Control::Matrix, "-1"), None);
    assert_eq!(read(Kind::Change, Control::Matrix, "<b>"), None);
    assert_eq!(tick(Control::Panel, panels().len(), true), None);
    // The right name with the wrong event, or a name no control has.
    assert_eq!(read(Kind::Input, Control::Matrix, "2"), None);
    assert_eq!(read(Kind::Change, Control::ExportSvg, ""), None);
    assert_eq!(read(Kind::Enter, Control::Import, "{}"), None);
    assert_eq!(ShareAction::read(&Reading::click("select", 0)), None);
    assert_eq!(ShareAction::read(&Reading::click("", 0)), None);
}

#[test]
fn browser_work_is_left_to_the_shell_and_changes_no_state() {
    let mut sheet = Sheet::default();
    for (action, chore) in [
        (ShareAction::ExportSvg, Chore::Svg),
        (ShareAction::ExportPng, Chore::Png),
        (ShareAction::ExportScenario, Chore::Scenario),
        (ShareAction::ExportTrace, Chore::Trace),
        (ShareAction::CopyExport, Chore::CopyExport),
        (ShareAction::CopyEmbed, Chore::CopyEmbed),
        (ShareAction::Upload, Chore::Upload),
    ] {
        assert_eq!(apply(&mut sheet, action), chore);
    }
    assert_eq!(sheet, Sheet::default());
}

#[test]
fn the_matrix_export_and_the_embed_builder_keep_their_choices() {
    let mut sheet = Sheet::default();
    let names: Vec<&str> = panels().iter().map(|p| p.panel).collect();
    let at = |name: &str| names.iter().position(|n| *n == name).unwrap();
    let (walkthrough, controls, projection) = (at("walkthrough"), at("controls"), at("projection"));
    let chosen = |sheet: &Sheet| [walkthrough, controls, projection].map(|i| sheet.panels[i]);
    assert_eq!(
        chosen(&sheet),
        [false, false, true],
        "the four diagrams at first"
    );
    apply(&mut sheet, ShareAction::Matrix(9));
    apply(&mut sheet, ShareAction::Show(Format::Numpy));
    assert_eq!((sheet.matrix, sheet.format), (9, Some(Format::Numpy)));
    apply(&mut sheet, ShareAction::ToggleEmbed);
    assert!(sheet.embedding);
    apply(&mut sheet, ShareAction::Panel(walkthrough, true));
    apply(&mut sheet, ShareAction::Panel(projection, false));
    assert_eq!(chosen(&sheet), [true, false, false]);
    // A checkbox says whether it is ticked: a second change cannot flip it back.
    apply(&mut sheet, ShareAction::Lock(true));
    apply(&mut sheet, ShareAction::Lock(true));
    assert!(sheet.lock);
    apply(&mut sheet, ShareAction::ToggleEmbed);
    assert!(!sheet.embedding);
    sheet.nothing_to_export();
    assert_eq!(sheet.status, Some(Ok(words::NOTHING_TO_EXPORT)));
}

#[test]
fn an_import_brings_its_scenario_or_says_why_not() {
    let mut sheet = Sheet::default();
    assert_eq!(
        apply(&mut sheet, ShareAction::Import("  \n".into())),
        Chore::Nothing
    );
    assert_eq!(sheet.status, Some(Ok(words::IMPORT_EMPTY)));
    let pronoun = presets::pronoun();
    assert_eq!(
        apply(&mut sheet, ShareAction::Import(scenario_json(&pronoun))),
        Chore::Imported(Box::new(pronoun))
    );
    assert_eq!(sheet.status, Some(Ok(words::IMPORTED)));
    let before = Sheet {
        status: None,
        ..sheet.clone()
    };
    let mut refused = before.clone();
    assert_eq!(
        apply(&mut refused, ShareAction::Import("{".into())),
        Chore::Nothing
    );
    assert!(matches!(refused.status, Some(Err(LabError::Import(_)))));
    assert_eq!(
        Sheet {
            status: None,
            ..refused
        },
        before
    );
}

#[test]
fn a_picture_of_several_heads_is_named_by_its_head() {
    assert_eq!(picture_name(None, "svg"), "attention.svg");
    assert_eq!(
        picture_name(Some((2, 4)), "png"),
        "attention-head-2-of-4.png"
    );
}

#[test]
fn a_builder_opened_on_several_heads_starts_with_their_cards_and_is_brought_into_view() {
    let at = |panel: &str| panels().iter().position(|p| p.panel == panel).expect(panel);
    let mut sheet = Sheet::default();
    sheet.suggest_for(true);
    assert!(sheet.panels[at("heads")] && sheet.panels[at("output-projection")]);
    assert!(sheet.panels[at("projection")], "the four diagrams stay");
    assert_eq!(
        apply(&mut sheet, ShareAction::ToggleEmbed),
        Chore::ShowBuilder
    );
    // One head: the default embed's panels.
    let mut one = Sheet::default();
    one.suggest_for(false);
    assert_eq!(one, Sheet::default());
    // Panels the teacher chose stay as chosen.
    let mut chosen = Sheet::default();
    apply(&mut chosen, ShareAction::Panel(at("softmax"), false));
    let before = chosen.panels.clone();
    chosen.suggest_for(true);
    assert_eq!(chosen.panels, before);
    // Closing the builder brings nothing into view.
    assert_eq!(apply(&mut sheet, ShareAction::ToggleEmbed), Chore::Nothing);
}

#[test]
fn the_completion_rule_is_chosen_from_the_builder_and_written_for_the_package() {
    let rules = completion_rules().count();
    assert!(rules > 2);
    assert_eq!(
        read(Kind::Change, Control::Completion, "2"),
        Some(ShareAction::Completion(2))
    );
    for garbage in [rules.to_string().as_str(), "-1", "x"] {
        assert_eq!(read(Kind::Change, Control::Completion, garbage), None);
    }
    let mut sheet = Sheet::default();
    assert_eq!(completion_rule(sheet.completion), Completion::Walkthrough);
    apply(&mut sheet, ShareAction::Completion(2));
    let second = Choice::ALL[1].id().to_owned();
    assert_eq!(
        completion_rule(sheet.completion),
        Completion::Prediction(second)
    );
    // Only preset scenarios can be chosen: the learner's own has no fixed numbers.
    assert!(completion_rules()
        .flatten()
        .all(|c| !matches!(c, Choice::Blank | Choice::Current)));
}

#[test]
fn a_package_is_built_by_the_shell_and_a_failure_is_said_until_the_next_try() {
    let mut sheet = Sheet::default();
    assert_eq!(
        apply(&mut sheet, ShareAction::SingleFile),
        Chore::Package(Package::SingleFile)
    );
    assert_eq!(sheet, Sheet::default());
    assert_eq!(
        apply(&mut sheet, ShareAction::PackageFailed),
        Chore::Nothing
    );
    assert_eq!(sheet.status, Some(Ok(words::PACKAGE_FAILED)));
    assert_eq!(
        apply(&mut sheet, ShareAction::Scorm),
        Chore::Package(Package::Scorm)
    );
    assert_eq!(sheet.status, None);
}
