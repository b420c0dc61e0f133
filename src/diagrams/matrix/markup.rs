//! The markup of a labelled matrix heatmap (SVG) and of the same numbers as an
//! HTML table. Pure, so tests read the written numbers back natively.

use super::Palette;
use crate::geometry::bars::short_label;
use crate::geometry::colour::{signed_colour, weight_colour, Rgb};
use crate::geometry::extent::symmetric_extent;
use crate::geometry::format::{js_number, rounded};
use crate::geometry::grid::Grid;
use crate::svg::{coord, Markup};
use ndarray::Array2;

/// Most characters of a column label before it is cut short with `…`.
const COL_LABEL_CHARS: usize = 4;
/// Side of one cell, in SVG units.
pub const CELL: f64 = 40.0;
/// What a masked score shows: softmax reads it as −∞, whatever the dot
/// product was, so its weight is exactly 0 (not e⁰ = 1, not its old value).
pub const MASKED_SCORE: &str = "\u{2212}\u{221e}";

/// The text printed on a cell of `value` in a matrix of `palette`, to
/// `decimals`: or [`MASKED_SCORE`] for a masked cell of a score matrix (a
/// weight matrix's masked cells are a true 0).
pub fn cell_text(palette: Palette, decimals: u8, masked: bool, value: f64) -> String {
    if masked && palette == Palette::Signed {
        MASKED_SCORE.into()
    } else {
        rounded(value, decimals)
    }
}

fn is_masked(spec: &MatrixSpec, cell: (usize, usize)) -> bool {
    spec.allowed.and_then(|a| a.get(cell).copied()) == Some(false)
}

/// Everything one matrix drawing shows.
pub struct MatrixSpec<'a> {
    pub testid: &'a str,
    /// The matrix's name in the formulas (`α′`, `W_Q`), first in every
    /// cell's accessible name.
    pub symbol: &'a str,
    /// The word a masked cell's name ends with, in the page's language.
    pub masked_word: &'a str,
    pub aria: &'a str,
    pub values: &'a Array2<f64>,
    /// The matrix row and column of `values`' first cell: a block of a larger
    /// matrix (the magnifier's) names its cells by their place in the whole,
    /// in `data-row`, `data-col`, `data-hit` and the highlights.
    pub origin: (usize, usize),
    pub row_labels: &'a [String],
    pub col_labels: &'a [String],
    pub palette: Palette,
    /// The magnitude at both ends of a signed scale; `None` uses this matrix's own largest.
    pub extent: Option<f64>,
    /// Whether each cell is allowed; `false` draws it as masked.
    pub allowed: Option<&'a Array2<bool>>,
    /// Which cells the last change of this matrix touched, outlined so an
    /// edit shows what it did (a shared colour scale recolours the rest).
    pub changed: Option<&'a Array2<bool>>,
    /// Decimals printed on each cell: 2, or 3 for the weights in a raster's
    /// magnifier, which are spread over hundreds of keys and mostly below 0.01.
    pub decimals: u8,
    /// Dragging a cell vertically changes its value (`page::cell::Gesture`).
    pub draggable: bool,
    /// Whether the cells' colours and numbers are painted on a canvas under
    /// the SVG (`paint`, then `paint.js` `paint`) instead of written into it:
    /// the SVG keeps each cell's outline and hooks, so a new value repaints
    /// pixels instead of restyling rectangles and laying out text again.
    pub painted: bool,
}

/// The colour of `value`: a signed scale runs from −`extent` to +`extent`, a
/// weight scale from 0 to `extent` (1 unless a long row's weights are all
/// small, see `diagrams::softmax`).
pub fn colour(palette: Palette, value: f64, extent: f64) -> Rgb {
    match palette {
        Palette::Signed => signed_colour(value, extent),
        Palette::Weight if extent > 0.0 => weight_colour(value / extent),
        Palette::Weight => weight_colour(value),
    }
}

/// How one cell looks: what both the full markup and an in-place repaint write.
struct CellLook {
    fill: String,
    ink: String,
    class: String,
    masked: bool,
    /// The full-precision value, for `data-value`.
    number: String,
    /// The value as printed on the cell.
    text: String,
    /// What a screen reader says of the cell (see [`cell_name`]).
    name: String,
}

