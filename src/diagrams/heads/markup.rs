//! The heads card as HTML: a button per head and each head's weights as a
//! small map. Pure, so tests read it natively.

use super::action::Control;
use crate::diagrams::legend;
use crate::diagrams::matrix::{markup::colour, Palette};
use crate::geometry::bars::short_label;
use crate::geometry::format::{js_number, two_decimals};
use crate::geometry::raster::{self, Window};
use crate::geometry::thumbnail::{MapLayout, Thumbnail, SIDE};
use crate::i18n::{self, heads as text, Lang};
use crate::lab::LayerView;
use crate::svg::Markup;
use ndarray::Array2;

/// The margins of a map's SVG for its labels: the queries' on the left, the
/// keys' (turned 60°) on top.
const LABELS_LEFT: f64 = 36.0;
const LABELS_TOP: f64 = 38.0;
/// Most characters of a token's name a map prints.
const LABEL_CHARS: usize = 5;

/// Where the cells and labels of a map of `positions` tokens sit.
pub fn layout(positions: usize) -> MapLayout {
    MapLayout {
        thumbnail: Thumbnail::new(positions),
        left: LABELS_LEFT,
        top: LABELS_TOP,
    }
}

/// The card's markup for `layer`, whose tokens are named `labels`; empty
/// for a single head, which has no card.
/// Which head is shown is marked apart (`ActionCard`'s `chosen`), so picking
/// another head rewrites nothing here; so are the maps' colours, painted on
/// their canvases ([`pixels`]), and their values ([`values`]): new weights
/// give the same markup, which the card then leaves alone.
pub fn heads(layer: Option<&LayerView>, labels: &[String], lang: Lang) -> String {
    let Some(layer) = layer.filter(|l| l.heads() > 1) else {
        return String::new();
    };
    let mut m = Markup::new();
    m.element("h2", &[], text::HEADS_TITLE.get(lang));
    // Chinese runs its sentences on without a space.
    let between = if lang == Lang::En { " " } else { "" };
    m.open("p", &[("class", "explain")])
        .text(text::HEADS_EXPLAIN.get(lang))
        .text(between);
    m.element(
        "span",
        &[("class", "needs-diagrams")],
        text::HEADS_PICK.get(lang),
    );
    m.close("p");
    let names: Vec<String> = (1..=layer.heads())
        .map(|i| format!("{}{i}", text::HEAD.get(lang)))
        .collect();
    m.start("div")
        .attr("class", "head-picker")
        .attr("role", "group")
        .attr("data-testid", "head-picker")
        .attr("aria-label", text::PICKER.get(lang))
        .end();
    for (i, name) in names.iter().enumerate() {
        let index = i.to_string();
        m.open("span", &[("class", "head-choice")]);
        let button = [
            ("data-head", index.as_str()),
            ("data-action", Control::Select.name()),
            ("data-index", index.as_str()),
            ("aria-pressed", "false"),
        ];
        m.element("button", &button, name);
        m.close("span");
    }
    m.close("div");
    let size = layer.weights.first().map_or(0, |w| w.nrows());
    let layout = layout(size);
    let names_of_cells = cell_names(labels, layout.thumbnail);
    m.open("div", &[("class", "head-maps")]);
    for (i, name) in names.iter().enumerate() {
        m.open("figure", &[("class", "head-map")]);
        m.element("figcaption", &[], name);
        map(&mut m, i, name, &names_of_cells, layout, lang);
        m.close("figure");
    }
    m.close("div");
    // Pointing at a cell says its weight here (`Heads`), for every map.
    // Screen readers have each map's weights in its name (`map_aria`).
    let readout = [
        ("class", "hint head-readout"),
        ("data-testid", "head-readout"),
    ];
    m.element("p", &readout, text::READOUT_HINT.get(lang));
    m.raw(&legend::markup(
        "heads-legend",
        Palette::Weight,
        1.0,
        i18n::LEGEND_WEIGHT.get(lang),
        i18n::WEIGHTS_LEGEND_ARIA.get(lang),
    ));
    let block = layout.thumbnail.block;
    if block > 1 {
        let note = format!("{}{block}", text::POOLED.get(lang));
        m.element(
            "p",
            &[("class", "note"), ("data-testid", "heads-pooled")],
            &note,
        );
    }
    m.finish()
}

/// Each head's weights pooled to its small map.
pub fn maps(layer: Option<&LayerView>) -> Vec<Array2<f64>> {
    let Some(layer) = layer.filter(|l| l.heads() > 1) else {
        return Vec::new();
    };
    let size = layer.weights.first().map_or(0, |w| w.nrows());
    let thumbnail = Thumbnail::new(size);
    layer.weights.iter().map(|w| thumbnail.pooled(w)).collect()
}

/// One map's colours as RGBA pixels, a pixel per cell (the canvas is
/// scaled up without smoothing, as a raster heatmap's).
pub fn pixels(cells: &Array2<f64>) -> Vec<u8> {
    raster::pixels(cells.view(), None, Window::whole(cells.dim()), |v| {
        colour(Palette::Weight, v, 1.0)
    })
}

