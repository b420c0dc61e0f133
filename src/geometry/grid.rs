//! The layout of a labelled matrix: a grid of square cells with row labels on
//! the left and column labels on top.

/// A rectangle in SVG user units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

impl Rect {
    /// The centre point, where a cell's value is printed.
    pub fn centre(&self) -> (f64, f64) {
        (self.x + self.width / 2.0, self.y + self.height / 2.0)
    }
}

/// Where each part of a rows×cols matrix diagram goes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    pub rows: usize,
    pub cols: usize,
    /// Side of one square cell.
    pub cell: f64,
    /// Space between neighbouring cells.
    pub gap: f64,
    /// Width of the row-label column on the left.
    pub label_width: f64,
    /// Height of the column-label band on top.
    pub label_height: f64,
}

impl Grid {
    /// A grid with room for labels of up to `longest_label` characters.
    pub fn new(rows: usize, cols: usize, cell: f64, longest_label: usize) -> Self {
        // CJK labels are about one cell-font em per character; 0.3 cell is that em.
        let em = cell * 0.3;
        Self {
            rows,
            cols,
            cell,
            gap: (cell * 0.06).max(1.0),
            label_width: em * (longest_label.max(1) as f64) + em,
            label_height: em * 2.0,
        }
    }

    /// The rectangle of cell (row, col).
    pub fn cell_rect(&self, row: usize, col: usize) -> Rect {
        let pitch = self.cell + self.gap;
        Rect {
            x: self.label_width + col as f64 * pitch,
            y: self.label_height + row as f64 * pitch,
            width: self.cell,
            height: self.cell,
        }
    }

    /// The anchor of row `row`'s label: right-aligned just left of the cells.
    pub fn row_label(&self, row: usize) -> (f64, f64) {
        let (_, y) = self.cell_rect(row, 0).centre();
        (self.label_width - self.gap * 2.0, y)
    }

    /// The anchor of column `col`'s label: centred above the cells.
    pub fn col_label(&self, col: usize) -> (f64, f64) {
        let (x, _) = self.cell_rect(0, col).centre();
        (x, self.label_height * 0.6)
    }

    /// The whole diagram's width and height, for the SVG viewBox.
    pub fn size(&self) -> (f64, f64) {
        let pitch = self.cell + self.gap;
        (
            self.label_width + self.cols as f64 * pitch,
            self.label_height + self.rows as f64 * pitch,
        )
    }
}

/// Rows that Page Up and Page Down move through in a matrix's grid.
pub const PAGE_ROWS: usize = 8;

/// Where a key moves the keyboard focus of a rows×cols grid from the cell
/// at `at`, as the ARIA grid pattern has it: arrows one cell (stopping at the
/// edges), Home and End to the row's ends, Page Up and Page Down
/// [`PAGE_ROWS`] rows. `None` for any other key, which the grid leaves to
/// the page.
pub fn step(
    key: &str,
    (row, col): (usize, usize),
    (rows, cols): (usize, usize),
) -> Option<(usize, usize)> {
    let (last_row, last_col) = (rows.checked_sub(1)?, cols.checked_sub(1)?);
    let next = match key {
        "ArrowLeft" => (row, col.saturating_sub(1)),
        "ArrowRight" => (row, (col + 1).min(last_col)),
        "ArrowUp" => (row.saturating_sub(1), col),
        "ArrowDown" => ((row + 1).min(last_row), col),
        "Home" => (row, 0),
        "End" => (row, last_col),
        "PageUp" => (row.saturating_sub(PAGE_ROWS), col),
        "PageDown" => ((row + PAGE_ROWS).min(last_row), col),
        _ => return None,
    };
    Some((next.0.min(last_row), next.1.min(last_col)))
}

/// What kind of composite keyboard focus is moving in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Composite {
    /// An ARIA grid: every arrow and the Page keys move.
    Grid,
    /// A single row of controls (a toolbar: the bars, a formula's links):
    /// Up, Down and the Page keys are left to the page, which moves the
    /// query with them.
    Row,
}

/// Where focus is within its cell: on the cell, or in a text field with
/// its caret at the field's start and/or end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Caret {
    None,
    Field { at_start: bool, at_end: bool },
}

