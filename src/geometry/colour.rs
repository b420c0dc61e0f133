//! Colour scales. Weights in [0, 1] use a sequential perceptual scale
//! (viridis); signed values use a diverging, colour-blind-safe scale (RdBu)
//! centred on zero. Both come from the maintained `colorous` crate.

/// An sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// `#rrggbb`, for an SVG `fill`.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }

    /// Relative luminance (WCAG 2), 0 for black to 1 for white.
    pub fn luminance(self) -> f64 {
        // Each channel's linear value, worked out once for all 256 levels:
        // every painted cell asks for its text colour on every change, and a
        // power in WebAssembly is slow (three per cell cost 0.3 ms at T = 16).
        static LINEAR: std::sync::OnceLock<[f64; 256]> = std::sync::OnceLock::new();
        let linear = LINEAR.get_or_init(|| std::array::from_fn(|c| linear_channel(c as u8)));
        let channel = |c: u8| linear[usize::from(c)];
        0.2126 * channel(self.0) + 0.7152 * channel(self.1) + 0.0722 * channel(self.2)
    }

    /// This colour greyed out, for a masked cell: mostly a mid grey, opaque,
    /// so the ink chosen for it ([`Rgb::text_colour`]) reads on it on a light
    /// page and a dark one alike, where a faint fill would take the page's
    /// colour and leave its number unreadable.
    pub fn greyed(self) -> Rgb {
        let mix = |c: u8| ((f64::from(c) * 0.35 + 128.0 * 0.65).round()) as u8;
        Rgb(mix(self.0), mix(self.1), mix(self.2))
    }

    /// Black or white, whichever reads better on this colour.
    pub fn text_colour(self) -> Rgb {
        // 0.179 is where black and white text have equal WCAG contrast.
        if self.luminance() > 0.179 {
            Rgb(0, 0, 0)
        } else {
            Rgb(255, 255, 255)
        }
    }
}

