//! What the learner did on the "save and share" card, as data (the cards'
//! protocol, `crate::action`), and its effect on the card's own state. What
//! must touch the browser (downloads, the clipboard, reading a file) is
//! returned as a [`Chore`] for the card's shell to do; deciding what to do is
//! pure and tested natively.

use super::import::import;
use super::markup::MATRICES;
use crate::action::{action_names, Kind, Reading};
use crate::cards::{panels, Card};
use crate::classroom::{Completion, Package};
use crate::controls::scenarios::Choice;
use crate::i18n::{share as words, Msg};
use crate::lab::LabError;
use attention_core::Scenario;

/// How the matrix export writes a matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Latex,
    Numpy,
}

action_names! {
    /// The card's controls, by their `data-action`.
    pub enum Control {
        ExportSvg = "export-svg",
        ExportPng = "export-png",
        ExportScenario = "export-scenario",
        ExportTrace = "export-trace",
        Matrix = "matrix",
        ExportLatex = "export-latex",
        ExportNumpy = "export-numpy",
        CopyExport = "copy-export",
        Import = "import",
        Upload = "upload",
        Embed = "embed",
        Panel = "panel",
        Lock = "lock",
        CopyEmbed = "copy-embed",
        SingleFile = "download-single-file",
        Completion = "completion",
        Scorm = "download-scorm",
    }
}

/// The completion rules a package for an LMS can carry, in the builder's
/// order: the walkthrough finished (`None`), then a prediction answered in
/// each of the preset scenarios.
pub fn completion_rules() -> impl Iterator<Item = Option<Choice>> {
    let presets = Choice::ALL
        .into_iter()
        .filter(|choice| matches!(choice, Choice::Preset(_)));
    std::iter::once(None).chain(presets.map(Some))
}

/// The rule at `index` of [`completion_rules`], as the package writes it.
pub fn completion_rule(index: usize) -> Completion {
    match completion_rules().nth(index).flatten() {
        Some(choice) => Completion::Prediction(choice.id().to_owned()),
        None => Completion::Walkthrough,
    }
}

/// The file name of a picture of the diagrams, saying which head they show
/// when there are several (head `h` of `n`, from 1).
pub fn picture_name(head: Option<(usize, usize)>, extension: &str) -> String {
    match head {
        Some((h, n)) => format!("attention-head-{h}-of-{n}.{extension}"),
        None => format!("attention.{extension}"),
    }
}

/// One thing the learner did on the card.
#[derive(Clone, Debug, PartialEq)]
pub enum ShareAction {
    ExportSvg,
    ExportPng,
    ExportScenario,
    ExportTrace,
    /// Choose the matrix the LaTeX and NumPy export writes (an index into [`MATRICES`]).
    Matrix(usize),
    /// Write the chosen matrix in this format.
    Show(Format),
    CopyExport,
    /// Import this text (the import field's, read through `data-field`).
    Import(String),
    /// A file was chosen to upload into the import field.
    Upload,
    /// Open or close the embed-code builder.
    ToggleEmbed,
    /// Show panel i (of [`panels`]) in the embed, or not.
    Panel(usize, bool),
    /// Make the embed a read-only figure, or not.
    Lock(bool),
    CopyEmbed,
    /// Download the app as one HTML file, opening on the state on screen.
    SingleFile,
    /// Choose the completion rule (an index into [`completion_rules`]).
    Completion(usize),
    /// Download the SCORM package for an LMS.
    Scorm,
    /// The page could not read its own files to build a package.
    PackageFailed,
}

impl ShareAction {
    /// The action an event means, or `None` for events the card does not act
    /// on and for values no control of the card can hold.
    pub fn read(r: &Reading) -> Option<Self> {
        Some(match (r.event, Control::named(r.action)?) {
            (Kind::Click, Control::ExportSvg) => Self::ExportSvg,
            (Kind::Click, Control::ExportPng) => Self::ExportPng,
            (Kind::Click, Control::ExportScenario) => Self::ExportScenario,
            (Kind::Click, Control::ExportTrace) => Self::ExportTrace,
            (Kind::Change, Control::Matrix) => {
                let i = r.value.parse().ok().filter(|&i| i < MATRICES.len())?;
                Self::Matrix(i)
            }
            (Kind::Click, Control::ExportLatex) => Self::Show(Format::Latex),
            (Kind::Click, Control::ExportNumpy) => Self::Show(Format::Numpy),
            (Kind::Click, Control::CopyExport) => Self::CopyExport,
            (Kind::Click, Control::Import) => Self::Import(r.value.to_owned()),
            (Kind::Change, Control::Upload) => Self::Upload,
            (Kind::Click, Control::Embed) => Self::ToggleEmbed,
            (Kind::Change, Control::Panel) if r.index < panels().len() => {
                Self::Panel(r.index, r.checked)
            }
            (Kind::Change, Control::Lock) => Self::Lock(r.checked),
            (Kind::Click, Control::CopyEmbed) => Self::CopyEmbed,
            (Kind::Click, Control::SingleFile) => Self::SingleFile,
            (Kind::Change, Control::Completion) => {
                let i = r.value.parse().ok()?;
                (i < completion_rules().count()).then_some(Self::Completion(i))?
            }
            (Kind::Click, Control::Scorm) => Self::Scorm,
            _ => return None,
        })
    }
}

