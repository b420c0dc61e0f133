//! The RoPE card as markup: for the selected query and key, each pair of
//! columns of q and k as arrows on a dial, before and after the turn by
//! their positions, and the score of the same two contents against the
//! offset p_q − p_k. Pure, so tests read it natively.

use super::action::Control;
use crate::geometry::format::{fixed, js_number, rounded};
use crate::geometry::rope::{Dial, OffsetChart};
use crate::i18n::{order as text, Lang};
use crate::lab::SequenceTrace;
use crate::svg::{coord, Markup};
use attention_core::positions::{rope_angle, rope_score};
use ndarray::Axis;

/// Offsets either side of 0 the chart shows: the sentence's, at least 8
/// and at most 32.
const LEAST_REACH: usize = 8;
const MOST_REACH: usize = 32;
/// A dial's side and the chart's size, in SVG units.
const DIAL: f64 = 104.0;
const CHART: (f64, f64) = (340.0, 164.0);

/// What the card shows for one query and one key.
#[derive(Clone, Debug, PartialEq)]
pub struct RopeView {
    pub query: (usize, String),
    pub key: (usize, String),
    /// Every token's name, for the pickers of the query and the key.
    pub tokens: Vec<String>,
    /// q's and k's rows before and after the turn.
    pub q: [Vec<f64>; 2],
    pub k: [Vec<f64>; 2],
    /// The score of the same contents at each offset from `first`, scaled
    /// as the trace's scores are (q·k/√d_k, or q·k with scaling off).
    pub by_offset: Vec<f64>,
    /// Whether the scores are divided by √d_k.
    pub scaled: bool,
    pub first: i64,
}

impl RopeView {
    /// The view of `query` and `key` in `view`; `None` without RoPE.
    pub fn new(view: &SequenceTrace, query: usize, key: usize) -> Option<Self> {
        let (q_before, k_before) = view.unrotated.as_ref()?;
        let (query, key) = (query.min(view.len() - 1), key.min(view.len() - 1));
        let row = |m: &ndarray::Array2<f64>, i: usize| m.index_axis(Axis(0), i).to_vec();
        let reach = (view.len() - 1).clamp(LEAST_REACH, MOST_REACH);
        let (q, k) = (q_before.row(query), k_before.row(key));
        // Both positions stay at 0 or more: the key at `reach`, the query
        // `offset` from it.
        let by_offset = (0..=2 * reach)
            .map(|p_q| rope_score(q, k, p_q, reach) * view.scale_factor)
            .collect();
        Some(RopeView {
            query: (query, view.labels[query].clone()),
            key: (key, view.labels[key].clone()),
            tokens: view.labels.clone(),
            q: [row(q_before, query), row(&view.q, query)],
            k: [row(k_before, key), row(&view.k, key)],
            by_offset,
            scaled: view.scale_factor != 1.0,
            first: -(reach as i64),
        })
    }

    /// The offset p_q − p_k of the selected pair.
    pub fn offset(&self) -> i64 {
        self.query.0 as i64 - self.key.0 as i64
    }
}

/// The card's content for `view` (none while there is nothing to show).
pub fn rope_card(view: Option<&RopeView>, lang: Lang) -> String {
    let mut m = Markup::new();
    // A diagram, as the SVG export and the walkthrough's emphasis find them.
    m.open("div", &[("data-diagram", "rope")]);
    m.element("h2", &[], text::ROPE_TITLE.get(lang));
    m.element("p", &[("class", "explain")], text::ROPE_EXPLAIN.get(lang));
    let Some(v) = view else {
        m.close("div");
        return m.finish();
    };
    let who = format!(
        "{}{}{}{}{}{}{}{}",
        text::ROPE_QUERY.get(lang),
        v.query.1,
        text::ROPE_AT.get(lang),
        v.query.0,
        text::ROPE_KEY.get(lang),
        v.key.1,
        text::ROPE_AT.get(lang),
        v.key.0
    );
    m.element("p", &[("data-testid", "rope-pair")], &who);
    // What picks the pair, said where the pair is named; at position 0 for
    // both, why nothing turns yet.
    let pick = if v.query.0 == 0 && v.key.0 == 0 {
        text::ROPE_NOTHING_TURNS
    } else {
        text::ROPE_PICK
    };
    m.element(
        "p",
        &[("class", "note"), ("data-testid", "rope-pick")],
        pick.get(lang),
    );
    pickers(&mut m, v, lang);
    m.open("div", &[("class", "rope-dials")]);
    let d_k = v.q[0].len();
    for pair in 0..d_k / 2 {
        dial(&mut m, v, pair, d_k, lang);
    }
    m.close("div");
    chart(&mut m, v, lang);
    m.close("div");
    m.finish()
}

