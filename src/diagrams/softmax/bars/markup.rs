//! The markup beside the weights grid: the selected query's weights as bars,
//! one per key, and under them the worked softmax of one bar and the row sum.
//! Pure, so tests read the written numbers back natively.

use crate::diagrams::matrix::markup::cell_name;
use crate::diagrams::softmax::bars::QueryRow;
use crate::diagrams::softmax::formula::readout;
use crate::diagrams::softmax::WEIGHTS;
use crate::geometry::bars::{short_label, BarLayout};
use crate::geometry::colour::{weight_colour, weight_position};
use crate::geometry::format::{js_number, rounded, two_decimals};
use crate::geometry::raster::{weight_decimals, MAX_DRAWN};
use crate::i18n::{self, Lang};
use crate::page::hit;
use crate::svg::{coord, Markup};

/// Width of one key's column and height of the chart, in SVG units.
const SLOT: f64 = 56.0;
/// Width of one key's column past [`MAX_DRAWN`] keys: a thin bar without its
/// number or label (its tooltip names it), so 512 keys take about 1,500 units.
const THIN_SLOT: f64 = 3.0;
const HEIGHT: f64 = 190.0;
/// Longest key label under a bar; the full label is in its tooltip.
const LABEL_CHARS: usize = 6;
/// How many colours thin bars are drawn in, one SVG path each: a thin bar
/// takes the colour of its weight rounded to the nearest of these steps of
/// the weight scale.
const THIN_COLOURS: usize = 16;

/// The bar chart's frame for keys labelled `labels`: what changes only with
/// the sequence (how many keys, their labels) and the language. Each bar is a
/// focusable `<g class="bar">` cell (see [`hit`]) holding a `rect` with
/// `data-col`; [`bar_paint`] gives each bar its weight (the full-precision
/// `data-value`, height, colour, printed number, and `data-masked` if masked),
/// so a new query or new weights repaint values rather than rewrite markup.
///
/// Past [`MAX_DRAWN`] keys the bars are thin, without number, label or tab
/// stop, and their height is scaled to the row's largest weight, which
/// [`heading`] prints above the chart: with hundreds of keys most weights are
/// small, and on a 0–1 scale those bars would look empty.
pub fn chart(labels: &[String], aria: &str) -> String {
    let n = labels.len();
    let thin = n > MAX_DRAWN;
    let layout = layout(n);
    let width = coord(layout.width);
    let (base, top) = (coord(layout.baseline()), coord(layout.top()));
    let mut m = Markup::new();
    if !thin {
        // Wide bars and their numbers are drawn on a canvas under the SVG
        // (`paint.js` `paintBars`): a new row repaints pixels, where moving
        // rectangles and rewriting texts made the browser lay them out again.
        m.open("div", &[("class", "painted wide-bars")]);
        m.element("canvas", &[("class", "bars"), ("aria-hidden", "true")], "");
    }
    m.start("svg")
        .svg_size(layout.width, HEIGHT)
        .attr("class", "diagram bars")
        .attr("data-testid", "softmax-bars")
        // One tab stop whatever the number of keys: the arrows walk the
        // bars (`action::rove`), each named by its key and weight.
        .attr("role", "toolbar")
        .attr("data-rove", "")
        .attr("aria-label", aria)
        .end();
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
    for (j, label) in labels.iter().enumerate() {
        bar(&mut m, &layout, j, label, thin);
    }
    if thin {
        // The thin bars drawn as a few shapes, one per colour: a new query
        // sets a few attributes rather than three per bar.
        for step in 0..THIN_COLOURS {
            let fill = weight_colour(thin_colour_weight(step)).hex();
            m.start("path")
                .attr("class", "bars-thin")
                .attr("fill", &fill)
                .attr("d", "")
                .end_empty();
        }
    }
    m.close("svg");
    if !thin {
        m.close("div");
    }
    m.finish()
}

/// The layout of a chart of `n` bars: wide columns, or thin ones past
/// [`MAX_DRAWN`].
fn layout(n: usize) -> BarLayout {
    let slot = if n > MAX_DRAWN { THIN_SLOT } else { SLOT };
    BarLayout::new(n, n as f64 * slot, HEIGHT)
}

