//! The "save and share" card as HTML: export buttons, one matrix as LaTeX or
//! NumPy, the import field, and the embed-code builder. Each control names
//! its action (`data-action`, `data-index`) for the card's one listener; pure,
//! so tests read it natively.

use super::action::{completion_rules, Control};
use crate::action::action_button as button;
use crate::cards::panels;
use crate::i18n::{share as text, Lang, Msg};
use crate::lab::{BlockView, LabError, LayerView, SequenceTrace};
use crate::page::refusal;
use crate::svg::Markup;
use attention_core::positions::Positions;
use ndarray::Array2;

/// Where the lab keeps one of the matrices the export can write.
#[derive(Clone, Copy)]
pub enum Of {
    /// X, which every head reads.
    Input(fn(&SequenceTrace) -> &Array2<f64>),
    /// One of the shown head's matrices (W_Q, W_K and W_V: its columns).
    Head(fn(&SequenceTrace) -> &Array2<f64>),
    /// The layer joining several heads, when there is one; `true` when only
    /// a layer with W_O has it.
    Layer(fn(&LayerView) -> Option<&Array2<f64>>, bool),
    /// The shown layer of a transformer block, when there is one.
    Block(fn(&BlockView) -> &Array2<f64>),
}

/// The matrices the LaTeX and NumPy export can write: a label, the NumPy
/// variable name, and where the lab keeps it.
pub const MATRICES: [(&str, &str, Of); 28] = [
    ("X", "X", Of::Input(|t| &t.x)),
    ("W_Q", "W_Q", Of::Head(|t| &t.w_q)),
    ("W_K", "W_K", Of::Head(|t| &t.w_k)),
    ("W_V", "W_V", Of::Head(|t| &t.w_v)),
    ("Q", "Q", Of::Head(|t| &t.q)),
    ("K", "K", Of::Head(|t| &t.k)),
    ("V", "V", Of::Head(|t| &t.v)),
    ("QKᵀ", "scores", Of::Head(|t| &t.scores)),
    ("QKᵀ/√d_k", "scaled", Of::Head(|t| &t.scaled)),
    ("α′", "weights", Of::Head(|t| &t.weights)),
    ("B", "B", Of::Head(|t| &t.output)),
    (
        "Concat(head₁, …, head_h)",
        "concat",
        Of::Layer(|l| Some(&l.concat), false),
    ),
    ("W_O", "W_O", Of::Layer(|l| l.w_o.as_ref(), true)),
    (
        "MultiHead = Concat · W_O",
        "multihead",
        Of::Layer(|l| l.w_o.as_ref().map(|_| &l.output), true),
    ),
    ("x + MHA(x)", "sum_1", Of::Block(|b| &b.sum_1)),
    ("LN₁", "norm_1", Of::Block(|b| &b.norm_1.output)),
    ("γ₁", "gamma_1", Of::Block(|b| &b.norm_1.gamma)),
    ("β₁", "beta_1", Of::Block(|b| &b.norm_1.beta)),
    ("W₁", "W_1", Of::Block(|b| &b.w_1)),
    ("H = x·W₁ + b₁", "hidden", Of::Block(|b| &b.hidden)),
    ("act(H)", "activated", Of::Block(|b| &b.activated)),
    ("W₂", "W_2", Of::Block(|b| &b.w_2)),
    ("FFN", "ffn", Of::Block(|b| &b.ffn)),
    ("h + FFN(h)", "sum_2", Of::Block(|b| &b.sum_2)),
    ("LN₂", "norm_2", Of::Block(|b| &b.norm_2.output)),
    ("γ₂", "gamma_2", Of::Block(|b| &b.norm_2.gamma)),
    ("β₂", "beta_2", Of::Block(|b| &b.norm_2.beta)),
    ("y", "layer_output", Of::Block(|b| &b.output)),
];

/// What the lab offers the export now: how many heads, which one the
/// diagrams show, and whether there is an output projection. It changes
/// only with the layer's shape, so the card's markup does not follow every
/// edit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Offer {
    pub heads: usize,
    pub head: usize,
    pub w_o: bool,
    /// How positions entered: X is then X + P, or Q and K are turned.
    pub positions: Positions,
    /// The shown layer of a transformer block, from 0, if there is one.
    pub block_layer: Option<usize>,
}