/// Everything the card keeps between events.
#[derive(Clone, Debug, PartialEq)]
pub struct Sheet {
    /// The index into [`MATRICES`] chosen for LaTeX and NumPy.
    pub matrix: usize,
    /// How the chosen matrix is shown, once the learner asked for it.
    pub format: Option<Format>,
    /// What the last export or import said: a note, or why it was refused.
    pub status: Option<Result<Msg, LabError>>,
    /// Whether the embed-code builder is open.
    pub embedding: bool,
    /// For each of [`panels`], whether the embed shows it; at first the
    /// default embed's.
    pub panels: Vec<bool>,
    pub lock: bool,
    /// The completion rule a package for an LMS carries (an index into
    /// [`completion_rules`]).
    pub completion: usize,
}

impl Sheet {
    /// Before the builder first opens on a layer of several heads, adds the
    /// heads card and W_O to the panels the embed starts with: a teacher of
    /// that lesson means them. Panels the teacher chose are left as chosen.
    pub fn suggest_for(&mut self, several_heads: bool) {
        if self.embedding || !several_heads || self.panels != Sheet::default().panels {
            return;
        }
        let of_heads = [Card::Heads.panel(), Card::OutputProjection.panel()];
        for (on, panel) in self.panels.iter_mut().zip(panels()) {
            *on |= of_heads.contains(&panel.panel);
        }
    }
}

impl Default for Sheet {
    fn default() -> Self {
        Sheet {
            matrix: 0,
            format: None,
            status: None,
            embedding: false,
            panels: panels().iter().map(|p| p.in_default_embed).collect(),
            lock: false,
            completion: 0,
        }
    }
}

impl Sheet {
    /// Says that an export found nothing to write (the scenario does not run).
    pub fn nothing_to_export(&mut self) {
        self.status = Some(Ok(words::NOTHING_TO_EXPORT));
    }
}

/// What the card's shell does in the browser after an action.
#[derive(Clone, Debug, PartialEq)]
pub enum Chore {
    Nothing,
    /// Draw the diagrams as a standalone SVG, or as a PNG, and download it.
    Svg,
    Png,
    /// Download the scenario, or its trace, as JSON.
    Scenario,
    Trace,
    /// Copy the matrix export's text, or the embed code, to the clipboard.
    CopyExport,
    CopyEmbed,
    /// Read the chosen file into the import field and import it.
    Upload,
    /// Put this imported scenario in the lab, as the learner's own.
    Imported(Box<Scenario>),
    /// Bring the embed-code builder, just opened, into view.
    ShowBuilder,
    /// Build this file from the page's own files and download it.
    Package(Package),
}

/// Carries out `action` on the card's state and says what is left for the
/// browser. A refused import says why and changes nothing else.
pub fn apply(sheet: &mut Sheet, action: ShareAction) -> Chore {
    match action {
        ShareAction::ExportSvg => return Chore::Svg,
        ShareAction::ExportPng => return Chore::Png,
        ShareAction::ExportScenario => return Chore::Scenario,
        ShareAction::ExportTrace => return Chore::Trace,
        ShareAction::CopyExport => return Chore::CopyExport,
        ShareAction::CopyEmbed => return Chore::CopyEmbed,
        ShareAction::Upload => return Chore::Upload,
        ShareAction::SingleFile | ShareAction::Scorm => {
            // A note from an earlier try would be stale.
            sheet.status = None;
            return Chore::Package(if action == ShareAction::Scorm {
                Package::Scorm
            } else {
                Package::SingleFile
            });
        }
        ShareAction::PackageFailed => sheet.status = Some(Ok(words::PACKAGE_FAILED)),
        ShareAction::Completion(i) => sheet.completion = i,
        ShareAction::Matrix(i) => sheet.matrix = i,
        ShareAction::Show(format) => sheet.format = Some(format),
        ShareAction::ToggleEmbed => {
            sheet.embedding = !sheet.embedding;
            if sheet.embedding {
                return Chore::ShowBuilder;
            }
        }
        ShareAction::Panel(i, on) => {
            if let Some(shown) = sheet.panels.get_mut(i) {
                *shown = on;
            }
        }
        ShareAction::Lock(on) => sheet.lock = on,
        ShareAction::Import(text) => {
            if text.trim().is_empty() {
                sheet.status = Some(Ok(words::IMPORT_EMPTY));
                return Chore::Nothing;
            }
            match import(&text) {
                Ok(scenario) => {
                    sheet.status = Some(Ok(words::IMPORTED));
                    return Chore::Imported(Box::new(scenario));
                }
                Err(error) => sheet.status = Some(Err(error)),
            }
        }
    }
    Chore::Nothing
}

#[cfg(test)]
mod tests;
