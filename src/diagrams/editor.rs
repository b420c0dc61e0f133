//! The editor for one entry of X or a W matrix: type a number, press Enter.
//! A refused number keeps what the learner typed and says what is wrong. Like
//! every card, it is markup speaking the cards' protocol (`crate::action`):
//! [`action`] reads and applies its events.

mod action;

use crate::action::{listen, Heard};
use crate::geometry::format::{shortest, subscript};
use crate::i18n::{projection as text, Lang, LangContext};
use crate::lab::{self, Editable, LabError};
use crate::page::keep_patched;
use crate::page::refusal;
use crate::state::lab;
use crate::svg::Markup;
use action::{apply, Control, EditorAction};
use leptos::html::Div;
use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, SvgElement};

/// The heatmap an entry is drawn in (its `data-testid`): the diagram draws
/// it under this name, and the editor finds its cells by it.
pub fn heatmap_of(which: Editable) -> &'static str {
    match which {
        Editable::X => "x",
        Editable::WQ => "w-q",
        Editable::WK => "w-k",
        Editable::WV => "w-v",
        Editable::WO => "w-o",
        Editable::P => "p",
        Editable::W1 => "w-1",
        Editable::W2 => "w-2",
        Editable::Gamma1 => "gamma-1",
        Editable::Beta1 => "beta-1",
        Editable::Gamma2 => "gamma-2",
        Editable::Beta2 => "beta-2",
    }
}

/// What every card of editable heatmaps shares (the projection, positions
/// and output projection cards): the entry whose editor is open, and each
/// editable matrix's select and drag, which do nothing on a read-only figure
/// (`lock=1`) nor on a matrix the card says is fixed for now.
#[derive(Clone, Copy)]
pub struct Editing {
    open: RwSignal<Option<(Editable, usize, usize)>>,
    fixed: Callback<Editable, bool>,
}

impl Editing {
    /// `fixed` says which shown matrices cannot be edited at the moment
    /// (read untracked, when the learner acts).
    pub fn new(fixed: impl Fn(Editable) -> bool + Send + Sync + 'static) -> Self {
        let locked = lab().locked;
        Editing {
            open: RwSignal::new(None),
            fixed: Callback::new(move |which| locked || fixed(which)),
        }
    }

    /// Opens the editor on the selected cell of `which`.
    pub fn select(self, which: Editable) -> Callback<(usize, usize)> {
        Callback::new(move |(r, c): (usize, usize)| {
            if !self.fixed.run(which) {
                self.open.set(Some((which, r, c)));
            }
        })
    }

    /// Moves the dragged entry of `which`, in the shown sequence and head,
    /// for a vertical drag of `dy` pixels (positive is downward): 100 pixels
    /// move a number by 1, and upward increases it.
    pub fn drag(self, which: Editable) -> Callback<((usize, usize), f64)> {
        let lab = lab();
        let (scenario, focus) = (lab.scenario, lab.focus);
        Callback::new(move |(cell, dy): ((usize, usize), f64)| {
            if self.fixed.run(which) {
                return;
            }
            let place = untrack(|| focus.place());
            scenario.update(|s| {
                let _ = lab::nudge_entry(s, which, place, cell, -dy / 100.0);
            });
        })
    }

    /// The editor itself, shown while an entry is being edited.
    pub fn editor(self) -> impl IntoView {
        view! { <CellEditor editing=self.open /> }
    }
}

/// The cell of entry (r, c) on the page.
fn cell_element(which: Editable, r: usize, c: usize) -> Option<web_sys::Element> {
    let selector = format!(
        "[data-testid=\"{}\"] [data-row=\"{r}\"][data-col=\"{c}\"]",
        heatmap_of(which)
    );
    document().query_selector(&selector).ok().flatten()
}

/// Gives keyboard focus back to the cell that was being edited.
fn focus_cell(which: Editable, r: usize, c: usize) {
    if let Some(cell) = cell_element(which, r, c).and_then(|e| e.dyn_into::<SvgElement>().ok()) {
        let _ = cell.focus();
    }
}

/// Puts the editor (`host`) right of its cell, or under it where the card
/// has no room on the right, then focuses its field with the number selected,
/// so typing replaces it at once.
fn place_beside(host: &web_sys::HtmlElement, which: Editable, r: usize, c: usize) {
    let (Some(cell), Some(card)) = (
        cell_element(which, r, c),
        host.closest("[data-diagram]").ok().flatten(),
    ) else {
        return;
    };
    let (at, within) = (
        cell.get_bounding_client_rect(),
        card.get_bounding_client_rect(),
    );
    let width = f64::from(host.offset_width());
    let room = within.right() - at.right() - 8.0;
    let (left, top) = if room >= width {
        (at.right() - within.left() + 6.0, at.top() - within.top())
    } else {
        let left = (at.left() - within.left())
            .min(within.width() - width - 8.0)
            .max(8.0);
        (left, at.bottom() - within.top() + 6.0)
    };
    // `coord`, not `{:.0}`: Rust's float formatting would add ~9 KB of wasm.
    let (left, top) = (crate::svg::coord(left), crate::svg::coord(top));
    let _ = host.set_attribute("style", &format!("left: {left}px; top: {top}px"));
    if let Some(field) = host
        .query_selector("input")
        .ok()
        .flatten()
        .and_then(|f| f.dyn_into::<HtmlInputElement>().ok())
    {
        let _ = field.focus();
        field.select();
    }
}

