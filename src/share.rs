//! The "save and share" card: export the diagrams (SVG, PNG), the scenario and
//! the trace (JSON), and any matrix (LaTeX, NumPy); import a scenario; build
//! the embed code. Markup patched in place with one delegated listener, like
//! the controls; the browser work (downloads, the SVG composition, the
//! clipboard, reading a file) is in `share.js`.
//!
//! Built as: markup, an `ActionCard` (ARCHITECTURE.md: Adding a card).

pub mod action;
mod embed_code;
pub mod import;
mod markup;
pub mod text;

use crate::action::{part, Heard};
use crate::cards::panels;
use crate::classroom::{Completion, Package};
use crate::controls::scenarios::{Choice, Picked};
use crate::i18n::{self, LangContext};
use crate::link::sync::{link_search, Keeper, LinkedState};
use crate::page::ActionCard;
use crate::page::Skipped;
use crate::state::lab;
use action::{apply, Chore, Format, ShareAction, Sheet};
use leptos::prelude::*;
use markup::{exported, Offer, ShareView};
use web_sys::Element;

#[wasm_bindgen::prelude::wasm_bindgen(module = "/src/share.js")]
extern "C" {
    fn download(name: &str, mime: &str, text: &str);
    #[wasm_bindgen(js_name = exportSvg)]
    fn export_svg(name: &str) -> bool;
    #[wasm_bindgen(js_name = exportPng)]
    fn export_png(name: &str) -> bool;
    #[wasm_bindgen(js_name = copyText)]
    fn copy_text(text: &str, button: &Element);
    #[wasm_bindgen(js_name = readUpload)]
    fn read_upload(input: &Element, field: &Element, button: &Element);
    #[wasm_bindgen(js_name = save)]
    fn save_blob(name: &str, blob: &wasm_bindgen::JsValue);
}

/// Builds `package` for the state on screen from the page's own files, then
/// downloads it; if the page cannot read them, `failed` is called.
fn download_package(package: Package, link: &str, completion: &Completion, failed: Callback<()>) {
    let promise = package.build(link, completion);
    leptos::task::spawn_local(async move {
        match wasm_bindgen_futures::JsFuture::from(promise).await {
            Ok(blob) => save_blob(package.file_name(), &blob),
            Err(_) => failed.run(()),
        }
    });
}

