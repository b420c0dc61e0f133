//! The geometry of the fusion diagram B_i = Σ_j α′_ij V_j: token colours,
//! the connectors that carry each V_j into B_i, the stacked contributions
//! ([`stack`]), where everything sits ([`layout`]) and one frame of live
//! positions ([`frame`]). Pure and tested natively, like the rest of `geometry`.

pub mod frame;
pub mod layout;
pub mod stack;

use crate::geometry::colour::Rgb;
use crate::geometry::format::coord;

/// The categorical colour of token `j`. The first ten are Tableau 10, a
/// palette designed to stay distinguishable with common colour-vision
/// deficiencies; since the app allows 16 tokens, ColorBrewer's Dark 2 follows,
/// so every token of a sequence still has its own colour (the legend and the
/// labels name them in any case).
pub fn token_colour(j: usize) -> Rgb {
    let first = colorous::TABLEAU10;
    let second = colorous::DARK2;
    let k = j % (first.len() + second.len());
    let c = first
        .get(k)
        .or_else(|| second.get(k - first.len()))
        .copied()
        .unwrap_or(first[0]);
    Rgb(c.r, c.g, c.b)
}

/// Below this width (in SVG units) a connector is drawn as a dashed hairline,
/// so a weight of zero still shows that the path exists but carries nothing.
pub const FAINT_WIDTH: f64 = 0.75;

/// The stroke width of a connector carrying weight `weight`: proportional to
/// the weight, so the widths compare like the weights do. Weights outside
/// [0, 1] (never produced by softmax) are clamped; NaN carries nothing.
pub fn stroke_width(weight: f64, max_width: f64) -> f64 {
    if weight.is_finite() {
        weight.clamp(0.0, 1.0) * max_width.max(0.0)
    } else {
        0.0
    }
}

/// How opaque something carrying weight `weight` is drawn (a connector, or
/// the value row it leaves): a floor keeps light ones readable against the
/// card, and it grows with the weight so heavy ones stand out.
pub fn emphasis(weight: f64) -> f64 {
    let w = if weight.is_finite() {
        weight.clamp(0.0, 1.0)
    } else {
        0.0
    };
    0.35 + 0.65 * w
}

/// A cubic Bézier from one value row to the output row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Connector {
    /// Where it leaves V_j (right edge of the row, at its centre).
    pub from: (f64, f64),
    /// Where it enters B_i (left edge of the output row, at its centre).
    pub to: (f64, f64),
    /// Stroke width, proportional to the weight.
    pub width: f64,
    /// Stroke opacity, growing with the weight.
    pub opacity: f64,
    /// Where it runs down, how far right of `from`, when it ends at the
    /// right of B_i under the value rows (a stacked layout); `None` when it
    /// ends beside them.
    pub bend: Option<f64>,
}

impl Connector {
    /// The connector from `from` to `to` for weight `weight`.
    pub fn new(from: (f64, f64), to: (f64, f64), weight: f64, max_width: f64) -> Self {
        Self {
            from,
            to,
            width: stroke_width(weight, max_width),
            opacity: emphasis(weight),
            bend: None,
        }
    }

    /// The same connector ending at the right of B_i under the value rows:
    /// it leaves rightward, runs down `bend` right of its start, and comes
    /// back left into `to`, so it never crosses the value rows.
    pub fn arriving_from_the_right(self, bend: f64) -> Self {
        Self {
            bend: Some(bend),
            ..self
        }
    }

    /// The two control points. Beside B_i: both at the horizontal middle,
    /// one level with each end, so the curve leaves and arrives horizontally.
    /// Under the value rows: both `bend` right of the start, one level with
    /// each end, so the curve leaves rightward, runs down and arrives going
    /// left.
    pub fn controls(&self) -> ((f64, f64), (f64, f64)) {
        if let Some(bend) = self.bend {
            let down = self.from.0 + bend;
            return ((down, self.from.1), (down, self.to.1));
        }
        let middle = (self.from.0 + self.to.0) / 2.0;
        ((middle, self.from.1), (middle, self.to.1))
    }

