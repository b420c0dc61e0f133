//! The flow half of the fusion SVG: the value rows V_j with their labels, one
//! connector per key as wide as its weight, and the output row B_i.

use super::markup::{classes, share, FusionSpec};
use crate::diagrams::host::hit;
use crate::geometry::colour::signed_colour;
use crate::geometry::flow::frame::FusionFrame;
use crate::geometry::flow::layout::FusionLayout;
use crate::geometry::flow::{emphasis, token_colour};
use crate::geometry::format::{js_number, subscript, two_decimals};
use crate::geometry::grid::Rect;
use crate::svg::{coord, Markup};

/// One value cell or output cell: a signed-colour square with its number.
fn cell(m: &mut Markup, rect: Rect, value: f64, extent: f64, lit: bool) {
    let fill = signed_colour(value, extent);
    let (cx, cy) = rect.centre();
    m.empty(
        "rect",
        &[
            ("class", if lit { "cell lit" } else { "cell" }),
            ("x", &coord(rect.x)),
            ("y", &coord(rect.y)),
            ("width", &coord(rect.width)),
            ("height", &coord(rect.height)),
            ("fill", &fill.hex()),
        ],
    );
    m.element(
        "text",
        &[
            ("x", &coord(cx)),
            ("y", &coord(cy)),
            ("class", "cell-value"),
            ("fill", &fill.text_colour().hex()),
        ],
        &two_decimals(value),
    );
}

/// V's name, the component numbers over V and B_i, and one row per token:
/// its colour swatch, label and values, faded by its weight.
pub fn value_rows(m: &mut Markup, spec: &FusionSpec, layout: &FusionLayout, extent: f64) {
    let (tokens, d) = spec.v.dim();
    let (vx, vy) = (
        layout.values.label_width / 2.0,
        layout.values.col_label(0).1,
    );
    m.element(
        "text",
        &[
            ("x", &coord(vx)),
            ("y", &coord(vy)),
            ("class", "matrix-name"),
        ],
        "V",
    );
    for c in 0..d {
        let name = (c + 1).to_string();
        for (x, y) in [layout.values.col_label(c), layout.output_col_label(c)] {
            m.element(
                "text",
                &[("x", &coord(x)), ("y", &coord(y)), ("class", "col-label")],
                &name,
            );
        }
    }
    for j in 0..tokens {
        let class = classes("fusion-value-row", &[(spec.masked(j), "masked")]);
        let opacity = share(emphasis(spec.weight(j)));
        m.open("g", &[("class", &class), ("opacity", &opacity)]);
        let swatch = layout.swatch(j);
        m.empty(
            "rect",
            &[
                ("class", "fusion-swatch"),
                ("x", &coord(swatch.x)),
                ("y", &coord(swatch.y)),
                ("width", &coord(swatch.width)),
                ("height", &coord(swatch.height)),
                ("fill", &token_colour(j).hex()),
            ],
        );
        let (lx, ly) = layout.values.row_label(j);
        m.element(
            "text",
            &[("x", &coord(lx)), ("y", &coord(ly)), ("class", "row-label")],
            spec.label(j),
        );
        for c in 0..d {
            let value = spec.v.get((j, c)).copied().unwrap_or(0.0);
            let lit = spec.component == Some(c);
            cell(m, layout.value_cell(j, c), value, extent, lit);
        }
        m.close("g");
    }
}

/// One connector per key, each starting right of its printed weight, so no
/// number sits on a line.
pub fn connectors(m: &mut Markup, spec: &FusionSpec, layout: &FusionLayout, frame: &FusionFrame) {
    for (j, connector) in frame.connectors.iter().enumerate() {
        let masked = spec.masked(j);
        let class = classes(
            "connector",
            &[(connector.is_faint(), "faint"), (masked, "masked")],
        );
        let (row, weight) = (j.to_string(), js_number(spec.weight(j)));
        let (path, stroke) = (connector.path(), token_colour(j).hex());
        let (width, opacity) = (coord(connector.width), share(connector.opacity));
        let mut attrs = vec![
            ("class", class.as_str()),
            ("d", path.as_str()),
            ("stroke", stroke.as_str()),
            ("stroke-width", width.as_str()),
            ("stroke-opacity", opacity.as_str()),
            ("fill", "none"),
            ("data-row", row.as_str()),
            ("data-weight", weight.as_str()),
        ];
        if masked {
            attrs.push(("data-masked", "true"));
        }
        m.empty("path", &attrs);
    }
    for j in 0..frame.connectors.len() {
        let masked = spec.masked(j);
        let (x, y) = layout.weight_label(j);
        let text = if masked {
            spec.masked_word.to_owned()
        } else {
            two_decimals(spec.weight(j))
        };
        let class = classes("connector-label", &[(masked, "masked")]);
        m.element(
            "text",
            &[("class", &class), ("x", &coord(x)), ("y", &coord(y))],
            &text,
        );
    }
}

/// The cells of B_i, each a target for its component, and the caption naming it.
pub fn output_row(m: &mut Markup, spec: &FusionSpec, layout: &FusionLayout, extent: f64) {
    for c in 0..spec.v.ncols() {
        m.open(
            "g",
            &[("class", "fusion-output-cell"), ("data-hit", &hit(0, c))],
        );
        let value = spec.output.get((spec.query, c)).copied().unwrap_or(0.0);
        let lit = spec.component == Some(c);
        cell(m, layout.output_cell(c), value, extent, lit);
        m.close("g");
    }
    let (x, y) = layout.output_caption();
    let (i, label) = spec.query_name;
    m.element(
        "text",
        &[("x", &coord(x)), ("y", &coord(y)), ("class", "matrix-name")],
        &format!("B{} · {}", subscript(i + 1), label),
    );
}