impl Offer {
    /// The offer of a lab showing `head` of `layer` (`None`: the lessons'
    /// one head), with `positions`, and showing layer `block_layer` of a
    /// transformer block if it has one.
    pub fn new(
        layer: Option<&LayerView>,
        head: usize,
        positions: Positions,
        block_layer: Option<usize>,
    ) -> Self {
        let offer = layer.map_or(Self::default(), |l| Offer {
            heads: l.heads(),
            head: head.min(l.heads().saturating_sub(1)),
            w_o: l.w_o.is_some(),
            positions,
            block_layer,
        });
        Offer {
            positions,
            block_layer,
            ..offer
        }
    }

    /// Whether matrix `i` of [`MATRICES`] exists in this lab.
    pub fn has(&self, i: usize) -> bool {
        match MATRICES.get(i) {
            Some((_, _, Of::Layer(_, projected))) => {
                (self.heads > 1 || self.w_o) && (self.w_o || !projected)
            }
            Some((_, _, Of::Block(_))) => self.block_layer.is_some(),
            Some(_) => true,
            None => false,
        }
    }

    /// `chosen` if this lab has it, or else X.
    pub fn pick(&self, chosen: usize) -> usize {
        if self.has(chosen) {
            chosen
        } else {
            0
        }
    }

    /// Matrix `i`'s label and NumPy name; with several heads a head's
    /// matrices name their head, counted from 1 as the picker shows them.
    pub fn names(&self, i: usize, lang: Lang) -> (String, String) {
        let (label, name, of) = MATRICES[i];
        // The numbers are those the projections took, or Q and K turned:
        // their names say so.
        let (label, name) = match (self.positions, name) {
            (Positions::Sinusoidal | Positions::Learned, "X") => ("X + P", "X_plus_P"),
            (Positions::Rope, "Q") => ("Q (RoPE)", "Q_rope"),
            (Positions::Rope, "K") => ("K (RoPE)", "K_rope"),
            _ => (label, name),
        };
        match of {
            Of::Head(_) if self.heads > 1 => {
                let n = self.head + 1;
                let head = text::OF_HEAD.get(lang).replace("{n}", &n.to_string());
                (format!("{label}{head}"), format!("{name}_head{n}"))
            }
            // A block's matrices name their layer, counted from 1.
            Of::Block(_) => {
                let n = self.block_layer.unwrap_or(0) + 1;
                let layer = text::OF_LAYER.get(lang).replace("{n}", &n.to_string());
                (format!("{label}{layer}"), format!("{name}_layer{n}"))
            }
            _ => (label.into(), name.into()),
        }
    }
}

/// Matrix `i` of [`MATRICES`] as the lab shows it, if the lab has it.
pub fn exported<'a>(
    i: usize,
    view: &'a SequenceTrace,
    layer: Option<&'a LayerView>,
    block: Option<&'a BlockView>,
) -> Option<&'a Array2<f64>> {
    match MATRICES.get(i)?.2 {
        Of::Input(get) | Of::Head(get) => Some(get(view)),
        Of::Layer(get, _) => layer.and_then(get),
        Of::Block(get) => block.map(get),
    }
}

/// Everything the card shows.
pub struct ShareView<'a> {
    pub lang: Lang,
    /// The index into [`MATRICES`] chosen for LaTeX and NumPy.
    pub matrix: usize,
    /// Which of [`MATRICES`] the lab has, and the shown head.
    pub offer: Offer,
    /// The last LaTeX or NumPy text written.
    pub export_text: &'a str,
    /// What the last export or import said: a note, or why it was refused.
    pub status: Option<&'a Result<Msg, LabError>>,
    /// Whether the embed-code builder is open.
    pub embedding: bool,
    /// For each of [`crate::cards::panels`], whether the embed shows it.
    pub panels: &'a [bool],
    pub lock: bool,
    pub embed_code: &'a str,
    /// The completion rule a package for an LMS carries (an index into
    /// `completion_rules`).
    pub completion: usize,
    /// The page runs in an LMS, which keeps the learner's work.
    pub in_lms: bool,
}

