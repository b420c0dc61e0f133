//! Geometry of the activation's curve: a square plot of act(x) for x in
//! [−reach, reach], where each hidden number of a token sits as a dot. Pure,
//! and tested both ways (value → point and point → value).

/// The plotting area, in SVG units, and the values at its edges.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CurvePlot {
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub height: f64,
    /// x runs over [−reach, reach]; y over [−reach/2, reach] (activations
    /// dip only a little below 0).
    pub reach: f64,
}

impl CurvePlot {
    /// A plot wide enough for every value of `xs` (at least ±1, rounded up
    /// to a whole number).
    pub fn holding(left: f64, top: f64, width: f64, height: f64, xs: &[f64]) -> Self {
        let largest = xs
            .iter()
            .filter(|v| v.is_finite())
            .fold(1.0_f64, |m, v| m.max(v.abs()));
        CurvePlot {
            left,
            top,
            width,
            height,
            reach: largest.ceil(),
        }
    }

    /// The lowest y the plot shows.
    pub fn y_min(&self) -> f64 {
        -self.reach / 2.0
    }

    /// The point of (x, y).
    pub fn point(&self, (x, y): (f64, f64)) -> (f64, f64) {
        let across = (x + self.reach) / (2.0 * self.reach);
        let up = (y - self.y_min()) / (self.reach - self.y_min());
        (
            self.left + across * self.width,
            self.top + (1.0 - up) * self.height,
        )
    }

    /// The (x, y) at point (px, py).
    pub fn value(&self, (px, py): (f64, f64)) -> (f64, f64) {
        let across = (px - self.left) / self.width;
        let up = 1.0 - (py - self.top) / self.height;
        (
            across * 2.0 * self.reach - self.reach,
            self.y_min() + up * (self.reach - self.y_min()),
        )
    }

    /// `n` + 1 evenly spaced x from −reach to reach, for drawing the curve.
    pub fn xs(&self, n: usize) -> impl Iterator<Item = f64> + '_ {
        let step = 2.0 * self.reach / n.max(1) as f64;
        (0..=n).map(move |i| -self.reach + i as f64 * step)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_and_values_are_each_others_inverse() {
        let plot = CurvePlot::holding(20.0, 10.0, 160.0, 120.0, &[-4.2, 1.0, f64::NAN]);
        assert_eq!(plot.reach, 5.0);
        for value in [(-5.0, -2.5), (0.0, 0.0), (5.0, 5.0), (1.25, -0.5)] {
            let back = plot.value(plot.point(value));
            assert!((back.0 - value.0).abs() < 1e-12 && (back.1 - value.1).abs() < 1e-12);
        }
        // The corners: (−reach, y_min) bottom left, (reach, reach) top right.
        assert_eq!(plot.point((-5.0, -2.5)), (20.0, 130.0));
        assert_eq!(plot.point((5.0, 5.0)), (180.0, 10.0));
        let xs: Vec<f64> = plot.xs(4).collect();
        assert_eq!(xs, [-5.0, -2.5, 0.0, 2.5, 5.0]);
    }

    #[test]
    fn small_values_still_get_a_plot_of_one_either_side() {
        assert_eq!(CurvePlot::holding(0.0, 0.0, 1.0, 1.0, &[0.2]).reach, 1.0);
        assert_eq!(CurvePlot::holding(0.0, 0.0, 1.0, 1.0, &[]).reach, 1.0);
    }
}
