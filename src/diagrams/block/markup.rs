//! The block card as HTML: its controls (the layer shown, the number of
//! layers, where LayerNorm goes, the activation, new weights), then one
//! token's residual stream down the shown layer, stage by stage, each vector
//! with its numbers: the two addends and the sum at each ⊕, each LayerNorm's
//! mean and standard deviation and the normalised row before γ and β, the
//! feed-forward network's hidden numbers with those ReLU zeroes marked, and
//! the activation's curve with the hidden numbers on it. Pure, so tests read
//! it natively.

use super::action::{Control, POST_NORM, PRE_NORM};
use crate::diagrams::matrix::{markup::colour, Palette};
use crate::geometry::curve::CurvePlot;
use crate::geometry::format::{js_number, rounded};
use crate::i18n::{block as text, Lang, Msg};
use crate::lab::{BlockView, NormView};
use crate::svg::{coord, Markup};
use attention_core::block::Activation;
use attention_core::limits::MAX_LAYERS;
use ndarray::Array2;

/// The curve's size, in SVG units.
const CURVE: (f64, f64) = (220.0, 150.0);

/// The card's content for `view` and the followed token `query` (none
/// while there is no block to show).
pub fn block_card(view: Option<&BlockView>, query: usize, lang: Lang) -> String {
    let mut m = Markup::new();
    m.open("div", &[("data-diagram", "block")]);
    m.element("h2", &[], text::TITLE.get(lang));
    m.element("p", &[("class", "explain")], text::EXPLAIN.get(lang));
    if let Some(v) = view {
        controls(&mut m, v, lang);
        stream(&mut m, v, query.min(v.len().saturating_sub(1)), lang);
    }
    m.close("div");
    m.finish()
}

fn controls(m: &mut Markup, v: &BlockView, lang: Lang) {
    m.open("div", &[("class", "block-controls")]);
    m.open(
        "div",
        &[
            ("class", "layer-picker"),
            ("role", "group"),
            ("aria-label", text::LAYER_PICKER.get(lang)),
            ("data-testid", "layer-picker"),
        ],
    );
    for layer in 0..v.layers {
        let (index, number) = (layer.to_string(), (layer + 1).to_string());
        let pressed = if layer == v.layer { "true" } else { "false" };
        m.element(
            "button",
            &[
                ("data-action", Control::Layer.name()),
                ("data-index", &index),
                ("data-layer", &index),
                ("aria-pressed", pressed),
            ],
            &text::LAYER.get(lang).replace("{n}", &number),
        );
    }
    m.close("div");
    picker(m, text::LAYERS, Control::Layers, lang, |m| {
        for n in 1..=MAX_LAYERS {
            m.option(&n.to_string(), n == v.layers, &n.to_string());
        }
    });
    picker(m, text::NORM, Control::Norm, lang, |m| {
        m.option(POST_NORM, !v.norm_first, text::POST_NORM.get(lang));
        m.option(PRE_NORM, v.norm_first, text::PRE_NORM.get(lang));
    });
    picker(m, text::ACTIVATION, Control::Activation, lang, |m| {
        for (a, name) in [
            (Activation::Relu, text::RELU),
            (Activation::Gelu, text::GELU),
        ] {
            m.option(a.id(), a == v.activation, name.get(lang));
        }
    });
    let randomize = [
        ("data-testid", Control::Randomize.name()),
        ("data-action", Control::Randomize.name()),
    ];
    m.element("button", &randomize, text::RANDOMIZE.get(lang));
    m.close("div");
    m.element("p", &[("class", "note")], text::LAYER_FOLLOWS.get(lang));
    if v.has_biases {
        let note = [("class", "note"), ("data-testid", "block-biases")];
        m.element("p", &note, text::BIASES.get(lang));
    }
}

/// A labelled select whose options `options` writes.
fn picker(m: &mut Markup, label: Msg, control: Control, lang: Lang, options: impl Fn(&mut Markup)) {
    m.open("label", &[("class", "slider")]);
    m.element("span", &[], label.get(lang));
    m.open(
        "select",
        &[
            ("data-testid", control.name()),
            ("data-action", control.name()),
        ],
    );
    options(m);
    m.close("select").close("label");
}

