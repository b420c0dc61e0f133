//! A heatmap too large for a drawn cell per value (more than [`MAX_DRAWN`]
//! rows or columns) is a raster: one pixel per cell, scaled up to the space it
//! is given. This module says which cells it shows (a [`Window`], the whole
//! matrix or a region brushed to zoom in), where each cell lies on screen and
//! which cell lies under a point ([`Raster`], both directions), the little
//! window the magnifier prints numbers for, and the pixels themselves.

use crate::geometry::colour::Rgb;
use crate::geometry::grid::Rect;
use ndarray::{s, ArrayView2};

/// Most rows or columns a heatmap draws as one element per cell. Past it,
/// cells are too small for their numbers and too many for the page's
/// elements, so the matrix is drawn as a raster instead.
pub const MAX_DRAWN: usize = 32;
/// Rows and columns the magnifier prints around its cell (fewer if the
/// matrix is smaller).
pub const MAGNIFIER_SIDE: usize = 7;
/// Most on-screen pixels a raster's side takes, and how many a cell gets at
/// most, so a short matrix is not blown up into giant blocks.
pub const MAX_SIDE_PX: usize = 480;
pub const MAX_CELL_PX: usize = 12;

/// Whether a matrix of this shape is drawn as a raster.
pub fn is_raster((rows, cols): (usize, usize)) -> bool {
    rows > MAX_DRAWN || cols > MAX_DRAWN
}

/// A rectangular block of a matrix's cells: `rows` rows from `top` and `cols`
/// columns from `left`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub top: usize,
    pub left: usize,
    pub rows: usize,
    pub cols: usize,
}

impl Window {
    /// Every cell of a `rows`×`cols` matrix.
    pub fn whole((rows, cols): (usize, usize)) -> Self {
        Self {
            top: 0,
            left: 0,
            rows,
            cols,
        }
    }

    /// The block with corners `a` and `b` (both included), in either order.
    pub fn spanning(a: (usize, usize), b: (usize, usize)) -> Self {
        Self {
            top: a.0.min(b.0),
            left: a.1.min(b.1),
            rows: a.0.abs_diff(b.0) + 1,
            cols: a.1.abs_diff(b.1) + 1,
        }
    }

    /// The `side`×`side` block centred on `cell`, moved to lie within a
    /// matrix of `shape` (and cut to it when the matrix is smaller).
    pub fn around(cell: (usize, usize), side: usize, shape: (usize, usize)) -> Self {
        let start = |at: usize, len: usize| {
            let side = side.min(len);
            (at.saturating_sub(side / 2).min(len - side), side)
        };
        let (top, rows) = start(cell.0, shape.0.max(1));
        let (left, cols) = start(cell.1, shape.1.max(1));
        Self {
            top,
            left,
            rows: rows.min(shape.0),
            cols: cols.min(shape.1),
        }
    }

    /// Whether `cell` lies in this block.
    pub fn contains(&self, (r, c): (usize, usize)) -> bool {
        (self.top..self.top + self.rows).contains(&r)
            && (self.left..self.left + self.cols).contains(&c)
    }

    /// Whether the block fits in a matrix of `shape` (a zoom made before the
    /// matrix shrank may not).
    pub fn fits(&self, (rows, cols): (usize, usize)) -> bool {
        self.rows > 0
            && self.cols > 0
            && self.top + self.rows <= rows
            && self.left + self.cols <= cols
    }
}

/// A window's cells laid out on `width`×`height` pixels, as the raster is
/// shown: each cell an equal share of the width and of the height.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Raster {
    pub window: Window,
    pub width: f64,
    pub height: f64,
}

impl Raster {
    fn cell_size(&self) -> (f64, f64) {
        (
            self.width / self.window.cols.max(1) as f64,
            self.height / self.window.rows.max(1) as f64,
        )
    }

    /// The matrix cell under the point (x, y), measured from the raster's
    /// top-left corner; `None` outside it.
    pub fn cell_at(&self, x: f64, y: f64) -> Option<(usize, usize)> {
        if !(x >= 0.0 && y >= 0.0 && x < self.width && y < self.height) {
            return None;
        }
        let (w, h) = self.cell_size();
        // Truncation is the floor here: both are non-negative.
        let (row, col) = ((y / h) as usize, (x / w) as usize);
        let row = row.min(self.window.rows.saturating_sub(1));
        let col = col.min(self.window.cols.saturating_sub(1));
        Some((self.window.top + row, self.window.left + col))
    }