/// An sRGB channel level as linear light, 0 to 1 (WCAG 2).
fn linear_channel(c: u8) -> f64 {
    let c = f64::from(c) / 255.0;
    if c <= 0.040_45 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn from_colorous(c: colorous::Color) -> Rgb {
    Rgb(c.r, c.g, c.b)
}

/// Colour of an attention weight: 0 → dark purple, 1 → yellow. Values outside
/// [0, 1] (never produced by a softmax) are clamped.
pub fn weight_colour(weight: f64) -> Rgb {
    from_colorous(colorous::VIRIDIS.eval_continuous(weight_position(weight)))
}

/// Where a weight lies on the weight scale, 0 to 1: clamped, and 0 when not finite.
pub fn weight_position(weight: f64) -> f64 {
    if weight.is_finite() {
        weight.clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// Colour of a signed value on a scale running from −`extent` (blue) through 0
/// (white) to +`extent` (red).
pub fn signed_colour(value: f64, extent: f64) -> Rgb {
    // RdBu runs red → blue; flip it so positive is red.
    let t = signed_position(value, extent);
    from_colorous(colorous::RED_BLUE.eval_continuous(1.0 - t))
}

/// Where a signed value lies on its scale: 0 at −`extent`, ½ at 0, 1 at
/// +`extent` (clamped; ½ when not finite or the extent is not positive).
pub fn signed_position(value: f64, extent: f64) -> f64 {
    if value.is_finite() && extent > 0.0 {
        (0.5 + 0.5 * value / extent).clamp(0.0, 1.0)
    } else {
        0.5
    }
}

/// Steps a [`Ramp`] samples its scale at.
const RAMP_STEPS: usize = 256;

/// A colour scale sampled at [`RAMP_STEPS`] evenly spaced positions, for a
/// raster of up to 262,144 cells: a table lookup per cell instead of
/// evaluating the gradient, at most half a step (1/510 of the scale) away.
pub struct Ramp(Vec<Rgb>);

impl Ramp {
    /// Samples `colour`, a function of the position 0…1 on the scale.
    pub fn sampled(colour: impl Fn(f64) -> Rgb) -> Self {
        let last = (RAMP_STEPS - 1) as f64;
        Self((0..RAMP_STEPS).map(|i| colour(i as f64 / last)).collect())
    }

    /// The colour at `position` (0…1, clamped) on the scale.
    pub fn at(&self, position: f64) -> Rgb {
        let last = RAMP_STEPS - 1;
        // Truncation after rounding: position is clamped to 0…1 first.
        let step = (position.clamp(0.0, 1.0) * last as f64).round() as usize;
        self.0.get(step.min(last)).copied().unwrap_or(Rgb(0, 0, 0))
    }
}

#[cfg(test)]
mod vision;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weight_scale_gets_lighter_as_weight_grows() {
        let steps: Vec<f64> = (0..=10)
            .map(|i| weight_colour(f64::from(i) / 10.0).luminance())
            .collect();
        assert!(steps.windows(2).all(|w| w[0] < w[1]), "{steps:?}");
    }

    #[test]
    fn weight_scale_clamps_and_survives_nan() {
        assert_eq!(weight_colour(-1.0), weight_colour(0.0));
        assert_eq!(weight_colour(7.0), weight_colour(1.0));
        assert_eq!(weight_colour(f64::NAN), weight_colour(0.0));
    }

    #[test]
    fn signed_scale_is_light_at_zero_and_symmetric_in_lightness() {
        let zero = signed_colour(0.0, 2.0).luminance();
        assert!(zero > 0.8);
        for v in [0.5, 1.0, 2.0] {
            let (pos, neg) = (signed_colour(v, 2.0), signed_colour(-v, 2.0));
            assert!(pos.luminance() < zero && neg.luminance() < zero);
            assert!(pos.0 > pos.2, "positive values are red: {pos:?}");
            assert!(neg.2 > neg.0, "negative values are blue: {neg:?}");
        }
    }

    #[test]
    fn luminance_follows_wcag_on_both_sides_of_the_linear_segment() {
        assert_eq!(Rgb(0, 0, 0).luminance(), 0.0);
        assert!((Rgb(255, 255, 255).luminance() - 1.0).abs() < 1e-12);
        // Level 10 is on the linear segment (10/255 ≤ 0.04045), 128 past it.
        assert!((Rgb(10, 10, 10).luminance() - 10.0 / 255.0 / 12.92).abs() < 1e-12);
        assert!((Rgb(128, 128, 128).luminance() - 0.215_861).abs() < 1e-6);
        let green = Rgb(0, 255, 0).luminance();
        assert!((green - 0.7152).abs() < 1e-12, "{green}");
    }

    #[test]
    fn text_stays_readable_on_every_fill() {
        for i in 0..=20 {
            let fill = weight_colour(f64::from(i) / 20.0);
            let (l1, l2) = (fill.luminance(), fill.text_colour().luminance());
            let contrast = (l1.max(l2) + 0.05) / (l1.min(l2) + 0.05);
            assert!(contrast >= 4.5, "contrast {contrast} on {fill:?}");
        }
    }

    #[test]
    fn a_greyed_colour_is_opaque_grey_mostly_and_keeps_its_text_readable() {
        assert_eq!(Rgb(0, 0, 0).greyed(), Rgb(83, 83, 83));
        assert_eq!(Rgb(255, 255, 255).greyed(), Rgb(172, 172, 172));
        for step in 0..=100 {
            let t = f64::from(step) / 100.0;
            for fill in [weight_colour(t), signed_colour(2.0 * t - 1.0, 1.0)] {
                let grey = fill.greyed();
                let (l1, l2) = (grey.luminance(), grey.text_colour().luminance());
                let contrast = (l1.max(l2) + 0.05) / (l1.min(l2) + 0.05);
                assert!(contrast >= 4.5, "contrast {contrast} on {grey:?}");
            }
        }
    }

    #[test]
    fn hex_is_css_ready() {
        assert_eq!(Rgb(255, 0, 16).hex(), "#ff0010");
    }

    #[test]
    fn a_ramp_is_the_scale_at_its_samples_and_close_between() {
        let ramp = Ramp::sampled(weight_colour);
        for i in 0..=255 {
            let at = f64::from(i) / 255.0;
            assert_eq!(ramp.at(at), weight_colour(at));
        }
        let channel_gap = |a: Rgb, b: Rgb| {
            [a.0.abs_diff(b.0), a.1.abs_diff(b.1), a.2.abs_diff(b.2)]
                .into_iter()
                .max()
                .unwrap_or(0)
        };
        for i in 0..=1000 {
            let at = f64::from(i) / 1000.0;
            assert!(channel_gap(ramp.at(at), weight_colour(at)) <= 2, "{at}");
        }
        let signed = Ramp::sampled(|t| signed_colour(2.0 * t - 1.0, 1.0));
        for v in [-3.0, -1.5, 0.0, 0.4, 3.0] {
            let exact = signed_colour(v, 3.0);
            assert!(
                channel_gap(signed.at(signed_position(v, 3.0)), exact) <= 2,
                "{v}"
            );
        }
        assert_eq!(ramp.at(f64::NAN), ramp.at(0.0));
        assert_eq!(ramp.at(7.0), weight_colour(1.0));
    }
}
