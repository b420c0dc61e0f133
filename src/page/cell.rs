//! A diagram's cells and what the pointer does on them: markup marks a cell
//! with `data-hit="row,col"` ([`hit`]), and [`Gesture`], a pure state
//! machine tested natively, turns pointer input into hover, select and drag.

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
pub(super) fn parse_hit(text: &str) -> Option<(usize, usize)> {
    let (row, col) = text.split_once(',')?;
    Some((row.parse().ok()?, col.parse().ok()?))
}

/// The cell an event happened on: the closest element with `data-hit`.
pub(super) fn cell_of(target: Option<web_sys::EventTarget>) -> Option<(Element, (usize, usize))> {
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
