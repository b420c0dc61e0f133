//! Page object for the browser tests: mounts the app into its own container
//! and reads the DOM through the same `data-testid` hooks the end-to-end tests use.

use attention_lab::App;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

pub struct LabPage {
    root: Element,
    /// The mounted app: dropping it unmounts the app and runs its cleanups,
    /// so no test's app lives on (and writes the link) into the next test.
    _app: Box<dyn std::any::Any>,
}

impl Drop for LabPage {
    fn drop(&mut self) {
        self.root.remove();
    }
}

impl LabPage {
    /// Mounts a fresh app into a new container and waits for it to render.
    pub async fn mount() -> Self {
        // Every app keeps its state in the page's link and in saved work, and
        // a new app starts from them: each test starts from a clean link and
        // nothing saved, as a first visit would.
        let window = leptos::prelude::window();
        if let Ok(Some(storage)) = window.local_storage() {
            storage.clear().expect("saved work cleared");
        }
        let path = window.location().pathname().expect("a path");
        window
            .history()
            .expect("history")
            .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&path))
            .expect("a clean link");
        let document = leptos::prelude::document();
        let root = document.create_element("div").expect("create container");
        document
            .body()
            .expect("body")
            .append_child(&root)
            .expect("append container");
        let app = leptos::mount::mount_to(root.clone().unchecked_into(), App);
        // The app patches only the cards on screen, and this page shows few.
        // These tests read every card, as a printout shows them all.
        window
            .dispatch_event(&web_sys::Event::new("beforeprint").expect("event"))
            .expect("dispatch");
        settle().await;
        Self {
            root,
            _app: Box::new(app),
        }
    }

    /// Every element matching `selector`, in document order.
    pub fn all(&self, selector: &str) -> Vec<Element> {
        let list = self
            .root
            .query_selector_all(selector)
            .expect("valid selector");
        (0..list.length())
            .filter_map(|i| list.item(i))
            .filter_map(|node| node.dyn_into::<Element>().ok())
            .collect()
    }

    /// The text content of every element matching `selector`.
    pub fn texts(&self, selector: &str) -> Vec<String> {
        self.all(selector)
            .iter()
            .map(|e| e.text_content().unwrap_or_default())
            .collect()
    }

    /// A matrix diagram's cells, from their data-row, data-col and data-value.
    pub fn matrix(&self, testid: &str) -> Vec<Vec<f64>> {
        let mut rows: Vec<Vec<f64>> = Vec::new();
        for cell in self.all(&format!("[data-testid={testid}] [data-row][data-col]")) {
            let read = |name: &str| cell.get_attribute(name).expect(name);
            let r: usize = read("data-row").parse().expect("row index");
            let c: usize = read("data-col").parse().expect("column index");
            let value: f64 = read("data-value").parse().expect("number");
            if rows.len() <= r {
                rows.resize(r + 1, Vec::new());
            }
            if rows[r].len() <= c {
                rows[r].resize(c + 1, f64::NAN);
            }
            rows[r][c] = value;
        }
        rows
    }

    /// A matrix diagram's cells as an array, for comparing with the core.
    pub fn array(&self, testid: &str) -> ndarray::Array2<f64> {
        let rows = self.matrix(testid);
        let cols = rows.first().map_or(0, Vec::len);
        let flat: Vec<f64> = rows.into_iter().flatten().collect();
        ndarray::Array2::from_shape_vec((flat.len() / cols.max(1), cols), flat)
            .expect("rectangular matrix")
    }

    /// Clicks the element with this data-testid and waits for the app to update.
    pub async fn click(&self, testid: &str) {
        let element = self
            .all(&format!("[data-testid={testid}]"))
            .into_iter()
            .next()
            .unwrap_or_else(|| panic!("no element with data-testid={testid}"));
        element.unchecked_into::<HtmlElement>().click();
        settle().await;
    }

    /// Clicks the `index`-th element with this data-testid (e.g. a token's pad toggle).
    pub async fn click_nth(&self, testid: &str, index: usize) {
        self.click_matching(&format!("[data-testid={testid}]"), index)
            .await;
    }

    /// Clicks the `index`-th element matching `selector` and waits for the app to update.
    pub async fn click_matching(&self, selector: &str, index: usize) {
        let element = self
            .all(selector)
            .into_iter()
            .nth(index)
            .unwrap_or_else(|| panic!("no element {index} matching {selector}"));
        element.unchecked_into::<HtmlElement>().click();
        settle().await;
    }

    /// Sets an input's value and fires the event the app listens to, as a user would.
    pub async fn set_input(&self, testid: &str, value: &str, event: &str) {
        let input = self
            .all(&format!("[data-testid={testid}]"))
            .into_iter()
            .next()
            .unwrap_or_else(|| panic!("no input with data-testid={testid}"))
            .unchecked_into::<web_sys::HtmlInputElement>();
        input.set_value(value);
        let event = web_sys::Event::new_with_event_init_dict(event, &{
            let init = web_sys::EventInit::new();
            init.set_bubbles(true);
            init
        })
        .expect("event");
        input.dispatch_event(&event).expect("dispatch");
        settle().await;
    }

    /// The numbers in `data-value` of every element matching `selector`, in order.
    pub fn values(&self, selector: &str) -> Vec<f64> {
        self.all(selector)
            .iter()
            .filter_map(|e| e.get_attribute("data-value")?.parse().ok())
            .collect()
    }

    /// The current value of an input, which the `value` attribute may not reflect.
    pub fn input_value(&self, testid: &str) -> Option<String> {
        self.all(&format!("[data-testid={testid}]"))
            .into_iter()
            .next()
            .map(|e| e.unchecked_into::<web_sys::HtmlInputElement>().value())
    }

    /// Clicks cell (row, col) of a matrix diagram.
    pub async fn click_cell(&self, testid: &str, row: usize, col: usize) {
        let selector = format!("[data-testid={testid}] [data-row='{row}'][data-col='{col}']");
        let cell = self
            .all(&selector)
            .into_iter()
            .next()
            .unwrap_or_else(|| panic!("no cell {selector}"));
        let event = web_sys::Event::new_with_event_init_dict("click", &{
            let init = web_sys::EventInit::new();
            init.set_bubbles(true);
            init
        })
        .expect("event");
        cell.dispatch_event(&event).expect("dispatch");
        settle().await;
    }

    /// An attribute of every element matching `selector` (empty where it is missing).
    pub fn attributes(&self, selector: &str, name: &str) -> Vec<String> {
        self.all(selector)
            .iter()
            .map(|e| e.get_attribute(name).unwrap_or_default())
            .collect()
    }

    /// An attribute of the first element matching `selector`.
    pub fn attribute(&self, selector: &str, name: &str) -> Option<String> {
        self.all(selector)
            .first()
            .and_then(|e| e.get_attribute(name))
    }

    /// The `lang` attribute of the page's `<html>` element.
    pub fn document_lang(&self) -> String {
        leptos::prelude::document()
            .document_element()
            .and_then(|html| html.get_attribute("lang"))
            .unwrap_or_default()
    }
}

/// Waits for one macrotask, by which time Leptos has run its pending effects.
async fn settle() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = web_sys::window()
            .expect("window")
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}