/// Token `i`'s residual stream down the layer, in the order the layer
/// computes it.
fn stream(m: &mut Markup, v: &BlockView, i: usize, lang: Lang) {
    picker(m, text::TOKEN, Control::Token, lang, |m| {
        for (t, label) in v.labels.iter().enumerate() {
            m.option(&t.to_string(), t == i, label);
        }
    });
    let title = text::STREAM
        .get(lang)
        .replace("{t}", &v.labels[i])
        .replace("{n}", &(v.layer + 1).to_string());
    m.element("h3", &[("data-testid", "stream-title")], &title);
    let extent = largest(v, i);
    let row = |a: &Array2<f64>| a.row(i).to_vec();
    let ctx = Stage { extent, lang };
    m.open(
        "ol",
        &[("class", "stream"), ("data-testid", "residual-stream")],
    );
    ctx.vector_stage(m, "input", text::INPUT, &row(&v.input));
    if v.norm_first {
        ctx.norm_stage(m, "norm-1", text::LN_1, &v.norm_1, i);
        ctx.vector_stage(m, "attention", text::ATTENTION, &row(&v.attention));
        ctx.sum_stage(
            m,
            "sum-1",
            [&row(&v.input), &row(&v.attention), &row(&v.sum_1)],
        );
        ctx.norm_stage(m, "norm-2", text::LN_2, &v.norm_2, i);
        ctx.ffn_stage(m, v, i);
        ctx.sum_stage(m, "sum-2", [&row(&v.sum_1), &row(&v.ffn), &row(&v.sum_2)]);
    } else {
        ctx.vector_stage(m, "attention", text::ATTENTION, &row(&v.attention));
        ctx.sum_stage(
            m,
            "sum-1",
            [&row(&v.input), &row(&v.attention), &row(&v.sum_1)],
        );
        ctx.norm_stage(m, "norm-1", text::LN_1, &v.norm_1, i);
        ctx.ffn_stage(m, v, i);
        let h = row(&v.norm_1.output);
        ctx.sum_stage(m, "sum-2", [&h, &row(&v.ffn), &row(&v.sum_2)]);
        ctx.norm_stage(m, "norm-2", text::LN_2, &v.norm_2, i);
    }
    let output = if v.layer + 1 == v.layers {
        text::LAST_OUTPUT
    } else {
        text::OUTPUT
    };
    ctx.vector_stage(m, "output", output, &row(&v.output));
    m.close("ol");
}

/// The largest magnitude among token `i`'s vectors of d features, so one
/// colour means one value all the way down.
fn largest(v: &BlockView, i: usize) -> f64 {
    [
        &v.input,
        &v.attention,
        &v.sum_1,
        &v.norm_1.output,
        &v.ffn,
        &v.sum_2,
        &v.norm_2.output,
    ]
    .iter()
    .flat_map(|a| a.row(i).to_vec())
    .fold(0.0, |m, x| m.max(x.abs()))
}

/// What every stage shares: the colour scale and the language.
struct Stage {
    extent: f64,
    lang: Lang,
}

impl Stage {
    fn open(&self, m: &mut Markup, stage: &str, name: Msg) {
        m.open("li", &[("data-stage", stage)]);
        m.element("span", &[("class", "stage-name")], name.get(self.lang));
    }

    fn vector_stage(&self, m: &mut Markup, stage: &str, name: Msg, values: &[f64]) {
        self.open(m, stage, name);
        self.vector(m, stage, values, &[]);
        m.close("li");
    }

    /// a ⊕ b = sum, each written out.
    fn sum_stage(&self, m: &mut Markup, stage: &str, [a, b, sum]: [&Vec<f64>; 3]) {
        self.open(m, stage, text::RESIDUAL);
        m.open("span", &[("class", "sum")]);
        self.vector(m, &format!("{stage}-a"), a, &[]);
        m.element("span", &[("class", "operator")], "+");
        self.vector(m, &format!("{stage}-b"), b, &[]);
        m.element("span", &[("class", "operator")], "=");
        self.vector(m, stage, sum, &[]);
        m.close("span").close("li");
    }

    /// A LayerNorm: the token's mean and standard deviation, the normalised
    /// row, and the row after γ and β.
    fn norm_stage(&self, m: &mut Markup, stage: &str, name: Msg, norm: &NormView, i: usize) {
        self.open(m, stage, name);
        let said = text::MEAN_STD
            .get(self.lang)
            .replace("{m}", &rounded(norm.mean[i], 3))
            .replace("{s}", &rounded(norm.std[i], 3));
        let stats = [
            ("class", "norm-stats"),
            ("data-mean", &js_number(norm.mean[i])),
            ("data-std", &js_number(norm.std[i])),
        ];
        m.element("span", &stats, &said);
        let normalised = norm.normalised.row(i).to_vec();
        self.line(
            m,
            text::NORMALISED,
            &format!("{stage}-normalised"),
            &normalised,
            &[],
        );
        self.line(m, text::SCALED, stage, &norm.output.row(i).to_vec(), &[]);
        m.close("li");
    }

