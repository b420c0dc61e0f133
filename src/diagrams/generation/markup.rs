//! The generation card as HTML: the step, the new token, the shown head's
//! caches of keys and values (one row more each step, the new one marked),
//! the new query's weights over them and its output, the check against the
//! whole causal pass, and the work with and without the cache. Pure, so
//! tests read it natively.

use super::action::Control;
use super::view::GenerationView;
use crate::diagrams::matrix::{markup::colour, Palette};
use crate::geometry::format::{js_number, rounded};
use crate::i18n::{generation as text, heads, Lang, Msg};
use crate::svg::Markup;
use ndarray::{Array2, ArrayView1, ArrayView2, Axis};

/// The card's markup for `view` (none while the scenario cannot run).
pub fn generation_card(view: Option<&GenerationView>, lang: Lang) -> String {
    let mut m = Markup::new();
    // Folded until opened, as the other cards below the diagrams.
    m.open_fold("generation-fold", "h2", text::TITLE.get(lang));
    m.element("p", &[("class", "explain")], text::EXPLAIN.get(lang));
    if let Some(v) = view {
        body(&mut m, v, lang);
    }
    m.close("details");
    m.finish()
}

fn body(m: &mut Markup, v: &GenerationView, lang: Lang) {
    if !v.causal {
        m.element("p", &[("class", "note")], text::NOT_CAUSAL.get(lang));
    }
    let (last, now) = (v.steps.to_string(), (v.t + 1).to_string());
    // Counted from 1, as the walkthrough's formulas count tokens.
    let first = v.t == 0;
    let at_end = v.t + 1 == v.steps;
    // aria-disabled rather than disabled: a button the keyboard is on keeps the focus.
    let step_button = |m: &mut Markup, action: &str, off: bool, label: Msg| {
        let off = if off { "true" } else { "false" };
        m.start("button")
            .attr("data-action", action)
            .attr("data-testid", action)
            .attr("aria-disabled", off)
            .end()
            .text(label.get(lang))
            .close("button");
    };
    m.open("div", &[("class", "generation-steps")]);
    step_button(m, Control::Previous.name(), first, text::PREVIOUS);
    m.open("label", &[("class", "slider")]);
    let step_name = text::STEP
        .get(lang)
        .replace("{t}", &now)
        .replace("{n}", &last);
    m.element("span", &[("data-testid", "gen-step-name")], &step_name);
    m.start("input")
        .attr("type", "range")
        .attr("data-testid", Control::Step.name())
        .attr("data-action", Control::Step.name())
        .attr("min", "1")
        .attr("max", &last)
        .attr("step", "1")
        .attr("value", &now)
        .end_empty();
    m.close("label");
    step_button(m, Control::Next.name(), at_end, text::NEXT);
    m.close("div");
    // The token large: a "。" or a "," must still read as a token.
    m.open("p", &[("class", "order-verdict")])
        .text(text::NEW_TOKEN.get(lang));
    m.element("span", &[("class", "gen-token")], &v.labels[v.t]);
    m.close("p");
    // Wider than a phone: a keyboard scrolls it too.
    m.start("div")
        .attr("class", "scroll")
        .attr("tabindex", "0")
        .attr("role", "region")
        .attr("aria-label", text::TABLES_NAME.get(lang))
        .end()
        .open("div", &[("class", "generation-tables")]);
    // What each caption names: the head shown, when there are several, and
    // whether RoPE turned the keys and the query.
    let named = |msg: Msg, turned: bool| {
        let head = if v.heads > 1 {
            format!("{}{}: ", heads::HEAD.get(lang), v.head + 1)
        } else {
            String::new()
        };
        let turn = if turned && v.rope {
            text::TURNED.get(lang)
        } else {
            ""
        };
        format!("{head}{}{turn}", msg.get(lang))
    };
    table(
        m,
        &named(text::K_CACHE, true),
        "k-cache",
        &v.labels,
        v.keys.view(),
        Some(v.t),
    );
    table(
        m,
        &named(text::V_CACHE, false),
        "v-cache",
        &v.labels,
        v.values.view(),
        Some(v.t),
    );
    let head = &v.step.heads[v.head];
    let one = |row: ArrayView1<f64>| row.insert_axis(Axis(0)).to_owned();
    let query = [v.labels[v.t].clone()];
    table(
        m,
        &named(text::QUERY, true),
        "gen-q",
        &query,
        one(head.q.view()).view(),
        None,
    );
    // The new query's weight on each cached key, a column in line with the
    // caches' rows (the keys not cached yet, hidden, weigh nothing).
    let weights = Array2::from_shape_fn((v.labels.len(), 1), |(r, _)| {
        head.weights.get(r).copied().unwrap_or(0.0)
    });
    table(
        m,
        &named(text::WEIGHTS, false),
        "gen-weights",
        &v.labels,
        weights.view(),
        Some(v.t),
    );
    table(
        m,
        &named(text::OUTPUT, false),
        "gen-head-output",
        &query,
        one(head.output.view()).view(),
        None,
    );
    // With several heads or W_O, the layer's row, which the check compares:
    // the heads joined (and projected).
    if v.heads > 1 || v.step.output != head.output {
        let layer = one(v.step.output.view());
        table(
            m,
            text::LAYER_OUTPUT.get(lang),
            "gen-output",
            &query,
            layer.view(),
            None,
        );
    }
    m.close("div").close("div");
    let difference = format!("{}{}", text::MATCHES.get(lang), js_number(v.difference));
    m.start("p")
        .attr("data-testid", "gen-check")
        .attr("data-difference", &js_number(v.difference))
        .end()
        .text(&difference)
        .close("p");
    work(m, v, lang);
}