/// The query's and the key's pickers: the keyboard's way to another pair,
/// which a pointer picks with a score cell.
fn pickers(m: &mut Markup, v: &RopeView, lang: Lang) {
    m.open("div", &[("class", "rope-pickers")]);
    let choices = [
        (Control::Query, text::ROPE_QUERY_PICKER, v.query.0),
        (Control::Key, text::ROPE_KEY_PICKER, v.key.0),
    ];
    for (control, label, chosen) in choices {
        m.open("label", &[]).element("span", &[], label.get(lang));
        let select = [
            ("data-testid", control.name()),
            ("data-action", control.name()),
        ];
        m.open("select", &select);
        for (i, token) in v.tokens.iter().enumerate() {
            let name = format!("{token}{}{i}", text::ROPE_AT.get(lang));
            m.option(&i.to_string(), i == chosen, &name);
        }
        m.close("select").close("label");
    }
    m.close("div");
}

/// Pair `pair` of q and k on a dial, before (dashed) and after (solid).
fn dial(m: &mut Markup, v: &RopeView, pair: usize, d_k: usize, lang: Lang) {
    let at = |row: &[f64]| (row[2 * pair], row[2 * pair + 1]);
    let arrows = [at(&v.q[0]), at(&v.q[1]), at(&v.k[0]), at(&v.k[1])];
    let half = DIAL / 2.0;
    // Room outside the rim for the arrows' names.
    let dial = Dial::holding(half, half, half - 16.0, &arrows);
    let theta = rope_angle(1, pair, d_k);
    let pair_name = text::ROPE_PAIR
        .get(lang)
        .replace("{pair}", &pair.to_string())
        .replace("{columns}", &format!("{}, {}", 2 * pair + 1, 2 * pair + 2));
    let caption = format!(
        "{pair_name}{}{}{}{} rad{}{} rad",
        fixed(theta, 4),
        text::ROPE_SEPARATOR.get(lang),
        text::ROPE_TURNED.get(lang),
        fixed(v.query.0 as f64 * theta, 2),
        text::ROPE_K_TURNED.get(lang),
        fixed(v.key.0 as f64 * theta, 2),
    );
    let values: Vec<String> = arrows
        .iter()
        .flat_map(|&(a, b)| [js_number(a), js_number(b)])
        .collect();
    m.open("figure", &[("class", "rope-dial")]);
    m.start("svg")
        .svg_size(DIAL, DIAL)
        .attr("class", "diagram")
        .attr("role", "img")
        .attr("aria-label", &caption)
        .attr("data-testid", "rope-dial")
        .attr("data-values", &values.join(" "))
        .end();
    m.start("circle")
        .attr("class", "rope-rim")
        .coord("cx", half)
        .coord("cy", half)
        .coord("r", dial.radius)
        .end_empty();
    let classes = ["rope-q before", "rope-q", "rope-k before", "rope-k"];
    for (arrow, class) in arrows.iter().zip(classes) {
        let (x, y) = dial.point(*arrow);
        m.start("line")
            .attr("class", class)
            .coord("x1", half)
            .coord("y1", half)
            .coord("x2", x)
            .coord("y2", y)
            .end_empty();
        m.start("circle")
            .attr("class", class)
            .coord("cx", x)
            .coord("cy", y)
            .attr("r", "3")
            .end_empty();
        // After the turn, each arrow is named at its tip: not by colour alone.
        let name = match class {
            "rope-q" => "q",
            "rope-k" => "k",
            _ => continue,
        };
        let (dx, dy) = (x - half, y - half);
        let length = (dx * dx + dy * dy).sqrt().max(1.0);
        m.start("text")
            .attr("class", "rope-name")
            .coord("x", x + 9.0 * dx / length)
            .coord("y", y + 9.0 * dy / length)
            .end()
            .text(name)
            .close("text");
    }
    m.close("svg");
    m.element("figcaption", &[], &caption);
    m.close("figure");
}

