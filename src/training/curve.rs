//! The loss curve as SVG markup: the loss of every step so far against the
//! step, on a linear scale from 0, with the task's goal as a dashed line. Pure,
//! so tests read the drawn numbers back natively.

use crate::geometry::format::{js_number, two_decimals};
use crate::svg::{coord, Markup};

const WIDTH: f64 = 320.0;
const HEIGHT: f64 = 170.0;
const LEFT: f64 = 46.0;
const TOP: f64 = 10.0;
const PLOT_WIDTH: f64 = 264.0;
const PLOT_HEIGHT: f64 = 130.0;
/// The x axis shows at least this many steps, so the first steps do not fill it.
const MIN_STEPS_SHOWN: usize = 100;
/// At most this many points are drawn; a longer curve is thinned evenly.
const MAX_POINTS: usize = 240;

/// Where the curve's points go: `(x, y)` in SVG units for the chosen steps.
pub fn points(losses: &[f64], y_max: f64) -> Vec<(f64, f64)> {
    let last = losses.len().saturating_sub(1);
    let span = last.max(MIN_STEPS_SHOWN) as f64;
    let stride = last.div_ceil(MAX_POINTS).max(1);
    let mut steps: Vec<usize> = (0..=last).step_by(stride).collect();
    if steps.last() != Some(&last) {
        steps.push(last);
    }
    steps
        .into_iter()
        .filter_map(|step| losses.get(step).map(|&loss| (step, loss)))
        .map(|(step, loss)| {
            let share = if y_max > 0.0 {
                (loss / y_max).clamp(0.0, 1.0)
            } else {
                0.0
            };
            (
                LEFT + PLOT_WIDTH * step as f64 / span,
                TOP + PLOT_HEIGHT * (1.0 - share),
            )
        })
        .collect()
}

/// The chart: `data-last-loss` (full precision) and `data-steps` say where
/// training is, for tests and for anyone reading the markup.
pub fn loss_curve(losses: &[f64], threshold: f64, aria: &str) -> String {
    let last = losses.last().copied().unwrap_or(0.0);
    let steps = losses.len().saturating_sub(1);
    let y_max = losses.iter().copied().fold(threshold * 2.0, f64::max);
    let view_box = format!("0 0 {} {}", coord(WIDTH), coord(HEIGHT));
    let (last_loss, step_count) = (js_number(last), steps.to_string());
    let mut m = Markup::new();
    m.start("svg")
        .attr("class", "diagram loss-curve")
        .attr("viewBox", &view_box)
        .attr("role", "img")
        .attr("aria-label", aria)
        .attr("data-testid", "loss-curve")
        .attr("data-last-loss", &last_loss)
        .attr("data-steps", &step_count)
        .end();
    let bottom = coord(TOP + PLOT_HEIGHT);
    let axis = format!(
        "M{} {}V{bottom}H{}",
        coord(LEFT),
        coord(TOP),
        coord(LEFT + PLOT_WIDTH)
    );
    m.start("path")
        .attr("class", "axis")
        .attr("d", &axis)
        .end_empty();
    for (value, y) in [(y_max, TOP), (0.0, TOP + PLOT_HEIGHT)] {
        let y = coord(y + 4.0);
        m.start("text")
            .attr("class", "tick")
            .coord("x", LEFT - 4.0)
            .attr("y", &y)
            .attr("text-anchor", "end")
            .end()
            .text(&two_decimals(value))
            .close("text");
    }
    let goal_y = coord(TOP + PLOT_HEIGHT * (1.0 - threshold / y_max));
    let goal = format!("M{} {goal_y}H{}", coord(LEFT), coord(LEFT + PLOT_WIDTH));
    m.start("path")
        .attr("class", "goal")
        .attr("d", &goal)
        .end_empty();
    let line: Vec<String> = points(losses, y_max)
        .into_iter()
        .map(|(x, y)| format!("{},{}", coord(x), coord(y)))
        .collect();
    m.start("polyline")
        .attr("class", "loss")
        .attr("points", &line.join(" "))
        .end_empty();
    let label_y = coord(TOP + PLOT_HEIGHT + 22.0);
    m.start("text")
        .attr("class", "tick")
        .coord("x", LEFT + PLOT_WIDTH)
        .attr("y", &label_y)
        .attr("text-anchor", "end")
        .end()
        .text(&steps.max(MIN_STEPS_SHOWN).to_string())
        .close("text");
    m.close("svg");
    m.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curve_runs_from_the_first_loss_down_to_the_last() {
        let losses = [1.0, 0.5, 0.25];
        let p = points(&losses, 1.0);
        assert_eq!(p.len(), 3);
        assert_eq!(p[0], (LEFT, TOP));
        assert!(p[1].1 > p[0].1 && p[2].1 > p[1].1, "{p:?}");
        // Three steps of at least a hundred shown.
        assert!((p[2].0 - (LEFT + PLOT_WIDTH * 2.0 / 100.0)).abs() < 1e-9);
    }

    #[test]
    fn a_long_curve_is_thinned_but_keeps_its_last_point() {
        let losses: Vec<f64> = (0..5000).map(|i| 1.0 / (1.0 + i as f64)).collect();
        let p = points(&losses, 1.0);
        assert!(p.len() <= MAX_POINTS + 2, "{}", p.len());
        assert_eq!(p.last().map(|q| q.0), Some(LEFT + PLOT_WIDTH));
    }

    #[test]
    fn the_chart_carries_the_last_loss_and_the_step_count() {
        let svg = loss_curve(&[0.9, 0.4, 0.123456789], 0.05, "curve");
        assert!(svg.contains("data-last-loss=\"0.123456789\""), "{svg}");
        assert!(svg.contains("data-steps=\"2\""));
        assert!(svg.contains("class=\"goal\""));
        assert!(loss_curve(&[], 0.05, "empty").contains("data-steps=\"0\""));
    }
}
