//! Where each part of the fusion diagram sits: the T value rows V_j on the
//! left, the output row B_i on the right with the connectors between them,
//! and under B_i the stacked bars, one column per component, aligned with B_i's
//! cells so each bar sits below the number it adds up to. On a narrow screen
//! ([`FusionLayout::stacked`]) B_i goes under the value rows instead, its
//! cells under V's columns, and the connectors run down at the right and
//! come back into it.

use crate::geometry::grid::{Grid, Rect};

/// Horizontal room for the connectors, in cells.
const SPAN_CELLS: f64 = 3.0;
/// A column between the value rows and the connectors for the printed
/// weights ("0.50", "masked"), in cells: no weight sits on a line.
const WEIGHT_CELLS: f64 = 1.4;
/// Height of the bars' plotting range, in cells.
const CHART_CELLS: f64 = 4.0;
/// Stacked, the room between the last value row and B_i, in cells.
const DROP_CELLS: f64 = 1.6;
/// Stacked, how far right of its start a connector runs down, in cells (the
/// curve reaches three quarters of it).
pub const BEND_CELLS: f64 = 0.5;

/// The fixed layout for T tokens and d_v components; it changes only with the
/// shape and the labels, never with the numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FusionLayout {
    /// The value rows: a T×d_v grid with token labels.
    pub values: Grid,
    /// Left edge of the output row B_i.
    pub output_x: f64,
    /// Top edge of the output row B_i.
    pub output_y: f64,
    /// Top of the bars' area, including the room for total labels.
    pub chart_top: f64,
    /// Height of the range the bars are scaled into.
    pub chart_height: f64,
    /// Room above and below that range for the printed totals.
    pub chart_pad: f64,
    /// Whether B_i is under the value rows (a narrow screen) rather than
    /// beside them.
    pub stacked: bool,
}

impl FusionLayout {
    /// The layout for `tokens` value rows of `components` cells each, with
    /// room for labels of up to `longest_label` characters and a colour swatch.
    pub fn new(tokens: usize, components: usize, cell: f64, longest_label: usize) -> Self {
        // Two extra characters of label room hold the token's colour swatch.
        let values = Grid::new(tokens, components, cell, longest_label + 2);
        let (values_width, values_height) = values.size();
        let pitch = cell + values.gap;
        let rows_middle = values.label_height + (tokens as f64 * pitch - values.gap) / 2.0;
        let output_y = rows_middle - cell / 2.0;
        // Under B_i comes its caption, then the bars.
        let caption_bottom = output_y + cell * 1.8;
        Self {
            values,
            output_x: values_width + cell * (WEIGHT_CELLS + SPAN_CELLS),
            output_y,
            chart_top: values_height.max(caption_bottom) + cell * 0.3,
            chart_height: cell * CHART_CELLS,
            chart_pad: cell * 0.6,
            stacked: false,
        }
    }

    /// The layout for a narrow screen: B_i under the value rows, each of its
    /// cells under V's column of the same component, then the bars.
    pub fn stacked(tokens: usize, components: usize, cell: f64, longest_label: usize) -> Self {
        let beside = Self::new(tokens, components, cell, longest_label);
        let (_, values_height) = beside.values.size();
        let output_y = values_height + cell * DROP_CELLS;
        Self {
            output_x: beside.values.cell_rect(0, 0).x,
            output_y,
            chart_top: output_y + cell * 2.1,
            stacked: true,
            ..beside
        }
    }

    fn pitch(&self) -> f64 {
        self.values.cell + self.values.gap
    }

    /// The cell of V_jc.
    pub fn value_cell(&self, j: usize, c: usize) -> Rect {
        self.values.cell_rect(j, c)
    }

    /// The small square in token j's colour, at the left of its label.
    pub fn swatch(&self, j: usize) -> Rect {
        let side = self.values.cell * 0.3;
        let (_, y) = self.values.cell_rect(j, 0).centre();
        Rect {
            x: self.values.gap,
            y: y - side / 2.0,
            width: side,
            height: side,
        }
    }

    /// The cell of B_ic.
    pub fn output_cell(&self, c: usize) -> Rect {
        Rect {
            x: self.output_x + c as f64 * self.pitch(),
            y: self.output_y,
            width: self.values.cell,
            height: self.values.cell,
        }
    }

    /// The anchor of component c's label above B_i, level with V's column
    /// labels (stacked, B_i's columns are V's and share their labels).
    pub fn output_col_label(&self, c: usize) -> (f64, f64) {
        let (_, y) = self.values.col_label(0);
        (self.output_cell(c).centre().0, y)
    }

