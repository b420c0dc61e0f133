//! The "save and share" card as HTML: export buttons, one matrix as LaTeX or
//! NumPy, the import field, and the embed-code builder. Each control names
//! its action (`data-action`, `data-index`) for the card's one listener; pure,
//! so tests read it natively.

use crate::action::action_button as button;
use crate::controls::refusal;
use crate::i18n::{share as text, Lang, Msg};
use crate::lab::{LabError, SequenceTrace};
use crate::svg::Markup;
use ndarray::Array2;

/// Where the shown sequence keeps one of its matrices.
pub type MatrixOf = fn(&SequenceTrace) -> &Array2<f64>;

/// The matrices the LaTeX and NumPy export can write: a label, the NumPy
/// variable name, and where the shown sequence keeps it.
pub const MATRICES: [(&str, &str, MatrixOf); 11] = [
    ("X", "X", |t| &t.x),
    ("W_Q", "W_Q", |t| &t.w_q),
    ("W_K", "W_K", |t| &t.w_k),
    ("W_V", "W_V", |t| &t.w_v),
    ("Q", "Q", |t| &t.q),
    ("K", "K", |t| &t.k),
    ("V", "V", |t| &t.v),
    ("QKᵀ", "scores", |t| &t.scores),
    ("QKᵀ/√d_k", "scaled", |t| &t.scaled),
    ("α′", "weights", |t| &t.weights),
    ("B", "B", |t| &t.output),
];

/// Everything the card shows.
pub struct ShareView<'a> {
    pub lang: Lang,
    /// The index into [`MATRICES`] chosen for LaTeX and NumPy.
    pub matrix: usize,
    /// The last LaTeX or NumPy text written.
    pub export_text: &'a str,
    /// What the last export or import said: a note, or why it was refused.
    pub status: Option<&'a Result<Msg, LabError>>,
    /// Whether the embed-code builder is open.
    pub embedding: bool,
    /// For each of [`crate::link::PANELS`], whether the embed shows it.
    pub panels: &'a [bool],
    pub lock: bool,
    pub embed_code: &'a str,
}

/// The card's markup.
pub fn share(view: &ShareView) -> String {
    let lang = view.lang;
    let mut m = Markup::new();
    m.element("h2", &[], text::TITLE.get(lang));
    m.element("p", &[("class", "explain")], text::SAVED_NOTE.get(lang));
    export(&mut m, view);
    import(&mut m, view);
    embed(&mut m, view);
    m.finish()
}

fn export(m: &mut Markup, view: &ShareView) {
    let lang = view.lang;
    m.element("h3", &[], text::EXPORT.get(lang));
    m.open("div", &[("class", "share-row")]);
    button(m, "export-svg", text::EXPORT_SVG.get(lang));
    button(m, "export-png", text::EXPORT_PNG.get(lang));
    button(m, "export-scenario", text::EXPORT_SCENARIO.get(lang));
    button(m, "export-trace", text::EXPORT_TRACE.get(lang));
    m.close("div").open("div", &[("class", "share-row")]);
    m.open("label", &[]).text(text::MATRIX.get(lang)).text(" ");
    m.open(
        "select",
        &[("data-action", "matrix"), ("data-testid", "export-matrix")],
    );
    for (i, (label, ..)) in MATRICES.iter().enumerate() {
        let value = i.to_string();
        let mut attrs = vec![("value", value.as_str())];
        if i == view.matrix {
            attrs.push(("selected", ""));
        }
        m.element("option", &attrs, label);
    }
    m.close("select").close("label");
    button(m, "export-latex", text::AS_LATEX.get(lang));
    button(m, "export-numpy", text::AS_NUMPY.get(lang));
    m.close("div");
    output(m, "export-text", view.export_text, "copy-export", lang);
}

/// A read-only text to copy, with its Copy button.
fn output(m: &mut Markup, testid: &str, content: &str, copy: &str, lang: Lang) {
    let attrs = [
        ("readonly", ""),
        ("rows", "5"),
        ("spellcheck", "false"),
        ("data-testid", testid),
    ];
    m.element("textarea", &attrs, content);
    // share.js shows the outcome on the button itself for a moment.
    let attrs = [
        ("type", "button"),
        ("data-action", copy),
        ("data-testid", copy),
        ("data-copied", text::COPIED.get(lang)),
        ("data-copy-failed", text::COPY_FAILED.get(lang)),
        ("aria-live", "polite"),
    ];
    m.element("button", &attrs, text::COPY.get(lang));
}

