//! The markup of the fusion diagram: the SVG, put together from the value
//! rows, connectors and output row ([`super::flow`]) and the stacked bars
//! ([`super::bars`]), and the token colour legend. Pure, so tests read the
//! written numbers back natively.

use super::bars::bar_columns;
use super::flow::{connectors, output_row, value_rows};
use crate::geometry::extent::symmetric_extent;
use crate::geometry::flow::frame::FusionFrame;
use crate::geometry::flow::layout::FusionLayout;
use crate::geometry::flow::token_colour;
use crate::svg::{coord, Markup};
use ndarray::Array2;

/// Side of one cell, in SVG units: wide enough that "−0.58" at 13 px keeps
/// clear of its neighbours.
const CELL: f64 = 46.0;
/// The smallest share of its natural size the SVG may shrink to: its text,
/// 13 px in a stacked drawing (diagrams.css), stays 11 px or more, and a
/// narrower box scrolls. (Beside the rows, the drawing keeps its size and
/// scrolls in its box: it never shrinks.)
const MIN_SCALE: f64 = 11.0 / 13.0;

/// Everything one drawing of the fusion shows.
pub struct FusionSpec<'a> {
    /// One label per token.
    pub labels: &'a [String],
    /// The value rows V (T×d_v).
    pub v: &'a Array2<f64>,
    /// The attention weights α′ (T×T).
    pub weights: &'a Array2<f64>,
    /// Which keys each query may attend to (T×T).
    pub allowed: &'a Array2<bool>,
    /// The output B = α′V (T×d_v).
    pub output: &'a Array2<f64>,
    /// The selected query's row in `weights` and `output`.
    pub query: usize,
    /// The selected query's place in the sequence and its label, which name
    /// B_i (a long sequence's fusion holds only the query's row, as row 0).
    pub query_name: (usize, &'a str),
    /// The component whose sum is written out, drawn highlighted.
    pub component: Option<usize>,
    /// The SVG's `aria-label`.
    pub aria: &'a str,
    /// The word printed on a masked key's connector.
    pub masked_word: &'a str,
    /// The legend's title.
    pub legend_title: &'a str,
    /// What the black tick across each bar means.
    pub tick_note: &'a str,
    /// Whether B_i goes under the value rows (a narrow screen) rather than
    /// beside them.
    pub stacked: bool,
}

impl FusionSpec<'_> {
    /// α′_ij, zero when out of range.
    pub fn weight(&self, j: usize) -> f64 {
        self.weights.get((self.query, j)).copied().unwrap_or(0.0)
    }

    /// Whether key j is masked for the selected query.
    pub fn masked(&self, j: usize) -> bool {
        self.allowed.get((self.query, j)).copied() == Some(false)
    }

    /// Token j's label, empty when out of range.
    pub fn label(&self, j: usize) -> &str {
        self.labels.get(j).map_or("", String::as_str)
    }
}

/// The class list `base` followed by every name whose flag is set.
pub fn classes(base: &str, flags: &[(bool, &str)]) -> String {
    let mut class = String::from(base);
    for (on, name) in flags {
        if *on {
            class.push(' ');
            class.push_str(name);
        }
    }
    class
}

/// A share in [0, 1] such as an opacity, to two decimals: coordinates'
/// single decimal would make the steps visible.
pub fn share(value: f64) -> String {
    crate::geometry::format::fixed(value, 2)
}

/// Everything the diagram's host shows: the SVG in its scroll box, then the legend.
pub fn fusion(spec: &FusionSpec) -> String {
    let svg = fusion_svg(spec);
    let legend = legend(spec.legend_title, spec.labels, spec.tick_note);
    format!("<div class=\"scroll\">{svg}</div>{legend}")
}

/// The fusion SVG for `spec`. Each bar column and each cell of B_i carries
/// `data-hit="0,c"` for its component c; the columns take keyboard focus.
pub fn fusion_svg(spec: &FusionSpec) -> String {
    let (tokens, d) = spec.v.dim();
    let longest = spec.labels.iter().map(|l| l.chars().count()).max();
    let longest = longest.unwrap_or(1);
    let layout = if spec.stacked {
        FusionLayout::stacked(tokens, d, CELL, longest)
    } else {
        FusionLayout::new(tokens, d, CELL, longest)
    };
    let frame = FusionFrame::new(&layout, spec.weights, spec.query, spec.v, spec.output);
    let extent = symmetric_extent(spec.v);
    let (width, height) = layout.size();
    let mut m = Markup::new();
    m.start("svg")
        .svg_size(width, height)
        .attr(
            "class",
            if spec.stacked {
                "diagram fusion-flow stacked"
            } else {
                "diagram fusion-flow"
            },
        )
        .attr("data-testid", "fusion")
        .attr("role", "group")
        .attr("aria-label", spec.aria)
        .attr(
            "style",
            &format!("min-width: {}px", coord((width * MIN_SCALE).round())),
        )
        .end();
    // What the picture draws is in the grids of V, α′ and B, and the
    // columns below name each component's sum: the rest is hidden from
    // screen readers, who would otherwise meet its loose numbers.
    m.open("g", &[("aria-hidden", "true")]);
    value_rows(&mut m, spec, &layout, extent);
    connectors(&mut m, spec, &layout, &frame);
    output_row(&mut m, spec, &layout, extent);
    m.close("g");
    bar_columns(&mut m, spec, &layout, &frame);
    m.close("svg");
    m.finish()
}

/// The legend naming each token's colour, as HTML.
fn legend(title: &str, labels: &[String], tick_note: &str) -> String {
    let mut m = Markup::new();
    m.open(
        "div",
        &[("class", "fusion-legend"), ("data-testid", "fusion-legend")],
    );
    m.element("span", &[("class", "fusion-legend-title")], title);
    m.open("ul", &[]);
    for (j, label) in labels.iter().enumerate() {
        let style = format!("background-color: {}", token_colour(j).hex());
        m.start("li")
            .attr("data-token", &j.to_string())
            .end()
            .start("span")
            .attr("class", "fusion-swatch")
            .attr("style", &style)
            .end()
            .text("")
            .close("span")
            .text(label)
            .close("li");
    }
    m.close("ul");
    m.open(
        "p",
        &[
            ("class", "fusion-tick-note"),
            ("data-testid", "fusion-tick-note"),
        ],
    )
    .element(
        "span",
        &[("class", "tick-key"), ("aria-hidden", "true")],
        "",
    )
    .text(tick_note)
    .close("p");
    m.close("div");
    m.finish()
}
