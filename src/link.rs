//! The page's state in its link, so a link restores exactly what was on screen.
//!
//! The scenario travels in one compact parameter `s`, sections separated by
//! `|`: a version, the sizes `B,T,d,d_k`, the switches (scale, causal,
//! batched) as `0`/`1`, the tokens, X, W_Q, W_K, W_V, and the padding mask;
//! a layer of several heads or with W_O adds `h,d_out` (d_k then counts
//! every head's columns, and d_out is 0 without W_O) and W_O, so a one-head
//! link is what it always was; positions other than none add their id and
//! the learned P (empty for the others) after those two, which are then
//! written even for one head without W_O (`1,0` and nothing). A transformer
//! block writes those two too (positions `none` included) and its own
//! section last ([`block`]); its layers hold the weights, so the sections of
//! W_Q, W_K, W_V and W_O are empty.
//! Numbers are written in their shortest exact decimal form, or as `x` and
//! the hex of their bits when a decimal would not read back exactly; so the
//! default scenario's link is a few hundred characters. What is selected
//! travels in readable parameters (`scenario`, `q`, `seq`, `head`, `step`, `lang`,
//! `tables`, `shuffle`) that also work alone in hand-written links. Decoding checks everything and
//! refuses a damaged link with a [`LabError`], never a panic.

mod block;
pub mod sync;

use crate::cards::panels;
use crate::classroom::SUSPEND_DATA_LIMIT;
use crate::controls::scenarios::Choice;
use crate::geometry::format::js_number;
use crate::i18n::Lang;
use crate::lab::{
    fits_tokens, number::parse_decimal, LabError, MAX_DIM, MAX_ENTRY, MAX_HEADS, MAX_HEAD_COLUMNS,
    MAX_SEQUENCES, MAX_TOKENS,
};
use crate::lessons::Lesson;
use crate::walkthrough::Step;
use attention_core::positions::Positions;
use attention_core::{Head, Options, Scenario};
use ndarray::{Array2, Array3};

/// The format's version, first in `s`: a future format can still read old links.
const VERSION: &str = "1";
/// Tokens longer than this are refused, as in the controls.
const MAX_TOKEN_CHARS: usize = attention_core::scenario::MAX_TOKEN_CHARS;

/// One number: its shortest decimal if that reads back exactly, else its bits.
fn number(value: f64) -> String {
    let text = js_number(value);
    match parse_decimal(&text) {
        Some(back) if back.to_bits() == value.to_bits() => text,
        _ => format!("x{:x}", value.to_bits()),
    }
}

fn read_number(text: &str) -> Option<f64> {
    match text.strip_prefix('x') {
        Some(hex) => u64::from_str_radix(hex, 16).ok().map(f64::from_bits),
        None => parse_decimal(text),
    }
}

/// A token with `\`, `|` and `,` escaped, so it cannot end its section.
fn escape_token(token: &str) -> String {
    token
        .replace('\\', "\\\\")
        .replace('|', "\\p")
        .replace(',', "\\c")
}

fn unescape_token(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('p') => out.push('|'),
            Some('c') => out.push(','),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

fn numbers<'a>(values: impl Iterator<Item = &'a f64>) -> String {
    values.map(|v| number(*v)).collect::<Vec<_>>().join(",")
}

/// The scenario as the `s` parameter.
pub fn encode(s: &Scenario) -> String {
    let (b, t, d) = s.x.dim();
    // A block's layers carry their own weights (in its own section, last);
    // the sizes say its first layer's widths.
    let d_k = s.attention(0).0.w_q.ncols();
    let positioned = s.options.positions != Positions::None || s.block.is_some();
    let layer = (!s.is_single_head() || positioned).then(|| {
        let d_out = s.w_o.as_ref().map_or(0, |w| w.ncols());
        [
            format!("{},{d_out}", s.heads),
            s.w_o
                .as_ref()
                .map(|w| numbers(w.iter()))
                .unwrap_or_default(),
        ]
    });
    let flag = |on: bool| if on { '1' } else { '0' };
    let flags: String = [s.options.scale, s.options.causal, s.batched]
        .map(flag)
        .iter()
        .collect();
    let tokens = s
        .tokens
        .as_ref()
        .map(|t| {
            t.iter()
                .map(|l| escape_token(l))
                .collect::<Vec<_>>()
                .join(",")
        })
        .unwrap_or_default();
    let mask = s
        .mask
        .as_ref()
        .map(|m| m.iter().map(|&on| flag(on)).collect::<String>())
        .unwrap_or_default();
    [
        VERSION.to_string(),
        format!("{b},{t},{d},{d_k}"),
        flags,
        tokens,
        numbers(s.x.iter()),
        numbers(s.head.w_q.iter()),
        numbers(s.head.w_k.iter()),
        numbers(s.head.w_v.iter()),
        mask,
    ]
    .into_iter()
    .chain(layer.into_iter().flatten())
    .chain(
        positioned
            .then(|| {
                let p = s.p.as_ref().map(|p| numbers(p.iter())).unwrap_or_default();
                [s.options.positions.id().to_owned(), p]
            })
            .into_iter()
            .flatten(),
    )
    .chain(s.block.as_ref().map(block::encode))
    .collect::<Vec<_>>()
    .join("|")
}

