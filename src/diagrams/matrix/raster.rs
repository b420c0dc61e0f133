//! A heatmap too large to draw cell by cell (`geometry::raster::is_raster`):
//! one canvas pixel per cell, scaled up. Only what changed is redrawn: new
//! values repaint the pixels (one `putImageData`); a new selection moves a few
//! rectangles in the overlay above them; the magnifier prints the numbers of a
//! 7×7 block. Hit-testing, brushing and the magnifier's block all come from
//! `geometry::raster`, which is tested natively.

use super::markup::{self, MatrixSpec};
use super::Palette;
use crate::geometry::colour::{
    signed_colour, signed_position, weight_colour, weight_position, Ramp,
};
use crate::geometry::extent::symmetric_extent;
use crate::geometry::raster::{
    brushed, pixels, shown_size, step, weight_decimals, zoom, Brushed, Raster, Window,
    MAGNIFIER_SIDE,
};
use crate::i18n::{self, raster::*, tr, LangContext};
use crate::page::{drawn, keep_patched, CellEvent, Lit, SvgHost};
use crate::svg::Markup;
use leptos::html::{Canvas, Div};
use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;
use ndarray::{s, Array2};

#[wasm_bindgen::prelude::wasm_bindgen(module = "/src/page/raster.js")]
extern "C" {
    /// Shows `rgba` (`width`×`height` pixels, row by row) on `canvas`.
    #[wasm_bindgen(js_name = drawPixels)]
    pub(crate) fn draw_pixels(canvas: &web_sys::Element, rgba: &[u8], width: u32, height: u32);
    /// Marks `canvas` with the window it shows (top, left, rows, columns),
    /// names it, sizes its frame (width, height in CSS pixels), writes which
    /// part is shown, and offers Show all when zoomed (last, 0 or 1).
    #[wasm_bindgen(js_name = frameRaster)]
    fn frame_raster(canvas: &web_sys::Element, window: &[u32], name: &str, shown: &str);
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// A pointer event read with fractional offsets: web-sys reads offsetX
    /// and offsetY as whole pixels, but a cell of a 512-row raster is less
    /// than one pixel high.
    type ExactPointer;
    #[wasm_bindgen(method, getter = offsetX)]
    fn offset_x(this: &ExactPointer) -> f64;
    #[wasm_bindgen(method, getter = offsetY)]
    fn offset_y(this: &ExactPointer) -> f64;
}

/// Where a pointer event happened in the window, in whole CSS pixels: fine
/// enough to tell a brush from a click.
fn client_point(e: &web_sys::PointerEvent) -> (f64, f64) {
    (f64::from(e.client_x()), f64::from(e.client_y()))
}

/// Everything a raster heatmap draws, as signals (the same as `MatrixGrid`'s).
#[derive(Clone, Copy)]
pub struct RasterInputs {
    pub testid: &'static str,
    pub symbol: &'static str,
    /// Its accessible name (before its shape).
    pub aria: Memo<String>,
    pub values: Signal<Array2<f64>>,
    pub labels: Memo<(Vec<String>, Vec<String>)>,
    pub palette: Palette,
    pub extent: Option<Signal<f64>>,
    /// The highlighted rows and columns, as the drawn heatmap gets them.
    pub lit: Signal<Lit>,
    /// The shape of `values`.
    pub shape: Memo<(usize, usize)>,
    pub masked: Signal<Option<Array2<bool>>>,
}

/// The overlay drawn over the pixels, in cell units of `window` (the SVG is
/// stretched over the canvas): a band for each highlighted row and column,
/// an outline on the cell the magnifier shows, and the brushed block.
pub fn overlay(
    window: Window,
    rows: &[usize],
    cols: &[usize],
    pointed: Option<(usize, usize)>,
    brush: Option<Window>,
) -> String {
    let mut m = Markup::new();
    let view_box = format!("0 0 {} {}", window.cols, window.rows);
    m.start("svg")
        .attr("xmlns", "http://www.w3.org/2000/svg")
        .attr("class", "raster-overlay")
        .attr("viewBox", &view_box)
        .attr("preserveAspectRatio", "none")
        .attr("aria-hidden", "true")
        .end();
    let mut rect = |class: &str, block: Window| {
        let (x, y) = (block.left - window.left, block.top - window.top);
        let (x, y, w, h) = (
            x.to_string(),
            y.to_string(),
            block.cols.to_string(),
            block.rows.to_string(),
        );
        m.start("rect")
            .attr("class", class)
            .attr("x", &x)
            .attr("y", &y)
            .attr("width", &w)
            .attr("height", &h)
            .end_empty();
    };
    let full_rows = |top: usize, rows: usize| Window {
        top,
        rows,
        ..window
    };
    for &r in rows.iter().filter(|&&r| window.contains((r, window.left))) {
        rect("raster-lit", full_rows(r, 1));
    }
    for &c in cols.iter().filter(|&&c| window.contains((window.top, c))) {
        rect(
            "raster-lit",
            Window {
                left: c,
                cols: 1,
                ..window
            },
        );
    }
    if let Some(cell) = pointed.filter(|&cell| window.contains(cell)) {
        rect("raster-pointed", Window::spanning(cell, cell));
    }
    if let Some(block) = brush {
        rect("raster-brush", block);
    }
    m.close("svg");
    m.finish()
}