/// The weight whose colour thin bars of colour `step` take.
fn thin_colour_weight(step: usize) -> f64 {
    step as f64 / (THIN_COLOURS - 1) as f64
}

/// Which of the [`THIN_COLOURS`] a thin bar of `weight` is drawn in: the
/// nearest step of the weight scale.
fn thin_colour(weight: f64) -> usize {
    let last = (THIN_COLOURS - 1) as f64;
    // Clamped to the scale before rounding, so the cast cannot overflow.
    (weight_position(weight) * last).round() as usize
}

/// The SVG paths of `row`'s thin bars taller than 0, one per colour (see
/// [`thin_colour`]), each bar as tall as its weight over `scale` (the row's
/// largest), standing on the baseline.
fn thin_outlines(row: &QueryRow, layout: &BarLayout, scale: f64) -> [String; THIN_COLOURS] {
    let base = coord(layout.baseline());
    let mut paths: [String; THIN_COLOURS] = Default::default();
    for (j, &weight) in row.weights.iter().enumerate() {
        let at = layout.bar(j, if scale > 0.0 { weight / scale } else { 0.0 });
        let height = coord(at.height);
        if height == "0" {
            continue;
        }
        let (x, width) = (coord(at.x), coord(at.width));
        paths[thin_colour(weight)].push_str(&format!("M{x} {base}v-{height}h{width}v{height}z"));
    }
    paths
}

/// The weight a long row's thin bars are scaled to (its largest), or `None`
/// for a row short enough to draw on the 0–1 scale.
fn thin_scale(row: &QueryRow) -> Option<f64> {
    (row.weights.len() > MAX_DRAWN).then(|| row.weights.iter().copied().fold(0.0, f64::max))
}

/// Writes bar `j`'s frame: the column that answers the pointer, the bar
/// (placed across, carrying its value; a wide bar and its number are drawn on
/// the canvas), and unless `thin`, its key's label below.
fn bar(m: &mut Markup, layout: &BarLayout, j: usize, label: &str, thin: bool) {
    // Row 0 whatever the query, so a focused bar keeps its focus when the
    // arrow keys move the query.
    let cell = hit(0, j);
    let group = [
        ("class", "bar"),
        ("data-hit", cell.as_str()),
        ("role", "button"),
        ("tabindex", if j == 0 { "0" } else { "-1" }),
    ];
    m.open("g", &group);
    m.element("title", &[], label);
    let slot = layout.slot(j);
    let (x, width) = (coord(slot.x), coord(slot.width));
    m.start("rect")
        .attr("class", "bar-slot")
        .attr("x", &x)
        .coord("y", slot.y)
        .attr("width", &width)
        .coord("height", slot.height)
        .end_empty();
    let column = layout.bar(j, 0.0);
    let col = j.to_string();
    m.start("rect")
        .attr("class", "bar-value")
        .coord("x", column.x)
        .coord("width", column.width)
        .attr("data-col", &col)
        .end_empty();
    if !thin {
        let (kx, ky) = layout.key_label(j);
        m.start("text")
            .attr("class", "bar-key")
            .coord("x", kx)
            .coord("y", ky)
            .end()
            .text(&short_label(label, LABEL_CHARS))
            .close("text");
    }
    m.close("g");
}

