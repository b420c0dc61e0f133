//! A small map of a T×T matrix, one per head: at most [`MAX_CELLS`] cells a
//! side, each the mean of a square block of positions when T is larger.

use ndarray::Array2;
use std::ops::Range;

/// Most cells a thumbnail draws along a side: eight heads of 16×16 cells are
/// 2048 rectangles, little enough to rewrite on every edit.
pub const MAX_CELLS: usize = 16;

/// Where the cells of one thumbnail go.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thumbnail {
    /// Positions (tokens) along a side.
    pub positions: usize,
    /// Positions per cell along a side.
    pub block: usize,
    /// Cells along a side.
    pub cells: usize,
    /// A cell's side in pixels.
    pub cell: f64,
}

impl Thumbnail {
    /// The thumbnail of `positions` positions a side, `side` pixels wide.
    pub fn new(positions: usize, side: f64) -> Self {
        let block = positions.div_ceil(MAX_CELLS).max(1);
        let cells = positions.div_ceil(block).max(1);
        Self {
            positions,
            block,
            cells,
            cell: side / cells as f64,
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

    /// Where cell `cell` starts, in pixels from the thumbnail's edge.
    pub fn offset(&self, cell: usize) -> f64 {
        cell as f64 * self.cell
    }

    /// The cell at `pixels` from the edge, if it lies on the thumbnail.
    pub fn cell_at(&self, pixels: f64) -> Option<usize> {
        let cell = (pixels / self.cell).floor();
        (cell >= 0.0 && cell < self.cells as f64).then_some(cell as usize)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_sequences_draw_every_position() {
        let t = Thumbnail::new(4, 80.0);
        assert_eq!((t.block, t.cells, t.cell), (1, 4, 20.0));
        let m = Array2::from_shape_fn((4, 4), |(i, j)| (i * 4 + j) as f64);
        assert_eq!(t.pooled(&m), m);
    }

    #[test]
    fn cells_and_positions_map_both_ways() {
        for positions in [1, 5, 16, 17, 33, 200, 512] {
            let t = Thumbnail::new(positions, 96.0);
            assert!(t.cells <= MAX_CELLS, "{positions}");
            // Every position lies in exactly the cell that covers it.
            for p in 0..positions {
                assert!(
                    t.positions_of(t.cell_of(p)).contains(&p),
                    "{positions}: {p}"
                );
            }
            let covered: usize = (0..t.cells).map(|c| t.positions_of(c).len()).sum();
            assert_eq!(covered, positions);
            // A pixel inside a cell finds that cell, and its offset starts it.
            for c in 0..t.cells {
                assert_eq!(t.cell_at(t.offset(c) + t.cell / 2.0), Some(c));
            }
            assert_eq!(t.cell_at(-1.0), None);
            assert_eq!(t.cell_at(96.5), None);
        }
    }

    #[test]
    fn long_sequences_average_square_blocks() {
        let t = Thumbnail::new(40, 96.0);
        assert_eq!((t.block, t.cells), (3, 14));
        // The last block is 40 − 39 = 1 position wide.
        assert_eq!(t.positions_of(13), 39..40);
        let m = Array2::from_shape_fn((40, 40), |(i, _)| i as f64);
        let pooled = t.pooled(&m);
        assert_eq!(pooled[[0, 5]], 1.0, "mean of rows 0, 1, 2");
        assert_eq!(pooled[[13, 0]], 39.0);
    }
}
