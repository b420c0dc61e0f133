//! The floor page: one `<svg>` of 16 cells in a Leptos page built exactly
//! as the app is (release profile, trunk, wasm-opt, the minifier). `cargo
//! xtask bench` times navigation → its SVG drawn beside the app's first
//! diagram, in the same run, so the app is judged by what it adds to the
//! stack's own start-up rather than by how fast the machine is that day.

use leptos::prelude::*;

fn main() {
    leptos::mount::mount_to_body(Floor);
}

/// A 4 × 4 grid of cells, as small as a heatmap can be.
#[component]
fn Floor() -> impl IntoView {
    let cells = (0..16).map(|i| {
        let (x, y) = ((i % 4) * 10, (i / 4) * 10);
        let shade = format!("hsl(220 60% {}%)", 30 + i * 4);
        view! { <rect x=x y=y width="10" height="10" fill=shade></rect> }
    });
    view! {
        <svg data-testid="floor" viewBox="0 0 40 40" width="160" height="160">
            {cells.collect_view()}
        </svg>
    }
}
