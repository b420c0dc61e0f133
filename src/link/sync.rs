//! Keeps the page's link equal to what is on screen, and the screen equal to
//! the link when the learner goes back or forward.

use super::{
    decode, encode, read_navigation, suspend_data, write_navigation, Navigation, READABLE,
};
use crate::classroom::{own_meta, Lms};
use crate::controls::scenarios::Choice;
use crate::i18n::Lang;
use crate::lab::{self, LabError};
use crate::lessons::Lesson;
use crate::state::Focus;
use crate::walkthrough::Tour;
use attention_core::{presets, Scenario};
use leptos::prelude::*;
use web_sys::UrlSearchParams;

/// Seed for the vectors of tokens a link adds: fixed, so a link always shows the same numbers.
const LINK_TOKEN_SEED: u64 = 2024;
/// Changes closer together than this (a drag, typing) share one history entry,
/// so Back goes to the previous meaningful state, not the previous pixel.
const HISTORY_GAP_MS: f64 = 1000.0;
/// The parameters this module writes: the scenario (`s`, or the `tokens` a
/// hand-made link names) and the readable ones; every other one (`embed`,
/// `panels`, …) is kept.
fn own() -> impl Iterator<Item = &'static str> {
    ["s", "tokens"].into_iter().chain(READABLE)
}
/// Where the browser keeps the learner's work between visits: the link's
/// parameters. A single file keeps it under its own link too, so two files
/// a teacher handed out, opened from the same folder, keep apart.
const SAVED_WORK: &str = "attention-lab:work";

fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

fn work_key() -> String {
    match own_meta("link") {
        Some(own) => format!("{SAVED_WORK}:{own}"),
        None => SAVED_WORK.to_owned(),
    }
}

/// Where the learner's work is kept between visits.
#[derive(Clone, Copy)]
pub enum Keeper {
    /// Nowhere: an embedded figure shows its link and keeps nothing.
    Nowhere,
    /// The browser's storage.
    Browser,
    /// The LMS that launched the page (`cmi.suspend_data`).
    Lms(Lms),
}

impl Keeper {
    /// The work kept from an earlier visit, a link query: the LMS's, or the
    /// browser's, or else the state a single file holds.
    fn saved_work(self) -> Option<String> {
        let kept = match self {
            Keeper::Nowhere => None,
            Keeper::Browser => storage().and_then(|s| s.get_item(&work_key()).ok().flatten()),
            Keeper::Lms(lms) => lms.saved_work(),
        };
        kept.or_else(|| own_meta("link"))
    }

    /// Keeps `search`; `as_listed` when the scenario on screen is the
    /// picked one as the list has it, which the pick alone brings back.
    fn keep(self, search: &str, as_listed: impl FnOnce() -> bool) {
        match self {
            Keeper::Nowhere => {}
            Keeper::Browser => {
                if let Some(storage) = storage() {
                    // Storage that is full or switched off keeps nothing; the page works on.
                    let _ = storage.set_item(&work_key(), search);
                }
            }
            Keeper::Lms(lms) => {
                let (kept, cut) = suspend_data(search, as_listed());
                lms.save(&kept, cut);
            }
        }
    }

    /// The learner leaves the page, their last change kept.
    fn leave(self) {
        if let Keeper::Lms(lms) = self {
            lms.finish();
        }
    }
}

