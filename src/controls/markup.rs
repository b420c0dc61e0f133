//! The controls as HTML: the scenario picker and its notes, one chip per
//! token, the sliders, switches, sequence picker and seed field, and the
//! reason the last edit was refused. Each control names its action
//! (`data-action`, `data-index`, read back by [`super::action`]); pure, so
//! tests read it natively.

use super::action::Control;
use super::scenarios::Choice;
use crate::diagrams::order::positions_choice;
use crate::i18n::{controls as text, Lang, Msg};
use crate::lab::{self, LabError, MAX_DIM, MAX_HEADS, MAX_HEAD_COLUMNS, MIN_DIM};
use crate::page::refusal;
use crate::svg::Markup;
use attention_core::{Options, Scenario};
use ndarray::Array2;

/// What the controls show of a scenario: its tokens, padding, sizes and
/// switches, never its numbers. The markup is written from this alone, so
/// new weights or an edited entry rewrite none of it (at T = 512 the
/// controls are 300 KB of markup).
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    pub labels: Vec<String>,
    /// The key padding mask, sequences × positions, true for a real token.
    pub mask: Option<Array2<bool>>,
    pub sequences: usize,
    pub d_model: usize,
    /// Each head's d_k.
    pub d_k: usize,
    pub heads: usize,
    /// Whether the layer has an output projection W_O.
    pub w_o: bool,
    /// Whether the layer sits in a transformer block, which fixes d_model,
    /// d_k and W_O.
    pub block: bool,
    pub options: Options,
}

impl Shown {
    pub fn of(scenario: &Scenario) -> Self {
        let (sequences, _, d_model) = scenario.x.dim();
        Shown {
            labels: lab::token_labels(scenario),
            mask: scenario.mask.clone(),
            sequences,
            d_model,
            d_k: lab::head_width(scenario),
            heads: scenario.heads,
            w_o: scenario.attention(0).1.is_some(),
            block: scenario.block.is_some(),
            options: scenario.options,
        }
    }
}

/// Everything the controls' markup shows. The seed is not in it: a new draw
/// of weights changes the seed and nothing else here, so its field is written
/// apart (`ActionCard`'s `values`).
pub struct ControlsView<'a> {
    pub shown: &'a Shown,
    /// The sequence of a batch on show.
    pub sequence: usize,
    pub choice: Choice,
    pub lang: Lang,
    /// Why the last edit was refused, if it was.
    pub notice: Option<&'a LabError>,
}

/// The controls' markup.
pub fn controls(view: &ControlsView) -> String {
    let lang = view.lang;
    let mut m = Markup::new();
    m.element("h2", &[], text::CONTROLS_TITLE.get(lang));
    scenario_picker(&mut m, view.choice, lang);
    tokens(&mut m, view, lang);
    settings(&mut m, view, lang);
    if let Some(error) = view.notice {
        refusal(&mut m, error, "notice", lang);
    }
    m.finish()
}

fn scenario_picker(m: &mut Markup, chosen: Choice, lang: Lang) {
    m.open("div", &[("class", "scenario-picker")])
        .open("label", &[]);
    m.element("span", &[], text::SCENARIO.get(lang));
    m.open(
        "select",
        &[
            ("data-testid", Control::Scenario.name()),
            ("data-action", Control::Scenario.name()),
        ],
    );
    for choice in Choice::ALL {
        m.option(choice.id(), choice == chosen, choice.name().get(lang));
    }
    m.close("select").close("label");
    let reset = [
        ("data-testid", Control::Reset.name()),
        ("data-action", Control::Reset.name()),
    ];
    m.element("button", &reset, text::RESET.get(lang));
    let notes = [("class", "explain"), ("data-testid", "scenario-notes")];
    m.element("p", &notes, chosen.notes().get(lang));
    m.close("div");
}

/// Opens a cell of the token grid.
fn cell(m: &mut Markup) -> &mut Markup {
    m.open("span", &[("role", "gridcell")])
}

