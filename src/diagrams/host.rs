//! Shows markup written by pure functions, patching the page's copy in place
//! (see `morph.js`), and delegates its events: one set of listeners per
//! diagram or card instead of one per element. A diagram's cells
//! (`data-hit`) become typed [`CellEvent`]s ([`SvgHost`]); a card's controls
//! (`data-action`) speak the cards' protocol ([`ActionCard`], `crate::action`).

use crate::action::{listen, Heard};
use crate::state::{Drawn, Skipped};
use leptos::html::{Div, Section};
use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;
use web_sys::Element;

/// What the learner did to a cell: an element of the markup carrying
/// `data-hit="row,col"` (see [`hit`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CellEvent {
    /// The pointer or keyboard focus is on this cell, or on none.
    Hover(Option<(usize, usize)>),
    /// The cell was clicked, or Enter, Space or F2 was pressed on it.
    Select((usize, usize)),
    /// The cell is being dragged; pixels moved since the last event, downward positive.
    Drag((usize, usize), f64),
}

/// The `data-hit` value that makes a markup element a cell at (row, col).
pub fn hit(row: usize, col: usize) -> String {
    format!("{row},{col}")
}

/// Reads a `data-hit` value back.
fn parse_hit(text: &str) -> Option<(usize, usize)> {
    let (row, col) = text.split_once(',')?;
    Some((row.parse().ok()?, col.parse().ok()?))
}

/// The cell an event happened on: the closest element with `data-hit`.
fn cell_of(target: Option<web_sys::EventTarget>) -> Option<(Element, (usize, usize))> {
    let element = target?.dyn_into::<Element>().ok()?;
    let cell = element.closest("[data-hit]").ok()??;
    let position = parse_hit(&cell.get_attribute("data-hit")?)?;
    Some((cell, position))
}

/// What the pointer does on a diagram, as [`Gesture::next`] reads it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PointerInput {
    /// A button went down on a cell (`pointerdown`), pointer `id` at height `y`.
    Down { at: (usize, usize), id: i32, y: f64 },
    /// The pointer moved (`pointermove`); `pressed` says the primary button is down.
    Move { id: i32, y: f64, pressed: bool },
    /// The drag ended: `pointerup`, `pointercancel` or `lostpointercapture`.
    End,
    /// A click on a cell, which follows `pointerup`.
    Click((usize, usize)),
}

/// Where a pointer gesture on a diagram stands: a drag in progress, or
/// whether the last drag moved (so the click that ends it selects nothing).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Gesture {
    drag: Option<Drag>,
    swallow_click: bool,
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Drag {
    at: (usize, usize),
    id: i32,
    last_y: f64,
    moved: bool,
}

impl Gesture {
    /// The gesture after `input`, and the cell event it makes, if any. A drag
    /// that moved never ends as a select; a move without the button pressed
    /// (the `pointerup` was lost) ends the drag rather than resuming it.
    pub fn next(self, input: PointerInput) -> (Gesture, Option<CellEvent>) {
        match input {
            PointerInput::Down { at, id, y } => {
                let drag = Drag {
                    at,
                    id,
                    last_y: y,
                    moved: false,
                };
                (Gesture::started(drag), None)
            }
            PointerInput::Move { id, y, pressed } => match self.drag {
                Some(drag) if drag.id == id && !pressed => (self.ended(), None),
                Some(drag) if drag.id == id && y != drag.last_y => {
                    let moved = Drag {
                        last_y: y,
                        moved: true,
                        ..drag
                    };
                    let event = CellEvent::Drag(drag.at, y - drag.last_y);
                    (Gesture::started(moved), Some(event))
                }
                _ => (self, None),
            },
            PointerInput::End => (self.ended(), None),
            PointerInput::Click(_) if self.swallow_click => (Gesture::default(), None),
            PointerInput::Click(at) => (self, Some(CellEvent::Select(at))),
        }
    }

    fn started(drag: Drag) -> Gesture {
        Gesture {
            drag: Some(drag),
            swallow_click: false,
        }
    }

    fn ended(self) -> Gesture {
        match self.drag {
            Some(drag) => Gesture {
                drag: None,
                swallow_click: drag.moved,
            },
            None => self,
        }
    }
}