/// Opens the page on the learner's saved work (or a single file's own
/// state) when its link names no scenario: the saved parameters go into the
/// link, and any the link has (`lang=en`, …) win. Called before anything
/// reads the link.
pub fn resume_saved_work(keeper: Keeper) {
    let (Some(current), Some(saved)) = (parameters(), keeper.saved_work()) else {
        return;
    };
    if current.has("s") || current.has("tokens") {
        return;
    }
    let Ok(merged) = UrlSearchParams::new_with_str(&saved) else {
        return;
    };
    for name in own() {
        if let Some(value) = current.get(name) {
            merged.set(name, &value);
        }
    }
    let url = format!("?{}", String::from(merged.to_string()));
    if let Ok(history) = window().history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// The page link's parameters.
fn parameters() -> Option<UrlSearchParams> {
    let search = window().location().search().unwrap_or_default();
    UrlSearchParams::new_with_str(&search).ok()
}

/// The page link's `name` parameter, if it has one.
pub fn parameter(name: &str) -> Option<String> {
    parameters()?.get(name)
}

/// The scenario the link asks for: its saved state `s`, or else the tokens
/// `tokens=a,b,c` name, or else the scenario `scenario=` picks, or else the
/// lesson's sentence. A link that cannot be used leaves that and says why.
pub fn scenario_from_link() -> (Scenario, Option<LabError>) {
    let picked = navigation_from_link().scenario.unwrap_or_default();
    let start = picked.scenario().unwrap_or_else(presets::sentence);
    if let Some(state) = parameter("s") {
        return match decode(&state) {
            Ok(scenario) => (scenario, None),
            Err(error) => (start, Some(error)),
        };
    }
    match parameter("tokens") {
        None => (start, None),
        Some(list) => {
            let labels: Vec<String> = list.split(',').map(str::to_owned).collect();
            match lab::with_tokens(&start, &labels, LINK_TOKEN_SEED) {
                Ok(scenario) => (scenario, None),
                Err(error) => (start, Some(error)),
            }
        }
    }
}

/// The readable parameters of the page's link.
pub fn navigation_from_link() -> Navigation {
    read_navigation(parameter)
}

/// Everything the link holds.
#[derive(Clone, Copy)]
pub struct LinkedState {
    pub scenario: RwSignal<Scenario>,
    pub focus: Focus,
    pub tour: Tour,
    pub lang: RwSignal<Lang>,
    pub tables: RwSignal<bool>,
    /// The scenario picker's choice.
    pub picked: RwSignal<Choice>,
    /// The word-order card's shuffle.
    pub shuffle: RwSignal<u64>,
    /// The lesson the menu shows chosen.
    pub lesson: RwSignal<Lesson>,
    /// Where the state is also saved for the next visit.
    pub keeper: Keeper,
}

impl LinkedState {
    /// Shows what a link holds; a damaged scenario is left as it is.
    fn restore(self) {
        if let (scenario, None) = scenario_from_link() {
            self.scenario.set(scenario);
        }
        let nav = navigation_from_link();
        self.focus.query.set(nav.query);
        self.focus.key.set(nav.key);
        self.focus.sequence.set(nav.sequence);
        self.focus.head.set(nav.head);
        self.focus.layer.set(nav.layer);
        self.tour.step.set(nav.step);
        if let Some(lang) = nav.lang {
            self.lang.set(lang);
        }
        self.tables.set(nav.tables);
        self.picked.set(nav.scenario.unwrap_or_default());
        self.shuffle.set(nav.shuffle);
        self.lesson.set(nav.opened_lesson().unwrap_or_default());
    }
}

/// How long the link waits after a change before it is rewritten: writing
/// it (encoding, `history`) costs a few milliseconds, which must not come
/// between an edit and the diagrams being redrawn, nor repeat for every step
/// of a drag.
const WRITE_AFTER_MS: u64 = 200;

/// The link's query (`?s=…&q=…`) for the state on screen, keeping the
/// parameters this module does not own (`embed`, `panels`, …). Reactive: it
/// tracks every part of the state it reads.
pub fn link_search(state: LinkedState) -> String {
    let encoded = state.scenario.with(encode);
    let nav = Navigation {
        query: state.focus.query.get(),
        key: state.focus.key.get(),
        sequence: state.focus.sequence.get(),
        head: state.focus.head.get(),
        layer: state.focus.layer.get(),
        step: state.tour.step.get(),
        lang: Some(state.lang.get()),
        tables: state.tables.get(),
        scenario: Some(state.picked.get()),
        shuffle: state.shuffle.get(),
        // The first lesson is where a page without one starts.
        lesson: Some(state.lesson.get()).filter(|&l| l != Lesson::OneHead),
    };
    let Some(params) = parameters() else {
        return String::new();
    };
    for name in own() {
        params.delete(name);
    }
    params.append("s", &encoded);
    for (name, value) in write_navigation(&nav) {
        params.append(name, &value);
    }
    format!("?{}", String::from(params.to_string()))
}

/// Writes the state into the link now: a new history entry if the last one
/// is older than [`HISTORY_GAP_MS`] or another scenario was picked (so Back
/// undoes the pick, with the edits before it), else in place of it. The learner's work
/// is saved too once they have changed something: opening a damaged link,
/// which shows the defaults, must not overwrite what they saved.
fn write_link(state: LinkedState, last_entry: StoredValue<f64>, changed: bool) {
    let search = untrack(|| link_search(state));
    if changed {
        let as_listed = || {
            let listed = state.picked.get_untracked().scenario();
            listed.is_some_and(|listed| state.scenario.with_untracked(|s| *s == listed))
        };
        state.keeper.keep(&search, as_listed);
    }
    let location = window().location();
    if location.search().unwrap_or_default() == search {
        return;
    }
    let url = format!("{search}{}", location.hash().unwrap_or_default());
    let Ok(history) = window().history() else {
        return;
    };
    let now = js_sys::Date::now();
    let picked = |search: &str| UrlSearchParams::new_with_str(search).ok()?.get("scenario");
    let new_pick = picked(&search) != picked(&location.search().unwrap_or_default());
    let result = if new_pick || now - last_entry.get_value() > HISTORY_GAP_MS {
        history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
    } else {
        history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
    };
    // A browser that refuses the new link leaves the old one: nothing is lost on screen.
    let _ = result;
    last_entry.set_value(now);
}

/// Writes every change into the link (a new history entry for each
/// meaningful change), shortly after it, and restores the state on Back and
/// Forward.
pub fn keep_in_link(state: LinkedState) {
    let last_entry = StoredValue::new(js_sys::Date::now());
    // The write waiting for its delay, and whether it follows a change.
    let pending = StoredValue::new(None::<(TimeoutHandle, bool)>);
    Effect::new(move |previous_run: Option<()>| {
        state.scenario.track();
        state.focus.query.track();
        state.focus.key.track();
        state.focus.sequence.track();
        state.tour.step.track();
        state.lang.track();
        state.tables.track();
        state.picked.track();
        state.shuffle.track();
        state.lesson.track();
        if let Some((earlier, _)) = pending.get_value() {
            earlier.clear();
        }
        // The first run is the page opening, not a change.
        let changed = previous_run.is_some();
        let write = move || {
            pending.set_value(None);
            write_link(state, last_entry, changed);
        };
        let delay = std::time::Duration::from_millis(WRITE_AFTER_MS);
        let handle = set_timeout_with_handle(write, delay).ok();
        pending.set_value(handle.map(|h| (h, changed)));
    });
    let handle = window_event_listener(leptos::ev::popstate, move |_| state.restore());
    // A learner may leave within the delay: the last change is written first.
    let leaving = window_event_listener(leptos::ev::pagehide, move |_| {
        if let Some((waiting, changed)) = pending.get_value() {
            waiting.clear();
            pending.set_value(None);
            write_link(state, last_entry, changed);
        }
        state.keeper.leave();
    });
    on_cleanup(move || {
        handle.remove();
        leaving.remove();
    });
}
