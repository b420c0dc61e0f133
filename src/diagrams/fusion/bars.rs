//! The stacked bars under B_i: for each component c, the T terms α′_ij·V_jc
//! in their tokens' colours, positive ones stacked up from the zero line and
//! negative ones down, with a tick and the printed total B_ic.

use super::markup::{classes, FusionSpec};
use crate::diagrams::matrix::markup::cell_name;
use crate::diagrams::matrix::numbered;
use crate::geometry::flow::frame::FusionFrame;
use crate::geometry::flow::layout::FusionLayout;
use crate::geometry::flow::token_colour;
use crate::geometry::format::{js_number, two_decimals};
use crate::page::hit;
use crate::svg::{coord, Markup};

/// The zero line and one focusable column per component, each carrying
/// `data-hit="0,c"` so hovering, focusing or tapping it picks component c.
pub fn bar_columns(m: &mut Markup, spec: &FusionSpec, layout: &FusionLayout, frame: &FusionFrame) {
    let (left, right) = layout.zero_line();
    let zero = coord(frame.zero);
    m.start("line")
        .attr("class", "zero-line")
        .coord("x1", left)
        .coord("x2", right)
        .attr("y1", &zero)
        .attr("y2", &zero)
        .end_empty();
    m.start("text")
        .attr("class", "zero-label")
        .coord("x", left - 4.0)
        .attr("y", &zero)
        .attr("aria-hidden", "true")
        .end()
        .text("0")
        .close("text");
    // One toolbar, one tab stop: the arrows move along the components.
    let toolbar_name = format!("B {}", spec.query_name.1);
    let toolbar = [
        ("role", "toolbar"),
        ("data-rove", ""),
        ("aria-label", toolbar_name.as_str()),
    ];
    m.open("g", &toolbar);
    let components = numbered(frame.totals.len());
    let query = [spec.query_name.1.to_owned()];
    for (c, (segments, total)) in frame.segments.iter().zip(&frame.totals).enumerate() {
        let area = layout.column(c);
        let col = c.to_string();
        let class = classes("fusion-column", &[(spec.component == Some(c), "lit")]);
        // Named as the output heatmap names B's cells: the query's token,
        // the component and its sum.
        let sum = two_decimals(total.value);
        let name = cell_name("B", (&query, &components), (0, c), &sum, None);
        m.start("g")
            .attr("class", &class)
            .attr("data-component", &col)
            .attr("data-hit", &hit(0, c))
            .attr("role", "button")
            .attr("aria-label", &name)
            .attr("tabindex", if c == 0 { "0" } else { "-1" })
            .end();
        m.start("rect")
            .attr("class", "column-hit")
            .bounds(area.x, area.y, area.width, area.height)
            .end_empty();
        for (j, segment) in segments.iter().enumerate() {
            let rect = segment.rect;
            m.start("rect")
                .attr("class", "segment")
                .bounds(rect.x, rect.y, rect.width, rect.height)
                .attr("fill", &token_colour(j).hex())
                .attr("data-row", &j.to_string())
                .attr("data-col", &col)
                .attr("data-value", &js_number(segment.value))
                .end();
            // The tooltip names the token and writes its term out.
            let (w, v) = (spec.weight(j), spec.v.get((j, c)).copied().unwrap_or(0.0));
            let tooltip = format!(
                "{}: {} × {} = {}",
                spec.label(j),
                two_decimals(w),
                two_decimals(v),
                two_decimals(w * v)
            );
            m.element("title", &[], &tooltip).close("rect");
        }
        let (x, _) = area.centre();
        let tick = coord(total.y);
        m.start("g")
            .attr("class", "fusion-total")
            .attr("data-testid", "fusion-total")
            .attr("data-col", &col)
            .attr("data-value", &js_number(total.value))
            .end();
        m.start("line")
            .coord("x1", area.x)
            .coord("x2", area.x + area.width)
            .attr("y1", &tick)
            .attr("y2", &tick)
            .end_empty();
        m.start("text")
            .coord("x", x)
            .coord("y", total.label_y)
            .end()
            .text(&two_decimals(total.value))
            .close("text");
        m.close("g").close("g");
    }
    m.close("g");
}