fn import(m: &mut Markup, view: &ShareView) {
    let lang = view.lang;
    m.element("h3", &[], text::IMPORT.get(lang));
    m.element("p", &[("class", "explain")], text::IMPORT_HINT.get(lang));
    let field = [
        ("rows", "5"),
        ("spellcheck", "false"),
        ("data-testid", "import-text"),
        ("placeholder", "{\"tokens\": [...], \"x\": [[...]], \"w_q\": [[...]], \"w_k\": [[...]], \"w_v\": [[...]]}"),
    ];
    m.element("textarea", &field, "");
    m.open("div", &[("class", "share-row")]);
    // The button reads the field above it (`data-field`).
    let attrs = [
        ("type", "button"),
        ("data-action", "import"),
        ("data-testid", "import"),
        ("data-field", "import-text"),
    ];
    m.element("button", &attrs, text::IMPORT_BUTTON.get(lang));
    m.open("label", &[]).text(text::UPLOAD.get(lang)).text(" ");
    m.empty(
        "input",
        &[
            ("type", "file"),
            ("accept", ".json,application/json"),
            ("data-action", "upload"),
            ("data-testid", "import-file"),
        ],
    );
    m.close("label").close("div");
    match view.status {
        Some(Ok(note)) => {
            let attrs = [("role", "status"), ("data-testid", "share-status")];
            m.element("p", &attrs, note.get(lang));
        }
        Some(Err(error)) => refusal(m, error, "import-problem", lang),
        None => {}
    }
}

fn embed(m: &mut Markup, view: &ShareView) {
    let lang = view.lang;
    let expanded = if view.embedding { "true" } else { "false" };
    let toggle = [
        ("type", "button"),
        ("class", "link-button"),
        ("aria-expanded", expanded),
        ("data-action", "embed"),
        ("data-testid", "embed-open"),
    ];
    m.open("h3", &[])
        .element("button", &toggle, text::EMBED.get(lang));
    m.close("h3");
    if !view.embedding {
        return;
    }
    m.element("p", &[("class", "explain")], text::EMBED_HINT.get(lang));
    m.open("div", &[("class", "share-row")]);
    for (i, (name, shown)) in text::PANEL_NAMES.iter().zip(view.panels).enumerate() {
        let index = i.to_string();
        let mut attrs = vec![
            ("type", "checkbox"),
            ("data-action", "panel"),
            ("data-index", index.as_str()),
            ("data-testid", "embed-panel"),
        ];
        if *shown {
            attrs.push(("checked", ""));
        }
        m.open("label", &[("class", "switch")])
            .empty("input", &attrs);
        m.text(name.get(lang)).close("label");
    }
    m.close("div");
    let mut lock = vec![
        ("type", "checkbox"),
        ("data-action", "lock"),
        ("data-testid", "embed-lock"),
    ];
    if view.lock {
        lock.push(("checked", ""));
    }
    m.open("label", &[("class", "switch")])
        .empty("input", &lock);
    m.text(text::EMBED_LOCK.get(lang)).close("label");
    m.element("h3", &[], text::EMBED_CODE.get(lang));
    output(m, "embed-code", view.embed_code, "copy-embed", lang);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view<'a>(status: Option<&'a Result<Msg, LabError>>, panels: &'a [bool]) -> ShareView<'a> {
        ShareView {
            lang: Lang::En,
            matrix: 2,
            export_text: "\\begin{bmatrix}<x>",
            status,
            embedding: true,
            panels,
            lock: true,
            embed_code: "<iframe>",
        }
    }

    #[test]
    fn the_card_names_every_action_and_escapes_its_texts() {
        let panels = [
            true, false, true, false, false, false, false, false, false, false, false,
        ];
        let html = share(&view(Some(&Ok(text::IMPORTED)), &panels));
        for action in [
            "export-svg",
            "export-png",
            "export-scenario",
            "export-trace",
            "export-latex",
            "export-numpy",
            "copy-export",
            "import",
            "upload",
            "embed",
            "panel",
            "lock",
            "copy-embed",
        ] {
            assert!(
                html.contains(&format!("data-action=\"{action}\"")),
                "{action}"
            );
        }
        assert!(html.contains("<option value=\"2\" selected=\"\">W_K</option>"));
        assert!(html.contains("&lt;x&gt;") && html.contains("&lt;iframe&gt;"));
        assert_eq!(html.matches("checked=\"\"").count(), 3);
        assert!(html.contains("data-testid=\"share-status\""));
    }

    #[test]
    fn a_refused_import_says_why_and_a_closed_builder_shows_no_code() {
        let refused = Err(LabError::BadLabel);
        let mut closed = view(Some(&refused), &[]);
        closed.embedding = false;
        let html = share(&closed);
        assert!(html.contains("data-testid=\"import-problem\""));
        assert!(!html.contains("embed-code"));
    }
}
