//! The flow half of the fusion SVG: the value rows V_j with their labels, one
//! connector per key as wide as its weight, and the output row B_i.

use super::markup::{classes, share, FusionSpec};
use crate::geometry::colour::signed_colour;
use crate::geometry::flow::frame::FusionFrame;
use crate::geometry::flow::layout::FusionLayout;
use crate::geometry::flow::{emphasis, token_colour};
use crate::geometry::format::{js_number, subscript, two_decimals};
use crate::geometry::grid::Rect;
use crate::page::hit;
use crate::svg::{coord, Markup};

/// One value cell or output cell: a signed-colour square with its number.
fn cell(m: &mut Markup, rect: Rect, value: f64, extent: f64, lit: bool) {
    let fill = signed_colour(value, extent);
    let (cx, cy) = rect.centre();
    m.start("rect")
        .attr("class", if lit { "cell lit" } else { "cell" })
        .bounds(rect.x, rect.y, rect.width, rect.height)
        .attr("fill", &fill.hex())
        .end_empty();
    m.start("text")
        .coord("x", cx)
        .coord("y", cy)
        .attr("class", "cell-value")
        .attr("fill", &fill.text_colour().hex())
        .end()
        .text(&two_decimals(value))
        .close("text");
}

/// V's name, the component numbers over V and B_i, and one row per token:
/// its colour swatch, label and values, faded by its weight.
pub fn value_rows(m: &mut Markup, spec: &FusionSpec, layout: &FusionLayout, extent: f64) {
    let (tokens, d) = spec.v.dim();
    let (vx, vy) = (
        layout.values.label_width / 2.0,
        layout.values.col_label(0).1,
    );
    m.start("text")
        .coord("x", vx)
        .coord("y", vy)
        .attr("class", "matrix-name")
        .end()
        .text("V")
        .close("text");
    for c in 0..d {
        let name = (c + 1).to_string();
        for (x, y) in [layout.values.col_label(c), layout.output_col_label(c)] {
            m.start("text")
                .coord("x", x)
                .coord("y", y)
                .attr("class", "col-label")
                .end()
                .text(&name)
                .close("text");
        }
    }
    for j in 0..tokens {
        let class = classes("fusion-value-row", &[(spec.masked(j), "masked")]);
        let opacity = share(emphasis(spec.weight(j)));
        m.start("g")
            .attr("class", &class)
            .attr("opacity", &opacity)
            .end();
        let swatch = layout.swatch(j);
        m.start("rect")
            .attr("class", "fusion-swatch")
            .bounds(swatch.x, swatch.y, swatch.width, swatch.height)
            .attr("fill", &token_colour(j).hex())
            .end_empty();
        let (lx, ly) = layout.values.row_label(j);
        m.start("text")
            .coord("x", lx)
            .coord("y", ly)
            .attr("class", "row-label")
            .end()
            .text(spec.label(j))
            .close("text");
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
        m.start("text")
            .attr("class", &class)
            .coord("x", x)
            .coord("y", y)
            .end()
            .text(&text)
            .close("text");
    }
}

/// The cells of B_i, each a target for its component, and the caption naming it.
pub fn output_row(m: &mut Markup, spec: &FusionSpec, layout: &FusionLayout, extent: f64) {
    for c in 0..spec.v.ncols() {
        m.start("g")
            .attr("class", "fusion-output-cell")
            .attr("data-hit", &hit(0, c))
            .end();
        let value = spec.output.get((spec.query, c)).copied().unwrap_or(0.0);
        let lit = spec.component == Some(c);
        cell(m, layout.output_cell(c), value, extent, lit);
        m.close("g");
    }
    let (x, y) = layout.output_caption();
    let (i, label) = spec.query_name;
    m.start("text")
        .coord("x", x)
        .coord("y", y)
        .attr("class", "matrix-name")
        .end()
        .text(&format!("B{} · {}", subscript(i + 1), label))
        .close("text");
}