/// The raw score against the offset, the selected pair's offset marked.
fn chart(m: &mut Markup, v: &RopeView, lang: Lang) {
    let (width, height) = CHART;
    // The left margin holds the y axis's ends, "−0.59" at 12 px.
    let plot = OffsetChart::of(
        &v.by_offset,
        v.first,
        (44.0, 20.0, width - 54.0, height - 60.0),
    );
    let points: Vec<String> = v
        .by_offset
        .iter()
        .enumerate()
        .map(|(i, &s)| {
            let offset = v.first + i as i64;
            format!("{},{}", coord(plot.x(offset)), coord(plot.y(s)))
        })
        .collect();
    let values: Vec<String> = v.by_offset.iter().map(|&s| js_number(s)).collect();
    let first = v.first.to_string();
    m.open("figure", &[("class", "rope-chart")]);
    m.start("svg")
        .svg_size(width, height)
        .attr("class", "diagram")
        .attr("role", "img")
        .attr("aria-label", text::ROPE_CHART.get(lang))
        .attr("data-testid", "rope-chart")
        .attr("data-first", &first)
        .attr("data-values", &values.join(" "))
        .end();
    // A zero line only where zero is on the axis: pinned to an edge it
    // would look like a value.
    if plot.low < 0.0 && plot.high > 0.0 {
        let zero = plot.y(0.0);
        m.start("line")
            .attr("class", "axis")
            .coord("x1", plot.left)
            .coord("x2", plot.left + plot.width)
            .coord("y1", zero)
            .coord("y2", zero)
            .end_empty();
    }
    // The y axis's ends, so the curve can be read.
    for value in [plot.high, plot.low] {
        m.start("text")
            .attr("class", "rope-tick")
            .coord("x", plot.left - 4.0)
            .coord("y", plot.y(value))
            .end()
            .text(&rounded(value, 2))
            .close("text");
    }
    m.start("polyline")
        .attr("class", "rope-line")
        .attr("points", &points.join(" "))
        .end_empty();
    let offset = v.offset().clamp(plot.first, plot.last);
    let index = (offset - v.first) as usize;
    let now = v.by_offset.get(index).copied().unwrap_or_default();
    m.start("circle")
        .attr("class", "rope-now")
        .attr("data-testid", "rope-now")
        .attr("data-offset", &offset.to_string())
        .attr("data-value", &js_number(now))
        .coord("cx", plot.x(offset))
        .coord("cy", plot.y(now))
        .attr("r", "4.5")
        .end_empty();
    // The selected pair's score, printed beside its dot on the side away
    // from the axes' labels: below it in the plot's upper half, above it in
    // the lower half; left of it in the right half, right of it in the left.
    let (x, y) = (plot.x(offset), plot.y(now));
    let upper = y < plot.top + plot.height / 2.0;
    let right = x > plot.left + plot.width / 2.0;
    m.start("text")
        .attr(
            "class",
            if right {
                "rope-now-value end"
            } else {
                "rope-now-value"
            },
        )
        .attr("data-testid", "rope-now-value")
        .coord("x", if right { x - 8.0 } else { x + 8.0 })
        .coord("y", if upper { y + 12.0 } else { y - 12.0 })
        .end()
        .text(&rounded(now, 2))
        .close("text");
    for (label, at) in [(plot.first, plot.first), (0, 0), (plot.last, plot.last)] {
        m.start("text")
            .coord("x", plot.x(at))
            .coord("y", plot.top + plot.height + 16.0)
            .attr("text-anchor", "middle")
            .end()
            .text(&rounded(label as f64, 0))
            .close("text");
    }
    m.start("text")
        .coord("x", plot.left + plot.width / 2.0)
        .coord("y", height - 9.0)
        .attr("text-anchor", "middle")
        .end()
        .text(text::ROPE_OFFSET.get(lang))
        .close("text");
    let score = if v.scaled { "q·k/√d_k" } else { "q·k" };
    m.start("text")
        .attr("class", "rope-y")
        .coord("x", plot.left)
        .attr("y", "10")
        .end()
        .text(score)
        .close("text");
    m.close("svg");
    m.element("figcaption", &[], text::ROPE_CHART.get(lang));
    m.close("figure");
}