/// A map's values row by row, as its SVG carries them in `data-values`.
pub fn values(cells: &Array2<f64>) -> String {
    let values: Vec<String> = cells.iter().map(|&v| js_number(v)).collect();
    values.join(" ")
}

/// What each cell of a map is called along a side: its token's name when a
/// cell is one token, else the positions it pools ("17–32", counted from 1).
pub fn cell_names(labels: &[String], thumbnail: Thumbnail) -> Vec<String> {
    (0..thumbnail.cells)
        .map(|cell| {
            let positions = thumbnail.positions_of(cell);
            match (thumbnail.block, labels.get(positions.start)) {
                (1, Some(label)) => label.clone(),
                _ => format!("{}–{}", positions.start + 1, positions.end),
            }
        })
        .collect()
}

/// What pointing at cell (row, column) of head `head`'s map says: the
/// query's and key's names and the weight (a pooled cell's mean).
pub fn cell_reading(
    names: &[String],
    head: usize,
    (row, column): (usize, usize),
    weight: f64,
    lang: Lang,
) -> String {
    format!(
        "{}{} · {} → {}: {}",
        text::HEAD.get(lang),
        head + 1,
        name_of(names, row),
        name_of(names, column),
        two_decimals(weight)
    )
}

/// The name of a map's row or column `i` ([`cell_names`]).
fn name_of(names: &[String], i: usize) -> &str {
    names.get(i).map_or("?", String::as_str)
}

/// A map's name for a screen reader: the head, what a click does, then
/// every cell's weight row by row ("他: 他 0.10, 说 0.20; …").
pub fn map_aria(names: &[String], head: usize, cells: &Array2<f64>, lang: Lang) -> String {
    let rows: Vec<String> = cells
        .rows()
        .into_iter()
        .enumerate()
        .map(|(r, row)| {
            let weights: Vec<String> = row
                .iter()
                .enumerate()
                .map(|(c, &w)| format!("{} {}", name_of(names, c), two_decimals(w)))
                .collect();
            format!("{}: {}", name_of(names, r), weights.join(", "))
        })
        .collect();
    format!(
        "{}{}{}{}{}",
        text::HEAD.get(lang),
        head + 1,
        text::THUMBNAIL_ARIA.get(lang),
        text::BY_QUERY.get(lang),
        rows.join("; ")
    )
}