#[wasm_bindgen::prelude::wasm_bindgen(module = "/src/diagrams/morph.js")]
extern "C" {
    /// Patches `host`'s content to match `markup`, changing only what differs.
    fn morph(host: &Element, markup: &str);
    /// Repaints the heatmap cells in `host` from `matrix::markup::paint` lines.
    fn paint(host: &Element, encoded: &str);
    /// Repaints the bars in `host` from `softmax::bars::markup::bar_paint` lines.
    #[wasm_bindgen(js_name = paintBars)]
    fn paint_bars(host: &Element, encoded: &str);
    /// Highlights the heatmap cells of these rows and columns in `host`.
    fn light(host: &Element, rows: &[u32], cols: &[u32]);
    /// Marks the control `data-action="select"` with this `data-index` in `host` as chosen.
    fn choose(host: &Element, index: u32);
}

/// Rows and columns of a heatmap to highlight (see `morph.js` `light`).
pub type Lit = (Vec<usize>, Vec<usize>);

/// Whether `node` is drawn (`state::Skipped`): on screen, once start-up
/// reaches its card. Each diagram is watched on its own, so the ones out of
/// sight in a card partly on screen wait too. Effects that patch a diagram
/// wait while it is not drawn, without reading what they would draw, so
/// nothing off screen is computed either; they catch up as it comes near.
pub fn drawn<E>(node: NodeRef<E>) -> Memo<bool>
where
    E: leptos::html::ElementType,
    E::Output: AsRef<Element> + JsCast + Clone + Send + Sync + 'static,
{
    drawn_as(element_of(node), Drawn::OnScreen)
}

/// What a card shows, computed by `compute` only while the card is `drawn`:
/// off screen it keeps its last value, unread, and wakes no reader. The memo
/// owns that value instead of cloning it and counts every new one as changed,
/// so a view needs neither `Clone` nor `PartialEq`, whose code the bundle
/// would carry for every view's type.
pub fn while_drawn<T: Send + Sync + 'static>(
    drawn: Memo<bool>,
    compute: impl Fn() -> Option<T> + Send + Sync + 'static,
) -> Memo<Option<T>> {
    Memo::new_owning(move |previous: Option<Option<T>>| {
        if drawn.get() {
            (compute(), true)
        } else {
            (previous.flatten(), false)
        }
    })
}

/// `node`'s element, once it is made.
fn element_of<E>(node: NodeRef<E>) -> Box<dyn Fn() -> Option<Element> + Send + Sync>
where
    E: leptos::html::ElementType,
    E::Output: AsRef<Element> + JsCast + Clone + Send + Sync + 'static,
{
    Box::new(move || {
        node.get()
            .map(|host| AsRef::<Element>::as_ref(&host).clone())
    })
}

/// Whether `host` is drawn, for any kind of element and either [`Drawn`]:
/// one copy of the memo in the bundle.
fn drawn_as(host: Box<dyn Fn() -> Option<Element> + Send + Sync>, drawn: Drawn) -> Memo<bool> {
    let skipped = use_context::<Skipped>();
    Memo::new(move |_| match (skipped, host()) {
        (Some(skipped), Some(host)) => skipped.draws(&host, drawn),
        _ => true,
    })
}

/// Keeps `node`'s content patched to `markup` (see `morph.js`) for as long as
/// the component lives: the one way markup reaches the page. With `drawn`, it
/// waits while that is false: a diagram off screen (see [`drawn`]), or a card
/// made for later at start-up. A card's controls are drawn on screen or off
/// it: a keyboard can reach them, and must find them current.
pub fn keep_patched<E>(node: NodeRef<E>, markup: Signal<String>, drawn: Option<Memo<bool>>)
where
    E: leptos::html::ElementType,
    E::Output: AsRef<Element> + JsCast + Clone + Send + Sync + 'static,
{
    Effect::new(move |_| {
        if drawn.is_some_and(|d| !d.get()) {
            return;
        }
        let html = markup.get();
        if let Some(host) = node.get() {
            morph(host.as_ref(), &html);
        }
    });
}