/// What `paint.js`'s `paintBars` puts on [`chart`]'s bars for `row`, bar
/// `shown` emphasised: first the outlines of the thin bars, one per colour,
/// tab-separated (empty unless thin), then one line per key with
/// tab-separated group class (`bar`, plus `masked` and `active`), the
/// full-precision weight, a mask flag, unless thin, the bar's fill, top and
/// height, its printed weight and that number's height, and last the bar's
/// accessible name.
pub fn bar_paint(row: &QueryRow, shown: usize, masked_word: &str) -> String {
    let layout = layout(row.weights.len());
    let scale = thin_scale(row);
    let thin = scale.is_some();
    let mut out = String::with_capacity(row.weights.len() * 64);
    if let Some(scale) = scale {
        out.push_str(&thin_outlines(row, &layout, scale).join("\t"));
    }
    out.push('\n');
    for (j, &weight) in row.weights.iter().enumerate() {
        let masked = row.allowed.get(j) == Some(&false);
        let mut class = String::from("bar");
        for (on, name) in [(masked, " masked"), (j == shown, " active")] {
            if on {
                class.push_str(name);
            }
        }
        let mut fields = vec![
            class,
            js_number(weight),
            String::from(if masked { "1" } else { "" }),
        ];
        if !thin {
            let at = layout.bar(j, weight);
            fields.extend([
                weight_colour(weight).hex(),
                coord(at.y),
                coord(at.height),
                two_decimals(weight),
                coord(layout.value_label(j, weight).1),
            ]);
        }
        // Last, the bar's name, as the weights' cell's (a long row's weight
        // to three decimals, as its magnifier prints them). Of hundreds of
        // thin bars only the one shown (pointed at or focused) is named with
        // its weight, the rest by their key's `<title>`: renaming them all on
        // every new row cost 3 ms at T = 512.
        fields.push(if thin && j != shown {
            String::new()
        } else {
            let printed = rounded(weight, weight_decimals(row.weights.len()));
            let labels = (row.labels.as_slice(), row.labels.as_slice());
            let masked = masked.then_some(masked_word);
            cell_name(WEIGHTS, labels, (row.query, j), &printed, masked)
        });
        out.push_str(&fields.join("\t"));
        out.push('\n');
    }
    out
}

/// Above the bars, in `lang`: the query's name and, for thin bars, the
/// weight their full height stands for.
pub fn heading(row: &QueryRow, lang: Lang) -> String {
    let query = row.labels.get(row.query).map_or("", String::as_str);
    let mut m = Markup::new();
    m.open("p", &[("class", "caption")])
        .text(i18n::BARS_CAPTION.get(lang))
        .text(": ")
        .element("strong", &[], query)
        .close("p");
    if let Some(largest) = thin_scale(row) {
        m.open("p", &[("class", "hint"), ("data-testid", "bars-scale")])
            .text(i18n::BARS_SCALED.get(lang))
            .text(" ")
            .element("strong", &[], &two_decimals(largest))
            .close("p");
    }
    m.finish()
}

