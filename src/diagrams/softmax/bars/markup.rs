//! The markup beside the weights grid: the selected query's weights as bars,
//! one per key, and under them the worked softmax of one bar and the row sum.
//! Pure, so tests read the written numbers back natively.

use crate::diagrams::host::hit;
use crate::diagrams::softmax::bars::QueryRow;
use crate::diagrams::softmax::formula::readout;
use crate::geometry::bars::{short_label, BarLayout};
use crate::geometry::colour::weight_colour;
use crate::geometry::format::{js_number, two_decimals};
use crate::geometry::grid::Rect;
use crate::geometry::raster::MAX_DRAWN;
use crate::i18n::{self, Lang};
use crate::svg::{coord, Markup};

/// Width of one key's column and height of the chart, in SVG units.
const SLOT: f64 = 56.0;
/// Width of one key's column past [`MAX_DRAWN`] keys: a thin bar without its
/// number or label (its tooltip names it), so 512 keys take about 1,500 units.
const THIN_SLOT: f64 = 3.0;
const HEIGHT: f64 = 190.0;
/// Longest key label under a bar; the full label is in its tooltip.
const LABEL_CHARS: usize = 6;

/// The bar chart of `row`'s weights, bar `shown` emphasised. Each bar is a
/// focusable `<g class="bar">` cell (see [`hit`]) holding a `rect` with
/// `data-col`, the full-precision `data-value` and, if masked, `data-masked`.
///
/// Past [`MAX_DRAWN`] keys the bars are thin and their height is scaled to the
/// row's largest weight, which [`side`] prints above the chart: with hundreds
/// of keys every weight is small, and on a 0–1 scale they would all look empty.
pub fn chart(row: &QueryRow, shown: usize, aria: &str) -> String {
    let n = row.weights.len();
    let thin_scale = thin_scale(row);
    let thin = thin_scale.is_some();
    let scale = thin_scale.unwrap_or(1.0);
    let layout = BarLayout::new(n, n as f64 * if thin { THIN_SLOT } else { SLOT }, HEIGHT);
    let (width, height) = (coord(layout.width), coord(HEIGHT));
    let (base, top) = (coord(layout.baseline()), coord(layout.top()));
    let view_box = format!("0 0 {width} {height}");
    let mut m = Markup::new();
    m.open(
        "svg",
        &[
            ("xmlns", "http://www.w3.org/2000/svg"),
            ("class", "diagram bars"),
            ("data-testid", "softmax-bars"),
            ("role", "img"),
            ("aria-label", aria),
            ("viewBox", &view_box),
            ("width", &width),
            ("height", &height),
        ],
    );
    m.open("defs", &[])
        .open(
            "pattern",
            &[
                ("id", "softmax-hatch"),
                ("width", "6"),
                ("height", "6"),
                ("patternUnits", "userSpaceOnUse"),
                ("patternTransform", "rotate(45)"),
            ],
        )
        .empty(
            "line",
            &[
                ("x1", "0"),
                ("y1", "0"),
                ("x2", "0"),
                ("y2", "6"),
                ("class", "hatch-line"),
            ],
        )
        .close("pattern")
        .close("defs");
    for (class, y) in [("bar-guide", &top), ("bar-baseline", &base)] {
        let line = [
            ("class", class),
            ("x1", "0"),
            ("x2", &width),
            ("y1", y),
            ("y2", y),
        ];
        m.empty("line", &line);
    }
    for (j, &weight) in row.weights.iter().enumerate() {
        let look = BarLook {
            active: j == shown,
            thin,
            scale,
        };
        bar(&mut m, row, &layout, j, weight, look);
    }
    m.close("svg");
    m.finish()
}

/// The weight a long row's thin bars are scaled to (its largest), or `None`
/// for a row short enough to draw on the 0–1 scale.
fn thin_scale(row: &QueryRow) -> Option<f64> {
    (row.weights.len() > MAX_DRAWN).then(|| row.weights.iter().copied().fold(0.0, f64::max))
}

/// How a bar is drawn: emphasised or not, and thin (no number or label, its
/// height relative to `scale`, the row's largest weight) or not (`scale` 1).
#[derive(Clone, Copy)]
struct BarLook {
    active: bool,
    thin: bool,
    scale: f64,
}

