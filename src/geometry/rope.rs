//! Geometry of the RoPE view: a dial on which one pair of columns (2i,
//! 2i+1) of q or k is an arrow from the centre, and a chart of the score
//! against the offset p_q − p_k. Pure, and tested both ways (value → point
//! and point → value).

/// A square dial of `radius` around (`cx`, `cy`) on which a vector of
/// length `reach` touches the rim.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dial {
    pub cx: f64,
    pub cy: f64,
    pub radius: f64,
    pub reach: f64,
}

impl Dial {
    /// A dial that holds every one of `pairs` (each (a, b)) within its rim;
    /// a dial of zeros still has a reach of 1, so nothing divides by zero.
    pub fn holding(cx: f64, cy: f64, radius: f64, pairs: &[(f64, f64)]) -> Self {
        let longest = pairs
            .iter()
            .map(|&(a, b)| length(a, b))
            .filter(|l| l.is_finite())
            .fold(0.0, f64::max);
        let reach = if longest > 0.0 { longest } else { 1.0 };
        Dial {
            cx,
            cy,
            radius,
            reach,
        }
    }

    /// Where the tip of the arrow (a, b) is: a to the right, b upward.
    pub fn point(&self, (a, b): (f64, f64)) -> (f64, f64) {
        let scale = self.radius / self.reach;
        (self.cx + a * scale, self.cy - b * scale)
    }

    /// The vector whose tip is at (x, y).
    pub fn vector(&self, (x, y): (f64, f64)) -> (f64, f64) {
        let scale = self.reach / self.radius;
        ((x - self.cx) * scale, (self.cy - y) * scale)
    }
}

/// The length of (a, b), scaled so that no square overflows. Not
/// `f64::hypot`: in WebAssembly that brings compiler-builtins' software
/// fused multiply-add (0.9 KB of code) besides itself, for a dial's radius.
fn length(a: f64, b: f64) -> f64 {
    let largest = a.abs().max(b.abs());
    if largest > 0.0 {
        let (a, b) = (a / largest, b / largest);
        largest * (a * a + b * b).sqrt()
    } else {
        largest
    }
}

/// A chart of one value per offset, `first..=last`, in a box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OffsetChart {
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub height: f64,
    pub first: i64,
    pub last: i64,
    /// The values' range on the y axis, low to high.
    pub low: f64,
    pub high: f64,
}

impl OffsetChart {
    /// A chart of `values` (the first at offset `first`) whose y axis holds
    /// all of them, widened when they are all equal.
    pub fn of(
        values: &[f64],
        first: i64,
        (left, top, width, height): (f64, f64, f64, f64),
    ) -> Self {
        let finite = values.iter().copied().filter(|v| v.is_finite());
        let low = finite.clone().fold(f64::INFINITY, f64::min);
        let high = finite.fold(f64::NEG_INFINITY, f64::max);
        let (low, high) = match (low.is_finite(), high > low) {
            (true, true) => (low, high),
            (true, false) => (low - 1.0, high + 1.0),
            _ => (-1.0, 1.0),
        };
        OffsetChart {
            left,
            top,
            width,
            height,
            first,
            last: first + values.len().saturating_sub(1) as i64,
            low,
            high,
        }
    }

    /// x of an offset, the first at the left edge.
    pub fn x(&self, offset: i64) -> f64 {
        let span = (self.last - self.first).max(1) as f64;
        self.left + self.width * (offset - self.first) as f64 / span
    }

    /// The offset nearest to x, within the chart's offsets.
    pub fn offset_at(&self, x: f64) -> i64 {
        let span = (self.last - self.first).max(1) as f64;
        let at = self.first as f64 + (x - self.left) / self.width * span;
        (at.round() as i64).clamp(self.first, self.last)
    }

    /// y of a value, higher values further up.
    pub fn y(&self, value: f64) -> f64 {
        self.top + self.height * (self.high - value) / (self.high - self.low)
    }

    /// The value at height y.
    pub fn value_at(&self, y: f64) -> f64 {
        self.high - (y - self.top) / self.height * (self.high - self.low)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dial_puts_the_longest_arrow_on_its_rim_and_reads_points_back() {
        let dial = Dial::holding(50.0, 50.0, 40.0, &[(3.0, 4.0), (1.0, 0.0)]);
        assert_eq!(dial.reach, 5.0);
        assert_eq!(dial.point((3.0, 4.0)), (74.0, 18.0));
        assert_eq!(dial.point((0.0, 0.0)), (50.0, 50.0));
        for v in [(3.0, 4.0), (-1.5, 0.25), (0.0, -5.0)] {
            let back = dial.vector(dial.point(v));
            assert!(
                (back.0 - v.0).abs() < 1e-12 && (back.1 - v.1).abs() < 1e-12,
                "{back:?}"
            );
        }
        let huge = Dial::holding(0.0, 0.0, 10.0, &[(3e300, 4e300)]);
        assert!(
            (huge.reach / 5e300 - 1.0).abs() < 1e-15,
            "no square overflows"
        );
        let empty = Dial::holding(0.0, 0.0, 10.0, &[(0.0, 0.0)]);
        assert_eq!(empty.point((0.5, 0.0)), (5.0, 0.0), "zeros: a reach of 1");
    }

    #[test]
    fn the_offset_chart_spans_its_offsets_and_values_both_ways() {
        let chart = OffsetChart::of(&[1.0, 3.0, 2.0, -1.0, 0.0], -2, (10.0, 5.0, 100.0, 40.0));
        assert_eq!((chart.first, chart.last), (-2, 2));
        assert_eq!((chart.low, chart.high), (-1.0, 3.0));
        assert_eq!(chart.x(-2), 10.0);
        assert_eq!(chart.x(2), 110.0);
        assert_eq!(chart.y(3.0), 5.0);
        assert_eq!(chart.y(-1.0), 45.0);
        for offset in -2..=2 {
            assert_eq!(chart.offset_at(chart.x(offset)), offset);
            assert_eq!(chart.offset_at(chart.x(offset) + 10.0), offset, "nearest");
        }
        assert_eq!(chart.offset_at(-500.0), -2, "clamped");
        for v in [-1.0, 0.5, 3.0] {
            assert!((chart.value_at(chart.y(v)) - v).abs() < 1e-12);
        }
        let flat = OffsetChart::of(&[2.0, 2.0], 0, (0.0, 0.0, 10.0, 10.0));
        assert_eq!((flat.low, flat.high), (1.0, 3.0));
        assert_eq!(flat.y(2.0), 5.0);
    }
}