/// Why a link's state cannot be used.
fn bad(what: &str) -> LabError {
    LabError::BadLink(what.to_string())
}

/// `count` numbers from a comma list, each within ±[`MAX_ENTRY`].
fn read_numbers(text: &str, count: usize, what: &str) -> Result<Vec<f64>, LabError> {
    let values: Vec<f64> = text
        .split(',')
        .map(|n| read_number(n).filter(|v| v.is_finite() && v.abs() <= MAX_ENTRY))
        .collect::<Option<_>>()
        .ok_or_else(|| bad(what))?;
    if values.len() == count {
        Ok(values)
    } else {
        Err(bad(what))
    }
}

/// Reads the `s` parameter back into a scenario that runs.
pub fn decode(text: &str) -> Result<Scenario, LabError> {
    let parts: Vec<&str> = text.split('|').collect();
    if ![9, 11, 13, 14].contains(&parts.len()) || parts[0] != VERSION {
        return Err(bad("s"));
    }
    let has_block = parts.len() == 14;
    let positions = match parts.get(11) {
        None => Positions::None,
        // A block's link writes its positions even when there are none.
        Some(id) => Positions::from_id(id)
            .filter(|&p| p != Positions::None || has_block)
            .ok_or_else(|| bad("positions"))?,
    };
    // One head without W_O is written in the short form, unless positions follow.
    let least = if parts.len() >= 13 { 1 } else { 2 };
    let (heads, d_out) = match parts.get(9) {
        None => (1, 0),
        Some(layer) => match layer.split_once(',').map(|(h, o)| (h.parse(), o.parse())) {
            Some((Ok(h), Ok(o)))
                if (1..=MAX_HEADS).contains(&h) && o <= MAX_DIM && h + o >= least =>
            {
                (h, o)
            }
            _ => return Err(bad("heads")),
        },
    };
    let sizes: Vec<usize> = parts[1]
        .split(',')
        .map(|n| n.parse().ok())
        .collect::<Option<_>>()
        .ok_or_else(|| bad("sizes"))?;
    let [b, t, d, d_k] = sizes[..] else {
        return Err(bad("sizes"));
    };
    let fits = |n: usize, max: usize| (1..=max).contains(&n);
    if !(fits(b, MAX_SEQUENCES)
        && fits(t, MAX_TOKENS)
        && fits_tokens(b, t, heads)
        && fits(d, MAX_DIM)
        && fits(d_k, MAX_HEAD_COLUMNS)
        && d_k % heads == 0
        && fits(d_k / heads, MAX_DIM))
    {
        return Err(bad("sizes"));
    }
    let flags: Vec<bool> = parts[2].chars().map(|c| c == '1').collect();
    if flags.len() != 3 || !parts[2].chars().all(|c| c == '0' || c == '1') {
        return Err(bad("flags"));
    }
    let tokens = if parts[3].is_empty() {
        None
    } else {
        let labels: Vec<String> = parts[3].split(',').map(unescape_token).collect();
        let ok = |l: &String| !l.trim().is_empty() && l.chars().count() <= MAX_TOKEN_CHARS;
        if labels.len() != t || !labels.iter().all(ok) {
            return Err(bad("tokens"));
        }
        Some(labels)
    };
    let x = read_numbers(parts[4], b * t * d, "X")?;
    let matrix = |i: usize, what: &str| {
        if has_block {
            // A block's layers hold the weights.
            return match parts[i] {
                "" => Ok(Head::empty().w_q),
                _ => Err(bad(what)),
            };
        }
        read_numbers(parts[i], d * d_k, what)
            .and_then(|v| Array2::from_shape_vec((d, d_k), v).map_err(|_| bad(what)))
    };
    let mask = match parts[8] {
        "" => None,
        bits if bits.len() == b * t && bits.chars().all(|c| c == '0' || c == '1') => {
            Some(Array2::from_shape_fn((b, t), |(i, j)| {
                bits.as_bytes()[i * t + j] == b'1'
            }))
        }
        _ => return Err(bad("mask")),
    };
    let w_o = match (d_out, parts.get(10)) {
        (0, None | Some(&"")) => None,
        (0, Some(_)) => return Err(bad("W_O")),
        (d_out, Some(numbers)) => Some(
            read_numbers(numbers, d_k * d_out, "W_O")
                .and_then(|v| Array2::from_shape_vec((d_k, d_out), v).map_err(|_| bad("W_O")))?,
        ),
        (_, None) => return Err(bad("W_O")),
    };
    let p = match (positions, parts.get(12)) {
        (Positions::Learned, Some(numbers)) => Some(
            read_numbers(numbers, t * d, "P")
                .and_then(|v| Array2::from_shape_vec((t, d), v).map_err(|_| bad("P")))?,
        ),
        (_, None | Some(&"")) => None,
        _ => return Err(bad("P")),
    };
    let scenario = Scenario {
        tokens,
        x: Array3::from_shape_vec((b, t, d), x).map_err(|_| bad("X"))?,
        batched: flags[2],
        head: Head {
            w_q: matrix(5, "W_Q")?,
            w_k: matrix(6, "W_K")?,
            w_v: matrix(7, "W_V")?,
        },
        heads,
        w_o,
        mask,
        options: Options {
            scale: flags[0],
            causal: flags[1],
            positions,
        },
        p,
        block: parts.get(13).map(|b| block::decode(b, d)).transpose()?,
    };
    scenario.run().map_err(|e| bad(&e.to_string()))?;
    Ok(scenario)
}

