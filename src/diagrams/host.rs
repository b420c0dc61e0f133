//! Shows diagram markup written by pure functions, patching the page's copy in
//! place (see `morph.js`), and turns pointer and keyboard events on its cells
//! back into typed events by delegation: one set of listeners per diagram
//! instead of one per element.

use leptos::html::Div;
use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;
use web_sys::Element;

/// What the learner did to a cell: an element of the markup carrying
/// `data-hit="row,col"` (see [`hit`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CellEvent {
    /// The pointer or keyboard focus is on this cell, or on none.
    Hover(Option<(usize, usize)>),
    /// The cell was clicked, or Enter or Space was pressed on it.
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

#[wasm_bindgen::prelude::wasm_bindgen(module = "/src/diagrams/morph.js")]
extern "C" {
    /// Patches `host`'s content to match `markup`, changing only what differs.
    fn morph(host: &Element, markup: &str);
    /// Repaints the heatmap cells in `host` from `matrix::markup::paint` lines.
    fn paint(host: &Element, encoded: &str);
}

/// Keeps `node`'s content patched to `markup` (see `morph.js`) for as long as
/// the component lives: the one way markup reaches the page.
pub fn keep_patched<E>(node: NodeRef<E>, markup: Signal<String>)
where
    E: leptos::html::ElementType,
    E::Output: AsRef<Element> + JsCast + Clone + Send + Sync + 'static,
{
    Effect::new(move |_| {
        let html = markup.get();
        if let Some(host) = node.get() {
            morph(host.as_ref(), &html);
        }
    });
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
) -> impl IntoView {
    let node = NodeRef::<Div>::new();
    // The cell being dragged and the pointer's last y, between pointer events.
    let dragging = StoredValue::new(None::<((usize, usize), f64)>);
    let send = move |event: CellEvent| {
        if let Some(callback) = on_cell {
            callback.run(event);
        }
    };

    keep_patched(node, markup);
    if let Some(repaint) = repaint {
        Effect::new(move |_| {
            let encoded = repaint.get();
            if let Some(host) = node.get() {
                paint(&host, &encoded);
            }
        });
    }

    view! {
        <div
            class="svg-host"
            node_ref=node
            on:pointerover=move |e| send(CellEvent::Hover(cell_of(e.target()).map(|(_, at)| at)))
            on:pointerleave=move |_| send(CellEvent::Hover(None))
            on:focusin=move |e| send(CellEvent::Hover(cell_of(e.target()).map(|(_, at)| at)))
            on:focusout=move |_| send(CellEvent::Hover(None))
            on:click=move |e| {
                if let Some((_, at)) = cell_of(e.target()) {
                    send(CellEvent::Select(at));
                }
            }
            on:keydown=move |e| {
                if e.key() == "Enter" || e.key() == " " {
                    if let Some((_, at)) = cell_of(e.target()) {
                        e.prevent_default();
                        send(CellEvent::Select(at));
                    }
                }
            }
            on:pointerdown=move |e| {
                if draggable {
                    if let Some((cell, at)) = cell_of(e.target()) {
                        // Capture keeps the drag going when the pointer leaves the cell.
                        let _ = cell.set_pointer_capture(e.pointer_id());
                        dragging.set_value(Some((at, f64::from(e.client_y()))));
                    }
                }
            }
            on:pointermove=move |e| {
                if let Some((at, last_y)) = dragging.get_value() {
                    let y = f64::from(e.client_y());
                    if (e.buttons() & 1) == 1 && y != last_y {
                        dragging.set_value(Some((at, y)));
                        send(CellEvent::Drag(at, y - last_y));
                    }
                }
            }
            on:pointerup=move |_| dragging.set_value(None)
        ></div>
    }
}

#[cfg(test)]
mod tests {
    use super::{hit, parse_hit};

    #[test]
    fn hits_round_trip_and_garbage_is_no_cell() {
        assert_eq!(parse_hit(&hit(3, 12)), Some((3, 12)));
        assert_eq!(parse_hit("3"), None);
        assert_eq!(parse_hit("a,1"), None);
    }
}