/// A card written as markup, patched in place, whose controls reach
/// `on_action` through the cards' one listener (`crate::action::listen`).
#[component]
pub fn ActionCard(
    /// The card's `class`.
    class: &'static str,
    /// The card's `data-testid`.
    testid: &'static str,
    /// The card's content; the page is patched to match whenever it changes.
    #[prop(into)]
    markup: Signal<String>,
    /// Receives every event on a control that names an action.
    on_action: Callback<Heard>,
    /// Which of the card's `select` controls is chosen (`data-index`): marked
    /// by `morph.js` `choose` on two elements, outside the markup, so a new
    /// choice rewrites nothing.
    #[prop(optional)]
    chosen: Option<RwSignal<usize>>,
    /// Fields whose value is written outside the markup, as (`data-testid`,
    /// value): a value that changes on its own, such as the seed with every
    /// new draw of weights, then rewrites nothing else.
    #[prop(optional, into)]
    values: Option<Signal<Vec<(&'static str, String)>>>,
    /// The card's element, for a card that also draws outside its markup
    /// and asks [`drawn`] whether it is on screen.
    #[prop(optional)]
    node: NodeRef<Section>,
) -> impl IntoView {
    let drawn = drawn_as(element_of(node), Drawn::Anywhere);
    keep_patched(node, markup, Some(drawn));
    if let Some(chosen) = chosen {
        Effect::new(move |_| {
            let index = chosen.get() as u32;
            if let Some(host) = node.get() {
                choose(&host, index);
            }
        });
    }
    if let Some(values) = values {
        // After the markup's own patch (effects first run in the order they
        // are made), and again after each: a field the patch made anew
        // starts empty, as does a card's first drawing, which may come after
        // start-up (`drawn`).
        Effect::new(move |_| {
            markup.track();
            drawn.track();
            let Some(host) = node.get() else { return };
            values.with(|values| {
                for (testid, value) in values {
                    let field = host
                        .query_selector(&format!("[data-testid=\"{testid}\"]"))
                        .ok()
                        .flatten()
                        .and_then(|field| field.dyn_into::<web_sys::HtmlInputElement>().ok());
                    if let Some(field) = field.filter(|field| field.value() != *value) {
                        field.set_value(value);
                    }
                }
            });
        });
    }
    view! {
        <section
            class=class
            data-testid=testid
            node_ref={node}
            {..listen(on_action)}
        ></section>
    }
}

/// A container for diagram markup with delegated cell events.
#[component]
pub fn SvgHost(
    /// The markup to show; the page is patched to match whenever it changes.
    #[prop(into)]
    markup: Signal<String>,
    /// Receives hover, select and drag events on cells.
    #[prop(optional)]
    on_cell: Option<Callback<CellEvent>>,
    /// Whether dragging a cell vertically sends [`CellEvent::Drag`].
    #[prop(optional)]
    draggable: bool,
    /// New looks for the heatmap cells already shown, from
    /// `matrix::markup::paint`: applied without rewriting the markup.
    #[prop(optional)]
    repaint: Option<Signal<String>>,
    /// New heights, colours and numbers for the bars already shown, from
    /// `softmax::bars::markup::bar_paint`: applied without rewriting the markup.
    #[prop(optional)]
    bars: Option<Signal<String>>,
    /// The heatmap rows and columns to highlight: only their cells are
    /// touched when it changes, never the markup.
    #[prop(optional)]
    lit: Option<Signal<Lit>>,
) -> impl IntoView {
    let node = NodeRef::<Div>::new();
    let gesture = StoredValue::new(Gesture::default());
    // The cell under the pointer, shown again when keyboard focus leaves the
    // diagram, so moving focus never wipes what the pointer points at.
    let pointed = StoredValue::new(None::<(usize, usize)>);
    let send = move |event: CellEvent| {
        if let Some(callback) = on_cell {
            callback.run(event);
        }
    };
    let pointer_input = move |input: PointerInput| {
        let (next, event) = gesture.get_value().next(input);
        gesture.set_value(next);
        if let Some(event) = event {
            send(event);
        }
    };

    let drawn = drawn(node);
    keep_patched(node, markup, Some(drawn));
    for (lines, painter) in [(repaint, paint as fn(&Element, &str)), (bars, paint_bars)] {
        let Some(lines) = lines else { continue };
        Effect::new(move |_| {
            if !drawn.get() {
                return;
            }
            let encoded = lines.get();
            if let Some(host) = node.get() {
                painter(&host, &encoded);
            }
        });
    }
    if let Some(lit) = lit {
        Effect::new(move |_| {
            if !drawn.get() {
                return;
            }
            let as_u32 = |v: &[usize]| v.iter().map(|&i| i as u32).collect::<Vec<_>>();
            let (rows, cols) = lit.with(|(r, c)| (as_u32(r), as_u32(c)));
            if let Some(host) = node.get() {
                light(&host, &rows, &cols);
            }
        });
    }

    // Every event a diagram answers, through one listener (`on_events`).
    let on_event = move |e: web_sys::Event| {
        let pointer = || e.dyn_ref::<web_sys::PointerEvent>();
        match e.type_().as_str() {
            "pointerover" => {
                let at = cell_of(e.target()).map(|(_, at)| at);
                pointed.set_value(at);
                send(CellEvent::Hover(at));
            }
            "pointerleave" => {
                pointed.set_value(None);
                send(CellEvent::Hover(None));
            }
            "focusin" => send(CellEvent::Hover(cell_of(e.target()).map(|(_, at)| at))),
            "focusout" => {
                // Focus moving to another cell sends its own hover next.
                let to = e
                    .dyn_ref::<web_sys::FocusEvent>()
                    .and_then(|f| f.related_target());
                if cell_of(to).is_none() {
                    send(CellEvent::Hover(pointed.get_value()));
                }
            }
            "click" => {
                if let Some((_, at)) = cell_of(e.target()) {
                    pointer_input(PointerInput::Click(at));
                }
            }
            "keydown" => {
                let (Some((cell, at)), Some(key)) =
                    (cell_of(e.target()), crate::action::plain_key(&e))
                else {
                    return;
                };
                // F2 edits, as in a spreadsheet's grid.
                if key == "Enter" || key == " " || key == "F2" {
                    e.prevent_default();
                    send(CellEvent::Select(at));
                } else if crate::action::rove(&cell, &key) {
                    e.prevent_default();
                }
            }
            "pointerdown" => {
                if let (true, Some(p), Some((cell, at))) =
                    (draggable, pointer(), cell_of(e.target()))
                {
                    // Capture keeps the drag going when the pointer leaves the cell.
                    let _ = cell.set_pointer_capture(p.pointer_id());
                    pointer_input(PointerInput::Down {
                        at,
                        id: p.pointer_id(),
                        y: f64::from(p.client_y()),
                    });
                }
            }
            "pointermove" => {
                if let Some(p) = pointer() {
                    pointer_input(PointerInput::Move {
                        id: p.pointer_id(),
                        y: f64::from(p.client_y()),
                        pressed: (p.buttons() & 1) == 1,
                    });
                }
            }
            // pointerup, pointercancel, lostpointercapture
            _ => pointer_input(PointerInput::End),
        }
    };
    crate::action::on_events(
        node,
        "pointerover pointerleave focusin focusout click keydown pointerdown pointermove \
         pointerup pointercancel lostpointercapture",
        on_event,
    );

    view! { <div class="svg-host" node_ref=node></div> }
}

#[cfg(test)]
mod tests {
    use super::{hit, parse_hit, CellEvent, Gesture, PointerInput};

    /// Runs `inputs` from a fresh gesture and returns the cell events they make.
    fn events(inputs: &[PointerInput]) -> Vec<CellEvent> {
        let mut gesture = Gesture::default();
        let mut out = Vec::new();
        for &input in inputs {
            let (next, event) = gesture.next(input);
            gesture = next;
            out.extend(event);
        }
        out
    }

    const DOWN: PointerInput = PointerInput::Down {
        at: (1, 2),
        id: 7,
        y: 100.0,
    };
    const fn moved(y: f64) -> PointerInput {
        PointerInput::Move {
            id: 7,
            y,
            pressed: true,
        }
    }

    #[test]
    fn a_click_without_moving_selects() {
        let clicked = events(&[DOWN, PointerInput::End, PointerInput::Click((1, 2))]);
        assert_eq!(clicked, [CellEvent::Select((1, 2))]);
    }

    #[test]
    fn a_drag_never_ends_as_a_click() {
        let dragged = events(&[
            DOWN,
            moved(90.0),
            PointerInput::End,
            PointerInput::Click((1, 2)),
        ]);
        assert_eq!(dragged, [CellEvent::Drag((1, 2), -10.0)]);
        // The next plain click selects again.
        let after = events(&[
            DOWN,
            moved(90.0),
            PointerInput::End,
            PointerInput::Click((1, 2)),
            PointerInput::Click((1, 2)),
        ]);
        assert_eq!(after.last(), Some(&CellEvent::Select((1, 2))));
    }

    #[test]
    fn a_cancelled_or_stale_drag_cannot_resume() {
        // pointercancel or lostpointercapture: later moves change nothing.
        assert_eq!(
            events(&[DOWN, moved(95.0), PointerInput::End, moved(80.0)]),
            [CellEvent::Drag((1, 2), -5.0)]
        );
        // A move with no button pressed (its pointerup was lost) ends the drag.
        let stale = PointerInput::Move {
            id: 7,
            y: 60.0,
            pressed: false,
        };
        assert_eq!(events(&[DOWN, stale, moved(40.0)]), []);
        // Another pointer does not move this drag.
        let other = PointerInput::Move {
            id: 8,
            y: 60.0,
            pressed: true,
        };
        assert_eq!(events(&[DOWN, other]), []);
    }

    #[test]
    fn hits_round_trip_and_garbage_is_no_cell() {
        assert_eq!(parse_hit(&hit(3, 12)), Some((3, 12)));
        assert_eq!(parse_hit("3"), None);
        assert_eq!(parse_hit("a,1"), None);
    }
}
