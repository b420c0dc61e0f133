//! One frame of the fusion diagram: everything that moves when a number or
//! the selected query changes, placed on a fixed [`FusionLayout`].

use super::layout::{FusionLayout, BEND_CELLS};
use super::stack::{stacks, Stack, ValueScale};
use super::Connector;
use crate::geometry::grid::Rect;
use ndarray::Array2;

/// The widest connector (weight 1), as a share of a cell.
const MAX_WIDTH_CELLS: f64 = 0.4;

/// One drawn term α′_ij·V_jc: its value and its rectangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlacedSegment {
    /// α′_ij·V_jc at full precision.
    pub value: f64,
    /// Where it is drawn; zero height for a zero term.
    pub rect: Rect,
}

/// The total B_ic of one component: its tick and its printed value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlacedTotal {
    /// B_ic, taken from the trace's output so it matches the output matrix.
    pub value: f64,
    /// The y of the tick marking the total.
    pub y: f64,
    /// The y of the printed value, just above the column's highest point.
    pub label_y: f64,
}

/// Positions and sizes of everything that depends on the numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct FusionFrame {
    /// One connector per token j.
    pub connectors: Vec<Connector>,
    /// `segments[c][j]` is token j's term in component c.
    pub segments: Vec<Vec<PlacedSegment>>,
    /// One total per component c.
    pub totals: Vec<PlacedTotal>,
    /// The y of the zero line.
    pub zero: f64,
}

impl FusionFrame {
    /// The frame for query `query`, from the weights α′ (T×T), the values
    /// `v` (T×d_v) and the output B (T×d_v). The bars' scale fits the stacks
    /// of every query, so it holds still while the learner switches queries.
    pub fn new(
        layout: &FusionLayout,
        weights: &Array2<f64>,
        query: usize,
        v: &Array2<f64>,
        output: &Array2<f64>,
    ) -> Self {
        let max_width = layout.values.cell * MAX_WIDTH_CELLS;
        let row = |m: &Array2<f64>| m.outer_iter().nth(query).map(|r| r.to_vec());
        let weights_row = row(weights).unwrap_or_default();
        let output_row = row(output).unwrap_or_default();
        let connectors = weights_row
            .iter()
            .enumerate()
            .map(|(j, &w)| {
                let (from, to) = layout.connector_ends(j);
                let connector = Connector::new(from, to, w, max_width);
                if layout.stacked {
                    connector.arriving_from_the_right(layout.values.cell * BEND_CELLS)
                } else {
                    connector
                }
            })
            .collect();
        let every_query: Vec<Stack> = weights
            .outer_iter()
            .flat_map(|w| stacks(&w.to_vec(), v))
            .collect();
        let all = stacks(&weights_row, v);
        let (top, height) = layout.chart_range();
        let scale = ValueScale::fit(&every_query, top, height);
        let segments = all
            .iter()
            .enumerate()
            .map(|(c, stack)| {
                let (x, width) = layout.bar(c);
                stack
                    .segments
                    .iter()
                    .map(|g| {
                        let (y, height) = scale.span(g.low, g.high);
                        PlacedSegment {
                            value: g.value,
                            rect: Rect {
                                x,
                                y,
                                width,
                                height,
                            },
                        }
                    })
                    .collect()
            })
            .collect();
        let totals = all
            .iter()
            .enumerate()
            .map(|(c, stack)| {
                let value = output_row.get(c).copied().unwrap_or_else(|| stack.total());
                PlacedTotal {
                    value,
                    y: scale.y(value),
                    label_y: scale.y(stack.positive) - layout.chart_pad / 2.0,
                }
            })
            .collect();
        Self {
            connectors,
            segments,
            totals,
            zero: scale.zero,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    fn example() -> (FusionLayout, Array2<f64>, Array2<f64>, Array2<f64>) {
        let weights = array![[0.5, 0.2, 0.3], [0.0, 1.0, 0.0], [0.1, 0.1, 0.8]];
        let v = array![[0.31, -1.0], [-0.52, 0.25], [0.8, 0.0]];
        let output = weights.dot(&v);
        (FusionLayout::new(3, 2, 36.0, 2), weights, v, output)
    }

    #[test]
    fn segment_heights_add_up_to_the_total_in_pixels() {
        let (layout, weights, v, output) = example();
        let frame = FusionFrame::new(&layout, &weights, 0, &v, &output);
        for (c, column) in frame.segments.iter().enumerate() {
            // Signed pixel heights (upward positive) sum to the zero-to-total distance.
            let signed: f64 = column
                .iter()
                .map(|s| s.rect.height * s.value.signum())
                .sum();
            let total = &frame.totals[c];
            assert!((signed - (frame.zero - total.y)).abs() < 1e-9);
            assert_eq!(total.value, output[[0, c]]);
            for s in column {
                assert!(s.rect.y >= layout.chart_range().0 - 1e-9);
                assert!(total.label_y < s.rect.y);
            }
        }
    }

    #[test]
    fn positive_segments_lie_above_the_zero_line_and_negative_below() {
        let (layout, weights, v, output) = example();
        let frame = FusionFrame::new(&layout, &weights, 0, &v, &output);
        for s in frame.segments.iter().flatten() {
            if s.value > 0.0 {
                assert!(s.rect.y + s.rect.height <= frame.zero + 1e-9);
            } else if s.value < 0.0 {
                assert!(s.rect.y >= frame.zero - 1e-9);
            } else {
                assert_eq!(s.rect.height, 0.0);
            }
        }
    }

    #[test]
    fn heavier_weights_get_wider_connectors() {
        let (layout, weights, v, output) = example();
        let frame = FusionFrame::new(&layout, &weights, 0, &v, &output);
        let widths: Vec<f64> = frame.connectors.iter().map(|c| c.width).collect();
        assert!(widths[0] > widths[2] && widths[2] > widths[1]);
        let none = FusionFrame::new(&layout, &weights, 1, &v, &output);
        assert_eq!(none.connectors[0].width, 0.0);
        assert!(none.connectors[0].is_faint());
    }

    #[test]
    fn the_scale_holds_still_across_queries_and_every_query_fits() {
        let (layout, weights, v, output) = example();
        let frames: Vec<FusionFrame> = (0..3)
            .map(|i| FusionFrame::new(&layout, &weights, i, &v, &output))
            .collect();
        let (top, height) = layout.chart_range();
        for frame in &frames {
            assert_eq!(frame.zero, frames[0].zero);
            for s in frame.segments.iter().flatten() {
                assert!(s.rect.y >= top - 1e-9 && s.rect.y + s.rect.height <= top + height + 1e-9);
            }
        }
        // Some query's stack reaches each end of the range, so no room is wasted.
        let ends = |f: &FusionFrame| {
            f.segments
                .iter()
                .flatten()
                .fold((f64::MAX, f64::MIN), |(lo, hi), s| {
                    (lo.min(s.rect.y), hi.max(s.rect.y + s.rect.height))
                })
        };
        let lowest = frames.iter().map(|f| ends(f).0).fold(f64::MAX, f64::min);
        let highest = frames.iter().map(|f| ends(f).1).fold(f64::MIN, f64::max);
        assert!((lowest - top).abs() < 1e-9 && (highest - top - height).abs() < 1e-9);
    }
}