    /// The SVG path data, `M x y C x1 y1, x2 y2, x y`, to one decimal place.
    pub fn path(&self) -> String {
        let ((x1, y1), (x2, y2)) = self.controls();
        let [a, b, c, d, e, f, g, h] = [
            self.from.0,
            self.from.1,
            x1,
            y1,
            x2,
            y2,
            self.to.0,
            self.to.1,
        ]
        .map(coord);
        format!("M {a} {b} C {c} {d}, {e} {f}, {g} {h}")
    }

    /// Whether the stroke is too thin to see and is drawn as a dashed hairline.
    pub fn is_faint(&self) -> bool {
        self.width < FAINT_WIDTH
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn distance(a: Rgb, b: Rgb) -> f64 {
        let d = |x: u8, y: u8| f64::from(x) - f64::from(y);
        (d(a.0, b.0).powi(2) + d(a.1, b.1).powi(2) + d(a.2, b.2).powi(2)).sqrt()
    }

    #[test]
    fn sixteen_tokens_get_sixteen_clearly_different_colours() {
        let colours: Vec<Rgb> = (0..16).map(token_colour).collect();
        for (a, ca) in colours.iter().enumerate() {
            for (b, cb) in colours.iter().enumerate().skip(a + 1) {
                assert!(
                    distance(*ca, *cb) > 40.0,
                    "tokens {a} and {b}: {ca:?} {cb:?}"
                );
            }
        }
    }

    #[test]
    fn the_first_token_is_tableau_blue() {
        assert_eq!(token_colour(0).hex(), "#4e79a7");
        assert_eq!(token_colour(10).hex(), "#1b9e77");
        assert_eq!(token_colour(18), token_colour(0));
    }

    #[test]
    fn width_is_proportional_to_weight_and_zero_for_zero() {
        assert_eq!(stroke_width(0.0, 12.0), 0.0);
        assert_eq!(stroke_width(1.0, 12.0), 12.0);
        assert_eq!(stroke_width(0.25, 12.0), 3.0);
        assert_eq!(stroke_width(f64::NAN, 12.0), 0.0);
        assert_eq!(stroke_width(3.0, 12.0), 12.0);
        let widths: Vec<f64> = (0..=20)
            .map(|i| stroke_width(f64::from(i) / 20.0, 12.0))
            .collect();
        assert!(widths.windows(2).all(|w| w[0] < w[1]), "{widths:?}");
    }

    #[test]
    fn opacity_grows_with_weight_and_never_hides_a_carrying_connector() {
        let steps: Vec<f64> = (0..=10).map(|i| emphasis(f64::from(i) / 10.0)).collect();
        assert!(steps.windows(2).all(|w| w[0] < w[1]), "{steps:?}");
        assert!(steps[1] > 0.3 && steps[10] == 1.0);
    }

    #[test]
    fn a_zero_weight_connector_is_faint_and_a_real_one_is_not() {
        assert!(Connector::new((0.0, 0.0), (10.0, 5.0), 0.0, 12.0).is_faint());
        assert!(!Connector::new((0.0, 0.0), (10.0, 5.0), 0.2, 12.0).is_faint());
    }

    #[test]
    fn the_curve_runs_from_end_to_end_and_leaves_horizontally() {
        let c = Connector::new((10.0, 20.0), (110.0, 80.0), 0.5, 12.0);
        let ((x1, y1), (x2, y2)) = c.controls();
        assert_eq!((y1, y2), (20.0, 80.0));
        assert_eq!((x1, x2), (60.0, 60.0));
        assert_eq!(c.path(), "M 10 20 C 60 20, 60 80, 110 80");
        let short = Connector::new((0.25, 1.0 / 3.0), (2.0, 4.0), 0.5, 12.0);
        assert_eq!(short.path(), "M 0.2 0.3 C 1.1 0.3, 1.1 4, 2 4");
    }
}