    /// Where matrix cell `cell` is shown; `None` if the window leaves it out.
    pub fn cell_rect(&self, cell: (usize, usize)) -> Option<Rect> {
        self.window.contains(cell).then(|| {
            let (w, h) = self.cell_size();
            Rect {
                x: (cell.1 - self.window.left) as f64 * w,
                y: (cell.0 - self.window.top) as f64 * h,
                width: w,
                height: h,
            }
        })
    }
}

/// The on-screen size in CSS pixels (width, height) of a raster showing
/// `window`: up to [`MAX_CELL_PX`] per cell and [`MAX_SIDE_PX`] per side.
pub fn shown_size(window: Window) -> (usize, usize) {
    let side = |cells: usize| (cells * MAX_CELL_PX).min(MAX_SIDE_PX);
    (side(window.cols), side(window.rows))
}

/// The colour a masked cell is drawn in: a neutral grey, unlike any colour of
/// either scale, as the hatching of a drawn cell is.
pub const MASKED_COLOUR: Rgb = Rgb(150, 150, 150);

/// The window's cells as RGBA pixels, row by row (what `ImageData` holds),
/// each coloured by `colour`, or [`MASKED_COLOUR`] where `allowed` (of the
/// values' shape) says masked. A window that does not fit the values gives
/// no pixels.
pub fn pixels(
    values: ArrayView2<f64>,
    allowed: Option<ArrayView2<bool>>,
    window: Window,
    colour: impl Fn(f64) -> Rgb,
) -> Vec<u8> {
    if !window.fits(values.dim()) {
        return Vec::new();
    }
    let rows = window.top..window.top + window.rows;
    let cols = window.left..window.left + window.cols;
    let block = values.slice(s![rows.clone(), cols.clone()]);
    let mask = allowed
        .filter(|a| a.dim() == values.dim())
        .map(|a| a.slice_move(s![rows, cols]));
    // Up to 262,144 cells per change: filled row by row through slices, with
    // no index arithmetic per cell.
    let mut out = vec![0; window.rows * window.cols * 4];
    for (r, (row, line)) in block
        .rows()
        .into_iter()
        .zip(out.chunks_exact_mut(window.cols * 4))
        .enumerate()
    {
        let allowed_row = mask.as_ref().map(|m| m.row(r));
        let (cells, _) = line.as_chunks_mut::<4>();
        for (c, (&value, px)) in row.iter().zip(cells).enumerate() {
            let masked = allowed_row.as_ref().is_some_and(|a| !a[c]);
            let Rgb(red, green, blue) = if masked { MASKED_COLOUR } else { colour(value) };
            *px = [red, green, blue, 255];
        }
    }
    out
}

/// What a press and release on the raster mean: a click on one cell selects
/// it; a drag across more than one cell zooms into the block it spans.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Brushed {
    Select((usize, usize)),
    Zoom(Window),
}

/// How far, in CSS pixels, the pointer must travel between press and release
/// to brush rather than click: a cell of a 512-row raster is under a pixel
/// high, and a hand that shakes by one must still select, not zoom.
pub const BRUSH_MIN_PX: f64 = 4.0;

/// The outcome of a press on cell `from` released on cell `to`, the pointer
/// having moved by (`dx`, `dy`) pixels in between.
pub fn brushed(from: (usize, usize), to: (usize, usize), (dx, dy): (f64, f64)) -> Brushed {
    // Squares compared, not a square root taken: the same test, less code.
    if from == to || dx * dx + dy * dy < BRUSH_MIN_PX * BRUSH_MIN_PX {
        Brushed::Select(from)
    } else {
        Brushed::Zoom(Window::spanning(from, to))
    }
}

/// The decimals a weight is printed with in a row of `keys` keys: three past
/// [`MAX_DRAWN`], where weights spread over hundreds of keys are mostly
/// below 0.01, else two. The magnifier, the thin bars and the live region
/// all say a weight so.
pub fn weight_decimals(keys: usize) -> u8 {
    if keys > MAX_DRAWN {
        3
    } else {
        2
    }
}

/// The smallest block the keyboard zooms into, in cells a side.
pub const MIN_ZOOM: usize = 8;

/// The block a zoom key shows, from `window` of a matrix of `shape`, about
/// the keyboard's cell `at`: `+` (or `=`) halves the block's side, `-`
/// doubles it, Escape shows the whole matrix; `None` for any other key.
/// What a brush does with the pointer, by keyboard.
pub fn zoom(
    key: &str,
    at: (usize, usize),
    window: Window,
    shape: (usize, usize),
) -> Option<Window> {
    let side = window.rows.max(window.cols);
    let whole = Window::whole(shape);
    Some(match key {
        "+" | "=" => Window::around(at, (side / 2).max(MIN_ZOOM), shape),
        "-" if side * 2 < shape.0.max(shape.1) => Window::around(at, side * 2, shape),
        "-" | "Escape" => whole,
        _ => return None,
    })
}