/// The card's markup.
pub fn share(view: &ShareView) -> String {
    let lang = view.lang;
    let mut m = Markup::new();
    // Folded like the other cards below the diagrams: one tab stop until it
    // is opened (the default page keeps to 40).
    m.open_fold("share-fold", "h2", text::TITLE.get(lang));
    let saved = if view.in_lms {
        text::SAVED_IN_LMS
    } else {
        text::SAVED_NOTE
    };
    m.element("p", &[("class", "explain")], saved.get(lang));
    m.open("div", &[("class", "share-row")]);
    button(
        &mut m,
        Control::SingleFile.name(),
        text::SINGLE_FILE.get(lang),
    );
    m.close("div");
    m.element("p", &[("class", "hint")], text::SINGLE_FILE_HINT.get(lang));
    export(&mut m, view);
    import(&mut m, view);
    embed(&mut m, view);
    m.close("details");
    m.finish()
}

fn export(m: &mut Markup, view: &ShareView) {
    let lang = view.lang;
    m.open_fold("export-fold", "h3", text::EXPORT.get(lang));
    m.open("div", &[("class", "share-row")]);
    button(m, Control::ExportSvg.name(), text::EXPORT_SVG.get(lang));
    button(m, Control::ExportPng.name(), text::EXPORT_PNG.get(lang));
    button(
        m,
        Control::ExportScenario.name(),
        text::EXPORT_SCENARIO.get(lang),
    );
    button(m, Control::ExportTrace.name(), text::EXPORT_TRACE.get(lang));
    m.close("div").open("div", &[("class", "share-row")]);
    m.open("label", &[]).text(text::MATRIX.get(lang)).text(" ");
    m.open(
        "select",
        &[
            ("data-action", Control::Matrix.name()),
            ("data-testid", "export-matrix"),
        ],
    );
    let chosen = view.offer.pick(view.matrix);
    for i in (0..MATRICES.len()).filter(|&i| view.offer.has(i)) {
        m.option(&i.to_string(), i == chosen, &view.offer.names(i, lang).0);
    }
    m.close("select").close("label");
    button(m, Control::ExportLatex.name(), text::AS_LATEX.get(lang));
    button(m, Control::ExportNumpy.name(), text::AS_NUMPY.get(lang));
    m.close("div");
    output(
        m,
        "export-text",
        view.export_text,
        text::EXPORT.get(lang),
        Control::CopyExport.name(),
        lang,
    );
    m.close("details");
}

/// A read-only text to copy, named `name` for screen readers, with its Copy button.
fn output(m: &mut Markup, testid: &str, content: &str, name: &str, copy: &str, lang: Lang) {
    let attrs = [
        ("readonly", ""),
        ("aria-label", name),
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
    m.open_fold("import-fold", "h3", text::IMPORT.get(lang));
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
        ("data-action", Control::Import.name()),
        ("data-testid", Control::Import.name()),
        ("data-field", "import-text"),
    ];
    m.element("button", &attrs, text::IMPORT_BUTTON.get(lang));
    m.open("label", &[]).text(text::UPLOAD.get(lang)).text(" ");
    m.empty(
        "input",
        &[
            ("type", "file"),
            ("accept", ".json,application/json"),
            ("data-action", Control::Upload.name()),
            ("data-testid", "import-file"),
        ],
    );
    m.close("label").close("div").close("details");
    // Outside the fold: what an export or an import did shows either way.
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
        ("data-action", Control::Embed.name()),
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
    for (i, (panel, shown)) in panels().iter().zip(view.panels).enumerate() {
        let index = i.to_string();
        let mut attrs = vec![
            ("type", "checkbox"),
            ("data-action", Control::Panel.name()),
            ("data-index", index.as_str()),
            ("data-panel", panel.panel),
            ("data-testid", "embed-panel"),
        ];
        if *shown {
            attrs.push(("checked", ""));
        }
        m.open("label", &[("class", "switch")])
            .empty("input", &attrs);
        m.text(panel.title.get(lang)).close("label");
    }
    m.close("div");
    let mut lock = vec![
        ("type", "checkbox"),
        ("data-action", Control::Lock.name()),
        ("data-testid", "embed-lock"),
    ];
    if view.lock {
        lock.push(("checked", ""));
    }
    m.open("label", &[("class", "switch")])
        .empty("input", &lock);
    m.text(text::EMBED_LOCK.get(lang)).close("label");
    m.element("h3", &[], text::EMBED_CODE.get(lang));
    output(
        m,
        "embed-code",
        view.embed_code,
        text::EMBED_CODE.get(lang),
        Control::CopyEmbed.name(),
        lang,
    );
    for_an_lms(m, view);
}