/// Writes bar `j`: the column that answers the pointer, the bar, its value
/// above and its key's label below.
fn bar(m: &mut Markup, row: &QueryRow, layout: &BarLayout, j: usize, weight: f64, look: BarLook) {
    let BarLook {
        active,
        thin,
        scale,
    } = look;
    let masked = row.allowed.get(j) == Some(&false);
    let label = row.labels.get(j).map_or("", String::as_str);
    let mut class = String::from("bar");
    for (on, name) in [(masked, " masked"), (active, " active")] {
        if on {
            class.push_str(name);
        }
    }
    // Row 0 whatever the query, so a focused bar keeps its focus when the
    // arrow keys move the query and the markup is replaced.
    let cell = hit(0, j);
    // Hundreds of thin bars would be hundreds of tab stops: the keyboard
    // reaches a long row through the weights' magnifier instead.
    let mut group = vec![("class", class.as_str()), ("data-hit", cell.as_str())];
    if !thin {
        group.push(("tabindex", "0"));
    }
    m.open("g", &group);
    m.element("title", &[], label);
    rect(m, "bar-slot", layout.slot(j), &[]);
    let (col, value) = (j.to_string(), js_number(weight));
    let fill = weight_colour(weight).hex();
    let mut data = vec![
        ("fill", fill.as_str()),
        ("data-col", col.as_str()),
        ("data-value", value.as_str()),
    ];
    if masked {
        data.push(("data-masked", "true"));
    }
    let height = if scale > 0.0 { weight / scale } else { 0.0 };
    rect(m, "bar-value", layout.bar(j, height), &data);
    if thin {
        m.close("g");
        return;
    }
    let (nx, ny) = layout.value_label(j, weight);
    m.element(
        "text",
        &[
            ("class", "bar-number"),
            ("x", &coord(nx)),
            ("y", &coord(ny)),
        ],
        &two_decimals(weight),
    );
    let (kx, ky) = layout.key_label(j);
    m.element(
        "text",
        &[("class", "bar-key"), ("x", &coord(kx)), ("y", &coord(ky))],
        &short_label(label, LABEL_CHARS),
    );
    m.close("g");
}

/// Writes a `<rect>` of `class` covering `at`, with `more` attributes.
fn rect(m: &mut Markup, class: &str, at: Rect, more: &[(&str, &str)]) {
    let (x, y, w, h) = (coord(at.x), coord(at.y), coord(at.width), coord(at.height));
    let mut attrs = vec![
        ("class", class),
        ("x", x.as_str()),
        ("y", y.as_str()),
        ("width", w.as_str()),
        ("height", h.as_str()),
    ];
    attrs.extend_from_slice(more);
    m.empty("rect", &attrs);
}