/// Where a key moves the keyboard focus of a composite with one tab stop, as
/// [`step`] says. In a text field Left and Right move the caret, and leave
/// the field only from its start or its end; Home and End always stay with
/// the caret.
pub fn focus_step(
    key: &str,
    at: (usize, usize),
    shape: (usize, usize),
    kind: Composite,
    caret: Caret,
) -> Option<(usize, usize)> {
    let vertical = matches!(key, "ArrowUp" | "ArrowDown" | "PageUp" | "PageDown");
    if kind == Composite::Row && vertical {
        return None;
    }
    if let Caret::Field { at_start, at_end } = caret {
        let leaves = match key {
            "ArrowLeft" => at_start,
            "ArrowRight" => at_end,
            "Home" | "End" => false,
            _ => true,
        };
        if !leaves {
            return None;
        }
    }
    step(key, at, shape)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_move_focus_within_the_grid_and_stop_at_its_edges() {
        let shape = (20, 4);
        assert_eq!(step("ArrowRight", (3, 1), shape), Some((3, 2)));
        assert_eq!(step("ArrowRight", (3, 3), shape), Some((3, 3)));
        assert_eq!(step("ArrowLeft", (3, 0), shape), Some((3, 0)));
        assert_eq!(step("ArrowUp", (0, 2), shape), Some((0, 2)));
        assert_eq!(step("ArrowDown", (19, 2), shape), Some((19, 2)));
        assert_eq!(step("ArrowDown", (4, 2), shape), Some((5, 2)));
        assert_eq!(step("Home", (4, 2), shape), Some((4, 0)));
        assert_eq!(step("End", (4, 2), shape), Some((4, 3)));
        assert_eq!(step("PageDown", (4, 2), shape), Some((4 + PAGE_ROWS, 2)));
        assert_eq!(step("PageDown", (17, 2), shape), Some((19, 2)));
        assert_eq!(step("PageUp", (4, 2), shape), Some((0, 2)));
        assert_eq!(step("Tab", (4, 2), shape), None);
        assert_eq!(step("ArrowDown", (0, 0), (0, 0)), None);
    }

    #[test]
    fn a_row_leaves_up_and_down_to_the_page_and_a_field_leaves_only_from_its_ends() {
        use Composite::{Grid, Row};
        let on_cell = Caret::None;
        assert_eq!(
            focus_step("ArrowRight", (0, 1), (1, 4), Row, on_cell),
            Some((0, 2))
        );
        assert_eq!(
            focus_step("End", (0, 1), (1, 4), Row, on_cell),
            Some((0, 3))
        );
        assert_eq!(focus_step("ArrowDown", (0, 1), (1, 4), Row, on_cell), None);
        assert_eq!(focus_step("PageUp", (0, 1), (1, 4), Row, on_cell), None);
        // A grid of one row (Q_i beside the scores) keeps its keys.
        assert_eq!(
            focus_step("ArrowDown", (0, 1), (1, 4), Grid, on_cell),
            Some((0, 1))
        );
        assert_eq!(
            focus_step("ArrowDown", (0, 1), (3, 4), Grid, on_cell),
            Some((1, 1))
        );
        let middle = Caret::Field {
            at_start: false,
            at_end: false,
        };
        let start = Caret::Field {
            at_start: true,
            at_end: false,
        };
        let end = Caret::Field {
            at_start: false,
            at_end: true,
        };
        assert_eq!(focus_step("ArrowLeft", (1, 1), (3, 4), Grid, middle), None);
        assert_eq!(
            focus_step("ArrowLeft", (1, 1), (3, 4), Grid, start),
            Some((1, 0))
        );
        assert_eq!(focus_step("ArrowRight", (1, 1), (3, 4), Grid, start), None);
        assert_eq!(
            focus_step("ArrowRight", (1, 1), (3, 4), Grid, end),
            Some((1, 2))
        );
        assert_eq!(focus_step("Home", (1, 1), (3, 4), Grid, start), None);
        assert_eq!(focus_step("End", (1, 1), (3, 4), Grid, end), None);
        assert_eq!(
            focus_step("ArrowDown", (1, 1), (3, 4), Grid, middle),
            Some((2, 1))
        );
        assert_eq!(
            focus_step("PageUp", (2, 1), (3, 4), Grid, middle),
            Some((0, 1))
        );
        // One token: its field's caret keys stay the field's.
        assert_eq!(focus_step("ArrowLeft", (0, 1), (1, 4), Grid, middle), None);
    }

    #[test]
    fn every_cell_is_reached_from_the_first_and_back() {
        // Reading order, right along each row then Home and down, visits
        // every cell once; Page Up and Home return to the first.
        let shape = (3, 5);
        let mut at = (0, 0);
        let mut seen = vec![at];
        for row in 0..shape.0 {
            for _ in 1..shape.1 {
                at = step("ArrowRight", at, shape).unwrap();
                seen.push(at);
            }
            if row + 1 < shape.0 {
                at = step("ArrowDown", step("Home", at, shape).unwrap(), shape).unwrap();
                seen.push(at);
            }
        }
        let expected: Vec<_> = (0..shape.0)
            .flat_map(|r| (0..shape.1).map(move |c| (r, c)))
            .collect();
        assert_eq!(seen, expected);
        let top = step("PageUp", at, shape).unwrap();
        assert_eq!(step("Home", top, shape), Some((0, 0)));
    }

    #[test]
    fn cells_do_not_overlap_and_fit_inside_the_diagram() {
        let grid = Grid::new(3, 5, 40.0, 2);
        let (width, height) = grid.size();
        for r in 0..3 {
            for c in 0..5 {
                let a = grid.cell_rect(r, c);
                assert!(a.x >= grid.label_width && a.y >= grid.label_height);
                assert!(a.x + a.width <= width && a.y + a.height <= height);
                if c + 1 < 5 {
                    assert!(grid.cell_rect(r, c + 1).x >= a.x + a.width);
                }
                if r + 1 < 3 {
                    assert!(grid.cell_rect(r + 1, c).y >= a.y + a.height);
                }
            }
        }
    }

    #[test]
    fn labels_sit_beside_their_row_and_above_their_column() {
        let grid = Grid::new(2, 2, 40.0, 3);
        let (x, y) = grid.row_label(1);
        assert!(x < grid.cell_rect(1, 0).x);
        assert_eq!(y, grid.cell_rect(1, 0).centre().1);
        let (x, y) = grid.col_label(1);
        assert_eq!(x, grid.cell_rect(0, 1).centre().0);
        assert!(y < grid.cell_rect(0, 1).y);
    }

    #[test]
    fn longer_labels_get_more_room() {
        assert!(Grid::new(2, 2, 40.0, 6).label_width > Grid::new(2, 2, 40.0, 1).label_width);
    }
}
