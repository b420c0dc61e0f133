//! The "save and share" card: export the diagrams (SVG, PNG), the scenario and
//! the trace (JSON), and any matrix (LaTeX, NumPy); import a scenario; build
//! the embed code. Markup patched in place with one delegated listener, like
//! the controls; the browser work (downloads, the SVG composition, the
//! clipboard, reading a file) is in `share.js`.

mod embed_code;
pub mod import;
mod markup;
pub mod text;

use crate::controls::scenarios::{Choice, Picked};
use crate::controls::{control_of, part};
use crate::diagrams::host::keep_patched;
use crate::i18n::{self, share as words, LangContext, Msg};
use crate::lab::LabError;
use crate::link::sync::{link_search, LinkedState};
use crate::link::PANELS;
use crate::state::{Focus, LabScenario, LabTrace, LabView, ShowTables};
use leptos::html::Section;
use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;
use markup::{ShareView, MATRICES};
use web_sys::{Element, HtmlTextAreaElement};

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
}

/// The panels an embed shows until the teacher chooses: the four diagrams.
const FIRST_PANELS: [bool; 9] = [false, false, true, true, true, true, false, false, false];

/// The "save and share" card.
#[component]
pub fn Share() -> impl IntoView {
    let LabScenario(scenario) = expect_context::<LabScenario>();
    let LabTrace(trace) = expect_context::<LabTrace>();
    let LabView(shown) = expect_context::<LabView>();
    let LangContext(lang) = expect_context::<LangContext>();
    let focus = expect_context::<Focus>();
    let Picked(picked) = expect_context::<Picked>();
    let node = NodeRef::<Section>::new();
    let matrix = RwSignal::new(0usize);
    // Which text the matrix export shows: LaTeX (true) or NumPy (false), of
    // the chosen matrix as it is now, so it never shows numbers gone stale.
    let latex = RwSignal::new(None::<bool>);
    let export_text = Memo::new(move |_| {
        let Some(latex) = latex.get() else {
            return String::new();
        };
        let (label, name, get) = MATRICES[matrix.get()];
        shown.with(|view| {
            view.as_ref().map_or_else(String::new, |view| {
                if latex {
                    text::latex(label, get(view))
                } else {
                    text::numpy(name, get(view))
                }
            })
        })
    });
    let status = RwSignal::new(None::<Result<Msg, LabError>>);
    let embedding = RwSignal::new(false);
    let panels = RwSignal::new(FIRST_PANELS.to_vec());
    let lock = RwSignal::new(false);
    let ShowTables(tables) = expect_context::<ShowTables>();
    let linked = expect_context::<LinkedState>();

    // The embed code for what is on screen now, while the builder is open:
    // the page's own link follows the state only after a short delay.
    let snippet = Memo::new(move |_| {
        if !embedding.get() {
            return String::new();
        }
        let location = window().location();
        let page = location.origin().unwrap_or_default() + &location.pathname().unwrap_or_default();
        let href = page + &link_search(linked);
        let chosen: Vec<&str> = panels.with(|on| {
            PANELS
                .iter()
                .zip(on)
                .filter(|(_, on)| **on)
                .map(|(p, _)| *p)
                .collect()
        });
        let title = i18n::TITLE.get(lang.get());
        embed_code::embed_code(&href, &chosen, lock.get(), title)
    });
    let markup = Memo::new(move |_| {
        let (text, status, panels, code) = (
            export_text.read(),
            status.read(),
            panels.read(),
            snippet.read(),
        );
        markup::share(&ShareView {
            lang: lang.get(),
            matrix: matrix.get(),
            export_text: &text,
            status: status.as_ref(),
            embedding: embedding.get(),
            panels: &panels,
            lock: lock.get(),
            embed_code: &code,
        })
    });
    keep_patched(node, markup.into());

    let import_now = move |host: &Element| {
        let text = part(host, "import-text")
            .and_then(|e| e.dyn_into::<HtmlTextAreaElement>().ok())
            .map(|field| field.value())
            .unwrap_or_default();
        if text.trim().is_empty() {
            status.set(Some(Ok(words::IMPORT_EMPTY)));
            return;
        }
        match import::import(&text) {
            Ok(imported) => {
                picked.set(Choice::Current);
                focus.query.set(0);
                focus.sequence.set(0);
                scenario.set(imported);
                status.set(Some(Ok(words::IMPORTED)));
            }
            Err(error) => status.set(Some(Err(error))),
        }
    };
    let act = move |event: web_sys::Event| {
        let (Some((control, name)), Some(host)) = (control_of(&event), node.get_untracked()) else {
            return;
        };
        let index = || {
            control
                .get_attribute("data-index")
                .and_then(|i| i.parse::<usize>().ok())
        };
        let nothing = move || status.set(Some(Ok(words::NOTHING_TO_EXPORT)));
        match (event.type_().as_str(), name.as_str()) {
            ("click", which @ ("export-svg" | "export-png")) => {
                let svg = which == "export-svg";
                let export = move || {
                    let done = if svg {
                        export_svg("attention.svg")
                    } else {
                        export_png("attention.png")
                    };
                    if !done {
                        nothing();
                    }
                };
                if tables.get_untracked() {
                    // The export draws the heatmaps: show them for the frame it takes.
                    tables.set(false);
                    request_animation_frame(move || {
                        export();
                        tables.set(true);
                    });
                } else {
                    export();
                }
            }
            ("click", "export-scenario") => {
                let json = scenario.with_untracked(text::scenario_json);
                download("scenario.json", "application/json", &json);
            }
            ("click", "export-trace") => trace.with_untracked(|t| match t {
                Ok(t) => {
                    let json = scenario.with_untracked(|s| text::trace_json(s, t));
                    download("trace.json", "application/json", &json);
                }
                Err(_) => nothing(),
            }),
            ("change", "matrix") => {
                let value = control
                    .dyn_ref::<web_sys::HtmlSelectElement>()
                    .map(|s| s.value());
                if let Some(i) = value
                    .and_then(|v| v.parse::<usize>().ok())
                    .filter(|&i| i < MATRICES.len())
                {
                    matrix.set(i);
                }
            }
            ("click", which @ ("export-latex" | "export-numpy")) => {
                latex.set(Some(which == "export-latex"));
            }
            ("click", "copy-export") => export_text.with_untracked(|t| copy_text(t, &control)),
            ("click", "import") => import_now(&host),
            ("change", "upload") => {
                if let (Some(field), Some(button)) =
                    (part(&host, "import-text"), part(&host, "import"))
                {
                    read_upload(&control, &field, &button);
                }
            }
            ("click", "embed") => {
                embedding.update(|open| *open = !*open);
            }
            ("change", "panel") => {
                if let Some(i) = index() {
                    panels.update(|on| {
                        if let Some(on) = on.get_mut(i) {
                            *on = !*on;
                        }
                    });
                }
            }
            ("change", "lock") => {
                lock.update(|on| *on = !*on);
            }
            ("click", "copy-embed") => snippet.with_untracked(|c| copy_text(c, &control)),
            _ => {}
        }
    };

    view! {
        <section
            class="card share"
            data-testid="share"
            node_ref=node
            on:click=move |e| act(e.into())
            on:change=act
        ></section>
    }
}
