//! The app in a classroom (README: Classroom): as one self-contained HTML file
//! that opens on the state it holds, and inside an LMS through SCORM 1.2,
//! which reports the learner's progress and keeps their work. What is
//! decided here is pure and tested natively (the completion rule, what of the
//! state fits in the LMS); the browser work is in `classroom/scorm.js` and
//! `classroom/package.js`. The offline worker is `src/offline/`.

use leptos::prelude::*;
use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen(module = "/src/classroom/scorm.js")]
extern "C" {
    /// Finds the LMS's API and starts a session: true if there is one.
    fn connect() -> bool;
    fn read(name: &str) -> String;
    /// Sets a value of the LMS's data model: true if the LMS took it.
    fn write(name: &str, value: &str) -> bool;
    fn commit();
    fn finish();
}

#[wasm_bindgen(module = "/src/classroom/package.js")]
extern "C" {
    /// The single file of this page opening on `link`: a Promise of a Blob.
    #[wasm_bindgen(js_name = singleFileFromPage)]
    fn single_file_from_page(link: &str) -> js_sys::Promise;
    /// The SCORM package of this page opening on `link`, completed by `completion`.
    #[wasm_bindgen(js_name = scormFromPage)]
    fn scorm_from_page(link: &str, completion: &str) -> js_sys::Promise;
}

/// A file the Save and share card builds from the page's own files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Package {
    /// The app as one HTML file, opening on the state on screen.
    SingleFile,
    /// A SCORM 1.2 zip for an LMS, opening on the state on screen.
    Scorm,
}

impl Package {
    pub fn file_name(self) -> &'static str {
        match self {
            Package::SingleFile => "attention-lab.html",
            Package::Scorm => "attention-lab-scorm.zip",
        }
    }

    /// Builds the file for `link` (completed in an LMS by `completion`):
    /// a Promise of its Blob, which fails when the page's files cannot be read.
    pub fn build(self, link: &str, completion: &Completion) -> js_sys::Promise {
        match self {
            Package::SingleFile => single_file_from_page(link),
            Package::Scorm => scorm_from_page(link, &completion.to_text()),
        }
    }
}

/// When an LMS is told the learner has completed the activity; the teacher
/// picks it in the embed builder, and the package carries it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Completion {
    /// The learner pressed Finish at the walkthrough's last step.
    #[default]
    Walkthrough,
    /// The learner answered a prediction while the scenario with this
    /// picker id (`controls::scenarios::Choice::id`) was chosen.
    Prediction(String),
}

impl Completion {
    const PREDICTION: &'static str = "prediction:";

    /// The rule as the package's `attention-lab-completion` meta writes it.
    pub fn to_text(&self) -> String {
        match self {
            Completion::Walkthrough => "walkthrough".into(),
            Completion::Prediction(scenario) => format!("{}{scenario}", Self::PREDICTION),
        }
    }

    /// The rule a meta's text names; anything else is the default.
    pub fn from_text(text: &str) -> Completion {
        match text.strip_prefix(Self::PREDICTION) {
            Some(scenario) if !scenario.is_empty() => Completion::Prediction(scenario.into()),
            _ => Completion::Walkthrough,
        }
    }

    /// Whether the learner has done what the rule asks: finished the
    /// walkthrough, or answered a prediction with `scenario` chosen.
    pub fn met(&self, finished: bool, answered: bool, scenario: &str) -> bool {
        match self {
            Completion::Walkthrough => finished,
            Completion::Prediction(wanted) => answered && wanted == scenario,
        }
    }
}

/// The most `cmi.suspend_data` holds in SCORM 1.2.
pub const SUSPEND_DATA_LIMIT: usize = 4096;

/// The page's own link when it is a single file (its `attention-lab-link`
/// meta), or its completion rule (`attention-lab-completion`).
pub fn own_meta(name: &str) -> Option<String> {
    let selector = format!("meta[name=\"attention-lab-{name}\"]");
    document()
        .query_selector(&selector)
        .ok()
        .flatten()
        .and_then(|meta| meta.get_attribute("content"))
        .filter(|content| !content.is_empty())
}

/// The statuses that mean the activity is done: the app never changes them.
const DONE: [&str; 2] = ["completed", "passed"];

/// The session with an LMS, when the page runs inside one.
#[derive(Clone, Copy)]
pub struct Lms {
    /// The last state saved did not fit and was cut short.
    pub cut_short: RwSignal<bool>,
    /// The LMS knows the activity is done.
    done: StoredValue<bool>,
}

impl Lms {
    /// Starts the session, if an LMS launched the page: the activity is
    /// marked as begun, unless it was done before.
    pub fn connect() -> Option<Lms> {
        if !connect() {
            return None;
        }
        let done = DONE.contains(&read("cmi.core.lesson_status").as_str());
        if !done && write("cmi.core.lesson_status", "incomplete") {
            commit();
        }
        Some(Lms {
            cut_short: RwSignal::new(false),
            done: StoredValue::new(done),
        })
    }

    /// The learner's work from an earlier session, a link query.
    pub fn saved_work(&self) -> Option<String> {
        Some(read("cmi.suspend_data")).filter(|data| data.starts_with('?'))
    }

    /// Keeps `kept` (what of the link's query fits, `link::suspend_data`)
    /// for the next session; `cut` when something had to be left out. It
    /// is stored with the next commit (at the latest, on leaving).
    pub fn save(&self, kept: &str, cut: bool) {
        write("cmi.suspend_data", kept);
        if self.cut_short.get_untracked() != cut {
            self.cut_short.set(cut);
        }
    }

    /// Ends the session as the learner leaves: the time spent, commit, finish.
    pub fn finish(&self) {
        finish();
    }

    /// Tells the LMS the learner completed the activity, once it has taken it.
    pub fn complete(&self) {
        if !self.done.get_value() && write("cmi.core.lesson_status", "completed") {
            commit();
            self.done.set_value(true);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_completion_rule_reads_back_from_its_text() {
        for rule in [
            Completion::Walkthrough,
            Completion::Prediction("pronoun".into()),
        ] {
            assert_eq!(Completion::from_text(&rule.to_text()), rule);
        }
        for other in ["", "prediction:", "graded", "walkthrough "] {
            assert_eq!(Completion::from_text(other), Completion::Walkthrough);
        }
    }

    #[test]
    fn a_rule_is_met_by_what_it_names_only() {
        let walkthrough = Completion::Walkthrough;
        assert!(walkthrough.met(true, false, "sentence"));
        assert!(!walkthrough.met(false, true, "sentence"));
        let prediction = Completion::Prediction("pronoun".into());
        assert!(prediction.met(false, true, "pronoun"));
        assert!(!prediction.met(true, true, "sentence"));
        assert!(!prediction.met(true, false, "pronoun"));
    }
}