    /// The anchor of the caption naming B_i, centred under its row.
    pub fn output_caption(&self) -> (f64, f64) {
        let components = self.values.cols.max(1);
        let first = self.output_cell(0);
        let last = self.output_cell(components - 1);
        (
            (first.x + last.x + last.width) / 2.0,
            first.y + first.height + self.values.cell * 0.45,
        )
    }

    /// Where weight α′_ij is printed, left-aligned: right of V_j, level with
    /// its row, before its connector starts.
    pub fn weight_label(&self, j: usize) -> (f64, f64) {
        let last = self.values.cols.saturating_sub(1);
        let row = self.values.cell_rect(j, last);
        (row.x + row.width + self.values.gap * 2.0, row.centre().1)
    }

    /// The room a printed weight has, from [`FusionLayout::weight_label`] to
    /// where its connector starts.
    pub fn weight_room(&self) -> f64 {
        self.values.cell * WEIGHT_CELLS - self.values.gap * 4.0
    }

    /// Where connector j starts (right of V_j's printed weight) and where
    /// every connector ends (left of B_i, or stacked, right of it): all of
    /// them meet at one point.
    pub fn connector_ends(&self, j: usize) -> ((f64, f64), (f64, f64)) {
        let (label_x, from_y) = self.weight_label(j);
        let gap = self.values.gap * 2.0;
        let from = (label_x + self.weight_room() + gap, from_y);
        if self.stacked {
            let last = self.output_cell(self.values.cols.saturating_sub(1));
            let middle = self.output_y + self.values.cell / 2.0;
            return (from, (last.x + last.width + gap, middle));
        }
        (
            from,
            (self.output_x - gap, self.output_y + self.values.cell / 2.0),
        )
    }

    /// The bars' scaling range: its top y and its height.
    pub fn chart_range(&self) -> (f64, f64) {
        (self.chart_top + self.chart_pad, self.chart_height)
    }

    /// The horizontal extent (x, width) of component c's bar.
    pub fn bar(&self, c: usize) -> (f64, f64) {
        let cell = self.output_cell(c);
        let width = cell.width * 0.5;
        (cell.centre().0 - width / 2.0, width)
    }

    /// The whole column of component c under B_i: its pointer and focus target.
    pub fn column(&self, c: usize) -> Rect {
        let cell = self.output_cell(c);
        Rect {
            x: cell.x,
            y: self.chart_top,
            width: cell.width,
            height: self.chart_height + 2.0 * self.chart_pad,
        }
    }

    /// The horizontal extent (left, right) of the zero line under the bars.
    pub fn zero_line(&self) -> (f64, f64) {
        let last = self.output_cell(self.values.cols.saturating_sub(1));
        (self.output_x - self.values.gap * 4.0, last.x + last.width)
    }