/// A cell's accessible name: the matrix's `symbol`, the label of row `r` and
/// of column `c`, its printed value and, for a masked cell, the word that
/// says so (grey alone would not), as in "α′ 我 → 篮球: 0.10". A raster's
/// keyboard cell, a bar and a fusion column are named the same way. Tabs and
/// line breaks in a label become spaces: names travel in `paint`'s lines.
pub fn cell_name(
    symbol: &str,
    labels: (&[String], &[String]),
    (r, c): (usize, usize),
    text: &str,
    masked: Option<&str>,
) -> String {
    fn label(labels: &[String], i: usize) -> &str {
        labels.get(i).map_or("", String::as_str)
    }
    let (row, col) = (label(labels.0, r), label(labels.1, c));
    let mut name = format!("{symbol} {row} \u{2192} {col}: {text}");
    if let Some(word) = masked {
        name.push_str(", ");
        name.push_str(word);
    }
    // Byte by byte: these characters are one byte in UTF-8, never part of
    // another character's bytes.
    let mut bytes = name.into_bytes();
    for byte in &mut bytes {
        if matches!(*byte, b'\t' | b'\n' | b'\r') {
            *byte = b' ';
        }
    }
    String::from_utf8(bytes).unwrap_or_default()
}

/// A matrix's accessible name: what it is and its shape, as in "α′ (4 × 4)".
pub fn grid_name(aria: &str, (rows, cols): (usize, usize)) -> String {
    format!("{aria} ({rows} \u{d7} {cols})")
}

impl CellLook {
    fn of(spec: &MatrixSpec, (r, c): (usize, usize), value: f64, extent: f64) -> Self {
        let masked = is_masked(spec, (r, c));
        let fill = colour(spec.palette, value, extent);
        // A masked cell is greyed out, its number inked for the grey.
        let fill = if masked { fill.greyed() } else { fill };
        let changed = spec.changed.and_then(|m| m.get((r, c)).copied()) == Some(true);
        let mut class = String::from("cell");
        for (on, name) in [
            (masked, " masked"),
            (changed, " changed"),
            (spec.draggable, " draggable"),
        ] {
            if on {
                class.push_str(name);
            }
        }
        let text = cell_text(spec.palette, spec.decimals, masked, value);
        Self {
            fill: fill.hex(),
            ink: fill.text_colour().hex(),
            class,
            masked,
            number: js_number(value),
            name: cell_name(
                spec.symbol,
                (spec.row_labels, spec.col_labels),
                (r, c),
                &text,
                masked.then_some(spec.masked_word),
            ),
            text,
        }
    }
}

/// Every cell's look in row-major order, one line per cell with tab-separated
/// fill, value, printed text, text colour, class, mask flag and name: what
/// `paint.js`'s `paint` puts on a painted heatmap (`MatrixSpec::painted`),
/// the colours and numbers on its canvas, the rest on its cells.
pub fn paint(spec: &MatrixSpec) -> String {
    let extent = spec.extent.unwrap_or_else(|| symmetric_extent(spec.values));
    let mut out = String::with_capacity(spec.values.len() * 48);
    for ((r, c), &value) in spec.values.indexed_iter() {
        let look = CellLook::of(spec, (r, c), value, extent);
        let masked = if look.masked { "1" } else { "" };
        // Pushed field by field: this runs for every cell of every change.
        for (field, end) in [
            (look.fill.as_str(), '\t'),
            (&look.number, '\t'),
            (&look.text, '\t'),
            (&look.ink, '\t'),
            (&look.class, '\t'),
            (masked, '\t'),
            (&look.name, '\n'),
        ] {
            out.push_str(field);
            out.push(end);
        }
    }
    out
}

