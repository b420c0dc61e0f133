//! Whether the screen is narrow (a phone), as a signal: the few diagrams
//! whose geometry changes with the width, not only their CSS, redraw when
//! it changes (a phone turned on its side).

use leptos::prelude::*;
use leptos::wasm_bindgen::closure::Closure;
use leptos::wasm_bindgen::JsCast;

/// The width at or under which a screen is narrow: the stylesheets' own
/// breakpoint for stacking (main.css, `.projection`).
const NARROW: &str = "(max-width: 600px)";

/// Whether the screen is at most 600 px wide, kept up to date.
pub fn narrow_screen() -> Signal<bool> {
    let Some(query) = window().match_media(NARROW).ok().flatten() else {
        return Signal::stored(false);
    };
    let narrow = RwSignal::new(query.matches());
    let changed = Closure::<dyn Fn()>::new({
        let query = query.clone();
        move || narrow.set(query.matches())
    });
    query.set_onchange(Some(changed.as_ref().unchecked_ref()));
    // Kept, so the function stays callable, until the owner is disposed of.
    StoredValue::new_local(changed);
    narrow.into()
}