    /// The feed-forward network of token i: its hidden numbers, activated
    /// (those ReLU zeroes marked), its output, and the activation's curve.
    fn ffn_stage(&self, m: &mut Markup, v: &BlockView, i: usize) {
        self.open(m, "ffn-hidden", text::HIDDEN);
        let hidden = v.hidden.row(i).to_vec();
        let activated = v.activated.row(i).to_vec();
        let zeroed: Vec<bool> = hidden
            .iter()
            .map(|&h| v.activation == Activation::Relu && h < 0.0)
            .collect();
        let wide = Stage {
            extent: hidden.iter().fold(self.extent, |m, x| m.max(x.abs())),
            lang: self.lang,
        };
        wide.vector(m, "ffn-hidden", &hidden, &[]);
        wide.line(m, text::ACTIVATED, "ffn-activated", &activated, &zeroed);
        curve(m, v.activation, &hidden, &zeroed, self.lang);
        self.line(m, text::FFN, "ffn", &v.ffn.row(i).to_vec(), &[]);
        m.close("li");
    }

    /// A line of its own: what the step does, then its vector.
    fn line(&self, m: &mut Markup, step: Msg, testid: &str, values: &[f64], zeroed: &[bool]) {
        m.open("span", &[("class", "line")]);
        m.element("span", &[("class", "step")], step.get(self.lang));
        self.vector(m, testid, values, zeroed);
        m.close("span");
    }

    /// A vector, each number on its colour; `zeroed` marks the entries
    /// ReLU set to 0.
    fn vector(&self, m: &mut Markup, testid: &str, values: &[f64], zeroed: &[bool]) {
        let written: Vec<String> = values.iter().map(|&v| js_number(v)).collect();
        m.start("span")
            .attr("class", "vector")
            .attr("data-testid", &format!("stream-{testid}"))
            .attr("data-values", &written.join(" "))
            .end();
        for (c, &value) in values.iter().enumerate() {
            let fill = colour(Palette::Signed, value, self.extent);
            let look = format!(
                "background:{};color:{}",
                fill.hex(),
                fill.text_colour().hex()
            );
            let is_zeroed = zeroed.get(c).copied().unwrap_or(false);
            let class = if is_zeroed { "entry zeroed" } else { "entry" };
            m.start("span")
                .attr("class", class)
                .attr("style", &look)
                .end()
                .text(&rounded(value, 2));
            if is_zeroed {
                m.element(
                    "span",
                    &[("class", "visually-hidden")],
                    text::ZEROED.get(self.lang),
                );
            }
            m.close("span");
        }
        m.close("span");
    }
}