/// The matrix as an SVG heatmap: each cell a `<rect>` with `data-row`,
/// `data-col` and the full-precision `data-value`, its value printed on it.
/// It is an ARIA grid, a row of cells per matrix row, with one tab stop: the
/// first cell until the keyboard moves on (`action/dom.js` keeps the stop
/// where focus went, so a matrix costs one Tab, not one per cell).
pub fn heatmap(spec: &MatrixSpec) -> String {
    let (rows, cols) = spec.values.dim();
    let longest = spec
        .row_labels
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(1);
    let grid = Grid::new(rows, cols, CELL, longest);
    let (width, height) = grid.size();
    let extent = spec.extent.unwrap_or_else(|| symmetric_extent(spec.values));
    let mut m = Markup::new();
    if spec.painted {
        m.open("div", &[("class", "painted")]);
        m.element("canvas", &[("class", "cells"), ("aria-hidden", "true")], "");
    }
    m.start("svg")
        .svg_size(width, height)
        .attr("class", "diagram matrix")
        .attr("data-testid", spec.testid)
        .attr("role", "grid")
        .attr("aria-label", &grid_name(spec.aria, (rows, cols)))
        .end();
    for (r, label) in spec.row_labels.iter().enumerate().take(rows) {
        let (x, y) = grid.row_label(r);
        m.start("text")
            .coord("x", x)
            .coord("y", y)
            .attr("class", "row-label")
            .attr("aria-hidden", "true")
            .end()
            .text(label)
            .close("text");
    }
    // A column is one cell wide: longer labels are cut short (the row
    // labels, which have room, show them whole).
    for (c, label) in spec.col_labels.iter().enumerate().take(cols) {
        let (x, y) = grid.col_label(c);
        m.start("text")
            .coord("x", x)
            .coord("y", y)
            .attr("class", "col-label")
            .attr("aria-hidden", "true")
            .end()
            .text(&short_label(label, COL_LABEL_CHARS))
            .close("text");
    }
    for ((r, c), &value) in spec.values.indexed_iter() {
        if c == 0 {
            m.open("g", &[("role", "row")]);
        }
        let rect = grid.cell_rect(r, c);
        let (cx, cy) = rect.centre();
        let look = CellLook::of(spec, (r, c), value, extent);
        let (row, col) = (spec.origin.0 + r, spec.origin.1 + c);
        let hit = crate::page::hit(row, col);
        let (row, col) = (row.to_string(), col.to_string());
        let (x, y, side) = (coord(rect.x), coord(rect.y), coord(rect.width));
        // A painted cell gets its class, value and mask from `paint`.
        let class = if spec.painted {
            "cell"
        } else {
            look.class.as_str()
        };
        let mut attrs = vec![
            ("class", class),
            ("role", "gridcell"),
            ("x", x.as_str()),
            ("y", y.as_str()),
            ("width", side.as_str()),
            ("height", side.as_str()),
        ];
        if !spec.painted {
            attrs.push(("fill", look.fill.as_str()));
        }
        attrs.push(("data-row", row.as_str()));
        attrs.push(("data-col", col.as_str()));
        if !spec.painted {
            attrs.push(("data-value", look.number.as_str()));
            attrs.push(("aria-label", look.name.as_str()));
            if look.masked {
                attrs.push(("data-masked", "true"));
            }
        }
        // Every cell is reachable by the arrow keys, interactive or not.
        attrs.push(("data-hit", hit.as_str()));
        attrs.push(("tabindex", if (r, c) == (0, 0) { "0" } else { "-1" }));
        m.empty("rect", &attrs);
        if !spec.painted {
            m.start("text")
                .coord("x", cx)
                .coord("y", cy)
                .attr("class", "cell-value")
                .attr("fill", &look.ink)
                .attr("aria-hidden", "true")
                .end()
                .text(&look.text)
                .close("text");
        }
        if c + 1 == cols {
            m.close("g");
        }
    }
    m.close("svg");
    if spec.painted {
        m.close("div");
    }
    m.finish()
}