/// One head's map: a canvas for its colours and, over it, the SVG that
/// names the rows and columns and takes the click; the card writes its
/// values (`data-values`, a square number of them) and its name for a
/// screen reader ([`map_aria`]) into it.
fn map(m: &mut Markup, head: usize, name: &str, names: &[String], layout: MapLayout, lang: Lang) {
    let index = head.to_string();
    let aria = format!("{name}{}", text::THUMBNAIL_ARIA.get(lang));
    let (width, height) = layout.size();
    m.open("div", &[("class", "head-thumb")]);
    // The canvas covers the cells only, under the SVG's square.
    let place = format!(
        "left:{}px;top:{}px;width:{}px;height:{}px",
        js_number(layout.left),
        js_number(layout.top),
        js_number(SIDE),
        js_number(SIDE)
    );
    m.start("canvas")
        .attr("class", "head-pixels")
        .attr("data-head", &index)
        .attr("aria-hidden", "true")
        .attr("style", &place)
        .end()
        .text("")
        .close("canvas");
    m.start("svg")
        .svg_size(width, height)
        .attr("class", "diagram head-weights")
        .attr("data-testid", "head-weights")
        .attr("data-head", &index)
        .attr("data-action", Control::Select.name())
        .attr("data-index", &index)
        .attr("role", "img")
        .attr("aria-label", &aria)
        .end();
    m.start("rect")
        .attr("class", "head-frame")
        .coord("x", layout.left)
        .coord("y", layout.top)
        .coord("width", SIDE)
        .coord("height", SIDE)
        .end_empty();
    let step = layout.label_step();
    for (cell, cell_name) in names.iter().enumerate().step_by(step) {
        let label = short_label(cell_name, LABEL_CHARS);
        let (x, y) = layout.centre(cell, cell);
        m.start("text")
            .attr("class", "head-label query")
            .coord("x", layout.left - 4.0)
            .coord("y", y)
            .end()
            .text(&label)
            .close("text");
        let top = layout.top - 4.0;
        m.start("text")
            .attr("class", "head-label key")
            .coord("x", x)
            .coord("y", top)
            .attr(
                "transform",
                &format!("rotate(-60 {} {})", js_number(x), js_number(top)),
            )
            .end()
            .text(&label)
            .close("text");
    }
    m.close("svg").close("div");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::colour::Rgb;
    use crate::lab::set_heads;
    use attention_core::presets::sentence;

    fn names() -> Vec<String> {
        crate::lab::token_labels(&sentence())
    }

    fn layer(heads: usize) -> LayerView {
        let mut s = sentence();
        set_heads(&mut s, heads, 1).expect("heads");
        LayerView::new(&s.run().expect("runs"), 0)
    }

    #[test]
    fn the_pick_sentence_follows_the_explanation_as_each_language_writes() {
        let zh = heads(Some(&layer(2)), &names(), Lang::Zh);
        assert!(
            zh.contains(&format!("{}<span", text::HEADS_EXPLAIN.zh)),
            "no space in Chinese"
        );
        let en = heads(Some(&layer(2)), &names(), Lang::En);
        assert!(en.contains("is more weight). <span"), "a space in English");
        assert!(en.contains(&format!("class=\"needs-diagrams\">{}", text::HEADS_PICK.en)));
    }

    #[test]
    fn one_head_has_no_card() {
        let one = LayerView::new(&sentence().run().expect("runs"), 0);
        assert_eq!(heads(Some(&one), &names(), Lang::En), "");
        assert!(maps(Some(&one)).is_empty());
        assert_eq!(heads(None, &names(), Lang::En), "");
    }

    #[test]
    fn every_head_has_a_button_and_a_map_of_the_cores_weights() {
        let two = layer(2);
        let pooled = maps(Some(&two));
        assert_eq!(pooled[1], two.weights[1], "four tokens: a cell per weight");
        let html = heads(Some(&two), &names(), Lang::En);
        assert!(html.contains("data-testid=\"head-picker\""));
        for i in 0..2 {
            assert!(
                html.contains(&format!(
                    "<button data-head=\"{i}\" data-action=\"select\" data-index=\"{i}\""
                )),
                "{html}"
            );
            assert!(html.contains(&format!("data-testid=\"head-weights\" data-head=\"{i}\"")));
            assert!(html.contains(&format!("<canvas class=\"head-pixels\" data-head=\"{i}\"")));
        }
        // Head 2's map carries its weights, as the core computed them, row by row.
        let written: Vec<f64> = values(&pooled[1])
            .split(' ')
            .map(|v| v.parse().unwrap_or(f64::NAN))
            .collect();
        assert_eq!(written, two.weights[1].iter().copied().collect::<Vec<_>>());
        // New weights, the same markup: nothing for the page to patch.
        let mut other = two.clone();
        other.weights[1][[0, 0]] += 0.5;
        assert_eq!(heads(Some(&other), &names(), Lang::En), html);
        assert!(!html.contains("heads-pooled"));
        assert!(heads(Some(&two), &names(), Lang::Zh).contains(">头 2</button>"));
    }

    #[test]
    fn a_map_names_its_rows_and_columns_and_reads_its_cells() {
        let two = layer(2);
        let tokens = names();
        let html = heads(Some(&two), &tokens, Lang::En);
        // Every token names a row (right-aligned, left of the cells) and a column.
        assert!(
            html.contains("class=\"head-label query\" x=\"32\""),
            "{html}"
        );
        for token in &tokens {
            let label = short_label(token, LABEL_CHARS);
            assert_eq!(
                html.matches(&format!(">{label}</text>")).count(),
                2 * 2,
                "{token}: a row and a column, two maps"
            );
        }
        assert!(html.contains("data-testid=\"heads-legend\""), "a scale");
        assert!(html.contains(text::READOUT_HINT.en));
        let cells = &two.weights[1];
        let names = cell_names(&tokens, layout(tokens.len()).thumbnail);
        assert_eq!(names, tokens, "a cell per token");
        let reading = cell_reading(&names, 1, (0, 3), cells[[0, 3]], Lang::En);
        assert_eq!(
            reading,
            format!(
                "Head 2 · {} → {}: {}",
                tokens[0],
                tokens[3],
                two_decimals(cells[[0, 3]])
            )
        );
        let aria = map_aria(&names, 1, cells, Lang::Zh);
        assert!(aria.starts_with("头 2 的权重"), "{aria}");
        let first_row = format!(
            "{}: {} {}, {} {}",
            tokens[0],
            tokens[0],
            two_decimals(cells[[0, 0]]),
            tokens[1],
            two_decimals(cells[[0, 1]])
        );
        assert!(aria.contains(&first_row), "{aria}");
    }

    #[test]
    fn pooled_cells_are_named_by_the_positions_they_cover() {
        let labels: Vec<String> = (1..=40).map(|i| format!("t{i}")).collect();
        let names = cell_names(&labels, layout(40).thumbnail);
        assert_eq!(names.len(), 14);
        assert_eq!((names[0].as_str(), names[13].as_str()), ("1–3", "40–40"));
    }

    #[test]
    fn a_map_paints_a_pixel_per_cell_in_the_weights_colours() {
        let cells = ndarray::array![[0.0, 1.0], [0.5, 0.25]];
        let rgba = pixels(&cells);
        assert_eq!(rgba.len(), 4 * 4);
        let Rgb(r, g, b) = colour(Palette::Weight, 0.5, 1.0);
        assert_eq!(rgba[8..12], [r, g, b, 255]);
    }
}