/// The chart's values read back from the markup, for tests.
#[cfg(test)]
fn read_values(html: &str, testid: &str) -> Vec<f64> {
    let from = html.find(&format!("data-testid=\"{testid}\"")).unwrap_or(0);
    let rest = &html[from..];
    let start = rest.find("data-values=\"").map_or(0, |i| i + 13);
    let end = rest[start..].find('"').map_or(start, |i| start + i);
    rest[start..end]
        .split(' ')
        .filter_map(|v| v.parse().ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::{set_positions, token_labels};
    use attention_core::positions::Positions;
    use attention_core::presets::sentence;

    fn view(positions: Positions) -> SequenceTrace {
        let mut s = sentence();
        set_positions(&mut s, positions, 1).expect("positions");
        let trace = s.run().expect("runs").into_head(0);
        SequenceTrace::new(&trace, 0, token_labels(&s))
    }

    #[test]
    fn only_rope_has_a_view() {
        assert!(RopeView::new(&view(Positions::None), 0, 1).is_none());
        assert!(RopeView::new(&view(Positions::Sinusoidal), 0, 1).is_none());
        assert!(rope_card(None, Lang::En).contains("RoPE"));
    }

    #[test]
    fn a_pair_at_position_0_is_told_why_nothing_turns_and_how_to_pick_another() {
        let v = view(Positions::Rope);
        let still = rope_card(RopeView::new(&v, 0, 0).as_ref(), Lang::En);
        assert!(still.contains(text::ROPE_NOTHING_TURNS.en));
        let turning = rope_card(RopeView::new(&v, 2, 0).as_ref(), Lang::Zh);
        assert!(turning.contains(text::ROPE_PICK.zh));
        assert!(!turning.contains(text::ROPE_NOTHING_TURNS.zh));
        // Scores below zero take a true minus sign.
        assert!(!turning.contains(">-"), "an ASCII minus");
    }

    #[test]
    fn the_pickers_list_every_token_with_the_shown_pair_chosen() {
        let v = view(Positions::Rope);
        let html = rope_card(RopeView::new(&v, 2, 1).as_ref(), Lang::En);
        for control in [Control::Query, Control::Key] {
            let select = format!(
                "<select data-testid=\"{0}\" data-action=\"{0}\">",
                control.name()
            );
            assert!(html.contains(&select), "{html}");
        }
        let tokens = &v.labels;
        assert_eq!(html.matches("<option ").count(), 2 * tokens.len());
        assert!(html.contains(&format!(
            "<option value=\"2\" selected=\"\">{} at position 2</option>",
            tokens[2]
        )));
        assert!(html.contains(&format!(
            "<option value=\"1\" selected=\"\">{} at position 1</option>",
            tokens[1]
        )));
    }

    #[test]
    fn the_score_beside_the_dot_keeps_to_the_side_away_from_the_axes() {
        let v = view(Positions::Rope);
        // The query after the key: the dot right of the middle, its number left of it.
        let right = rope_card(RopeView::new(&v, 3, 0).as_ref(), Lang::En);
        assert!(right.contains("class=\"rope-now-value end\""));
        let left = rope_card(RopeView::new(&v, 0, 3).as_ref(), Lang::En);
        assert!(left.contains("class=\"rope-now-value\""));
    }

    #[test]
    fn the_chart_at_the_selected_offset_is_the_traces_own_score() {
        let v = view(Positions::Rope);
        for (query, key) in [(3, 0), (0, 3), (2, 2)] {
            let rope = RopeView::new(&v, query, key).expect("rope");
            let html = rope_card(Some(&rope), Lang::En);
            let values = read_values(&html, "rope-chart");
            assert_eq!(values.len(), 2 * LEAST_REACH + 1);
            let at = (rope.offset() - rope.first) as usize;
            let score = v.scaled[[query, key]];
            assert!(
                (values[at] - score).abs() < 1e-12,
                "{} vs {score}",
                values[at]
            );
            assert!(html.contains(&format!("data-offset=\"{}\"", query as i64 - key as i64)));
        }
    }

    #[test]
    fn each_pair_turns_by_its_position_times_its_angle() {
        let v = view(Positions::Rope);
        let rope = RopeView::new(&v, 3, 1).expect("rope");
        let html = rope_card(Some(&rope), Lang::Zh);
        assert_eq!(
            html.matches("data-testid=\"rope-dial\"").count(),
            2,
            "d_k 4: two pairs"
        );
        assert_eq!(
            html.matches("class=\"rope-name\"").count(),
            4,
            "q and k named"
        );
        assert_eq!(html.matches(">q</text>").count(), 2, "q named in each dial");
        let arrows = read_values(&html, "rope-dial");
        // q's first pair, before and after: the angle between them is 3·θ₀ = 3 rad.
        let (a, b) = ((arrows[0], arrows[1]), (arrows[2], arrows[3]));
        let turned = (b.1.atan2(b.0) - a.1.atan2(a.0)).rem_euclid(std::f64::consts::TAU);
        assert!((turned - 3.0).abs() < 1e-9, "{turned}");
        assert!(
            html.contains("第 i = 0 组（第 1, 2 列）：θ = 1.0000；"),
            "{html}"
        );
        assert!(
            html.contains("查询 篮球 在位置 3，键 喜欢 在位置 1"),
            "{html}"
        );
    }
}