    /// The whole diagram's width and height, for the SVG viewBox.
    pub fn size(&self) -> (f64, f64) {
        let last = self.output_cell(self.values.cols.saturating_sub(1));
        let mut width = last.x + last.width + self.values.gap;
        if self.stacked {
            // The connectors' bend, and half the widest stroke, right of their start.
            let ((start, _), _) = self.connector_ends(0);
            width = width.max(start + self.values.cell * BEND_CELLS);
        }
        (
            width,
            self.chart_top + self.chart_height + 2.0 * self.chart_pad,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::flow::Connector;

    fn inside(r: Rect, (w, h): (f64, f64)) -> bool {
        // A hair of slack for rounding in sums taken in a different order.
        r.x >= 0.0 && r.y >= 0.0 && r.x + r.width <= w + 1e-9 && r.y + r.height <= h + 1e-9
    }

    #[test]
    fn everything_fits_and_the_parts_do_not_overlap() {
        for (t, d) in [(1, 2), (4, 4), (16, 16), (2, 9)] {
            let layout = FusionLayout::new(t, d, 36.0, 3);
            let size = layout.size();
            let right_of_values = layout.value_cell(0, d - 1).x + 36.0;
            for c in 0..d {
                assert!(inside(layout.output_cell(c), size));
                assert!(inside(layout.column(c), size));
                assert!(layout.output_cell(c).x > right_of_values);
                assert!(layout.column(c).y > layout.output_cell(c).y + 36.0);
                assert!(layout.column(c).y >= layout.value_cell(t - 1, 0).y + 36.0);
            }
            for j in 0..t {
                assert!(inside(layout.value_cell(j, d - 1), size));
                assert!(layout.swatch(j).x + layout.swatch(j).width < layout.values.row_label(j).0);
            }
        }
    }

    #[test]
    fn connectors_run_rightward_from_each_row_to_one_point() {
        let layout = FusionLayout::new(3, 4, 36.0, 2);
        let ends: Vec<_> = (0..3).map(|j| layout.connector_ends(j)).collect();
        for (j, (from, to)) in ends.iter().enumerate() {
            assert!(from.0 < to.0);
            assert_eq!(from.1, layout.value_cell(j, 0).centre().1);
            assert_eq!(*to, ends[0].1);
        }
        // B_i is level with the middle value row.
        assert_eq!(ends[0].1 .1, layout.value_cell(1, 0).centre().1);
    }

    #[test]
    fn weights_are_printed_between_their_row_and_their_connector() {
        for (t, d) in [(1, 2), (4, 4), (16, 16)] {
            let layout = FusionLayout::new(t, d, 46.0, 3);
            for j in 0..t {
                let (x, y) = layout.weight_label(j);
                let row = layout.value_cell(j, d - 1);
                let (from, _) = layout.connector_ends(j);
                // Right of the row, left of the line, level with both.
                assert!(x > row.x + row.width, "row {j}");
                assert!(x + layout.weight_room() < from.0, "row {j}");
                assert_eq!(y, from.1);
                assert_eq!(y, row.centre().1);
            }
            // Room for "0.50" at 11 px (about 26 units), and rows apart.
            assert!(layout.weight_room() > 30.0);
            if t > 1 {
                assert!(layout.weight_label(1).1 - layout.weight_label(0).1 >= 46.0);
            }
        }
    }

    #[test]
    fn stacked_b_sits_under_the_values_column_by_column_and_is_narrow() {
        for (t, d) in [(1, 2), (4, 4), (16, 16), (2, 9)] {
            let beside = FusionLayout::new(t, d, 46.0, 3);
            let layout = FusionLayout::stacked(t, d, 46.0, 3);
            let size = layout.size();
            let below_values = layout.value_cell(t - 1, 0).y + 46.0;
            for c in 0..d {
                let (cell, column) = (layout.output_cell(c), layout.column(c));
                assert!(inside(cell, size) && inside(column, size), "{t}×{d}");
                assert_eq!(cell.x, layout.value_cell(0, c).x, "under V's column {c}");
                assert!(cell.y > below_values && column.y > cell.y + 46.0);
            }
            for j in 0..t {
                let (from, to) = layout.connector_ends(j);
                assert_eq!(from, beside.connector_ends(j).0, "starts as beside");
                let last = layout.output_cell(d - 1);
                assert!(
                    to.0 > last.x + last.width && to.0 < from.0,
                    "ends right of B_i"
                );
                assert_eq!(to.1, last.centre().1);
                // The curve never crosses the value rows: while it is level
                // with them it stays right of their last column.
                let line =
                    Connector::new(from, to, 0.5, 10.0).arriving_from_the_right(46.0 * BEND_CELLS);
                let ((c1x, c1y), (c2x, c2y)) = line.controls();
                let right_of_values = layout.value_cell(0, d - 1).x + 46.0;
                for k in 0..=100 {
                    let u = f64::from(k) / 100.0;
                    let at = |a: f64, b: f64, c: f64, e: f64| {
                        (1.0 - u).powi(3) * a
                            + 3.0 * (1.0 - u).powi(2) * u * b
                            + 3.0 * (1.0 - u) * u * u * c
                            + u.powi(3) * e
                    };
                    let (x, y) = (at(from.0, c1x, c2x, to.0), at(from.1, c1y, c2y, to.1));
                    assert!(
                        y > below_values || x > right_of_values,
                        "row {j} at {u}: ({x}, {y})"
                    );
                    assert!(x <= size.0, "inside the picture");
                }
                assert!(from.0 + 46.0 * BEND_CELLS <= size.0 + 1e-9);
            }
            assert!(size.0 < beside.size().0, "{t}×{d}: narrower than beside");
        }
        // The lessons' four tokens and four components fit a phone: in 305 px
        // (with a classic scroll bar) its 13 px text is still 11 px or more.
        assert!(FusionLayout::stacked(4, 4, 46.0, 2).size().0 * 11.0 / 13.0 <= 305.0);
    }

    #[test]
    fn each_bar_sits_centred_under_its_output_cell() {
        let layout = FusionLayout::new(4, 3, 40.0, 2);
        for c in 0..3 {
            let (x, width) = layout.bar(c);
            let cell = layout.output_cell(c);
            assert!((x + width / 2.0 - cell.centre().0).abs() < 1e-9);
            assert!(x > cell.x && x + width < cell.x + cell.width);
        }
        let (top, height) = layout.chart_range();
        assert!(top > layout.chart_top && top + height < layout.size().1);
    }
}