/// Everything beside the weights grid, in `lang`: the query's name, the bar
/// chart, a hint, the softmax of bar `shown` and the row sum.
pub fn side(row: &QueryRow, shown: usize, lang: Lang) -> String {
    let query = row.labels.get(row.query).map_or("", String::as_str);
    let mut caption = Markup::new();
    caption
        .open("p", &[("class", "caption")])
        .text(i18n::BARS_CAPTION.get(lang))
        .text(": ")
        .element("strong", &[], query)
        .close("p");
    if let Some(largest) = thin_scale(row) {
        caption
            .open("p", &[("class", "hint"), ("data-testid", "bars-scale")])
            .text(i18n::BARS_SCALED.get(lang))
            .text(" ")
            .element("strong", &[], &two_decimals(largest))
            .close("p");
    }
    let mut hint = Markup::new();
    hint.element("p", &[("class", "hint")], i18n::BARS_HINT.get(lang));
    format!(
        "{}<div class=\"scroll\">{}</div>{}{}",
        caption.finish(),
        chart(row, shown, i18n::BARS_ARIA.get(lang)),
        hint.finish(),
        readout(row, shown, lang)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::{token_labels, SequenceTrace};
    use attention_core::presets;

    /// The query row of the lessons' sentence, with key 1 masked.
    fn row() -> QueryRow {
        let scenario = presets::sentence();
        let trace = scenario.run().unwrap();
        let view = SequenceTrace::new(&trace, 0, token_labels(&scenario));
        let mut row = QueryRow::new(&view, 2).unwrap();
        row.allowed[1] = false;
        row.weights[1] = 0.0;
        row
    }

    /// The value of attribute `name` on every element that has it, in order.
    fn attribute(markup: &str, name: &str) -> Vec<String> {
        let key = format!(" {name}=\"");
        markup
            .split(key.as_str())
            .skip(1)
            .filter_map(|rest| rest.split('"').next().map(str::to_owned))
            .collect()
    }

    #[test]
    fn each_bar_carries_its_key_and_exact_weight() {
        let row = row();
        let svg = chart(&row, 0, "bars");
        let cols: Vec<String> = (0..row.weights.len()).map(|j| j.to_string()).collect();
        assert_eq!(attribute(&svg, "data-col"), cols);
        let values: Vec<f64> = attribute(&svg, "data-value")
            .iter()
            .map(|v| v.parse().unwrap())
            .collect();
        assert_eq!(values, row.weights);
        assert_eq!(attribute(&svg, "data-masked"), ["true"]);
        let hits: Vec<String> = (0..row.weights.len()).map(|j| hit(0, j)).collect();
        assert_eq!(attribute(&svg, "data-hit"), hits);
        assert_eq!(svg.matches("tabindex=\"0\"").count(), row.weights.len());
    }

    #[test]
    fn the_shown_bar_is_active_and_the_masked_one_hatched() {
        let svg = chart(&row(), 3, "bars");
        let classes: Vec<String> = attribute(&svg, "class")
            .into_iter()
            .filter(|c| c.starts_with("bar ") || c == "bar")
            .collect();
        assert_eq!(classes, ["bar", "bar masked", "bar", "bar active"]);
    }

    #[test]
    fn labels_are_escaped_and_shortened_under_the_bar() {
        let mut row = row();
        row.labels[0] = "<script>alert(1)</script>".into();
        let html = side(&row, 0, Lang::En);
        assert!(!html.contains("<script>"));
        assert!(html.contains("<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>"));
        assert!(html.contains(">&lt;scri…</text>"));
        assert!(html.contains("<strong>"));
        assert!(html.contains("data-testid=\"softmax-bars\" role=\"img\""));
    }

    #[test]
    fn an_empty_row_draws_an_empty_chart() {
        let svg = chart(&QueryRow::default(), 0, "bars");
        assert!(!svg.contains("<g "));
        assert!(svg.contains("viewBox=\"0 0 0 190\""));
    }

    #[test]
    fn a_long_row_draws_thin_bars_scaled_to_its_largest_weight() {
        let n = MAX_DRAWN + 8;
        let weights: Vec<f64> = (0..n).map(|j| (j + 1) as f64 / 1000.0).collect();
        let row = QueryRow {
            query: 0,
            labels: (0..n).map(|j| format!("t{j}")).collect(),
            scores: vec![0.0; n],
            allowed: vec![true; n],
            weights: weights.clone(),
        };
        let svg = chart(&row, 0, "bars");
        let values: Vec<f64> = attribute(&svg, "data-value")
            .iter()
            .map(|v| v.parse().unwrap())
            .collect();
        assert_eq!(values, weights, "every key keeps its exact weight");
        assert!(!svg.contains("tabindex"), "no tab stop per thin bar");
        assert!(!svg.contains("bar-number") && !svg.contains("bar-key"));
        let html = side(&row, 0, Lang::En);
        assert!(html.contains("data-testid=\"bars-scale\""), "{html}");
        assert!(
            html.contains("<strong>0.04</strong>"),
            "the scale's top is printed"
        );
        assert!(!side(&QueryRow::default(), 0, Lang::En).contains("bars-scale"));
        // The largest weight reaches the top of the plot.
        let layout = BarLayout::new(n, n as f64 * THIN_SLOT, HEIGHT);
        let tallest = layout.bar(n - 1, 1.0);
        assert!(svg.contains(&format!("y=\"{}\"", coord(tallest.y))));
    }
}