/// The activation's curve over the hidden numbers' range, each hidden
/// number a dot on it (a hollow one where ReLU zeroes it).
fn curve(m: &mut Markup, activation: Activation, hidden: &[f64], zeroed: &[bool], lang: Lang) {
    let (width, height) = CURVE;
    let plot = CurvePlot::holding(8.0, 8.0, width - 16.0, height - 16.0, hidden);
    let aria = match activation {
        Activation::Relu => {
            let count = zeroed.iter().filter(|&&z| z).count();
            text::CURVE_ARIA
                .get(lang)
                .replace("{z}", &count.to_string())
        }
        Activation::Gelu => text::CURVE_ARIA_GELU.get(lang).to_string(),
    };
    m.open("figure", &[("class", "activation-curve")]);
    m.start("svg")
        .attr("role", "img")
        .attr("aria-label", &aria)
        .attr("data-testid", "activation-curve")
        .svg_size(width, height)
        .end();
    // The axes through 0.
    let (x0, y0) = plot.point((0.0, 0.0));
    let (left, _) = plot.point((-plot.reach, 0.0));
    let (right, _) = plot.point((plot.reach, 0.0));
    let (_, top) = plot.point((0.0, plot.reach));
    let (_, bottom) = plot.point((0.0, plot.y_min()));
    m.start("path")
        .attr("class", "axis")
        .attr(
            "d",
            &format!(
                "M{} {}H{}M{} {}V{}",
                coord(left),
                coord(y0),
                coord(right),
                coord(x0),
                coord(top),
                coord(bottom)
            ),
        )
        .end_empty();
    let line: Vec<String> = plot
        .xs(60)
        .map(|x| {
            let (px, py) = plot.point((x, activation.apply(x)));
            format!("{} {}", coord(px), coord(py))
        })
        .collect();
    m.start("path")
        .attr("class", "curve")
        .attr("d", &format!("M{}", line.join("L")))
        .end_empty();
    // The ends of the x axis and the top of the y axis, labelled.
    let reach = rounded(plot.reach, 0);
    let minus = rounded(-plot.reach, 0);
    for (x, y, anchor, label) in [
        (left, y0 + 14.0, "start", minus.as_str()),
        (right, y0 + 14.0, "end", reach.as_str()),
        (x0 + 4.0, top + 10.0, "start", reach.as_str()),
    ] {
        m.start("text")
            .attr("class", "tick")
            .coord("x", x)
            .coord("y", y)
            .attr("text-anchor", anchor)
            .end()
            .text(label)
            .close("text");
    }
    for (c, &h) in hidden.iter().enumerate() {
        let (px, py) = plot.point((h, activation.apply(h)));
        let class = if zeroed.get(c).copied().unwrap_or(false) {
            "dot zeroed"
        } else {
            "dot"
        };
        m.start("circle")
            .attr("class", class)
            .coord("cx", px)
            .coord("cy", py)
            .attr("r", "4")
            .end_empty();
    }
    m.close("svg");
    m.element("figcaption", &[], text::CURVE.get(lang));
    m.close("figure");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::block::with_block;
    use attention_core::presets::sentence;

    fn view(norm_first: bool) -> BlockView {
        let mut s = with_block(&sentence(), 2, 3).expect("a block");
        crate::lab::block::set_norm_first(&mut s, norm_first);
        let trace = s.run_block().expect("runs").expect("a block");
        let labels = crate::lab::token_labels(&s);
        BlockView::new(s.block.as_ref().expect("a block"), &trace, 1, 0, labels).expect("layer 2")
    }

    /// The numbers of a `data-values` list in the markup, by test id.
    fn values(markup: &str, testid: &str) -> Vec<f64> {
        let at = markup
            .find(&format!("data-testid=\"stream-{testid}\""))
            .unwrap_or_else(|| panic!("{testid} in {markup}"));
        let rest = &markup[at..];
        let start = rest.find("data-values=\"").expect("values") + 13;
        let end = start + rest[start..].find('"').expect("closed");
        rest[start..end]
            .split(' ')
            .map(|v| v.parse().expect("a number"))
            .collect()
    }

    #[test]
    fn the_stream_writes_the_cores_numbers_in_the_layers_order() {
        for norm_first in [false, true] {
            let v = view(norm_first);
            let markup = block_card(Some(&v), 2, Lang::En);
            assert_eq!(values(&markup, "input"), v.input.row(2).to_vec());
            assert_eq!(values(&markup, "sum-1"), v.sum_1.row(2).to_vec());
            assert_eq!(
                values(&markup, "sum-1-a"),
                v.input.row(2).to_vec(),
                "x is kept"
            );
            assert_eq!(values(&markup, "ffn-hidden"), v.hidden.row(2).to_vec());
            assert_eq!(values(&markup, "output"), v.output.row(2).to_vec());
            assert_eq!(
                values(&markup, "norm-1-normalised"),
                v.norm_1.normalised.row(2).to_vec()
            );
            let order: Vec<usize> = [
                "\"input\"",
                "\"attention\"",
                "\"norm-1\"",
                "\"ffn-hidden\"",
                "\"output\"",
            ]
            .iter()
            .map(|stage| {
                markup
                    .find(&format!("data-stage={stage}"))
                    .expect("a stage")
            })
            .collect();
            let attention_first = order[1] < order[2];
            assert_eq!(attention_first, !norm_first, "pre-norm normalises first");
            assert!(order[3] < order[4]);
        }
    }

    #[test]
    fn the_card_names_the_layer_and_marks_what_relu_zeroes() {
        let v = view(false);
        let markup = block_card(Some(&v), 0, Lang::Zh);
        assert!(markup.contains("data-testid=\"layer-picker\""));
        assert!(markup.contains("data-layer=\"1\" aria-pressed=\"true\""));
        assert!(markup.contains("我的残差流（第 2 层）"));
        let negatives = v.hidden.row(0).iter().filter(|&&h| h < 0.0).count();
        assert!(negatives > 0, "the example has something for ReLU to zero");
        assert_eq!(markup.matches("entry zeroed").count(), negatives);
        assert_eq!(markup.matches("dot zeroed").count(), negatives);
        assert_eq!(
            markup
                .matches("class=\"visually-hidden\">被 ReLU 置为 0")
                .count(),
            negatives
        );
        assert!(
            !markup.contains("block-biases"),
            "no biases in a block the lab made"
        );
        assert_eq!(block_card(None, 0, Lang::En).matches("<ol").count(), 0);
    }
}
