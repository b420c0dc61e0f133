//! A colour legend: the gradient a heatmap's palette runs through, with the
//! values at its ends, so a colour can be read back as a number.

use crate::diagrams::matrix::Palette;
use crate::geometry::colour::{signed_colour, weight_colour};
use crate::geometry::format::two_decimals;
use crate::i18n::{LangContext, Msg};
use leptos::prelude::*;

/// Stops of the gradient; enough that it looks continuous.
const STOPS: usize = 11;
/// Size of the legend in SVG units; the bar sits between title and ticks.
const WIDTH: f64 = 220.0;
const HEIGHT: f64 = 46.0;
const BAR_Y: f64 = 18.0;
const BAR_HEIGHT: f64 = 10.0;
const TICK_Y: f64 = 38.0;

/// A horizontal gradient from the palette's lowest to highest value, titled
/// and with its end values (and 0 for a signed scale) printed below.
#[component]
pub fn ColourLegend(
    /// `data-testid` of the `<svg>`; also makes the gradient's id unique.
    testid: &'static str,
    /// The colour scale the legend explains.
    palette: Palette,
    /// For a signed palette, the magnitude at both ends (the heatmap's
    /// `symmetric_extent`); weights always run from 0 to 1, so they leave it out.
    #[prop(into, optional)]
    extent: Signal<f64>,
    /// What the colours stand for, printed above the gradient.
    title: Msg,
    /// What the legend shows, for screen readers (`aria-label`).
    aria: Msg,
) -> impl IntoView {
    let LangContext(lang) = expect_context::<LangContext>();
    let gradient = format!("{testid}-gradient");
    let stops = (0..STOPS)
        .map(|i| {
            let at = i as f64 / (STOPS - 1) as f64;
            let colour = match palette {
                // signed_colour maps −1…1 of a unit extent onto the whole scale.
                Palette::Signed => signed_colour(2.0 * at - 1.0, 1.0),
                Palette::Weight => weight_colour(at),
            };
            view! { <stop offset=at stop-color=colour.hex() /> }
        })
        .collect_view();
    let ends = move || match palette {
        Palette::Signed => {
            let e = extent.get();
            (two_decimals(-e), two_decimals(e))
        }
        Palette::Weight => ("0".to_string(), "1".to_string()),
    };
    let zero = matches!(palette, Palette::Signed).then(|| {
        view! { <text x=WIDTH / 2.0 y=TICK_Y class="legend-mid">"0"</text> }
    });

    view! {
        <svg
            class="diagram colour-legend"
            data-testid=testid
            role="img"
            aria-label=move || aria.get(lang.get())
            viewBox=format!("0 0 {WIDTH} {HEIGHT}")
            width=WIDTH
            height=HEIGHT
        >
            <defs>
                <linearGradient id=gradient.clone() x1="0" x2="1" y1="0" y2="0">
                    {stops}
                </linearGradient>
            </defs>
            <text x=0 y=BAR_Y / 2.0 class="legend-title">
                {move || title.get(lang.get())}
            </text>
            <rect
                x=0
                y=BAR_Y
                width=WIDTH
                height=BAR_HEIGHT
                fill=format!("url(#{gradient})")
            />
            <text x=0 y=TICK_Y class="legend-low">{move || ends().0}</text>
            {zero}
            <text x=WIDTH y=TICK_Y class="legend-high">{move || ends().1}</text>
        </svg>
    }
}
