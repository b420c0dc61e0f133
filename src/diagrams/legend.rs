//! A colour legend: the gradient a heatmap's palette runs through, with the
//! values at its ends, so a colour can be read back as a number. Written as
//! markup by [`markup`] and shown by [`SvgHost`].

use crate::diagrams::matrix::Palette;
use crate::geometry::colour::{signed_colour, weight_colour};
use crate::geometry::format::{js_number, two_decimals};
use crate::i18n::{LangContext, Msg};
use crate::page::SvgHost;
use crate::svg::{coord, Markup};
use leptos::prelude::*;

/// Stops of the gradient; enough that it looks continuous.
const STOPS: usize = 11;
/// Size of the legend in SVG units; the bar sits between title and ticks.
const WIDTH: f64 = 220.0;
const HEIGHT: f64 = 46.0;
const BAR_Y: f64 = 18.0;
const BAR_HEIGHT: f64 = 10.0;
const TICK_Y: f64 = 38.0;

/// The legend's SVG: a gradient titled `title`, its end values below (and 0
/// in the middle of a signed scale, whose ends are ±`extent`).
pub fn markup(testid: &str, palette: Palette, extent: f64, title: &str, aria: &str) -> String {
    let gradient = format!("{testid}-gradient");
    let mut m = Markup::new();
    m.start("svg")
        .svg_size(WIDTH, HEIGHT)
        .attr("class", "diagram colour-legend")
        .attr("data-testid", testid)
        .attr("role", "img")
        .attr("aria-label", aria)
        .end();
    m.open("defs", &[])
        .start("linearGradient")
        .attr("id", &gradient)
        .attr("x1", "0")
        .attr("x2", "1")
        .attr("y1", "0")
        .attr("y2", "0")
        .end();
    for i in 0..STOPS {
        let at = i as f64 / (STOPS - 1) as f64;
        let colour = match palette {
            // signed_colour maps −1…1 of a unit extent onto the whole scale.
            Palette::Signed => signed_colour(2.0 * at - 1.0, 1.0),
            Palette::Weight => weight_colour(at),
        };
        m.start("stop")
            .attr("offset", &js_number(at))
            .attr("stop-color", &colour.hex())
            .end_empty();
    }
    m.close("linearGradient").close("defs");
    let (bar_y, tick_y) = (coord(BAR_Y), coord(TICK_Y));
    m.start("text")
        .attr("x", "0")
        .coord("y", BAR_Y / 2.0)
        .attr("class", "legend-title")
        .end()
        .text(title)
        .close("text");
    m.start("rect")
        .attr("x", "0")
        .attr("y", &bar_y)
        .coord("width", WIDTH)
        .coord("height", BAR_HEIGHT)
        .attr("fill", &format!("url(#{gradient})"))
        .end_empty();
    let (low, high) = match palette {
        Palette::Signed => (two_decimals(-extent), two_decimals(extent)),
        Palette::Weight if extent > 0.0 && extent != 1.0 => ("0".to_string(), two_decimals(extent)),
        Palette::Weight => ("0".to_string(), "1".to_string()),
    };
    m.start("text")
        .attr("x", "0")
        .attr("y", &tick_y)
        .attr("class", "legend-low")
        .end()
        .text(&low)
        .close("text");
    if palette == Palette::Signed {
        m.start("text")
            .coord("x", WIDTH / 2.0)
            .attr("y", &tick_y)
            .attr("class", "legend-mid")
            .end()
            .text("0")
            .close("text");
    }
    m.start("text")
        .coord("x", WIDTH)
        .attr("y", &tick_y)
        .attr("class", "legend-high")
        .end()
        .text(&high)
        .close("text");
    m.close("svg");
    m.finish()
}

/// A horizontal gradient from the palette's lowest to highest value, titled
/// and with its end values (and 0 for a signed scale) printed below.
#[component]
pub fn ColourLegend(
    /// `data-testid` of the `<svg>`; also makes the gradient's id unique.
    testid: &'static str,
    /// The colour scale the legend explains.
    palette: Palette,
    /// For a signed palette, the magnitude at both ends (the heatmap's
    /// `symmetric_extent`); for weights, the top of the scale (1 when left out).
    #[prop(into, optional)]
    extent: Signal<f64>,
    /// What the colours stand for, printed above the gradient.
    title: Msg,
    /// What the legend shows, for screen readers (`aria-label`).
    aria: Msg,
) -> impl IntoView {
    let LangContext(lang) = expect_context::<LangContext>();
    let svg = Memo::new(move |_| {
        let lang = lang.get();
        markup(
            testid,
            palette,
            extent.get(),
            title.get(lang),
            aria.get(lang),
        )
    });
    view! { <SvgHost markup=svg /> }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signed_legend_runs_from_minus_to_plus_extent_through_zero() {
        let svg = markup("scores-legend", Palette::Signed, 1.5, "Score", "<aria>");
        assert!(svg.contains("data-testid=\"scores-legend\""));
        assert!(svg.contains("aria-label=\"&lt;aria&gt;\""));
        assert!(svg.contains("id=\"scores-legend-gradient\""));
        assert!(svg.contains("fill=\"url(#scores-legend-gradient)\""));
        assert_eq!(svg.matches("<stop ").count(), STOPS);
        assert!(svg.contains("class=\"legend-low\">\u{2212}1.50</text>"));
        assert!(svg.contains("class=\"legend-mid\">0</text>"));
        assert!(svg.contains("class=\"legend-high\">1.50</text>"));
    }

    #[test]
    fn a_weight_legend_runs_from_zero_to_its_top() {
        for unset in [0.0, 1.0] {
            let svg = markup("weights-legend", Palette::Weight, unset, "Weight", "w");
            assert!(svg.contains("class=\"legend-low\">0</text>"));
            assert!(svg.contains("class=\"legend-high\">1</text>"));
            assert!(!svg.contains("legend-mid"));
        }
        let svg = markup("weights-legend", Palette::Weight, 0.0625, "Weight", "w");
        assert!(svg.contains("class=\"legend-high\">0.06</text>"), "{svg}");
    }
}