fn tokens(m: &mut Markup, view: &ControlsView, lang: Lang) {
    let s = view.shown;
    m.open("div", &[("class", "tokens")]);
    m.element("h3", &[], text::TOKENS.get(lang));
    // What the three parts of a chip do, on screen rather than in tooltips.
    let help = [
        ("class", "explain token-help"),
        ("data-testid", "token-help"),
    ];
    m.element("p", &help, text::TOKEN_PARTS.get(lang));
    // A layout grid, a row per token: one tab stop for the whole list
    // (`action::rove`), where a chip, field and button each would be four.
    m.start("ul")
        .attr("class", "token-list")
        .attr("role", "grid")
        .attr("aria-label", text::TOKENS.get(lang))
        .end();
    for (i, label) in s.labels.iter().enumerate() {
        let index = i.to_string();
        let padded = s
            .mask
            .as_ref()
            .and_then(|m| m.get((view.sequence, i)).copied())
            == Some(false);
        // The selected query's chip is marked by `highlight.js` `choose`, not
        // here: a new query then touches two chips, not the whole list.
        let class = if padded { "token padded" } else { "token" };
        // The first token's chip is the list's tab stop until focus moves.
        let stop = if i == 0 { "0" } else { "-1" };
        let control = |class: &'static str, testid: &'static str, action: &'static str| {
            vec![
                ("class", class),
                ("data-testid", testid),
                ("data-action", action),
                ("data-index", index.as_str()),
                ("tabindex", "-1"),
            ]
        };
        let pressed = |on: bool| ("aria-pressed", if on { "true" } else { "false" });
        m.start("li").attr("class", class).attr("role", "row").end();
        let mut select = control("token-select", "token", Control::Select.name());
        select[4].1 = stop;
        // The arrows move the query along the chips (`action::rove`).
        select.extend([pressed(false), ("data-follows", "")]);
        cell(m).element("button", &select, label).close("span");
        let mut rename = control("token-label", "token-label", Control::Rename.name());
        rename.extend([
            ("aria-label", text::RENAME.get(lang)),
            ("value", label.as_str()),
        ]);
        cell(m).empty("input", &rename).close("span");
        let mut pad = control("token-pad", "token-pad", Control::Pad.name());
        pad.extend([pressed(padded), ("title", text::PAD_LABEL.get(lang))]);
        cell(m)
            .element("button", &pad, text::PAD.get(lang))
            .close("span");
        let mut remove = control("token-remove", "token-remove", Control::Remove.name());
        remove.extend([
            ("aria-label", text::REMOVE.get(lang)),
            ("title", text::REMOVE.get(lang)),
        ]);
        cell(m).element("button", &remove, "×").close("span");
        m.close("li");
    }
    m.close("ul");
    let new_token = text::NEW_TOKEN.get(lang);
    m.open("div", &[("class", "add-token")]);
    m.start("input")
        .attr("data-testid", Control::NewToken.name())
        .attr("data-action", Control::NewToken.name())
        .attr("aria-label", new_token)
        .attr("placeholder", new_token)
        .end_empty();
    // The button reads the new-token field's value (`data-field`). It is
    // for the pointer: the keyboard adds with Enter in the field, so the
    // button is no tab stop of its own (the page keeps to 40).
    let add = [
        ("data-testid", "add-token"),
        ("data-action", Control::Add.name()),
        ("data-field", Control::NewToken.name()),
        ("tabindex", "-1"),
    ];
    m.element("button", &add, text::ADD.get(lang));
    m.close("div").close("div");
}

