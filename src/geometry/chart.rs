//! Geometry of a small line chart against d_k on a log₂ axis: where each
//! point sits, and the y range. Pure, so it is tested natively.

/// The plotting area inside a chart, in SVG units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plot {
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub height: f64,
    /// The largest d_k on the x axis; the smallest is 1.
    pub max_dim: f64,
    /// The y axis runs from 0 (or 1 when logarithmic) to `y_max`.
    pub y_max: f64,
    /// Whether y is on a log₂ scale, for quantities that grow like d_k.
    pub log_y: bool,
}

impl Plot {
    /// x for a dimension: log₂ d_k spread over the width.
    pub fn x(&self, d_k: f64) -> f64 {
        let span = self.max_dim.max(2.0).log2();
        self.left + self.width * (d_k.max(1.0).log2() / span).clamp(0.0, 1.0)
    }

    /// y for a value, higher values further up; clamped to the plot.
    pub fn y(&self, value: f64) -> f64 {
        let share = if self.log_y {
            value.max(1.0).log2() / self.y_max.max(2.0).log2()
        } else {
            value / self.y_max
        };
        let share = if share.is_finite() {
            share.clamp(0.0, 1.0)
        } else {
            0.0
        };
        self.top + self.height * (1.0 - share)
    }
}

/// A round top for a y axis holding `largest`: the next power of two on a
/// log scale, otherwise the next tenth (at least 0.1).
pub fn axis_top(largest: f64, log_y: bool) -> f64 {
    if !largest.is_finite() || largest <= 0.0 {
        return 1.0;
    }
    if log_y {
        2f64.powi(largest.max(2.0).log2().ceil() as i32)
    } else {
        ((largest * 10.0).ceil() / 10.0).max(0.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLOT: Plot = Plot {
        left: 10.0,
        top: 5.0,
        width: 90.0,
        height: 50.0,
        max_dim: 512.0,
        y_max: 1.0,
        log_y: false,
    };

    #[test]
    fn d_k_doubles_with_every_equal_step_to_the_right() {
        assert_eq!(PLOT.x(1.0), 10.0);
        assert_eq!(PLOT.x(512.0), 100.0);
        assert!((PLOT.x(8.0) - 40.0).abs() < 1e-9);
        assert!((PLOT.x(16.0) - PLOT.x(8.0) - (PLOT.x(2.0) - PLOT.x(1.0))).abs() < 1e-9);
    }

    #[test]
    fn values_go_up_and_stay_inside_the_plot() {
        assert_eq!(PLOT.y(0.0), 55.0);
        assert_eq!(PLOT.y(1.0), 5.0);
        assert_eq!(PLOT.y(7.0), 5.0);
        assert_eq!(PLOT.y(f64::NAN), 55.0);
        let log = Plot {
            y_max: 512.0,
            log_y: true,
            ..PLOT
        };
        assert_eq!(log.y(1.0), 55.0);
        assert!((log.y(512.0) - 5.0).abs() < 1e-9);
        assert!((log.y(16.0) - (55.0 - 50.0 * 4.0 / 9.0)).abs() < 1e-9);
    }

    #[test]
    fn axis_tops_are_round_and_hold_the_largest_value() {
        assert_eq!(axis_top(0.954, false), 1.0);
        assert_eq!(axis_top(0.349, false), 0.4);
        assert_eq!(axis_top(484.5, true), 512.0);
        assert_eq!(axis_top(0.0, false), 1.0);
        assert_eq!(axis_top(f64::NAN, true), 1.0);
    }
}