/// Under the bars, in `lang`: a hint, the softmax of bar `shown` and the row
/// sum.
pub fn below(row: &QueryRow, shown: usize, lang: Lang) -> String {
    let mut hint = Markup::new();
    hint.element("p", &[("class", "hint")], i18n::BARS_HINT.get(lang));
    hint.finish() + &readout(row, shown, lang)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::{token_labels, SequenceTrace};
    use attention_core::presets;

    /// The query row of the lessons' sentence, with key 1 masked.
    fn row() -> QueryRow {
        let scenario = presets::sentence();
        let trace = scenario.run().unwrap().into_head(0);
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

    /// [`bar_paint`]'s outline of thin bars, and its bars' lines split
    /// into their fields.
    fn painted_with_outline(row: &QueryRow, shown: usize) -> (String, Vec<Vec<String>>) {
        let encoded = bar_paint(row, shown, "masked");
        let mut lines = encoded.split('\n');
        let outline = lines.next().unwrap().to_owned();
        let bars = lines
            .filter(|line| !line.is_empty())
            .map(|line| line.split('\t').map(str::to_owned).collect())
            .collect();
        (outline, bars)
    }

    fn painted(row: &QueryRow, shown: usize) -> Vec<Vec<String>> {
        painted_with_outline(row, shown).1
    }

    #[test]
    fn each_bar_carries_its_key_and_is_painted_with_its_exact_weight() {
        let row = row();
        let svg = chart(&row.labels, "bars");
        let cols: Vec<String> = (0..row.weights.len()).map(|j| j.to_string()).collect();
        assert_eq!(attribute(&svg, "data-col"), cols);
        let hits: Vec<String> = (0..row.weights.len()).map(|j| hit(0, j)).collect();
        assert_eq!(attribute(&svg, "data-hit"), hits);
        // One tab stop, the first bar: the arrows walk the rest.
        assert_eq!(svg.matches("tabindex=\"0\"").count(), 1);
        assert_eq!(
            svg.matches("tabindex=\"-1\"").count(),
            row.weights.len() - 1
        );
        assert!(svg.contains("role=\"toolbar\" data-rove=\"\""));
        assert!(
            attribute(&svg, "data-value").is_empty(),
            "values are painted, not written"
        );

        let (outline, lines) = painted_with_outline(&row, 0);
        assert_eq!(outline, "", "short rows have no thin bars");
        assert_eq!(lines.len(), row.weights.len());
        let values: Vec<f64> = lines.iter().map(|l| l[1].parse().unwrap()).collect();
        assert_eq!(values, row.weights);
        let masked: Vec<&str> = lines.iter().map(|l| l[2].as_str()).collect();
        assert_eq!(masked, ["", "1", "", ""]);
        for (line, &weight) in lines.iter().zip(&row.weights) {
            assert_eq!(line.len(), 9);
            assert_eq!(line[3], weight_colour(weight).hex());
            assert_eq!(line[6], two_decimals(weight));
        }
        // Each bar's name, last, says its key and printed weight, and
        // whether the key is masked.
        for (j, line) in lines.iter().enumerate() {
            let query = &row.labels[row.query];
            let masked = if line[2] == "1" { ", masked" } else { "" };
            assert_eq!(
                line[8],
                format!("α′ {query} → {}: {}{masked}", row.labels[j], line[6])
            );
        }
    }

    #[test]
    fn a_bar_stands_on_the_baseline_as_tall_as_its_weight_with_its_number_above() {
        let row = row();
        let layout = layout(row.weights.len());
        for (j, line) in painted(&row, 0).iter().enumerate() {
            let at = layout.bar(j, row.weights[j]);
            assert_eq!(line[4], coord(at.y));
            assert_eq!(line[5], coord(at.height));
            let y: f64 = line[4].parse().unwrap();
            let height: f64 = line[5].parse().unwrap();
            assert!((y + height - layout.baseline()).abs() < 0.01, "bar {j}");
            let number_y: f64 = line[7].parse().unwrap();
            assert!(number_y < y, "bar {j}: its number is above it");
        }
    }

    #[test]
    fn the_shown_bar_is_active_and_the_masked_one_hatched() {
        let classes: Vec<String> = painted(&row(), 3)
            .into_iter()
            .map(|l| l[0].clone())
            .collect();
        assert_eq!(classes, ["bar", "bar masked", "bar", "bar active"]);
    }

    #[test]
    fn the_frame_follows_the_keys_not_the_query_or_the_weights() {
        let row = row();
        let mut other = row.clone();
        other.query = 0;
        other.weights.reverse();
        other.allowed = vec![true; row.weights.len()];
        assert_eq!(chart(&row.labels, "bars"), chart(&other.labels, "bars"));
        assert_ne!(bar_paint(&row, 0, ""), bar_paint(&other, 0, ""));
        assert_ne!(bar_paint(&row, 0, ""), bar_paint(&row, 1, ""));
    }

    #[test]
    fn labels_are_escaped_and_shortened_under_the_bar() {
        let mut row = row();
        row.labels[0] = "<script>alert(1)</script>".into();
        let svg = chart(&row.labels, "bars");
        assert!(!svg.contains("<script>"));
        assert!(svg.contains("<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>"));
        assert!(svg.contains(">&lt;scri…</text>"));
        assert!(svg.contains("data-testid=\"softmax-bars\" role=\"toolbar\""));
        let html = heading(&row, Lang::En);
        assert!(!html.contains("<script>"));
        assert!(html.contains("<strong>"));
    }

    #[test]
    fn an_empty_row_draws_an_empty_chart() {
        let svg = chart(&[], "bars");
        assert!(!svg.contains("<g "));
        assert!(svg.contains("viewBox=\"0 0 0 190\""));
        assert_eq!(
            bar_paint(&QueryRow::default(), 0, ""),
            "\n",
            "no outline, no bar"
        );
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
        let svg = chart(&row.labels, "bars");
        // Hundreds of thin bars are still one tab stop.
        assert_eq!(svg.matches("tabindex=\"0\"").count(), 1);
        assert!(!svg.contains("bar-number") && !svg.contains("bar-key"));
        assert!(svg.contains("class=\"bars-thin\""));
        let (outline, lines) = painted_with_outline(&row, 0);
        let values: Vec<f64> = lines.iter().map(|l| l[1].parse().unwrap()).collect();
        assert_eq!(values, weights, "every key keeps its exact weight");
        assert!(
            lines.iter().all(|l| l.len() == 4),
            "no bar of its own to draw, only a name"
        );
        // Only the bar shown carries its weight in its name.
        assert_eq!(lines[0][3], "α′ t0 → t0: 0.001");
        assert_eq!(lines[n - 1][3], "");
        let (_, last) = painted_with_outline(&row, n - 1);
        assert_eq!(last[n - 1][3], format!("α′ t0 → t{}: 0.040", n - 1));
        assert_eq!(last[0][3], "");
        let html = heading(&row, Lang::En);
        assert!(html.contains("data-testid=\"bars-scale\""), "{html}");
        assert!(
            html.contains("<strong>0.04</strong>"),
            "the scale's top is printed"
        );
        assert!(!heading(&QueryRow::default(), Lang::En).contains("bars-scale"));
        // One outline per bar, on the baseline, in the path of its colour;
        // the largest weight reaches the top of the plot, the others in
        // proportion.
        let layout = layout(n);
        let paths: Vec<&str> = outline.split('\t').collect();
        assert_eq!(paths.len(), THIN_COLOURS);
        assert_eq!(outline.matches('M').count(), n);
        let base = coord(layout.baseline());
        let last = layout.bar(n - 1, 1.0);
        let full = coord(last.height);
        assert!(paths[thin_colour(weights[n - 1])].ends_with(&format!(
            "M{} {base}v-{full}h{}v{full}z",
            coord(last.x),
            coord(last.width)
        )));
        let half = coord(layout.bar(n / 2 - 1, 0.5).height);
        assert!(outline.contains(&format!("v-{half}h")), "{outline}");
    }

    #[test]
    fn a_thin_bar_takes_the_colour_of_its_weight() {
        // A causal row: the first query sees only itself, with weight 1.
        let n = MAX_DRAWN + 1;
        let mut weights = vec![0.0; n];
        weights[0] = 1.0;
        let row = QueryRow {
            query: 0,
            labels: (0..n).map(|j| format!("t{j}")).collect(),
            scores: vec![0.0; n],
            allowed: (0..n).map(|j| j == 0).collect(),
            weights,
        };
        let (outline, _) = painted_with_outline(&row, 0);
        let paths: Vec<&str> = outline.split('\t').collect();
        let top = THIN_COLOURS - 1;
        assert_eq!(paths[top].matches('M').count(), 1, "{outline}");
        assert!(paths[..top].iter().all(|p| p.is_empty()));
        // The frame's path of that colour is filled as a weight of 1 is.
        let svg = chart(&row.labels, "bars");
        let fills = attribute(&svg, "fill");
        assert_eq!(fills.len(), THIN_COLOURS);
        assert_eq!(fills[top], weight_colour(1.0).hex());
        assert_eq!(fills[0], weight_colour(0.0).hex());
        assert_eq!(thin_colour(0.02), 0);
        assert_eq!(thin_colour(0.5), 8);
    }

    #[test]
    fn a_thin_bar_of_weight_zero_is_not_outlined() {
        let n = MAX_DRAWN + 1;
        let mut weights = vec![1.0 / (n - 1) as f64; n];
        weights[0] = 0.0;
        let row = QueryRow {
            query: 0,
            labels: (0..n).map(|j| format!("t{j}")).collect(),
            scores: vec![0.0; n],
            allowed: (0..n).map(|j| j > 0).collect(),
            weights,
        };
        let (outline, lines) = painted_with_outline(&row, 0);
        assert_eq!(outline.matches('M').count(), n - 1);
        assert_eq!(
            lines[0],
            [
                "bar masked active",
                &js_number(0.0),
                "1",
                "α′ t0 → t0: 0.000, masked"
            ]
        );
    }
}