fn settings(m: &mut Markup, view: &ControlsView, lang: Lang) {
    let s = view.shown;
    m.open("div", &[("class", "settings")]);
    // A block's weights are built on d_model, d_k and W_O: its sizes stay.
    let fixed = s.block;
    slider(
        m,
        text::D_MODEL,
        Control::DModel,
        s.d_model,
        (MIN_DIM, MAX_DIM),
        fixed,
        lang,
    );
    slider(
        m,
        text::HEADS,
        Control::Heads,
        s.heads,
        (1, MAX_HEADS),
        false,
        lang,
    );
    // With several heads a head may be one column wide, and all of them
    // together at most MAX_HEAD_COLUMNS.
    let least = if s.heads > 1 { 1 } else { MIN_DIM };
    let most = MAX_DIM.min(MAX_HEAD_COLUMNS / s.heads.max(1));
    slider(m, text::D_K, Control::DK, s.d_k, (least, most), fixed, lang);
    let hint = if fixed {
        text::FIXED_BY_BLOCK
    } else {
        text::D_K_FOLLOWS_HEADS
    };
    m.element("p", &[("class", "hint")], hint.get(lang));
    switch(m, text::W_O, Control::UseWO, s.w_o, fixed, lang);
    // Shown while there is a block, to take it away; a block comes from the
    // lesson menu, the scenarios or an import (a switch for every page would
    // be a 41st tab stop on the default one).
    if s.block {
        switch(m, text::BLOCK, Control::UseBlock, true, false, lang);
    }
    positions_choice(m, Control::Positions.name(), s.options.positions, lang);
    switch(m, text::SCALE, Control::Scale, s.options.scale, false, lang);
    switch(
        m,
        text::CAUSAL,
        Control::Causal,
        s.options.causal,
        false,
        lang,
    );
    let batch = s.sequences;
    if batch > 1 {
        m.open("label", &[("class", "slider")]);
        m.element("span", &[], text::SEQUENCE.get(lang));
        m.open(
            "select",
            &[
                ("data-testid", Control::Sequence.name()),
                ("data-action", Control::Sequence.name()),
            ],
        );
        for b in 0..batch {
            m.option(&b.to_string(), b == view.sequence, &(b + 1).to_string());
        }
        m.close("select").close("label");
    }
    m.open("div", &[("class", "seed")]).open("label", &[]);
    m.text(text::SEED.get(lang)).text(" ");
    let attrs = [
        ("type", "number"),
        ("min", "0"),
        ("data-testid", Control::Seed.name()),
        ("data-action", Control::Seed.name()),
    ];
    m.empty("input", &attrs).close("label");
    let randomize = [
        ("data-testid", Control::Randomize.name()),
        ("data-action", Control::Randomize.name()),
    ];
    m.element("button", &randomize, text::RANDOMIZE.get(lang));
    if s.w_o {
        let random_w_o = [
            ("data-testid", Control::RandomizeWO.name()),
            ("data-action", Control::RandomizeWO.name()),
        ];
        m.element("button", &random_w_o, text::RANDOMIZE_W_O.get(lang));
    }
    m.close("div").close("div");
}

/// A range slider labelled "`label` = size" for one size from `min` to
/// `max`; a `fixed` one is shown but cannot be moved.
fn slider(
    m: &mut Markup,
    label: Msg,
    control: Control,
    size: usize,
    (min, max): (usize, usize),
    fixed: bool,
    lang: Lang,
) {
    let (min, max, value) = (min.to_string(), max.to_string(), size.to_string());
    m.open("label", &[("class", "slider")]);
    m.element("span", &[], &format!("{} = {size}", label.get(lang)));
    let mut attrs = vec![
        ("type", "range"),
        ("data-testid", control.name()),
        ("data-action", control.name()),
        ("min", min.as_str()),
        ("max", max.as_str()),
        ("step", "1"),
        ("value", value.as_str()),
    ];
    if fixed {
        attrs.push(("disabled", ""));
    }
    m.empty("input", &attrs).close("label");
}

/// A checkbox labelled `label`; a `fixed` one is shown but cannot be changed.
fn switch(m: &mut Markup, label: Msg, control: Control, on: bool, fixed: bool, lang: Lang) {
    let mut attrs = vec![
        ("type", "checkbox"),
        ("data-testid", control.name()),
        ("data-action", control.name()),
    ];
    if on {
        attrs.push(("checked", ""));
    }
    if fixed {
        attrs.push(("disabled", ""));
    }
    m.open("label", &[("class", "switch")]);
    m.empty("input", &attrs)
        .text(label.get(lang))
        .close("label");
}

#[cfg(test)]
mod tests;
