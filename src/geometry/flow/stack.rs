//! The stacked contributions to one output row: for every component c of
//! B_i, the T signed terms α′_ij·V_jc stacked on a shared zero line, positive
//! terms upward and negative ones downward, so what is left between the two
//! ends is exactly B_ic = Σ_j α′_ij·V_jc.

use ndarray::Array2;

/// One token's term α′_ij·V_jc, placed on its component's stack (value units).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    /// The token j it comes from.
    pub row: usize,
    /// The signed term α′_ij·V_jc.
    pub value: f64,
    /// The lower end on the value axis.
    pub low: f64,
    /// The upper end; `high − low` is |value|.
    pub high: f64,
}

/// Every token's term for one component, stacked.
#[derive(Clone, Debug, PartialEq)]
pub struct Stack {
    /// One segment per token, in token order.
    pub segments: Vec<Segment>,
    /// The top of the positive stack: the sum of the positive terms.
    pub positive: f64,
    /// The bottom of the negative stack: the sum of the negative terms.
    pub negative: f64,
}

impl Stack {
    /// The net sum the stack stands for, B_ic.
    pub fn total(&self) -> f64 {
        self.positive + self.negative
    }
}

/// The terms `weights[j] × column[j]` stacked from zero. A non-finite term
/// (never produced by the core) is stacked as zero so no drawing breaks.
pub fn stack(weights: &[f64], column: &[f64]) -> Stack {
    let mut positive = 0.0;
    let mut negative = 0.0;
    let segments = weights
        .iter()
        .zip(column)
        .enumerate()
        .map(|(row, (w, v))| {
            let value = w * v;
            let value = if value.is_finite() { value } else { 0.0 };
            let (low, high) = if value >= 0.0 {
                positive += value;
                (positive - value, positive)
            } else {
                negative += value;
                (negative, negative - value)
            };
            Segment {
                row,
                value,
                low,
                high,
            }
        })
        .collect();
    Stack {
        segments,
        positive,
        negative,
    }
}

/// One stack per column of `v` (per component of B_i), for weights row α′_i.
pub fn stacks(weights: &[f64], v: &Array2<f64>) -> Vec<Stack> {
    v.columns()
        .into_iter()
        .map(|column| stack(weights, &column.to_vec()))
        .collect()
}

/// Maps values to SVG y positions (y grows downward).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ValueScale {
    /// The y of value 0.
    pub zero: f64,
    /// Pixels per unit of value.
    pub per_unit: f64,
}

impl ValueScale {
    /// A scale that fits every stack in `stacks` between `top` and
    /// `top + height`. Given the stacks of every query, not just the selected
    /// one, it stays put while the learner switches queries, so bars compare
    /// across queries, yet it is as tight as the numbers allow.
    pub fn fit<'a>(stacks: impl IntoIterator<Item = &'a Stack>, top: f64, height: f64) -> Self {
        let (up, down) = stacks
            .into_iter()
            .fold((0.0_f64, 0.0_f64), |(up, down), s| {
                (up.max(s.positive), down.max(-s.negative))
            });
        // With nothing to draw, centre the zero line.
        let (up, down) = if up + down > 0.0 {
            (up, down)
        } else {
            (0.5, 0.5)
        };
        let per_unit = height / (up + down);
        Self {
            zero: top + up * per_unit,
            per_unit,
        }
    }

    /// The y of `value`.
    pub fn y(&self, value: f64) -> f64 {
        self.zero - value * self.per_unit
    }

    /// The top y and the (non-negative) height of the range `low..high`.
    pub fn span(&self, low: f64, high: f64) -> (f64, f64) {
        let (a, b) = (self.y(low), self.y(high));
        (a.min(b), (a - b).abs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn positive_terms_stack_up_and_negative_terms_stack_down() {
        let s = stack(&[0.5, 0.2, 0.3], &[0.4, -0.5, 1.0]);
        let ends: Vec<(f64, f64)> = s.segments.iter().map(|g| (g.low, g.high)).collect();
        assert!(close(ends[0].0, 0.0) && close(ends[0].1, 0.2));
        assert!(close(ends[1].0, -0.1) && close(ends[1].1, 0.0));
        assert!(close(ends[2].0, 0.2) && close(ends[2].1, 0.5));
        assert!(close(s.positive, 0.5) && close(s.negative, -0.1));
        assert!(close(s.total(), 0.4));
    }

    #[test]
    fn segments_add_up_to_the_weighted_sum_and_never_overlap() {
        let weights = [0.1, 0.35, 0.05, 0.3, 0.2];
        let v = array![
            [0.3, -1.2],
            [-0.7, 0.4],
            [1.1, 0.0],
            [-0.2, -0.9],
            [0.6, 0.8]
        ];
        for (c, s) in stacks(&weights, &v).iter().enumerate() {
            let expected: f64 = (0..5).map(|j| weights[j] * v[[j, c]]).sum();
            let signed: f64 = s
                .segments
                .iter()
                .map(|g| (g.high - g.low) * g.value.signum())
                .sum();
            assert!(close(signed, expected) && close(s.total(), expected));
            let mut ranges: Vec<(f64, f64)> = s.segments.iter().map(|g| (g.low, g.high)).collect();
            ranges.sort_by(|a, b| a.0.total_cmp(&b.0));
            assert!(
                ranges.windows(2).all(|w| w[0].1 <= w[1].0 + 1e-12),
                "{ranges:?}"
            );
        }
    }

    #[test]
    fn a_zero_weight_gives_an_empty_segment() {
        let s = stack(&[0.0, 1.0], &[5.0, -2.0]);
        assert_eq!(s.segments[0].high - s.segments[0].low, 0.0);
        assert_eq!(s.total(), -2.0);
    }

    #[test]
    fn the_scale_fits_every_stack_it_is_given_and_no_more() {
        let v = array![[1.0, -2.0], [0.5, 0.5]];
        let mut all = stacks(&[0.5, 0.5], &v);
        all.extend(stacks(&[1.0, 0.0], &v));
        // The highest stack is 1.0 (second weights row, first column), the
        // lowest −2.0 (second row, second column): 3 units in 300 px.
        let scale = ValueScale::fit(&all, 10.0, 300.0);
        assert!(close(scale.per_unit, 100.0) && close(scale.zero, 110.0));
        assert!(close(scale.y(1.0), 10.0) && close(scale.y(-2.0), 310.0));
        for s in &all {
            assert!(scale.y(s.positive) >= 10.0 - 1e-9);
            assert!(scale.y(s.negative) <= 310.0 + 1e-9);
        }
        assert_eq!(scale.span(-0.5, 0.25), (85.0, 75.0));
        assert_eq!(scale.span(0.25, -0.5), (85.0, 75.0));
    }

    #[test]
    fn an_all_zero_v_still_has_a_centred_zero_line() {
        let v = Array2::zeros((2, 2));
        let scale = ValueScale::fit(&stacks(&[0.5, 0.5], &v), 0.0, 100.0);
        assert_eq!(scale.zero, 50.0);
    }
}