/// Where the learner is, apart from the scenario: the readable parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Navigation {
    /// `q`: the selected query, from 0 as in `data-query`.
    pub query: usize,
    /// `k`: the selected key (the score worked out below the scores), from 0.
    pub key: usize,
    /// `seq`: the shown sequence of a batch, from 0.
    pub sequence: usize,
    /// `head`: the head the four diagrams show, from 0.
    pub head: usize,
    /// `layer`: the layer of a block the diagrams show, from 0.
    pub layer: usize,
    /// `step`: the walkthrough's step, if it runs.
    pub step: Option<Step>,
    /// `lang`: `zh` or `en`.
    pub lang: Option<Lang>,
    /// `tables`: matrices shown as tables.
    pub tables: bool,
    /// `scenario`: the scenario picker's choice, which Reset returns to.
    pub scenario: Option<Choice>,
    /// `shuffle`: which shuffle the word-order card shows (its seed, 1 first).
    pub shuffle: u64,
    /// `lesson`: the lesson the menu shows chosen, if the link names one.
    pub lesson: Option<Lesson>,
}

impl Navigation {
    /// The lesson the link opens: the one it names, or else the one its
    /// scenario belongs to.
    pub fn opened_lesson(&self) -> Option<Lesson> {
        self.lesson
            .or_else(|| self.scenario.and_then(Lesson::of_choice))
    }
}

/// The names of a link's readable parameters ([`Navigation`]), one list for
/// the check of what a link holds and for `sync`, which writes them.
pub const READABLE: [&str; 11] = [
    "q", "k", "seq", "head", "layer", "step", "lang", "tables", "scenario", "shuffle", "lesson",
];

/// The readable parameters of a link, read by `get`; anything unreadable is
/// left at its default (the scenario's check keeps indices in range).
pub fn read_navigation(get: impl Fn(&str) -> Option<String>) -> Navigation {
    let index = |name: &str| get(name).and_then(|v| v.trim().parse().ok()).unwrap_or(0);
    Navigation {
        query: index("q"),
        key: index("k"),
        sequence: index("seq"),
        head: index("head"),
        layer: index("layer"),
        step: get("step").and_then(|s| Step::from_link(s.trim())),
        lang: get("lang").and_then(|l| Lang::from_link(l.trim())),
        tables: get("tables").as_deref() == Some("1"),
        scenario: get("scenario").and_then(|id| Choice::from_id(id.trim())),
        shuffle: get("shuffle")
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(1),
        lesson: get("lesson").and_then(|id| Lesson::from_id(id.trim())),
    }
}

/// The first readable parameter a link holds that cannot be read (`q=NaN`,
/// `step=99`, …), to say so: it is left at its default.
pub fn unreadable_navigation(get: impl Fn(&str) -> Option<String>) -> Option<&'static str> {
    let readable = |name: &str, value: &str| match name {
        "q" | "k" | "seq" | "head" | "layer" => value.parse::<usize>().is_ok(),
        "shuffle" => value.parse::<u64>().is_ok(),
        "step" => Step::from_link(value).is_some(),
        "scenario" => Choice::from_id(value).is_some(),
        "lesson" => Lesson::from_id(value).is_some(),
        "lang" => Lang::from_link(value).is_some(),
        // `tables` is on for `1` and off for anything else.
        _ => true,
    };
    READABLE
        .into_iter()
        .find(|&name| get(name).is_some_and(|value| !readable(name, value.trim())))
}