/// The SCORM package: when the LMS counts the activity completed, and its download.
fn for_an_lms(m: &mut Markup, view: &ShareView) {
    let lang = view.lang;
    m.element("h3", &[], text::LMS.get(lang));
    m.element("p", &[("class", "explain")], text::LMS_HINT.get(lang));
    m.open("div", &[("class", "share-row")]);
    m.open("label", &[])
        .text(text::COMPLETED_WHEN.get(lang))
        .text(" ");
    m.open(
        "select",
        &[
            ("data-action", Control::Completion.name()),
            ("data-testid", "completion"),
        ],
    );
    for (i, rule) in completion_rules().enumerate() {
        let name = match rule {
            None => text::COMPLETED_WALKTHROUGH.get(lang).to_owned(),
            Some(choice) => text::COMPLETED_PREDICTION
                .get(lang)
                .replace("{scenario}", choice.name().get(lang)),
        };
        m.option(&i.to_string(), i == view.completion, &name);
    }
    m.close("select").close("label");
    button(m, Control::Scorm.name(), text::SCORM.get(lang));
    m.close("div");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view<'a>(status: Option<&'a Result<Msg, LabError>>, panels: &'a [bool]) -> ShareView<'a> {
        ShareView {
            lang: Lang::En,
            matrix: 2,
            offer: Offer::default(),
            export_text: "\\begin{bmatrix}<x>",
            status,
            embedding: true,
            panels,
            lock: true,
            embed_code: "<iframe>",
            completion: 1,
            in_lms: false,
        }
    }

    #[test]
    fn the_card_names_every_action_and_escapes_its_texts() {
        let panels = [
            true, false, true, false, false, false, false, false, false, false, false,
        ];
        let html = share(&view(Some(&Ok(text::IMPORTED)), &panels));
        for action in Control::ALL.iter().map(|control| control.name()) {
            assert!(
                html.contains(&format!("data-action=\"{action}\"")),
                "{action}"
            );
        }
        assert!(html.contains("<option value=\"2\" selected=\"\">W_K</option>"));
        assert!(html.contains("&lt;x&gt;") && html.contains("&lt;iframe&gt;"));
        assert_eq!(html.matches("checked=\"\"").count(), 3);
        assert!(html.contains("data-testid=\"share-status\""));
        assert!(html.contains("<option value=\"1\" selected=\"\">"));
        assert!(html.contains(text::SAVED_NOTE.en) && !html.contains(text::SAVED_IN_LMS.en));
        let in_lms = ShareView {
            in_lms: true,
            ..view(None, &panels)
        };
        assert!(share(&in_lms).contains(text::SAVED_IN_LMS.en));
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

    #[test]
    fn the_export_offers_the_layers_matrices_only_when_there_is_a_layer() {
        use attention_core::presets::pronoun_heads;
        let one = Offer::new(None, 0, Positions::None, None);
        assert!((0..11).all(|i| one.has(i)) && !(11..14).any(|i| one.has(i)));
        assert_eq!(one.names(4, Lang::En), ("Q".into(), "Q".into()));
        assert_eq!(one.pick(12), 0, "no W_O: X instead");
        let two = pronoun_heads();
        let layer = LayerView::new(&two.run().expect("runs"), 0);
        let offer = Offer::new(Some(&layer), 1, Positions::None, None);
        assert!((0..14).all(|i| offer.has(i)));
        assert_eq!(
            offer.names(4, Lang::En),
            ("Q (head 2)".into(), "Q_head2".into())
        );
        assert_eq!(offer.names(9, Lang::Zh).0, "α′（头 2）");
        assert_eq!(offer.names(0, Lang::En).0, "X", "X belongs to every head");
        assert_eq!(offer.names(12, Lang::En), ("W_O".into(), "W_O".into()));
        let added = Offer::new(None, 0, Positions::Learned, None);
        assert_eq!(
            added.names(0, Lang::En),
            ("X + P".into(), "X_plus_P".into())
        );
        let turned = Offer::new(Some(&layer), 1, Positions::Rope, None);
        assert_eq!(
            turned.names(5, Lang::En),
            ("K (RoPE) (head 2)".into(), "K_rope_head2".into())
        );
        assert_eq!(turned.names(6, Lang::En).0, "V (head 2)");
        // Several heads without W_O: the concatenation is the output.
        let mut bare = two.clone();
        bare.w_o = None;
        let layer = LayerView::new(&bare.run().expect("runs"), 0);
        let offer = Offer::new(Some(&layer), 5, Positions::None, None);
        assert_eq!(offer.head, 1, "the head is clamped to the layer");
        assert!(offer.has(11) && !offer.has(12) && !offer.has(13));
    }

    #[test]
    fn the_export_writes_the_shown_heads_matrix_and_the_layers() {
        use attention_core::presets::pronoun_heads;
        let scenario = pronoun_heads();
        let trace = scenario.run().expect("runs");
        let layer = LayerView::new(&trace, 0);
        let second = SequenceTrace::new(&trace.heads[1], 0, Vec::new());
        assert_eq!(
            exported(9, &second, Some(&layer), None),
            Some(&second.weights)
        );
        assert_eq!(
            exported(9, &second, Some(&layer), None),
            Some(&layer.weights[1])
        );
        assert_eq!(
            exported(11, &second, Some(&layer), None),
            Some(&layer.concat)
        );
        assert_eq!(
            exported(12, &second, Some(&layer), None),
            layer.w_o.as_ref()
        );
        assert_eq!(
            exported(13, &second, Some(&layer), None),
            Some(&layer.output)
        );
        assert_eq!(exported(11, &second, None, None), None);
        assert_eq!(exported(14, &second, Some(&layer), None), None);
        // The menu lists what the lab has, named for the shown head.
        let mut shown = view(None, &[]);
        shown.offer = Offer::new(Some(&layer), 1, Positions::None, None);
        shown.matrix = 13;
        let html = share(&shown);
        assert!(
            html.contains("<option value=\"2\">W_K (head 2)</option>"),
            "{html}"
        );
        assert!(
            html.contains("<option value=\"13\" selected=\"\">MultiHead = Concat · W_O</option>")
        );
        shown.offer = Offer::default();
        let html = share(&shown);
        assert!(
            !html.contains("value=\"13\"")
                && html.contains("<option value=\"0\" selected=\"\">X</option>")
        );
    }

    #[test]
    fn a_blocks_matrices_are_offered_named_for_the_shown_layer() {
        let s = attention_core::presets::block();
        let trace = s.run_block().expect("runs").expect("a block");
        let block = s.block.as_ref().expect("a block");
        let b = BlockView::new(block, &trace, 1, 0, Vec::new()).expect("layer 2");
        let layer_trace = s.run().expect("runs");
        let t = SequenceTrace::new(&layer_trace.heads[0], 0, Vec::new());
        let w_1 = MATRICES
            .iter()
            .position(|m| m.1 == "W_1")
            .expect("W₁ is offered");
        let plain = Offer::new(None, 0, Positions::None, None);
        assert!(!plain.has(w_1), "no block, no W₁");
        assert_eq!(exported(w_1, &t, None, None), None);
        let offer = Offer::new(None, 0, Positions::None, Some(1));
        assert!(offer.has(w_1));
        assert_eq!(exported(w_1, &t, None, Some(&b)), Some(&b.w_1));
        assert_eq!(
            offer.names(w_1, Lang::En),
            ("W₁ (layer 2)".to_string(), "W_1_layer2".to_string())
        );
        assert_eq!(offer.names(w_1, Lang::Zh).0, "W₁（第 2 层）");
        let every = (0..MATRICES.len()).filter(|&i| offer.has(i)).count();
        assert_eq!(
            every,
            MATRICES.len() - 3,
            "all but the multi-head layer's three"
        );
    }
}
