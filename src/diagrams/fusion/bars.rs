//! The stacked bars under B_i: for each component c, the T terms α′_ij·V_jc
//! in their tokens' colours, positive ones stacked up from the zero line and
//! negative ones down, with a tick and the printed total B_ic.

use super::markup::{classes, FusionSpec};
use crate::diagrams::host::hit;
use crate::diagrams::matrix::markup::cell_name;
use crate::diagrams::matrix::numbered;
use crate::geometry::flow::frame::FusionFrame;
use crate::geometry::flow::layout::FusionLayout;
use crate::geometry::flow::token_colour;
use crate::geometry::format::{js_number, two_decimals};
use crate::svg::{coord, Markup};

/// The zero line and one focusable column per component, each carrying
/// `data-hit="0,c"` so hovering, focusing or tapping it picks component c.
pub fn bar_columns(m: &mut Markup, spec: &FusionSpec, layout: &FusionLayout, frame: &FusionFrame) {
    let (left, right) = layout.zero_line();
    let zero = coord(frame.zero);
    m.empty(
        "line",
        &[
            ("class", "zero-line"),
            ("x1", &coord(left)),
            ("x2", &coord(right)),
            ("y1", &zero),
            ("y2", &zero),
        ],
    );
    m.element(
        "text",
        &[
            ("class", "zero-label"),
            ("x", &coord(left - 4.0)),
            ("y", &zero),
            ("aria-hidden", "true"),
        ],
        "0",
    );
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
        m.open(
            "g",
            &[
                ("class", &class),
                ("data-component", &col),
                ("data-hit", &hit(0, c)),
                ("role", "button"),
                ("aria-label", &name),
                ("tabindex", if c == 0 { "0" } else { "-1" }),
            ],
        );
        m.empty(
            "rect",
            &[
                ("class", "column-hit"),
                ("x", &coord(area.x)),
                ("y", &coord(area.y)),
                ("width", &coord(area.width)),
                ("height", &coord(area.height)),
            ],
        );
        for (j, segment) in segments.iter().enumerate() {
            let rect = segment.rect;
            m.open(
                "rect",
                &[
                    ("class", "segment"),
                    ("x", &coord(rect.x)),
                    ("width", &coord(rect.width)),
                    ("y", &coord(rect.y)),
                    ("height", &coord(rect.height)),
                    ("fill", &token_colour(j).hex()),
                    ("data-row", &j.to_string()),
                    ("data-col", &col),
                    ("data-value", &js_number(segment.value)),
                ],
            );
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
        m.open(
            "g",
            &[
                ("class", "fusion-total"),
                ("data-testid", "fusion-total"),
                ("data-col", &col),
                ("data-value", &js_number(total.value)),
            ],
        );
        m.empty(
            "line",
            &[
                ("x1", &coord(area.x)),
                ("x2", &coord(area.x + area.width)),
                ("y1", &tick),
                ("y2", &tick),
            ],
        );
        m.element(
            "text",
            &[("x", &coord(x)), ("y", &coord(total.label_y))],
            &two_decimals(total.value),
        );
        m.close("g").close("g");
    }
    m.close("g");
}
