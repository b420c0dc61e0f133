//! Keyboard focus within a composite that is one tab stop (`dom.js`): a
//! heatmap's grid, the token list, a row of bars, a formula's links. The keys
//! move as `geometry::grid::focus_step` says; both the cards' listener and
//! the diagrams' hosts call [`rove`].

use crate::geometry::grid::{focus_step, Caret, Composite};
use leptos::wasm_bindgen::JsCast;
use web_sys::Element;

#[wasm_bindgen::prelude::wasm_bindgen(module = "/src/action/dom.js")]
extern "C" {
    /// The row and column of the cell holding `target`, 16 bits each.
    #[wasm_bindgen(js_name = placeOf)]
    fn place_of(target: &Element) -> u32;
    /// The rows and columns of `target`'s composite, 16 bits each, the top
    /// bit of the rows set for a single row of controls; 0 outside any.
    #[wasm_bindgen(js_name = shapeOf)]
    fn shape_of(target: &Element) -> u32;
    /// Makes the cell at (`row`, `col`) of `target`'s composite its tab stop
    /// and focuses it.
    #[wasm_bindgen(js_name = roveTo)]
    fn rove_to(target: &Element, row: u32, col: u32);
}

/// The key of a key press made without Ctrl, Alt or Meta, which belong to
/// the browser (Alt+← is Back, Ctrl+= zooms); `None` for any other event.
pub fn plain_key(event: &web_sys::Event) -> Option<String> {
    let key = event.dyn_ref::<web_sys::KeyboardEvent>()?;
    let chord = key.ctrl_key() || key.alt_key() || key.meta_key();
    (!chord).then(|| key.key())
}

/// Where the caret stands when `target` is a text field.
fn caret_of(target: &Element) -> Caret {
    let Some(field) = target.dyn_ref::<web_sys::HtmlInputElement>() else {
        return Caret::None;
    };
    let length = field.value().encode_utf16().count() as u32;
    let (start, end) = (field.selection_start(), field.selection_end());
    Caret::Field {
        at_start: start == Ok(Some(0)) && end == Ok(Some(0)),
        at_end: start == Ok(Some(length)) && end == Ok(Some(length)),
    }
}

/// Moves focus within the composite around `target` as `key` asks; whether
/// the key was the composite's (the caller then keeps it from the page).
pub fn rove(target: &Element, key: &str) -> bool {
    let shape = shape_of(target);
    if shape == 0 {
        return false;
    }
    let kind = if shape & 0x8000_0000 != 0 {
        Composite::Row
    } else {
        Composite::Grid
    };
    let (rows, cols) = ((shape >> 16) & 0x7fff, shape & 0xffff);
    let place = place_of(target);
    let at = ((place >> 16) as usize, (place & 0xffff) as usize);
    let shape = (rows as usize, cols as usize);
    let Some((row, col)) = focus_step(key, at, shape, kind, caret_of(target)) else {
        return false;
    };
    rove_to(target, row as u32, col as u32);
    true
}
