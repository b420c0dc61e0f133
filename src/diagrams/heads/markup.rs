//! The heads card as HTML: a button per head and each head's weights as a
//! small map. Pure, so tests read it natively.

use super::action::Control;
use crate::diagrams::matrix::{markup::colour, Palette};
use crate::geometry::format::js_number;
use crate::geometry::raster::{self, Window};
use crate::geometry::thumbnail::Thumbnail;
use crate::i18n::{heads as text, Lang};
use crate::lab::LayerView;
use crate::svg::Markup;
use ndarray::Array2;

/// The card's markup for `layer`; empty for a single head, which has no card.
/// Which head is shown is marked apart (`ActionCard`'s `chosen`), so picking
/// another head rewrites nothing here; so are the maps' colours, painted on
/// their canvases ([`pixels`]), and their values ([`values`]): new weights
/// give the same markup, which the card then leaves alone.
pub fn heads(layer: Option<&LayerView>, lang: Lang) -> String {
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
    m.open("div", &[("class", "head-maps")]);
    for (i, name) in names.iter().enumerate() {
        m.open("figure", &[("class", "head-map")]);
        m.element("figcaption", &[], name);
        map(&mut m, i, name, lang);
        m.close("figure");
    }
    m.close("div");
    let size = layer.weights.first().map_or(0, |w| w.nrows());
    let block = Thumbnail::new(size).block;
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

/// One head's map: a canvas for its colours and, over it, the SVG (sized by
/// the stylesheet, as the canvas) that names it and takes the click; the
/// card writes its values into it (`data-values`, a square number of them).
fn map(m: &mut Markup, head: usize, name: &str, lang: Lang) {
    let index = head.to_string();
    let aria = format!("{name}{}", text::THUMBNAIL_ARIA.get(lang));
    m.open("div", &[("class", "head-thumb")]);
    m.start("canvas")
        .attr("class", "head-pixels")
        .attr("data-head", &index)
        .attr("aria-hidden", "true")
        .end()
        .text("")
        .close("canvas");
    m.start("svg")
        .attr("xmlns", "http://www.w3.org/2000/svg")
        .attr("class", "diagram head-weights")
        .attr("data-testid", "head-weights")
        .attr("data-head", &index)
        .attr("data-action", Control::Select.name())
        .attr("data-index", &index)
        .attr("role", "img")
        .attr("aria-label", &aria)
        .end();
    m.close("svg").close("div");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::colour::Rgb;
    use crate::lab::set_heads;
    use attention_core::presets::sentence;

    fn layer(heads: usize) -> LayerView {
        let mut s = sentence();
        set_heads(&mut s, heads, 1).expect("heads");
        LayerView::new(&s.run().expect("runs"), 0)
    }

    #[test]
    fn the_pick_sentence_follows_the_explanation_as_each_language_writes() {
        let zh = heads(Some(&layer(2)), Lang::Zh);
        assert!(
            zh.contains(&format!("{}<span", text::HEADS_EXPLAIN.zh)),
            "no space in Chinese"
        );
        let en = heads(Some(&layer(2)), Lang::En);
        assert!(en.contains("is more weight). <span"), "a space in English");
        assert!(en.contains(&format!("class=\"needs-diagrams\">{}", text::HEADS_PICK.en)));
    }

    #[test]
    fn one_head_has_no_card() {
        let one = LayerView::new(&sentence().run().expect("runs"), 0);
        assert_eq!(heads(Some(&one), Lang::En), "");
        assert!(maps(Some(&one)).is_empty());
        assert_eq!(heads(None, Lang::En), "");
    }

    #[test]
    fn every_head_has_a_button_and_a_map_of_the_cores_weights() {
        let two = layer(2);
        let pooled = maps(Some(&two));
        assert_eq!(pooled[1], two.weights[1], "four tokens: a cell per weight");
        let html = heads(Some(&two), Lang::En);
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
        assert_eq!(heads(Some(&other), Lang::En), html);
        assert!(!html.contains("heads-pooled"));
        assert!(heads(Some(&two), Lang::Zh).contains(">头 2</button>"));
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