/// The same numbers as an HTML table, with the same `data-*` hooks on its cells.
pub fn table(spec: &MatrixSpec) -> String {
    let mut m = Markup::new();
    m.start("table")
        .attr("class", "matrix-table")
        .attr("data-testid", spec.testid)
        .end();
    m.element("caption", &[], spec.aria);
    m.open("thead", &[]).open("tr", &[]).element("th", &[], "");
    for label in spec.col_labels {
        m.element("th", &[("scope", "col")], label);
    }
    m.close("tr").close("thead").open("tbody", &[]);
    for (r, row) in spec.values.rows().into_iter().enumerate() {
        m.open("tr", &[]);
        let label = spec.row_labels.get(r).map_or("", String::as_str);
        m.element("th", &[("scope", "row")], label);
        for (c, &value) in row.iter().enumerate() {
            let (rr, cc) = (spec.origin.0 + r, spec.origin.1 + c);
            let (rr, cc, v) = (rr.to_string(), cc.to_string(), js_number(value));
            let masked = is_masked(spec, (r, c));
            let mut attrs = vec![
                ("data-row", rr.as_str()),
                ("data-col", &cc),
                ("data-value", &v),
            ];
            if masked {
                attrs.push(("data-masked", "true"));
            }
            m.element(
                "td",
                &attrs,
                &cell_text(spec.palette, spec.decimals, masked, value),
            );
        }
        m.close("tr");
    }
    m.close("tbody").close("table");
    m.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    fn spec<'a>(values: &'a Array2<f64>, labels: &'a [String]) -> MatrixSpec<'a> {
        MatrixSpec {
            testid: "q",
            symbol: "Q",
            masked_word: "masked",
            aria: "Q",
            values,
            origin: (0, 0),
            row_labels: labels,
            col_labels: labels,
            palette: Palette::Signed,
            extent: None,
            allowed: None,
            changed: None,
            decimals: 2,
            draggable: false,
            painted: false,
        }
    }

    /// The `data-value`s written for each cell, in order.
    fn values_in(markup: &str) -> Vec<f64> {
        markup
            .split("data-value=\"")
            .skip(1)
            .filter_map(|rest| rest.split('"').next()?.parse().ok())
            .collect()
    }

    #[test]
    fn a_name_says_masked_and_keeps_paint_lines_whole() {
        let labels = ["a\tb".to_string(), "c\nd".to_string()];
        let name = cell_name("α′", (&labels, &labels), (0, 1), "0.00", Some("masked"));
        assert_eq!(name, "α′ a b \u{2192} c d: 0.00, masked");
        assert_eq!(
            cell_name("Q", (&labels[..1], &[]), (0, 3), "1.00", None),
            "Q a b \u{2192} : 1.00"
        );
    }

    #[test]
    fn every_cell_carries_its_exact_value() {
        let values = array![[0.1, -1.0 / 3.0], [2.5e-7, 4.0]];
        let labels = vec!["a".to_string(), "b".to_string()];
        let svg = heatmap(&spec(&values, &labels));
        assert_eq!(values_in(&svg), values.iter().copied().collect::<Vec<_>>());
        // One tab stop per matrix: the other cells are reached with the arrows.
        assert_eq!(svg.matches("tabindex=\"0\"").count(), 1);
        assert_eq!(svg.matches("tabindex=\"-1\"").count(), 3);
        assert_eq!(svg.matches("role=\"row\"").count(), 2);
        assert_eq!(svg.matches("role=\"gridcell\"").count(), 4);
        assert!(svg.contains("aria-label=\"Q (2 \u{d7} 2)\""), "{svg}");
        assert!(svg.contains("aria-label=\"Q b \u{2192} a: 0.00\""), "{svg}");
        let table = table(&spec(&values, &labels));
        assert_eq!(
            values_in(&table),
            values.iter().copied().collect::<Vec<_>>()
        );
    }

    #[test]
    fn a_repaint_writes_what_the_full_markup_writes() {
        let values = array![[0.1, -2.0], [0.0, 4.0]];
        let allowed = array![[true, false], [true, true]];
        let labels = vec!["a".to_string(), "b".to_string()];
        let mut s = spec(&values, &labels);
        s.allowed = Some(&allowed);
        let svg = heatmap(&s);
        let painted = paint(&s);
        let lines: Vec<Vec<&str>> = painted.lines().map(|l| l.split('\t').collect()).collect();
        assert_eq!(lines.len(), 4);
        let numbers: Vec<f64> = lines.iter().map(|l| l[1].parse().unwrap()).collect();
        assert_eq!(numbers, values_in(&svg));
        for line in &lines {
            assert!(svg.contains(&format!("fill=\"{}\"", line[0])));
            assert!(svg.contains(&format!(">{}</text>", line[2])));
            assert!(svg.contains(&format!("class=\"{}\"", line[4])));
        }
        assert_eq!(lines[1][5], "1", "the masked cell is flagged");
        // Highlights are not painted: `highlight.js` `light` keeps them.
        assert_eq!(lines[2][4], "cell");
    }

    #[test]
    fn a_painted_heatmap_leaves_colours_numbers_and_values_to_its_paint() {
        let values = array![[0.1, -2.0], [0.0, 4.0]];
        let allowed = array![[true, false], [true, true]];
        let labels = vec!["a".to_string(), "b".to_string()];
        let mut s = spec(&values, &labels);
        s.allowed = Some(&allowed);
        s.painted = true;
        let svg = heatmap(&s);
        assert!(
            svg.starts_with("<div class=\"painted\"><canvas class=\"cells\""),
            "{svg}"
        );
        assert_eq!(svg.matches("<rect").count(), 4);
        assert_eq!(svg.matches("data-hit=").count(), 4);
        for written_by_paint in ["fill=", "data-value=", "data-masked=", "cell-value"] {
            assert!(
                !svg.contains(written_by_paint),
                "{written_by_paint} in {svg}"
            );
        }
        // The labels are still written: only the cells are painted.
        assert!(svg.contains("class=\"row-label\" aria-hidden=\"true\">a</text>"));
        s.painted = false;
        assert_eq!(paint(&s).lines().count(), 4);
    }

    #[test]
    fn cells_the_last_change_touched_are_outlined() {
        let values = array![[0.8, 0.1], [0.3, 0.2]];
        let changed = array![[false, true], [false, false]];
        let labels = ["a".to_owned(), "b".to_owned()];
        let mut marked = spec(&values, &labels);
        marked.changed = Some(&changed);
        let painted = paint(&marked);
        let classes: Vec<&str> = painted
            .lines()
            .map(|line| line.split('\t').nth(4).unwrap_or_default())
            .collect();
        assert_eq!(classes.iter().filter(|c| c.contains("changed")).count(), 1);
        assert!(classes[1].contains("changed"), "{classes:?}");
        assert!(!paint(&spec(&values, &labels)).contains("changed"));
    }

    #[test]
    fn a_masked_score_reads_minus_infinity_and_a_masked_weight_zero() {
        let values = array![[0.8, 0.0], [0.3, 0.0]];
        let allowed = array![[true, false], [true, false]];
        let labels = ["a".to_owned(), "b".to_owned()];
        let mut scores = spec(&values, &labels);
        scores.allowed = Some(&allowed);
        for markup in [heatmap(&scores), table(&scores)] {
            // Printed on two cells (a heatmap's names say it too).
            let printed = format!(">{MASKED_SCORE}<");
            assert_eq!(markup.matches(&printed).count(), 2, "{markup}");
            assert!(markup.contains("0.80"));
            // The number behind the cell is still the core's score.
            assert_eq!(values_in(&markup), [0.8, 0.0, 0.3, 0.0]);
        }
        let mut weights = spec(&values, &labels);
        weights.allowed = Some(&allowed);
        weights.palette = Palette::Weight;
        assert!(!heatmap(&weights).contains(MASKED_SCORE));
        assert_eq!(heatmap(&weights).matches(">0.00<").count(), 2);
    }

    #[test]
    fn masked_cells_are_marked_and_labels_are_escaped() {
        let values = array![[0.5, 0.0]];
        let allowed = array![[true, false]];
        let labels = vec!["<b>".to_string(), "x".to_string()];
        let mut s = spec(&values, &labels);
        s.allowed = Some(&allowed);
        let svg = heatmap(&s);
        assert_eq!(svg.matches("data-masked=\"true\"").count(), 1);
        assert!(svg.contains("&lt;b&gt;") && !svg.contains("<b>"));
    }

    #[test]
    fn long_labels_are_whole_on_rows_and_cut_short_on_columns() {
        let values = array![[0.5, 0.0]];
        let labels = vec!["basketball".to_string(), "x".to_string()];
        let svg = heatmap(&spec(&values, &labels));
        assert!(
            svg.contains("class=\"row-label\" aria-hidden=\"true\">basketball</text>"),
            "{svg}"
        );
        assert!(
            svg.contains("class=\"col-label\" aria-hidden=\"true\">bas…</text>"),
            "{svg}"
        );
        // The names say the whole labels.
        assert!(svg.contains("aria-label=\"Q basketball \u{2192} basketball: 0.50\""));
    }

    #[test]
    fn a_block_names_its_cells_by_their_place_in_the_whole_matrix() {
        let values = array![[0.5, 0.25], [0.125, 1.0]];
        let labels = vec!["c".to_string(), "d".to_string()];
        let mut block = spec(&values, &labels);
        block.origin = (40, 7);
        let svg = heatmap(&block);
        assert!(
            svg.contains("data-row=\"41\" data-col=\"7\" data-value=\"0.125\""),
            "{svg}"
        );
        assert!(svg.contains("data-hit=\"40,7\""));
        assert!(table(&block).contains("data-row=\"40\" data-col=\"8\""));
    }
}