/// "rows 10–40, columns 0–511": which part of the matrix is shown.
fn window_text(window: Window, lang: i18n::Lang) -> String {
    let range = |from: usize, n: usize| format!("{from}–{}", from + n.saturating_sub(1));
    format!(
        "{} {} · {} {}",
        ROWS.get(lang),
        range(window.top, window.rows),
        COLUMNS.get(lang),
        range(window.left, window.cols)
    )
}

/// The raster, its overlay, the zoom controls and the magnifier.
#[component]
pub fn RasterHeatmap(
    inputs: RasterInputs,
    on_hover: Option<Callback<Option<(usize, usize)>>>,
    on_select: Option<Callback<(usize, usize)>>,
) -> impl IntoView {
    let LangContext(lang) = expect_context::<LangContext>();
    let RasterInputs {
        testid,
        symbol,
        aria,
        values,
        labels,
        palette,
        extent,
        lit,
        shape,
        masked,
    } = inputs;
    let window = RwSignal::new(Window::whole(shape.get_untracked()));
    // A zoom that no longer fits (the sequence got shorter) shows everything again.
    Effect::new(move |_| {
        let shape = shape.get();
        if !window.get_untracked().fits(shape) {
            window.set(Window::whole(shape));
        }
    });
    // The cell under the pointer or the keyboard, outlined on the overlay.
    let pointed = RwSignal::new(None::<(usize, usize)>);
    let brush_from = StoredValue::new(None::<(usize, usize)>);
    // Where the press happened, to tell a brush from a shaky click.
    let pressed_at = StoredValue::new((0.0, 0.0));
    let brush_to = RwSignal::new(None::<(usize, usize)>);
    let selected = move || {
        lit.with(|(rows, cols)| {
            let first = |v: &[usize]| v.first().copied().unwrap_or(0);
            (first(rows), first(cols))
        })
    };

    // The cell the magnifier is centred on: the last one the pointer or the
    // keyboard reached (it stays when the pointer leaves, so its numbers can
    // be read), at first the selected one. It does not follow a selection
    // made elsewhere, which would rewrite every magnifier on every new query.
    let magnified = RwSignal::new(untrack(selected));
    // The end of the colour scale, shared by the pixels and the magnifier:
    // the one given, or the matrix's own largest magnitude (read once).
    let scale_end = Memo::new(move |_| match extent {
        Some(e) => e.get(),
        None => values.with(symmetric_extent),
    });
    let canvas = NodeRef::<Canvas>::new();
    // The scale as a table: a raster colours up to 262,144 cells per change.
    let ramp = match palette {
        Palette::Signed => Ramp::sampled(|t| signed_colour(2.0 * t - 1.0, 1.0)),
        Palette::Weight => Ramp::sampled(weight_colour),
    };
    // Pixels follow the values, the masks and the zoom, never the selection.
    let drawn = drawn(canvas);
    Effect::new(move |_| {
        if !drawn.get() {
            return;
        }
        let shown = window.get();
        let extent = scale_end.get();
        let rgba = values.with(|v| {
            if !shown.fits(v.dim()) {
                return None;
            }
            masked.with(|m| {
                let allowed = m.as_ref().map(|m| m.view());
                Some(pixels(v.view(), allowed, shown, |x| match palette {
                    Palette::Signed => ramp.at(signed_position(x, extent)),
                    Palette::Weight => ramp.at(weight_position(x / extent)),
                }))
            })
        });
        if let (Some(rgba), Some(canvas)) = (rgba, canvas.get()) {
            draw_pixels(&canvas, &rgba, shown.cols as u32, shown.rows as u32);
        }
    });

    let overlay_host = NodeRef::<Div>::new();
    let overlay_markup = Memo::new(move |_| {
        let brush = brush_from
            .get_value()
            .zip(brush_to.get())
            .map(|(a, b)| Window::spanning(a, b));
        lit.with(|(rows, cols)| overlay(window.get(), rows, cols, pointed.get(), brush))
    });
    keep_patched(overlay_host, overlay_markup.into(), Some(drawn));

    let decimals = match palette {
        Palette::Weight => weight_decimals(shape.get_untracked().1),
        Palette::Signed => 2,
    };
    let magnifier = Memo::new(move |_| {
        let centre = magnified.get();
        let block = Window::around(centre, MAGNIFIER_SIDE, shape.get());
        let magnifier_id = format!("{testid}-magnifier");
        let rows = block.top..block.top + block.rows;
        let cols = block.left..block.left + block.cols;
        let part = values.with(|v| v.slice(s![rows.clone(), cols.clone()]).to_owned());
        let allowed = masked.with(|m| {
            m.as_ref()
                .map(|m| m.slice(s![rows.clone(), cols.clone()]).to_owned())
        });
        let extent = scale_end.get();
        labels.with(|(row_labels, col_labels)| {
            markup::heatmap(&MatrixSpec {
                testid: &magnifier_id,
                symbol,
                masked_word: i18n::MASKED.get(lang.get()),
                aria: MAGNIFIER.get(lang.get()),
                values: &part,
                origin: (block.top, block.left),
                row_labels: row_labels.get(rows).unwrap_or_default(),
                col_labels: col_labels.get(cols).unwrap_or_default(),
                palette,
                extent: Some(extent),
                allowed: allowed.as_ref(),
                changed: None,
                decimals,
                draggable: false,
                // Written whole: 49 cells, rewritten as the pointer moves.
                painted: false,
            })
        })
    });

    let hover = move |cell: Option<(usize, usize)>| {
        pointed.set(cell);
        if let Some(cell) = cell {
            magnified.set(cell);
        }
        if let Some(callback) = on_hover {
            callback.run(cell);
        }
    };
    let select = move |cell: (usize, usize)| {
        if let Some(callback) = on_select {
            callback.run(cell);
        }
    };
    // The cell under a pointer event, from the canvas's shown size.
    let cell_of = move |e: &web_sys::PointerEvent| {
        let canvas = canvas.get()?;
        let exact: &ExactPointer = e.unchecked_ref();
        Raster {
            window: window.get_untracked(),
            width: f64::from(canvas.client_width()),
            height: f64::from(canvas.client_height()),
        }
        .cell_at(exact.offset_x(), exact.offset_y())
    };
    let end_brush = move || {
        brush_from.set_value(None);
        brush_to.set(None);
    };
    let on_magnifier = Callback::new(move |event: CellEvent| match event {
        CellEvent::Hover(cell) => {
            if let Some(callback) = on_hover {
                callback.run(cell);
            }
        }
        CellEvent::Select(cell) => select(cell),
        CellEvent::Drag(..) => {}
    });
    // A screen reader hears the cell the keyboard reached, named as a drawn
    // heatmap's cells are (the magnifier shows its neighbours).
    let say_cell = move |cell: (usize, usize)| {
        let Some(value) = values.with(|v| v.get(cell).copied()) else {
            return;
        };
        let masked = masked.with(|m| m.as_ref().and_then(|m| m.get(cell).copied())) == Some(false);
        let text = markup::cell_text(palette, decimals, masked, value);
        let name = labels.with(|(rows, cols)| {
            markup::cell_name(
                symbol,
                (rows, cols),
                cell,
                &text,
                masked.then_some(i18n::MASKED.get(lang.get_untracked())),
            )
        });
        crate::announce::announce("cell", &name);
    };
    // Every event of the canvas, through one listener (`on_events`).
    let on_event = move |e: web_sys::Event| {
        let kind = e.type_();
        if kind == "keydown" {
            let Some(key) = crate::action::plain_key(&e) else {
                return;
            };
            let at = pointed.get_untracked().unwrap_or_else(selected);
            let shown = window.get_untracked();
            if key == "Enter" || key == " " {
                e.prevent_default();
                select(at);
            } else if let Some(block) = zoom(&key, at, shown, shape.get_untracked()) {
                e.prevent_default();
                window.set(block);
                crate::announce::announce("cell", &window_text(block, lang.get_untracked()));
            } else if let Some(next) = step(at, &key, shown) {
                e.prevent_default();
                hover(Some(next));
                say_cell(next);
            }
            return;
        }
        match (kind.as_str(), e.dyn_ref::<web_sys::PointerEvent>()) {
            ("focusin", _) => hover(Some(selected())),
            ("focusout", _) => hover(None),
            ("pointerdown", Some(p)) => {
                if let Some(cell) = cell_of(p) {
                    if let Some(canvas) = canvas.get() {
                        // Capture keeps the brush going when the pointer leaves the canvas.
                        let _ = canvas.set_pointer_capture(p.pointer_id());
                    }
                    brush_from.set_value(Some(cell));
                    brush_to.set(Some(cell));
                    pressed_at.set_value(client_point(p));
                }
            }
            ("pointermove", Some(p)) => {
                let cell = cell_of(p);
                if brush_from.get_value().is_some() && cell.is_some() {
                    brush_to.set(cell);
                }
                if pointed.get_untracked() != cell {
                    hover(cell);
                }
            }
            ("pointerup", Some(p)) => {
                let from = brush_from.get_value();
                let to = cell_of(p).or(brush_to.get_untracked());
                let ((x0, y0), (x1, y1)) = (pressed_at.get_value(), client_point(p));
                end_brush();
                match from.zip(to).map(|(a, b)| brushed(a, b, (x1 - x0, y1 - y0))) {
                    Some(Brushed::Select(cell)) => select(cell),
                    Some(Brushed::Zoom(block)) => window.set(block),
                    None => {}
                }
            }
            ("pointercancel", _) => end_brush(),
            ("pointerleave", _) if brush_from.get_value().is_none() => hover(None),
            _ => {}
        }
    };
    crate::action::on_events(
        canvas,
        "keydown focusin focusout pointerdown pointermove pointerup pointercancel pointerleave",
        on_event,
    );
    // The shown window on the canvas (`data-top`, `data-left`, `data-rows`,
    // `data-cols`), its name, its frame's size, the line that says which part
    // is shown and whether Show all is offered, in one call: a reactive
    // attribute each cost more WebAssembly than the whole call.
    Effect::new(move |_| {
        let (lang, shown, whole) = (lang.get(), window.get(), shape.get());
        let (w, h) = shown_size(shown);
        let name = aria.with(|aria| markup::grid_name(aria, whole));
        let zoomed = usize::from(shown != Window::whole(whole));
        if let Some(canvas) = canvas.get() {
            let at =
                [shown.top, shown.left, shown.rows, shown.cols, w, h, zoomed].map(|n| n as u32);
            frame_raster(&canvas, &at, &name, &window_text(shown, lang));
        }
    });

    view! {
        <div class="raster-block">
            // Folded: a card may hold five rasters, and the hint is the same for each.
            <details class="raster-hint">
                <summary>{tr(HINT_SUMMARY)}</summary>
                <span id=format!("{testid}-hint")>{tr(HINT)}</span>
            </details>
            <div class="raster-bar">
                <span class="raster-window"></span>
                <button
                    type="button"
                    data-testid=format!("{testid}-show-all")
                    on:click=move |_| window.set(Window::whole(shape.get_untracked()))
                >
                    {tr(SHOW_ALL)}
                </button>
            </div>
            <div class="raster-frame">
                <canvas
                    node_ref=canvas
                    class="raster"
                    data-testid=testid
                    // Driven by its own keys (arrows, Enter, + and −, Escape),
                    // which a screen reader then passes on; the hint says them.
                    role="application"
                    aria-describedby=format!("{testid}-hint")
                    tabindex="0"
                ></canvas>
                <div class="raster-overlay-host" node_ref=overlay_host></div>
            </div>
            <div class="magnifier">
                <SvgHost markup=magnifier on_cell=on_magnifier lit=lit />
            </div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rects(markup: &str, class: &str) -> Vec<[usize; 4]> {
        markup
            .split(&format!("<rect class=\"{class}\""))
            .skip(1)
            .map(|rest| {
                let number = |name: &str| -> usize {
                    let from = rest.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
                    rest[from..].split('"').next().unwrap().parse().unwrap()
                };
                [number("x"), number("y"), number("width"), number("height")]
            })
            .collect()
    }

    #[test]
    fn the_overlay_marks_the_selection_in_cells_of_the_window() {
        let window = Window::spanning((10, 20), (29, 59));
        let svg = overlay(window, &[12], &[40], Some((11, 21)), None);
        assert!(svg.contains("viewBox=\"0 0 40 20\""), "{svg}");
        // Row 12 is the window's third row, across all its columns; column 40 likewise.
        assert_eq!(rects(&svg, "raster-lit"), [[0, 2, 40, 1], [20, 0, 1, 20]]);
        assert_eq!(rects(&svg, "raster-pointed"), [[1, 1, 1, 1]]);
        assert!(rects(&svg, "raster-brush").is_empty());
    }

    #[test]
    fn what_lies_outside_the_window_is_not_drawn() {
        let window = Window::spanning((10, 20), (29, 59));
        let svg = overlay(window, &[3], &[100], Some((0, 0)), None);
        assert!(rects(&svg, "raster-lit").is_empty());
        assert!(rects(&svg, "raster-pointed").is_empty());
        let brush = Window::spanning((12, 22), (14, 30));
        let svg = overlay(window, &[], &[], None, Some(brush));
        assert_eq!(rects(&svg, "raster-brush"), [[2, 2, 9, 3]]);
    }

    #[test]
    fn the_window_is_named_by_its_first_and_last_row_and_column() {
        let window = Window::spanning((10, 0), (40, 511));
        assert_eq!(
            window_text(window, i18n::Lang::En),
            "rows 10–40 · columns 0–511"
        );
        assert_eq!(window_text(window, i18n::Lang::Zh), "行 10–40 · 列 0–511");
    }
}
