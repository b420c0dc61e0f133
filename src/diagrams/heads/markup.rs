//! The heads card as HTML: a button per head and each head's weights as a
//! small map. Pure, so tests read it natively.

use crate::diagrams::matrix::{markup::colour, Palette};
use crate::geometry::format::js_number;
use crate::geometry::thumbnail::Thumbnail;
use crate::i18n::{heads as text, Lang};
use crate::lab::LayerView;
use crate::svg::{coord, Markup};

/// A thumbnail's side in pixels.
const SIDE: f64 = 112.0;

/// The card's markup for `layer`; empty for a single head, which has no card.
/// Which head is shown is marked apart (`ActionCard`'s `chosen`), so picking
/// another head rewrites nothing here.
pub fn heads(layer: Option<&LayerView>, lang: Lang) -> String {
    let Some(layer) = layer.filter(|l| l.heads() > 1) else {
        return String::new();
    };
    let mut m = Markup::new();
    m.element("h2", &[], text::HEADS_TITLE.get(lang));
    m.element("p", &[("class", "explain")], text::HEADS_EXPLAIN.get(lang));
    let names: Vec<String> = (1..=layer.heads())
        .map(|i| format!("{}{i}", text::HEAD.get(lang)))
        .collect();
    m.open(
        "div",
        &[
            ("class", "head-picker"),
            ("role", "group"),
            ("data-testid", "head-picker"),
            ("aria-label", text::PICKER.get(lang)),
        ],
    );
    for (i, name) in names.iter().enumerate() {
        let index = i.to_string();
        m.open("span", &[("class", "head-choice")]);
        let button = [
            ("data-head", index.as_str()),
            ("data-action", "select"),
            ("data-index", index.as_str()),
            ("aria-pressed", "false"),
        ];
        m.element("button", &button, name);
        m.close("span");
    }
    m.close("div");
    let size = layer.weights.first().map_or(0, |w| w.nrows());
    let thumbnail = Thumbnail::new(size, SIDE);
    m.open("div", &[("class", "head-maps")]);
    for (i, weights) in layer.weights.iter().enumerate() {
        m.open("figure", &[("class", "head-map")]);
        m.element("figcaption", &[], &names[i]);
        map(
            &mut m,
            i,
            &names[i],
            &thumbnail.pooled(weights),
            &thumbnail,
            lang,
        );
        m.close("figure");
    }
    m.close("div");
    if thumbnail.block > 1 {
        let note = format!("{}{}", text::POOLED.get(lang), thumbnail.block);
        m.element(
            "p",
            &[("class", "note"), ("data-testid", "heads-pooled")],
            &note,
        );
    }
    m.finish()
}

/// One head's map: a cell per position (or block of positions), each with
/// `data-row`, `data-col` (its first position) and `data-value`.
fn map(
    m: &mut Markup,
    head: usize,
    name: &str,
    cells: &ndarray::Array2<f64>,
    t: &Thumbnail,
    lang: Lang,
) {
    let index = head.to_string();
    let side = coord(SIDE);
    let view_box = format!("0 0 {side} {side}");
    let aria = format!("{name}{}", text::THUMBNAIL_ARIA.get(lang));
    m.open(
        "svg",
        &[
            ("xmlns", "http://www.w3.org/2000/svg"),
            ("class", "diagram head-weights"),
            ("data-testid", "head-weights"),
            ("data-head", &index),
            ("data-action", "select"),
            ("data-index", &index),
            ("role", "img"),
            ("aria-label", &aria),
            ("viewBox", &view_box),
            ("width", &side),
            ("height", &side),
        ],
    );
    let size = coord(t.cell);
    for ((r, c), &value) in cells.indexed_iter() {
        let (row, col) = (
            t.positions_of(r).start.to_string(),
            t.positions_of(c).start.to_string(),
        );
        let (x, y) = (coord(t.offset(c)), coord(t.offset(r)));
        let fill = colour(Palette::Weight, value, 1.0).hex();
        m.empty(
            "rect",
            &[
                ("class", "cell"),
                ("data-row", &row),
                ("data-col", &col),
                ("data-value", &js_number(value)),
                ("x", &x),
                ("y", &y),
                ("width", &size),
                ("height", &size),
                ("fill", &fill),
            ],
        );
    }
    m.close("svg");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::set_heads;
    use attention_core::presets::sentence;

    fn layer(heads: usize) -> LayerView {
        let mut s = sentence();
        set_heads(&mut s, heads, 1).expect("heads");
        LayerView::new(&s.run().expect("runs"), 0)
    }

    #[test]
    fn one_head_has_no_card() {
        let one = LayerView::new(&sentence().run().expect("runs"), 0);
        assert_eq!(heads(Some(&one), Lang::En), "");
        assert_eq!(heads(None, Lang::En), "");
    }

    #[test]
    fn every_head_has_a_button_and_a_map_of_the_cores_weights() {
        let two = layer(2);
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
        }
        // Head 2's cell (1, 3) carries its weight, as the core computed it.
        let map = &html[html
            .find("data-head=\"1\" data-action=\"select\" data-index=\"1\" role")
            .expect("map 2")..];
        let cell = format!(
            "data-row=\"1\" data-col=\"3\" data-value=\"{}\"",
            js_number(two.weights[1][[1, 3]])
        );
        assert!(map.contains(&cell), "{map}");
        assert!(!html.contains("heads-pooled"));
        assert!(heads(Some(&two), Lang::Zh).contains(">头 2</button>"));
    }
}