/// A matrix as a table, each row labelled by its token. A cache's rows
/// after `newest` are not cached yet, and hidden; row `newest` is marked new.
fn table(
    m: &mut Markup,
    caption: &str,
    testid: &str,
    labels: &[String],
    values: ArrayView2<f64>,
    newest: Option<usize>,
) {
    let cached = newest.map_or(values.nrows(), |t| t + 1);
    let rows = cached.to_string();
    // Weights on the weights' scale, everything else signed around its largest.
    let (palette, extent) = if testid == "gen-weights" {
        (Palette::Weight, 1.0)
    } else {
        let largest = values.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
        (Palette::Signed, largest)
    };
    // Row by row, the cached rows' values.
    let written: Vec<String> = values
        .iter()
        .take(cached * values.ncols())
        .map(|&v| js_number(v))
        .collect();
    m.start("table")
        .attr("class", "matrix-table generation-table")
        .attr("data-testid", testid)
        .attr("data-rows", &rows)
        .attr("data-values", &written.join(" "))
        .end();
    m.element("caption", &[], caption);
    // Columns numbered from 1, as the heatmaps number theirs.
    m.open("thead", &[]).open("tr", &[]);
    m.element("td", &[], "");
    for c in 1..=values.ncols() {
        m.element("th", &[("scope", "col")], &c.to_string());
    }
    m.close("tr").close("thead");
    m.open("tbody", &[]);
    for (r, row) in values.rows().into_iter().enumerate() {
        m.start("tr")
            .attr("class", if newest == Some(r) { "new" } else { "" });
        if r >= cached {
            m.attr("hidden", "");
        }
        m.end();
        m.element("th", &[("scope", "row")], &labels[r]);
        for &value in row {
            // Coloured as the heatmaps colour the same numbers.
            let fill = colour(palette, value, extent);
            let look = format!(
                "background:{};color:{}",
                fill.hex(),
                fill.text_colour().hex()
            );
            m.element("td", &[("style", &look)], &rounded(value, 2));
        }
        m.close("tr");
    }
    m.close("tbody").close("table");
}

/// This step's and all steps' multiply-adds, with and without the cache.
fn work(m: &mut Markup, v: &GenerationView, lang: Lang) {
    m.open(
        "table",
        &[("class", "matrix-table"), ("data-testid", "gen-work")],
    );
    m.element("caption", &[], text::WORK.get(lang));
    m.open("thead", &[]).open("tr", &[]).element("th", &[], "");
    for heading in [text::WITH_CACHE, text::WITHOUT_CACHE] {
        m.element("th", &[("scope", "col")], heading.get(lang));
    }
    m.close("tr").close("thead").open("tbody", &[]);
    for (name, work, testid) in [
        (text::THIS_STEP, v.step.work, "gen-work-step"),
        (text::ALL_STEPS, v.total, "gen-work-total"),
    ] {
        let (cached, uncached) = (work.cached.to_string(), work.uncached.to_string());
        m.start("tr")
            .attr("data-testid", testid)
            .attr("data-cached", &cached)
            .attr("data-uncached", &uncached)
            .end();
        m.element("th", &[("scope", "row")], name.get(lang));
        m.element("td", &[], &cached);
        m.element("td", &[], &uncached);
        m.close("tr");
    }
    m.close("tbody").close("table");
}