/// The readable parameters for `nav`, defaults left out.
pub fn write_navigation(nav: &Navigation) -> Vec<(&'static str, String)> {
    let mut out = vec![("q", nav.query.to_string())];
    if nav.key > 0 {
        out.push(("k", nav.key.to_string()));
    }
    if nav.sequence > 0 {
        out.push(("seq", nav.sequence.to_string()));
    }
    if nav.head > 0 {
        out.push(("head", nav.head.to_string()));
    }
    if nav.layer > 0 {
        out.push(("layer", nav.layer.to_string()));
    }
    if let Some(step) = nav.step {
        out.push(("step", step.id().to_string()));
    }
    if let Some(lang) = nav.lang {
        out.push((
            "lang",
            if lang == Lang::Zh { "zh" } else { "en" }.to_string(),
        ));
    }
    if nav.tables {
        out.push(("tables", "1".to_string()));
    }
    if let Some(choice) = nav.scenario {
        out.push(("scenario", choice.id().to_string()));
    }
    if nav.shuffle != 1 {
        out.push(("shuffle", nav.shuffle.to_string()));
    }
    if let Some(lesson) = nav.lesson {
        out.push(("lesson", lesson.spec().id.to_string()));
    }
    out
}

/// The parameters that embed the page in a course page (see [`Embedding`]).
pub const EMBEDDING: [&str; 3] = ["embed", "panels", "lock"];

/// The `name=value` pairs of a link query (`?a=1&b=2`, the `?` optional),
/// less empty ones and those whose name is in `dropped`.
pub fn pairs_without<'a>(query: &'a str, dropped: &'a [&str]) -> impl Iterator<Item = &'a str> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter(move |pair| {
            let name = pair.split('=').next().unwrap_or_default();
            !pair.is_empty() && !dropped.contains(&name)
        })
}

/// A link query (`?s=…&embed=1&panels=…`) less its embedding (`embed`,
/// `panels`, `lock`): the same state, opened as the full app.
pub fn without_embedding(search: &str) -> String {
    let kept: Vec<&str> = pairs_without(search, &EMBEDDING).collect();
    format!("?{}", kept.join("&"))
}

/// What of `search` (the link's query, `?s=…&step=3`) an LMS keeps in its
/// suspend data. The scenario's own numbers (`s`) go when they are the
/// picked scenario's as the list has them (`as_listed`: the pick brings them
/// back), or when they do not fit; then the learner returns to the pick,
/// step and language without their edits, and the flag says something was
/// left out. With not even that fitting, nothing is kept.
pub fn suspend_data(search: &str, as_listed: bool) -> (String, bool) {
    if search.len() <= SUSPEND_DATA_LIMIT && !as_listed {
        return (search.to_owned(), false);
    }
    let kept: Vec<&str> = pairs_without(search, &["s"]).collect();
    let shorter = format!("?{}", kept.join("&"));
    let cut = !as_listed;
    if shorter.len() <= SUSPEND_DATA_LIMIT {
        (shorter, cut)
    } else {
        (String::new(), true)
    }
}

/// How the page is embedded in a course page: read once, from the link.
#[derive(Clone, Debug, PartialEq)]
pub struct Embedding {
    /// `embed=1`: no header or side material, only the chosen panels.
    pub embed: bool,
    /// `lock=1`: a read-only figure; hovering still explains.
    pub lock: bool,
    /// `panels=`: the panels shown, space-separated for the stylesheet's `~=`;
    /// `None` shows them all.
    pub panels: Option<String>,
}

/// The embedding a link asks for; unknown panel names are left out.
pub fn read_embedding(get: impl Fn(&str) -> Option<String>) -> Embedding {
    let embed = get("embed").as_deref() == Some("1");
    let named: Vec<&str> = get("panels")
        .map(|list| {
            let list: Vec<String> = list.split(',').map(|p| p.trim().to_owned()).collect();
            panels()
                .into_iter()
                .map(|p| p.panel)
                .filter(|name| list.iter().any(|l| l == name))
                .collect()
        })
        .unwrap_or_default();
    let panels = if !named.is_empty() {
        Some(named.join(" "))
    } else {
        // What an embed shows when its link names no panel: the four diagrams.
        let first: Vec<&str> = panels()
            .into_iter()
            .filter(|p| p.in_default_embed)
            .map(|p| p.panel)
            .collect();
        embed.then(|| first.join(" "))
    };
    Embedding {
        embed,
        lock: get("lock").as_deref() == Some("1"),
        panels,
    }
}

#[cfg(test)]
mod tests;
