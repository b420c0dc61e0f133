//! The layout of a bar chart of weights in [0, 1]: one column per key, the
//! value printed above each bar and the key's label below the baseline.

use crate::geometry::grid::Rect;

/// Height of the band above the plot that holds the value of a full bar.
const VALUE_BAND: f64 = 20.0;
/// Height of the band below the baseline that holds the key labels.
const LABEL_BAND: f64 = 24.0;
/// How much of its column a bar fills; the rest separates neighbours.
const BAR_FRACTION: f64 = 0.7;
/// Space between a bar's top and its printed value.
const VALUE_GAP: f64 = 4.0;

/// Where each part of an `n`-bar chart of size `width`×`height` goes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BarLayout {
    pub n: usize,
    pub width: f64,
    pub height: f64,
}

impl BarLayout {
    /// A chart of `n` bars filling `width`×`height` SVG units.
    pub fn new(n: usize, width: f64, height: f64) -> Self {
        Self { n, width, height }
    }

    /// Width of one key's column.
    fn pitch(&self) -> f64 {
        self.width / self.n.max(1) as f64
    }

    /// The y of the baseline, where a bar of value 0 stands.
    pub fn baseline(&self) -> f64 {
        (self.height - LABEL_BAND).max(VALUE_BAND)
    }

    /// The y a bar of value 1 reaches.
    pub fn top(&self) -> f64 {
        VALUE_BAND
    }

    /// Column `j` from the top of the plot to the baseline: the area that
    /// answers the pointer, so even a bar of height 0 can be hovered.
    pub fn slot(&self, j: usize) -> Rect {
        Rect {
            x: j as f64 * self.pitch(),
            y: self.top(),
            width: self.pitch(),
            height: self.baseline() - self.top(),
        }
    }

    /// The bar of key `j` with `value`, which is clamped to [0, 1] (and taken
    /// as 0 when not finite) so a bar never leaves the plot.
    pub fn bar(&self, j: usize, value: f64) -> Rect {
        let value = if value.is_finite() {
            value.clamp(0.0, 1.0)
        } else {
            0.0
        };
        let slot = self.slot(j);
        let width = slot.width * BAR_FRACTION;
        let height = slot.height * value;
        Rect {
            x: slot.x + (slot.width - width) / 2.0,
            y: self.baseline() - height,
            width,
            height,
        }
    }

    /// The anchor of the printed value: centred just above the bar's top.
    pub fn value_label(&self, j: usize, value: f64) -> (f64, f64) {
        let bar = self.bar(j, value);
        (bar.centre().0, bar.y - VALUE_GAP - VALUE_BAND / 4.0)
    }

    /// The anchor of key `j`'s label: centred below the baseline.
    pub fn key_label(&self, j: usize) -> (f64, f64) {
        (self.slot(j).centre().0, self.baseline() + LABEL_BAND / 2.0)
    }
}

/// `label` cut to at most `max_chars` characters, ending in "…" when cut, so
/// a long token does not run into its neighbours' labels.
pub fn short_label(label: &str, max_chars: usize) -> String {
    if label.chars().count() <= max_chars {
        return label.to_string();
    }
    let kept: String = label.chars().take(max_chars.saturating_sub(1)).collect();
    format!("{kept}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_stand_on_the_baseline_and_grow_with_their_value() {
        let layout = BarLayout::new(4, 200.0, 160.0);
        let half = layout.bar(1, 0.5);
        let full = layout.bar(1, 1.0);
        assert_eq!(half.y + half.height, layout.baseline());
        assert_eq!(full.y + full.height, layout.baseline());
        assert_eq!(full.y, layout.top());
        assert!((half.height * 2.0 - full.height).abs() < 1e-12);
        assert_eq!(layout.bar(1, 0.0).height, 0.0);
    }

    #[test]
    fn values_outside_zero_to_one_stay_inside_the_plot() {
        let layout = BarLayout::new(3, 120.0, 100.0);
        assert_eq!(layout.bar(0, 7.0), layout.bar(0, 1.0));
        assert_eq!(layout.bar(0, -1.0), layout.bar(0, 0.0));
        assert_eq!(layout.bar(0, f64::NAN), layout.bar(0, 0.0));
    }

    #[test]
    fn bars_sit_inside_their_own_column_without_touching() {
        let layout = BarLayout::new(5, 300.0, 120.0);
        for j in 0..5 {
            let (slot, bar) = (layout.slot(j), layout.bar(j, 1.0));
            assert!(bar.x > slot.x && bar.x + bar.width < slot.x + slot.width);
            assert!((bar.centre().0 - slot.centre().0).abs() < 1e-9);
            if j + 1 < 5 {
                assert!(layout.bar(j + 1, 1.0).x > bar.x + bar.width);
            }
        }
        let last = layout.slot(4);
        assert!((last.x + last.width - 300.0).abs() < 1e-9);
    }

    #[test]
    fn labels_go_above_the_bar_and_below_the_baseline() {
        let layout = BarLayout::new(2, 100.0, 150.0);
        let (x, y) = layout.value_label(1, 0.4);
        assert_eq!(x, layout.bar(1, 0.4).centre().0);
        assert!(y < layout.bar(1, 0.4).y);
        assert!(
            layout.value_label(1, 1.0).1 > 0.0,
            "a full bar's value stays visible"
        );
        let (x, y) = layout.key_label(0);
        assert_eq!(x, layout.slot(0).centre().0);
        assert!(y > layout.baseline() && y < 150.0);
    }

    #[test]
    fn a_chart_without_bars_or_room_does_not_divide_by_zero() {
        let layout = BarLayout::new(0, 100.0, 10.0);
        assert!(layout.slot(0).width.is_finite());
        assert!(layout.baseline() >= layout.top());
    }

    #[test]
    fn long_labels_are_cut_with_an_ellipsis() {
        assert_eq!(short_label("篮球", 6), "篮球");
        assert_eq!(short_label("basketball", 6), "baske…");
        assert_eq!(short_label("abcdef", 6), "abcdef");
    }
}