/// The cell the keyboard moves to from `at` with `key`, as in a heatmap's
/// grid (`grid::step`) over the cells of `window`; `None` for a key that
/// moves nothing. A cell outside the window (the selection before a zoom)
/// first comes into it.
pub fn step(at: (usize, usize), key: &str, window: Window) -> Option<(usize, usize)> {
    let last_row = window.top + window.rows.saturating_sub(1);
    let last_col = window.left + window.cols.saturating_sub(1);
    let inside = (
        at.0.clamp(window.top, last_row),
        at.1.clamp(window.left, last_col),
    );
    let within = (inside.0 - window.top, inside.1 - window.left);
    let (r, c) = super::grid::step(key, within, (window.rows, window.cols))?;
    Some(if inside == at {
        (window.top + r, window.left + c)
    } else {
        inside
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    fn raster(window: Window) -> Raster {
        Raster {
            window,
            width: 300.0,
            height: 150.0,
        }
    }

    #[test]
    fn zoom_keys_halve_and_double_the_block_about_the_cell_and_escape_shows_all() {
        let shape = (256, 256);
        let whole = Window::whole(shape);
        let half = zoom("+", (100, 40), whole, shape).unwrap();
        assert_eq!((half.rows, half.cols), (128, 128));
        assert!(half.contains((100, 40)));
        let quarter = zoom("=", (100, 40), half, shape).unwrap();
        assert_eq!((quarter.rows, quarter.cols), (64, 64));
        assert!(quarter.contains((100, 40)));
        // Never smaller than MIN_ZOOM cells a side.
        let mut w = quarter;
        for _ in 0..10 {
            w = zoom("+", (100, 40), w, shape).unwrap();
        }
        assert_eq!((w.rows, w.cols), (MIN_ZOOM, MIN_ZOOM));
        // Back out: doubling, then the whole matrix.
        assert_eq!(
            zoom("-", (100, 40), quarter, shape).map(|w| w.rows),
            Some(128)
        );
        assert_eq!(zoom("-", (100, 40), half, shape), Some(whole));
        assert_eq!(zoom("Escape", (100, 40), quarter, shape), Some(whole));
        assert_eq!(zoom("a", (100, 40), quarter, shape), None);
        // A wide matrix zooms within its own shape.
        let wide = (40, 300);
        let z = zoom("+", (39, 299), Window::whole(wide), wide).unwrap();
        assert!(z.fits(wide) && z.contains((39, 299)), "{z:?}");
    }

    #[test]
    fn large_matrices_are_rasters_and_small_ones_are_not() {
        assert!(!is_raster((32, 32)));
        assert!(!is_raster((4, 16)));
        assert!(is_raster((33, 4)));
        assert!(is_raster((8, 512)));
    }

    #[test]
    fn every_cell_centre_hits_its_own_cell() {
        for window in [
            Window::whole((256, 256)),
            Window::whole((512, 8)),
            Window::spanning((40, 7), (10, 30)),
        ] {
            let r = raster(window);
            for row in window.top..window.top + window.rows {
                for col in window.left..window.left + window.cols {
                    let rect = r.cell_rect((row, col)).unwrap();
                    let (x, y) = rect.centre();
                    assert_eq!(r.cell_at(x, y), Some((row, col)), "{window:?}");
                }
            }
        }
    }

    #[test]
    fn points_map_to_cells_whose_rect_holds_them() {
        let r = raster(Window::spanning((3, 5), (12, 44)));
        let mut y = 0.0;
        while y < r.height {
            let mut x = 0.0;
            while x < r.width {
                let cell = r.cell_at(x, y).unwrap();
                let rect = r.cell_rect(cell).unwrap();
                assert!(
                    rect.x <= x + 1e-9 && x < rect.x + rect.width + 1e-9,
                    "{x} {rect:?}"
                );
                assert!(
                    rect.y <= y + 1e-9 && y < rect.y + rect.height + 1e-9,
                    "{y} {rect:?}"
                );
                x += 0.77;
            }
            y += 0.61;
        }
    }

    #[test]
    fn outside_the_raster_is_no_cell_and_cells_outside_the_window_have_no_rect() {
        let r = raster(Window::spanning((10, 10), (19, 19)));
        for (x, y) in [
            (-0.1, 5.0),
            (5.0, -0.1),
            (300.0, 5.0),
            (5.0, 150.0),
            (f64::NAN, 1.0),
        ] {
            assert_eq!(r.cell_at(x, y), None, "({x}, {y})");
        }
        assert_eq!(r.cell_rect((9, 12)), None);
        assert_eq!(r.cell_rect((12, 20)), None);
        assert_eq!(r.cell_at(0.0, 0.0), Some((10, 10)));
        assert_eq!(r.cell_at(299.99, 149.99), Some((19, 19)));
    }

    #[test]
    fn brushing_zooms_and_a_click_selects() {
        assert_eq!(
            brushed((4, 9), (4, 9), (30.0, 0.0)),
            Brushed::Select((4, 9))
        );
        // A shaky click across a sub-pixel cell border still selects where it pressed.
        assert_eq!(brushed((4, 9), (5, 9), (0.0, 1.5)), Brushed::Select((4, 9)));
        assert_eq!(
            brushed((20, 9), (4, 30), (0.0, BRUSH_MIN_PX)),
            Brushed::Zoom(Window {
                top: 4,
                left: 9,
                rows: 17,
                cols: 22
            })
        );
    }

    #[test]
    fn the_magnifier_window_stays_inside_the_matrix() {
        let shape = (256, 256);
        assert_eq!(
            Window::around((100, 100), 7, shape),
            Window {
                top: 97,
                left: 97,
                rows: 7,
                cols: 7
            }
        );
        assert_eq!(
            Window::around((0, 255), 7, shape),
            Window {
                top: 0,
                left: 249,
                rows: 7,
                cols: 7
            }
        );
        // A matrix narrower than the magnifier is shown whole across.
        assert_eq!(
            Window::around((300, 2), 7, (512, 4)),
            Window {
                top: 297,
                left: 0,
                rows: 7,
                cols: 4
            }
        );
        for cell in [(0, 0), (3, 3), (255, 0), (128, 254)] {
            let w = Window::around(cell, 7, shape);
            assert!(w.contains(cell) && w.fits(shape), "{cell:?} {w:?}");
        }
    }

    #[test]
    fn windows_fit_only_matrices_that_hold_them() {
        let w = Window::spanning((10, 10), (19, 19));
        assert!(w.fits((20, 20)));
        assert!(!w.fits((19, 40)));
        assert!(!Window::whole((0, 5)).fits((0, 5)));
    }

    #[test]
    fn pixels_are_the_window_row_by_row_with_masked_cells_grey() {
        let values = array![[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]];
        let allowed = array![[true, true, true], [true, false, true]];
        let grey = |v: f64| Rgb(v as u8 * 10, 0, 0);
        let window = Window::spanning((0, 1), (1, 2));
        let px = pixels(values.view(), Some(allowed.view()), window, grey);
        let Rgb(r, g, b) = MASKED_COLOUR;
        // Row 0, columns 1 and 2, then row 1, whose column 1 is masked.
        assert_eq!(
            px,
            [10, 0, 0, 255, 20, 0, 0, 255, r, g, b, 255, 50, 0, 0, 255]
        );
    }

    #[test]
    fn a_window_past_the_values_gives_no_pixels_and_a_mask_of_another_shape_is_ignored() {
        let values = array![[0.0, 1.0], [2.0, 3.0]];
        let red = |v: f64| Rgb(v as u8, 0, 0);
        assert!(pixels(values.view(), None, Window::whole((3, 2)), red).is_empty());
        let odd = array![[false]];
        let px = pixels(values.view(), Some(odd.view()), Window::whole((2, 2)), red);
        assert_eq!(px, [0, 0, 0, 255, 1, 0, 0, 255, 2, 0, 0, 255, 3, 0, 0, 255]);
    }

    #[test]
    fn shown_sizes_cap_the_side_and_the_cell() {
        assert_eq!(shown_size(Window::whole((512, 512))), (480, 480));
        assert_eq!(shown_size(Window::whole((512, 8))), (96, 480));
        assert_eq!(shown_size(Window::whole((4, 6))), (72, 48));
    }

    #[test]
    fn arrow_keys_move_within_the_window() {
        let w = Window::spanning((10, 10), (19, 19));
        assert_eq!(step((10, 10), "ArrowUp", w), Some((10, 10)));
        assert_eq!(step((10, 10), "ArrowDown", w), Some((11, 10)));
        assert_eq!(step((19, 19), "ArrowRight", w), Some((19, 19)));
        assert_eq!(step((12, 15), "Home", w), Some((12, 10)));
        assert_eq!(step((12, 15), "End", w), Some((12, 19)));
        assert_eq!(step((12, 15), "PageDown", w), Some((19, 15)));
        assert_eq!(step((12, 15), "a", w), None);
        // A cell outside the window (the selection before a zoom) comes into it.
        assert_eq!(step((0, 0), "ArrowDown", w), Some((10, 10)));
    }
}
