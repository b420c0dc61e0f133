//! The experiment's four line charts as SVG markup: one quantity against d_k,
//! a line without scaling and a line divided by √d_k, and a marker at the
//! d_k the learner chose with both values read out. Pure, so tests read the
//! drawn numbers back natively.

use crate::geometry::chart::{axis_top, Plot};
use crate::geometry::format::{js_number, two_decimals};
use crate::i18n::{experiment as text, Lang, Msg};
use crate::svg::{coord, Markup};
use attention_core::experiment::{ScalingPoint, Stats};

const WIDTH: f64 = 300.0;
/// Room under the plot for the ticks (12 below it), the axis's name (26)
/// and, on a line of its own, the readout (51).
const HEIGHT: f64 = 214.0;
const PLOT: Plot = Plot {
    left: 40.0,
    top: 40.0,
    width: 245.0,
    height: 115.0,
    max_dim: 512.0,
    y_max: 1.0,
    log_y: false,
};

/// One quantity the experiment measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    Variance,
    MaxWeight,
    Entropy,
    Gradient,
}

impl Metric {
    pub const ALL: [Metric; 4] = [
        Metric::Variance,
        Metric::MaxWeight,
        Metric::Entropy,
        Metric::Gradient,
    ];

    fn id(self) -> &'static str {
        match self {
            Metric::Variance => "variance",
            Metric::MaxWeight => "max-weight",
            Metric::Entropy => "entropy",
            Metric::Gradient => "gradient",
        }
    }

    fn title(self) -> Msg {
        match self {
            Metric::Variance => text::VARIANCE,
            Metric::MaxWeight => text::MAX_WEIGHT,
            Metric::Entropy => text::ENTROPY,
            Metric::Gradient => text::GRADIENT,
        }
    }

    pub fn of(self, stats: &Stats) -> f64 {
        match self {
            Metric::Variance => stats.dot_variance,
            Metric::MaxWeight => stats.max_weight,
            Metric::Entropy => stats.entropy,
            Metric::Gradient => stats.gradient,
        }
    }
}

/// One series: its class, legend text and values.
struct Series<'a> {
    class: &'static str,
    name: &'a str,
    values: Vec<(f64, f64)>,
}

/// The chart of `metric` over `points`, with the marker at `marker` (a d_k).
pub fn chart(metric: Metric, points: &[ScalingPoint], marker: usize, lang: Lang) -> String {
    let value_at = |d: usize, scaled: bool| {
        points.iter().find(|p| p.d_k == d).map(|p| {
            let stats = if scaled { &p.scaled } else { &p.unscaled };
            metric.of(stats)
        })
    };
    let series = |scaled: bool, class, name: Msg| Series {
        class,
        name: name.get(lang),
        values: points
            .iter()
            .map(|p| {
                let stats = if scaled { &p.scaled } else { &p.unscaled };
                (p.d_k as f64, metric.of(stats))
            })
            .collect(),
    };
    let lines = [
        series(false, "unscaled", text::UNSCALED),
        series(true, "scaled", text::SCALED),
    ];
    let largest = lines
        .iter()
        .flat_map(|s| s.values.iter().map(|(_, v)| *v))
        .fold(0.0, f64::max);
    let log_y = metric == Metric::Variance;
    let plot = Plot {
        y_max: axis_top(largest, log_y),
        log_y,
        ..PLOT
    };

    let mut m = Markup::new();
    let view_box = format!("0 0 {} {}", coord(WIDTH), coord(HEIGHT));
    m.start("svg")
        .attr("xmlns", "http://www.w3.org/2000/svg")
        .attr("class", "diagram chart")
        .attr("data-testid", "experiment-chart")
        .attr("data-metric", metric.id())
        .attr("role", "img")
        .attr(
            "aria-label",
            &format!(
                "{} · {}",
                metric.title().get(lang),
                text::CHART_ARIA.get(lang)
            ),
        )
        .attr("viewBox", &view_box)
        .end();
    m.element(
        "text",
        &[("class", "chart-title"), ("x", "4"), ("y", "12")],
        metric.title().get(lang),
    );
    axes(&mut m, &plot, log_y);
    for (n, line) in lines.iter().enumerate() {
        let path: Vec<String> = line
            .values
            .iter()
            .map(|&(d, v)| format!("{},{}", coord(plot.x(d)), coord(plot.y(v))))
            .collect();
        m.start("polyline")
            .attr("class", line.class)
            .attr("points", &path.join(" "))
            .end_empty();
        for &(d, v) in &line.values {
            let attrs = [
                ("class", line.class),
                ("cx", &coord(plot.x(d))),
                ("cy", &coord(plot.y(v))),
                ("r", "2.5"),
                ("data-dk", &js_number(d)),
                ("data-value", &js_number(v)),
            ];
            m.empty("circle", &attrs);
        }
        let x = coord(if n == 0 { 40.0 } else { 150.0 });
        m.start("text")
            .attr("class", line.class)
            .attr("x", &x)
            .attr("y", "28")
            .end()
            .text(line.name)
            .close("text");
    }
    let x = coord(plot.x(marker as f64));
    let bottom = coord(plot.top + plot.height);
    m.start("line")
        .attr("class", "marker")
        .attr("x1", &x)
        .attr("x2", &x)
        .coord("y1", plot.top)
        .attr("y2", &bottom)
        .end_empty();
    let readout = text::READOUT
        .get(lang)
        .replace("{d}", &marker.to_string())
        .replace(
            "{unscaled}",
            &value_at(marker, false).map_or_else(String::new, two_decimals),
        )
        .replace(
            "{scaled}",
            &value_at(marker, true).map_or_else(String::new, two_decimals),
        );
    let attrs = [
        ("class", "readout"),
        ("x", "4"),
        ("y", &coord(PLOT.top + PLOT.height + 51.0)),
        ("data-testid", "experiment-readout"),
    ];
    m.element("text", &attrs, &readout);
    m.close("svg");
    m.finish()
}