#[cfg(test)]
mod tests {
    use super::*;
    use attention_core::presets::Preset;

    #[test]
    fn each_step_caches_one_row_more_and_matches_the_causal_pass() {
        let s = Preset::Generation.scenario();
        let t_all = s.x.dim().1;
        for t in 0..t_all {
            let v = GenerationView::new(&s, 0, 0, t).expect("runs");
            assert_eq!(v.keys.nrows(), t_all);
            assert_eq!(v.values.nrows(), t_all);
            assert!(v.difference < 1e-12, "step {t}: {}", v.difference);
            let html = generation_card(Some(&v), Lang::En);
            assert!(html.contains(&format!("data-rows=\"{}\"", t + 1)), "{html}");
            let hidden = t_all - t - 1;
            assert_eq!(
                html.matches(" hidden=\"\"").count(),
                3 * hidden,
                "each cache's rows and the weights' rows, not cached yet"
            );
            if t > 0 {
                let before =
                    generation_card(GenerationView::new(&s, 0, 0, t - 1).as_ref(), Lang::En);
                let tags = |html: &str| -> Vec<String> {
                    html.split('<')
                        .map(|tag| tag.split([' ', '>']).next().unwrap_or("").to_owned())
                        .collect()
                };
                assert_eq!(
                    tags(&before),
                    tags(&html),
                    "step {t}: the same tags as the step before"
                );
            }
            assert_eq!(
                html.matches("class=\"new\"").count(),
                3,
                "one new row in each cache and in the weights"
            );
            assert!(html.contains(&format!("data-cached=\"{}\"", v.step.work.cached)));
        }
        let clamped = GenerationView::new(&s, 0, 0, 99).expect("runs");
        assert_eq!(clamped.t, t_all - 1);
        assert!(clamped.step.work.cached < clamped.step.work.uncached);
    }

    #[test]
    fn with_two_heads_the_card_names_its_head_and_adds_the_layers_row() {
        let s = Preset::PronounHeads.scenario();
        let v = GenerationView::new(&s, 0, 1, 2).expect("runs");
        let html = generation_card(Some(&v), Lang::En);
        assert!(html.contains("Head 2: K cache"), "{html}");
        assert!(
            html.contains("data-testid=\"gen-output\""),
            "the layer's row"
        );
        let head = v.step.heads[1].output.len();
        assert_eq!(v.step.output.len(), 2 * head, "both heads joined");
        assert!(html.contains("Step t = 3 of 6"), "{html}");
        assert!(html.contains("data-testid=\"gen-previous\" aria-disabled=\"false\""));
        let first = generation_card(GenerationView::new(&s, 0, 1, 0).as_ref(), Lang::Zh);
        assert!(first.contains("data-testid=\"gen-previous\" aria-disabled=\"true\""));
        let rope = GenerationView::new(&Preset::Generation.scenario(), 0, 0, 1).expect("runs");
        let turned = generation_card(Some(&rope), Lang::Zh);
        assert!(turned.contains("K 缓存（每步多一行），已按 RoPE 旋转"));
        // Negative numbers take a true minus sign, as everywhere else.
        assert!(turned.contains(">\u{2212}") && !turned.contains(">-"));
        // Each number coloured as the heatmaps colour it.
        assert!(turned.contains("<td style=\"background:#"));
    }

    #[test]
    fn a_scenario_without_the_causal_mask_is_told_it_gets_one() {
        let s = attention_core::presets::sentence();
        let v = GenerationView::new(&s, 0, 0, 3).expect("runs");
        assert!(
            v.difference < 1e-12,
            "against the causal pass, not the scenario's own"
        );
        let html = generation_card(Some(&v), Lang::Zh);
        assert!(html.contains("生成总是用因果掩码"), "{html}");
        assert!(!generation_card(None, Lang::En).contains("gen-step"));
    }
}