/// The "save and share" card.
#[component]
pub fn Share() -> impl IntoView {
    let lab = lab();
    let scenario = lab.scenario;
    let trace = lab.trace;
    let shown = lab.view;
    let layer = lab.layer;
    let block = lab.block;
    let LangContext(lang) = expect_context::<LangContext>();
    let focus = lab.focus;
    let Picked(picked) = expect_context::<Picked>();
    let sheet = RwSignal::new(Sheet::default());
    // The chosen matrix's text, as it is now, so it never shows numbers gone stale.
    let offer = Memo::new(move |_| {
        let positions = scenario.with(|s| s.options.positions);
        let block_layer = block.with(|b| b.as_ref().map(|b| b.layer));
        layer.with(|l| Offer::new(l.as_ref(), focus.head.get(), positions, block_layer))
    });
    let export_text = Memo::new(move |_| {
        let Some((format, chosen)) = sheet.with(|s| s.format.map(|f| (f, s.matrix))) else {
            return String::new();
        };
        let offer = offer.get();
        let matrix = offer.pick(chosen);
        let (label, name) = offer.names(matrix, lang.get());
        shown.with(|view| {
            layer.with(|layer| {
                block.with(|block| {
                    let Some(m) = view
                        .as_ref()
                        .and_then(|v| exported(matrix, v, layer.as_ref(), block.as_ref()))
                    else {
                        return String::new();
                    };
                    match format {
                        Format::Latex => text::latex(&label, m),
                        Format::Numpy => text::numpy(&name, m),
                    }
                })
            })
        })
    });
    let tables = lab.tables;
    let skipped = use_context::<Skipped>();
    let linked = expect_context::<LinkedState>();

    // The embed code for what is on screen now, while the builder is open:
    // the page's own link follows the state only after a short delay.
    let snippet = Memo::new(move |_| {
        let Some((chosen, lock)) = sheet.with(|s| {
            s.embedding.then(|| {
                let chosen: Vec<&str> = panels()
                    .iter()
                    .zip(&s.panels)
                    .filter(|(_, on)| **on)
                    .map(|(p, _)| p.panel)
                    .collect();
                (chosen, s.lock)
            })
        }) else {
            return String::new();
        };
        let location = window().location();
        let page = location.origin().unwrap_or_default() + &location.pathname().unwrap_or_default();
        let href = page + &link_search(linked);
        let title = i18n::TITLE.get(lang.get());
        embed_code::embed_code(&href, &chosen, lock, title)
    });
    let markup = Memo::new(move |_| {
        let (text, sheet, code) = (export_text.read(), sheet.read(), snippet.read());
        markup::share(&ShareView {
            lang: lang.get(),
            matrix: sheet.matrix,
            offer: offer.get(),
            export_text: &text,
            status: sheet.status.as_ref(),
            embedding: sheet.embedding,
            panels: &sheet.panels,
            lock: sheet.lock,
            embed_code: &code,
            completion: sheet.completion,
            in_lms: matches!(linked.keeper, Keeper::Lms(_)),
        })
    });

    // The pure `apply` decides; what is left here needs the browser.
    let act = Callback::new(move |heard: Heard| {
        let Some(action) = ShareAction::read(&heard.reading()) else {
            return;
        };
        let nothing = move || sheet.update(Sheet::nothing_to_export);
        let picture = move |svg: bool| {
            let export = move || {
                let head = lab.shown_head.get_untracked();
                let done = if svg {
                    export_svg(&action::picture_name(head, "svg"))
                } else {
                    export_png(&action::picture_name(head, "png"))
                };
                if !done {
                    nothing();
                }
            };
            // The export copies every diagram as drawn: draw the heatmaps
            // (not tables), and the cards off screen, which are not kept up
            // to date, for the frame it takes.
            let tabled = tables.get_untracked();
            if tabled {
                tables.set(false);
            }
            if let Some(s) = skipped {
                s.draw_all(true);
            }
            request_animation_frame(move || {
                export();
                if tabled {
                    tables.set(true);
                }
                if let Some(s) = skipped {
                    s.draw_all(false);
                }
            });
        };
        if action == ShareAction::ToggleEmbed {
            let several_heads = lab.shown_head.with_untracked(Option::is_some);
            sheet.update(|s| s.suggest_for(several_heads));
        }
        match sheet
            .try_update(|s| apply(s, action))
            .unwrap_or(Chore::Nothing)
        {
            Chore::Nothing => {}
            Chore::ShowBuilder => request_animation_frame(|| {
                // Opened at the foot of the page, its panels would lie below the screen.
                if let Ok(Some(builder)) =
                    document().query_selector("[data-testid=\"embed-panel\"]")
                {
                    let centred = web_sys::ScrollIntoViewOptions::new();
                    centred.set_block(web_sys::ScrollLogicalPosition::Center);
                    builder.scroll_into_view_with_scroll_into_view_options(&centred);
                }
            }),
            Chore::Svg => picture(true),
            Chore::Png => picture(false),
            Chore::Scenario => {
                let json = scenario.with_untracked(text::scenario_json);
                download("scenario.json", "application/json", &json);
            }
            Chore::Trace => trace.with_untracked(|t| match t {
                Ok(t) => {
                    let json = scenario.with_untracked(|s| text::trace_json(s, t));
                    download("trace.json", "application/json", &json);
                }
                Err(_) => nothing(),
            }),
            Chore::CopyExport => export_text.with_untracked(|t| copy_text(t, &heard.control)),
            Chore::CopyEmbed => snippet.with_untracked(|c| copy_text(c, &heard.control)),
            Chore::Upload => {
                if let (Some(field), Some(button)) = (
                    part(&heard.host, "import-text"),
                    part(&heard.host, "import"),
                ) {
                    read_upload(&heard.control, &field, &button);
                }
            }
            Chore::Package(package) => {
                let link = untrack(|| link_search(linked));
                let completion = sheet.with_untracked(|s| action::completion_rule(s.completion));
                let failed = Callback::new(move |()| {
                    sheet.update(|s| {
                        apply(s, ShareAction::PackageFailed);
                    });
                });
                download_package(package, &link, &completion, failed);
            }
            Chore::Imported(imported) => {
                picked.set(Choice::Current);
                focus.query.set(0);
                focus.sequence.set(0);
                scenario.set(*imported);
            }
        }
    });

    view! { <ActionCard class="card share" testid="share" markup=markup on_action=act /> }
}
