//! Keyboard focus within a composite that is one tab stop (`dom.js`): a
//! heatmap's grid, the token list, a row of bars, a formula's links. The keys
//! move as `geometry::grid::focus_step` says; both the cards' listener and
//! the diagrams' hosts call [`rove`].

use crate::geometry::grid::focus_step;
use web_sys::Element;

#[wasm_bindgen::prelude::wasm_bindgen(module = "/src/action/dom.js")]
extern "C" {
    /// The row and column of the cell holding `target`, 16 bits each.
    #[wasm_bindgen(js_name = placeOf)]
    fn place_of(target: &Element) -> u32;
    /// The rows and columns of `target`'s composite, 16 bits each; 0
    /// outside any.
    #[wasm_bindgen(js_name = shapeOf)]
    fn shape_of(target: &Element) -> u32;
    /// Makes the cell at (`row`, `col`) of `target`'s composite its tab stop
    /// and focuses it.
    #[wasm_bindgen(js_name = roveTo)]
    fn rove_to(target: &Element, row: u32, col: u32);
}

/// The two 16-bit halves of a number from `rove.js`.
fn halves(packed: u32) -> (usize, usize) {
    ((packed >> 16) as usize, (packed & 0xffff) as usize)
}

/// Moves focus within the composite around `target` as `key` asks; whether
/// the key was the composite's (the caller then keeps it from the page).
pub fn rove(target: &Element, key: &str) -> bool {
    let shape = halves(shape_of(target));
    if shape.0 == 0 {
        return false;
    }
    let in_text_field = matches!(target.tag_name().as_str(), "INPUT" | "TEXTAREA");
    let Some((row, col)) = focus_step(key, halves(place_of(target)), shape, in_text_field) else {
        return false;
    };
    rove_to(target, row as u32, col as u32);
    true
}
