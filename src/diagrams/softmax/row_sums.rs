//! The row sums of the weights, as a column lined up with the weights grid:
//! the visible check that softmax gives every query a budget of exactly 1.
//! Each sum carries `data-row-sum` and its full-precision `data-value`.

use crate::diagrams::matrix::markup::CELL;
use crate::geometry::format::{js_number, two_decimals};
use crate::geometry::grid::Grid;
use crate::svg::{coord, Markup};

/// The sums as an SVG column beside the heatmap, the `selected` query's emphasised.
pub fn svg(sums: &[f64], selected: usize, aria: &str) -> String {
    // The same grid geometry as the heatmap, one column wide, so each sum
    // sits level with its row; the label width is not needed here.
    let grid = Grid::new(sums.len(), 1, CELL, 1);
    let (_, height) = grid.size();
    let centre = coord(CELL * 1.3 / 2.0);
    let mut m = Markup::new();
    m.start("svg")
        .svg_size(CELL * 1.3, height)
        .attr("class", "diagram row-sums")
        .attr("data-testid", "row-sums")
        .attr("role", "img")
        .attr("aria-label", aria)
        .end();
    let label_y = coord(grid.col_label(0).1);
    m.start("text")
        .attr("x", &centre)
        .attr("y", &label_y)
        .attr("class", "sum-label")
        .end()
        .text("Σ")
        .close("text");
    for (r, &sum) in sums.iter().enumerate() {
        let (_, y) = grid.cell_rect(r, 0).centre();
        let class = if r == selected {
            "row-sum selected"
        } else {
            "row-sum"
        };
        let (row, value) = (r.to_string(), js_number(sum));
        m.start("text")
            .attr("x", &centre)
            .coord("y", y)
            .attr("class", class)
            .attr("data-row-sum", &row)
            .attr("data-value", &value)
            .end()
            .text(&two_decimals(sum))
            .close("text");
    }
    m.close("svg");
    m.finish()
}

/// The sums of a matrix too tall for a column of sums (a raster): one line
/// with the smallest and the largest, each at full precision, led by `lead`
/// and joined by `to` ("Row sums, every row: from … to …").
pub fn range(sums: &[f64], lead: &str, to: &str) -> String {
    let min = sums.iter().copied().fold(f64::INFINITY, f64::min);
    let max = sums.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut m = Markup::new();
    m.open(
        "p",
        &[("class", "row-sums-range"), ("data-testid", "row-sums")],
    )
    .text(lead)
    .text(" ")
    .start("strong")
    .attr("data-value", &js_number(min))
    .end()
    .text(&js_number(min))
    .close("strong")
    .text(" ")
    .text(to)
    .text(" ")
    .start("strong")
    .attr("data-value", &js_number(max))
    .end()
    .text(&js_number(max))
    .close("strong")
    .close("p");
    m.finish()
}

/// The sums as a one-column table, for table mode, titled `caption`.
pub fn table(sums: &[f64], caption: &str) -> String {
    let mut m = Markup::new();
    m.open(
        "table",
        &[
            ("class", "matrix-table row-sums"),
            ("data-testid", "row-sums"),
        ],
    );
    m.element("caption", &[], caption);
    m.open("thead", &[])
        .open("tr", &[])
        .element("th", &[("scope", "col")], "Σ")
        .close("tr")
        .close("thead")
        .open("tbody", &[]);
    for (r, &sum) in sums.iter().enumerate() {
        let (row, value) = (r.to_string(), js_number(sum));
        m.open("tr", &[])
            .start("td")
            .attr("data-row-sum", &row)
            .attr("data-value", &value)
            .end()
            .text(&two_decimals(sum))
            .close("td")
            .close("tr");
    }
    m.close("tbody").close("table");
    m.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (data-row-sum, data-value) of every sum, in order.
    fn sums_in(markup: &str) -> Vec<(usize, f64)> {
        markup
            .split("data-row-sum=\"")
            .skip(1)
            .map(|rest| {
                let row = rest.split('"').next().unwrap().parse().unwrap();
                let value = rest.split("data-value=\"").nth(1).unwrap();
                (row, value.split('"').next().unwrap().parse().unwrap())
            })
            .collect()
    }

    #[test]
    fn every_sum_carries_its_row_and_exact_value() {
        let sums = [1.0, 0.999_999_999_999_999_9, 0.0];
        let expected: Vec<(usize, f64)> = sums.iter().copied().enumerate().collect();
        let column = svg(&sums, 1, "<sums>");
        assert_eq!(sums_in(&column), expected);
        assert_eq!(sums_in(&table(&sums, "Row sum")), expected);
        assert_eq!(column.matches("row-sum selected").count(), 1);
        assert!(column.contains("aria-label=\"&lt;sums&gt;\""));
        assert!(!column.contains("data-row=\""), "sums are not matrix cells");
    }

    #[test]
    fn each_sum_sits_level_with_its_heatmap_row() {
        let grid = Grid::new(3, 3, CELL, 5);
        let column = svg(&[1.0, 1.0, 1.0], 0, "sums");
        for r in 0..3 {
            let y = coord(grid.cell_rect(r, 0).centre().1);
            assert!(
                column.contains(&format!("y=\"{y}\" class=\"row-sum")),
                "row {r}"
            );
        }
    }

    #[test]
    fn a_long_matrix_states_its_smallest_and_largest_row_sum_exactly() {
        let sums = [1.0, 0.9999999999999998, 1.0000000000000002, 0.0];
        let line = range(&sums, "Row sums: from", "to");
        assert!(line.contains("data-testid=\"row-sums\""));
        let values: Vec<f64> = line
            .split("data-value=\"")
            .skip(1)
            .map(|rest| rest.split('"').next().unwrap().parse().unwrap())
            .collect();
        assert_eq!(values, [0.0, 1.0000000000000002], "{line}");
        assert!(line.contains("</strong> to <strong"), "{line}");
    }
}
