//! A diagram's markup, patched in place, whose cells' pointer and keyboard
//! events become [`CellEvent`]s: one set of listeners per diagram instead of
//! one per element.

use super::cell::{cell_of, CellEvent, Gesture, PointerInput};
use super::patch::{drawn, keep_patched, light, paint, paint_bars, Lit};
use leptos::html::Div;
use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;
use web_sys::Element;

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