fn matrix_name(which: Editable) -> &'static str {
    match which {
        Editable::X => "X",
        Editable::WQ => "W_Q",
        Editable::WK => "W_K",
        Editable::WV => "W_V",
        Editable::WO => "W_O",
        Editable::P => "P",
        Editable::W1 => "W_1",
        Editable::W2 => "W_2",
        Editable::Gamma1 => "γ_1",
        Editable::Beta1 => "β_1",
        Editable::Gamma2 => "γ_2",
        Editable::Beta2 => "β_2",
    }
}

/// The editor's markup: nothing while no entry is open; otherwise the entry's
/// name, a field holding `value`, a hint, and why the last number was refused.
pub fn markup(
    editing: Option<(Editable, usize, usize)>,
    value: Option<f64>,
    problem: Option<&LabError>,
    lang: Lang,
) -> String {
    let Some((which, r, c)) = editing else {
        return String::new();
    };
    let name = format!(
        "{}{},{}",
        matrix_name(which),
        subscript(r + 1),
        subscript(c + 1)
    );
    let value = value.map(shortest).unwrap_or_default();
    let mut m = Markup::new();
    m.open("div", &[("class", "cell-editor")])
        .open("label", &[]);
    m.text(&format!("{} {name} = ", text::EDITING.get(lang)));
    let field = [
        ("type", "text"),
        ("inputmode", "decimal"),
        ("data-testid", "cell-editor"),
        ("data-action", Control::Entry.name()),
        ("value", value.as_str()),
    ];
    m.empty("input", &field).close("label");
    m.element("span", &[("class", "hint")], text::EDIT_HELP.get(lang));
    if let Some(problem) = problem {
        refusal(&mut m, problem, "cell-editor-problem", lang);
    }
    m.close("div");
    m.finish()
}

/// An input bound to the entry being edited; empty when none is.
#[component]
pub fn CellEditor(
    /// The entry being edited: matrix, row and column.
    editing: RwSignal<Option<(Editable, usize, usize)>>,
) -> impl IntoView {
    let lab = lab();
    let scenario = lab.scenario;
    let LangContext(lang) = expect_context::<LangContext>();
    let focus = lab.focus;
    let problem = RwSignal::new(None::<LabError>);
    let node = NodeRef::<Div>::new();

    // Opening another entry starts without a complaint.
    Effect::new(move |_| {
        editing.track();
        problem.set(None);
    });
    let html = Memo::new(move |_| {
        let open = editing.get();
        let place = focus.place();
        let value =
            open.and_then(|(which, r, c)| scenario.with(|s| lab::entry(s, which, place, (r, c))));
        problem.with(|p| markup(open, value, p.as_ref(), lang.get()))
    });
    keep_patched(node, html.into(), None);
    // Opening an entry puts the editor beside its cell, focused, once it is drawn.
    Effect::new(move |_| {
        if let Some((which, r, c)) = editing.get() {
            request_animation_frame(move || {
                if let Some(host) = node.get_untracked() {
                    place_beside(&host, which, r, c);
                }
            });
        }
    });
    // Enter keeps a number and closes; Escape closes and keeps the old one.
    // Either way the cell gets the focus back, for the next arrow or Enter.
    let act = Callback::new(move |heard: Heard| {
        let (Some(action), Some(open)) = (
            EditorAction::read(&heard.reading()),
            editing.get_untracked(),
        ) else {
            return;
        };
        let mut next = scenario.get_untracked();
        let outcome = apply(&mut next, open, untrack(|| focus.place()), action);
        if outcome.edited {
            scenario.set(next);
        }
        problem.set(outcome.problem);
        if outcome.close {
            editing.set(None);
            let (which, r, c) = open;
            focus_cell(which, r, c);
        }
    });

    view! {
        <div
            class="cell-editor-host"
            node_ref={node}
            {..listen(act)}
        ></div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_editor_names_its_entry_and_shows_a_refusal() {
        assert_eq!(markup(None, None, None, Lang::En), "");
        let open = Some((Editable::WQ, 1, 2));
        let html = markup(open, Some(0.75), None, Lang::En);
        assert!(html.contains("W_Q₂,₃ = "), "{html}");
        assert!(html.contains("data-testid=\"cell-editor\" data-action=\"entry\" value=\"0.75\""));
        assert!(!html.contains("cell-editor-problem"));
        let refused = LabError::NotANumber("abc".into());
        let html = markup(open, Some(0.75), Some(&refused), Lang::Zh);
        assert!(html.contains("data-testid=\"cell-editor-problem\""));
        assert!(html.contains("“abc”"));
    }
}
