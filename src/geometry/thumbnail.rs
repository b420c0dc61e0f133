//! A small map of a T×T matrix, one per head: at most [`MAX_CELLS`] cells a
//! side, each the mean of a square block of positions when T is larger. It is
//! painted a pixel a cell and scaled up by CSS; [`MapLayout`] places its cells
//! and labels in its SVG, and finds the cell under the pointer.

use ndarray::Array2;
use std::ops::Range;

/// Most cells a thumbnail draws along a side: enough to see a 16-token
/// sentence weight by weight.
pub const MAX_CELLS: usize = 16;

/// Which positions the cells of one thumbnail cover.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thumbnail {
    /// Positions (tokens) along a side.
    pub positions: usize,
    /// Positions per cell along a side.
    pub block: usize,
    /// Cells along a side.
    pub cells: usize,
}

impl Thumbnail {
    /// The thumbnail of `positions` positions a side.
    pub fn new(positions: usize) -> Self {
        let block = positions.div_ceil(MAX_CELLS).max(1);
        Self {
            positions,
            block,
            cells: positions.div_ceil(block).max(1),
        }
    }

    /// The cell holding `position`.
    pub fn cell_of(&self, position: usize) -> usize {
        position / self.block
    }

    /// The positions cell `cell` covers.
    pub fn positions_of(&self, cell: usize) -> Range<usize> {
        let start = (cell * self.block).min(self.positions);
        start..((cell + 1) * self.block).min(self.positions)
    }

    /// Each cell's value: the mean of its block of `m` (T×T), or `m`'s own
    /// entry when every cell is one position.
    pub fn pooled(&self, m: &Array2<f64>) -> Array2<f64> {
        Array2::from_shape_fn((self.cells, self.cells), |(r, c)| {
            let (rows, cols) = (self.positions_of(r), self.positions_of(c));
            let count = rows.len() * cols.len();
            let total: f64 = rows
                .flat_map(|i| cols.clone().map(move |j| (i, j)))
                .map(|(i, j)| m.get((i, j)).copied().unwrap_or(0.0))
                .sum();
            if count == 0 {
                0.0
            } else {
                total / count as f64
            }
        })
    }
}

/// A map's square of cells, in CSS pixels a side.
pub const SIDE: f64 = 112.0;
/// Least distance between two printed labels along a side, in CSS pixels:
/// closer labels would overlap, so only every few cells are named.
const LABEL_PITCH: f64 = 13.0;

/// Where a map's cells and its labels sit in its SVG, in CSS pixels: the
/// query labels in a margin on the left, the key labels in one on top, then
/// the cells in a square of [`SIDE`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MapLayout {
    pub thumbnail: Thumbnail,
    /// The margins for the labels, left and top.
    pub left: f64,
    pub top: f64,
}

impl MapLayout {
    /// One cell's side.
    pub fn pitch(&self) -> f64 {
        SIDE / self.thumbnail.cells as f64
    }

    /// The SVG's width and height.
    pub fn size(&self) -> (f64, f64) {
        (self.left + SIDE, self.top + SIDE)
    }

    /// The centre of cell (row, column).
    pub fn centre(&self, row: usize, column: usize) -> (f64, f64) {
        let pitch = self.pitch();
        (
            self.left + (column as f64 + 0.5) * pitch,
            self.top + (row as f64 + 0.5) * pitch,
        )
    }

    /// The cell (row, column) under the point (x, y), if any.
    pub fn cell_at(&self, x: f64, y: f64) -> Option<(usize, usize)> {
        let pitch = self.pitch();
        let (column, row) = ((x - self.left) / pitch, (y - self.top) / pitch);
        let cells = self.thumbnail.cells as f64;
        let inside = |v: f64| (0.0..cells).contains(&v);
        (inside(row) && inside(column)).then_some((row as usize, column as usize))
    }

    /// Every how many cells a label is printed, so that labels stand at
    /// least [`LABEL_PITCH`] apart.
    pub fn label_step(&self) -> usize {
        (LABEL_PITCH / self.pitch()).ceil().max(1.0) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_points_and_cells_map_both_ways() {
        for positions in [1, 4, 6, 16, 40, 256] {
            let layout = MapLayout {
                thumbnail: Thumbnail::new(positions),
                left: 44.0,
                top: 30.0,
            };
            let cells = layout.thumbnail.cells;
            for row in 0..cells {
                for column in 0..cells {
                    let (x, y) = layout.centre(row, column);
                    assert_eq!(layout.cell_at(x, y), Some((row, column)), "{positions}");
                }
            }
            // The labels' margins and past the square are no cell.
            assert_eq!(layout.cell_at(43.9, 31.0), None);
            assert_eq!(layout.cell_at(45.0, 29.9), None);
            let (width, height) = layout.size();
            assert_eq!(layout.cell_at(width + 0.1, 31.0), None);
            assert_eq!(layout.cell_at(45.0, height), None);
            // Printed labels never stand closer than LABEL_PITCH.
            assert!(layout.label_step() as f64 * layout.pitch() >= LABEL_PITCH);
        }
        let six = MapLayout {
            thumbnail: Thumbnail::new(6),
            left: 0.0,
            top: 0.0,
        };
        assert_eq!(six.label_step(), 1, "six cells of 18.7 px: every one named");
    }

    #[test]
    fn short_sequences_draw_every_position() {
        let t = Thumbnail::new(4);
        assert_eq!((t.block, t.cells), (1, 4));
        let m = Array2::from_shape_fn((4, 4), |(i, j)| (i * 4 + j) as f64);
        assert_eq!(t.pooled(&m), m);
    }

    #[test]
    fn cells_and_positions_map_both_ways() {
        for positions in [1, 5, 16, 17, 33, 200, 512] {
            let t = Thumbnail::new(positions);
            assert!(t.cells <= MAX_CELLS, "{positions}");
            // Every position lies in the cell that covers it, and every cell
            // covers only positions that lie in it.
            for p in 0..positions {
                assert!(
                    t.positions_of(t.cell_of(p)).contains(&p),
                    "{positions}: {p}"
                );
            }
            for c in 0..t.cells {
                assert!(
                    t.positions_of(c).all(|p| t.cell_of(p) == c),
                    "{positions}: {c}"
                );
            }
            let covered: usize = (0..t.cells).map(|c| t.positions_of(c).len()).sum();
            assert_eq!(covered, positions);
        }
    }

    #[test]
    fn long_sequences_average_square_blocks() {
        let t = Thumbnail::new(40);
        assert_eq!((t.block, t.cells), (3, 14));
        // The last block is 40 − 39 = 1 position wide.
        assert_eq!(t.positions_of(13), 39..40);
        let m = Array2::from_shape_fn((40, 40), |(i, _)| i as f64);
        let pooled = t.pooled(&m);
        assert_eq!(pooled[[0, 5]], 1.0, "mean of rows 0, 1, 2");
        assert_eq!(pooled[[13, 0]], 39.0);
    }
}