/// The axes, with d_k ticks at 1, 8, 64 and 512 and the y range at its ends.
fn axes(m: &mut Markup, plot: &Plot, log_y: bool) {
    let bottom = plot.top + plot.height;
    let (left, right) = (coord(plot.left), coord(plot.left + plot.width));
    m.start("line")
        .attr("class", "axis")
        .attr("x1", &left)
        .attr("x2", &right)
        .coord("y1", bottom)
        .coord("y2", bottom)
        .end_empty();
    m.start("line")
        .attr("class", "axis")
        .attr("x1", &left)
        .attr("x2", &left)
        .coord("y1", plot.top)
        .coord("y2", bottom)
        .end_empty();
    for d in [1.0, 8.0, 64.0, 512.0] {
        let x = coord(plot.x(d));
        m.start("text")
            .attr("class", "tick")
            .attr("x", &x)
            .coord("y", bottom + 12.0)
            .end()
            .text(&js_number(d))
            .close("text");
    }
    let middle = coord(plot.left + plot.width / 2.0);
    let under = coord(bottom + 26.0);
    let label = [
        ("class", "axis-label"),
        ("x", middle.as_str()),
        ("y", under.as_str()),
        ("data-testid", "experiment-x-axis"),
    ];
    m.element("text", &label, "d_k");
    let low = if log_y { "1" } else { "0" };
    let top = if log_y {
        js_number(plot.y_max)
    } else {
        two_decimals(plot.y_max)
    };
    let tick_x = coord(plot.left - 4.0);
    m.start("text")
        .attr("class", "tick y")
        .attr("x", &tick_x)
        .coord("y", bottom)
        .end()
        .text(low)
        .close("text");
    m.start("text")
        .attr("class", "tick y")
        .attr("x", &tick_x)
        .coord("y", plot.top)
        .end()
        .text(&top)
        .close("text");
}

#[cfg(test)]
mod tests {
    use super::*;
    use attention_core::experiment::{log_spaced_dims, scaling_experiment};

    fn points() -> Vec<ScalingPoint> {
        scaling_experiment(&log_spaced_dims(512), 8, 40, 3).expect("valid settings")
    }

    /// The `data-value`s of one series' circles, in order.
    fn values(svg: &str, class: &str) -> Vec<f64> {
        svg.split(&format!("<circle class=\"{class}\""))
            .skip(1)
            .filter_map(|c| {
                c.split("data-value=\"")
                    .nth(1)?
                    .split('"')
                    .next()?
                    .parse()
                    .ok()
            })
            .collect()
    }

    #[test]
    fn each_chart_draws_both_series_from_the_experiment() {
        let points = points();
        for metric in Metric::ALL {
            let svg = chart(metric, &points, 64, Lang::En);
            let unscaled: Vec<f64> = points.iter().map(|p| metric.of(&p.unscaled)).collect();
            let scaled: Vec<f64> = points.iter().map(|p| metric.of(&p.scaled)).collect();
            assert_eq!(values(&svg, "unscaled"), unscaled, "{metric:?}");
            assert_eq!(values(&svg, "scaled"), scaled, "{metric:?}");
        }
    }

    #[test]
    fn the_readout_names_the_marked_dimension_and_its_two_values() {
        let points = points();
        let svg = chart(Metric::Variance, &points, 64, Lang::En);
        let at = points.iter().find(|p| p.d_k == 64).expect("64 is drawn");
        let expected = format!(
            "d_k = 64: {} unscaled, {} scaled",
            two_decimals(at.unscaled.dot_variance),
            two_decimals(at.scaled.dot_variance)
        );
        assert!(svg.contains(&expected), "{svg}");
    }

    #[test]
    fn the_readout_has_a_line_of_its_own_under_the_axis_name() {
        let svg = chart(Metric::Variance, &points(), 64, Lang::En);
        let y_of = |testid: &str| -> f64 {
            let at = svg
                .find(&format!("data-testid=\"{testid}\""))
                .expect(testid);
            let tag = &svg[svg[..at].rfind('<').unwrap_or(0)..at];
            let y = tag.split("y=\"").nth(1).and_then(|r| r.split('"').next());
            y.and_then(|v| v.parse().ok()).unwrap_or(f64::NAN)
        };
        let (axis, readout) = (y_of("experiment-x-axis"), y_of("experiment-readout"));
        assert!(
            readout - axis >= 20.0,
            "axis name at {axis}, readout at {readout}"
        );
        assert!(readout <= HEIGHT - 6.0, "the readout inside the chart");
    }
}
