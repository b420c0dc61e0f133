//! The learner's edits to a scenario, as pure functions: add, remove and
//! rename tokens, resize d_model and d_k, split into heads, add or drop W_O,
//! set one entry, toggle masks, and draw new weights from a seed. Every edit
//! keeps the scenario's shapes consistent, so the core can always run it;
//! invalid edits are refused with a [`LabError`] and leave the scenario
//! untouched.

use crate::geometry::format::shortest;
use attention_core::positions::Positions;
use attention_core::random::{normal_matrix, rounded, uniform_matrix};
use attention_core::scenario::MAX_TOKEN_CHARS;
use attention_core::{AttentionError, Scenario};
use ndarray::{s, Array2, Array3, Axis};

/// Most tokens in a sequence, however they come (Add, a link's `tokens=`, an
/// import): the core's own limit, since long sequences are drawn as rasters.
pub const MAX_TOKENS: usize = attention_core::limits::MAX_TOKENS;
/// Most sequences of a batch a link or an import may hold.
pub const MAX_SEQUENCES: usize = 64;
/// Smallest and largest d_model and d_k the sliders offer.
pub const MIN_DIM: usize = 2;
pub const MAX_DIM: usize = 16;
/// Most heads: the core's own limit.
pub const MAX_HEADS: usize = attention_core::limits::MAX_HEADS;
/// Most columns of W_Q (every head's d_k side by side) the lab draws.
pub const MAX_HEAD_COLUMNS: usize = 64;
/// The largest magnitude an entry of X or a W matrix may have. Far beyond any
/// teaching example, and small enough that no score can overflow, so the
/// diagrams (and the cell to fix a typo in) never disappear.
pub const MAX_ENTRY: f64 = 1000.0;

/// Which editable matrix an entry belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Editable {
    X,
    WQ,
    WK,
    WV,
    /// The output projection, drawn whole (not per head).
    WO,
    /// The learned positions P, one row per position.
    P,
    /// A block layer's feed-forward weights W₁ (d×d_ff) and W₂ (d_ff×d).
    W1,
    W2,
    /// A block layer's LayerNorm scales and shifts, each drawn as one row.
    Gamma1,
    Beta1,
    Gamma2,
    Beta2,
}

/// Where an entry is: the sequence of a batch (for X), the head whose
/// columns of W_Q, W_K and W_V are shown, and the layer of a block whose
/// weights are shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Place {
    pub sequence: usize,
    pub head: usize,
    pub layer: usize,
}

/// Why an edit was refused. The app shows it in the learner's language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LabError {
    /// Already at the most tokens.
    TooManyTokens,
    /// The last token cannot be removed.
    LastToken,
    /// A token label must have 1 to 32 characters.
    BadLabel,
    /// The typed text is not a finite number.
    NotANumber(String),
    /// A number beyond ±[`MAX_ENTRY`].
    TooLarge(String),
    /// A seed that is not a whole number from 0 to 2⁶⁴ − 1.
    BadSeed(String),
    /// A link whose saved state is damaged; names the part that is.
    BadLink(String),
    /// A readable link parameter (`q`, `seq`, `head`, `step`, `lang`,
    /// `scenario`) that could not be read.
    IgnoredParameter(String),
    /// A size outside 2..=16 (d_k: 1..=16 with several heads).
    BadSize(usize),
    /// A number of heads outside 1..=8, or too many for the sequence's score
    /// cells (B×h×T×T).
    BadHeads(usize),
    /// A row or column that does not exist.
    OutOfRange,
    /// An imported scenario the core or the lab cannot take, and why.
    Import(AttentionError),
    /// RoPE turns pairs of columns: a head's d_k must be even, not this.
    OddForRope(usize),
    /// A transformer block keeps d_model, d_k and its W_O: each layer's
    /// weights are built on them.
    FixedByBlock,
    /// A number of layers outside 1..=4.
    BadLayers(usize),
}

/// Token labels: the scenario's own, or 1…T when it has none.
pub fn token_labels(scenario: &Scenario) -> Vec<String> {
    scenario
        .tokens
        .clone()
        .unwrap_or_else(|| (1..=scenario.x.dim().1).map(|i| i.to_string()).collect())
}

/// Parses a number typed by the learner, accepting a typographic minus and a comma decimal.
pub fn parse_number(text: &str) -> Result<f64, LabError> {
    let cleaned = text.trim().replace('\u{2212}', "-").replace(',', ".");
    match number::parse_decimal(&cleaned) {
        Some(v) if v.is_finite() => Ok(v),
        _ => Err(LabError::NotANumber(text.trim().to_string())),
    }
}

fn check_label(label: &str) -> Result<String, LabError> {
    let label = label.trim();
    let chars = label.chars().count();
    if chars == 0 || chars > MAX_TOKEN_CHARS {
        Err(LabError::BadLabel)
    } else {
        Ok(label.to_string())
    }
}

/// Numbers for new rows or columns: uniform in [−1, 1), two decimals, from `seed`.
fn fresh(rows: usize, cols: usize, seed: u64) -> Array2<f64> {
    rounded(uniform_matrix(rows, cols, -1.0, 1.0, seed), 2)
}

/// `x` with `n` positions per sequence: the first ones kept, later ones fresh.
/// Position i of sequence b is drawn from `seed + b·stride + i`, so each new
/// vector is reproducible and independent of the others.
fn with_positions(x: &Array3<f64>, n: usize, seed: u64, stride: usize) -> Array3<f64> {
    let (batch, t, d) = x.dim();
    let kept = t.min(n);
    let mut out = Array3::zeros((batch, n, d));
    out.slice_mut(s![.., ..kept, ..])
        .assign(&x.slice(s![.., ..kept, ..]));
    for b in 0..batch {
        for i in kept..n {
            let row = fresh(1, d, seed.wrapping_add((b * stride + i) as u64));
            out.slice_mut(s![b, i, ..]).assign(&row.row(0));
        }
    }
    out
}

/// Whether `batch` sequences of `t` tokens, in `heads` heads, are within the
/// limits: at most [`MAX_TOKENS`] each, and at most the core's score cells
/// (B×h×T×T) in all.
pub fn fits_tokens(batch: usize, t: usize, heads: usize) -> bool {
    t <= MAX_TOKENS && batch * heads * t * t <= attention_core::limits::MAX_SCORE_CELLS
}

/// Appends a token with a fresh embedding to every sequence.
pub fn add_token(scenario: &mut Scenario, label: &str, seed: u64) -> Result<(), LabError> {
    let label = check_label(label)?;
    let (batch, t, _) = scenario.x.dim();
    if !fits_tokens(batch, t + 1, scenario.heads) {
        return Err(LabError::TooManyTokens);
    }
    let mut labels = token_labels(scenario);
    labels.push(label);
    scenario.x = with_positions(&scenario.x, t + 1, seed, MAX_TOKENS);
    scenario.tokens = Some(labels);
    fit_positions(scenario, seed);
    if let Some(mask) = &mut scenario.mask {
        let mut grown = Array2::from_elem((batch, t + 1), true);
        grown.slice_mut(s![.., ..t]).assign(mask);
        *mask = grown;
    }
    Ok(())
}

/// The scenario with exactly these tokens: the first ones keep their vectors,
/// later ones get fresh embeddings from `seed`. Accepts up to
/// [`MAX_TOKENS`] (fewer for a large batch, see [`fits_tokens`]).
pub fn with_tokens(
    scenario: &Scenario,
    labels: &[String],
    seed: u64,
) -> Result<Scenario, LabError> {
    if !fits_tokens(scenario.x.dim().0, labels.len(), scenario.heads) {
        return Err(LabError::TooManyTokens);
    }
    if labels.is_empty() {
        return Err(LabError::BadLabel);
    }
    let labels = labels
        .iter()
        .map(|l| check_label(l))
        .collect::<Result<Vec<_>, _>>()?;
    let mut next = scenario.clone();
    next.x = with_positions(&scenario.x, labels.len(), seed, MAX_TOKENS);
    next.tokens = Some(labels);
    next.mask = None;
    fit_positions(&mut next, seed);
    Ok(next)
}

/// Removes token `index` from every sequence.
pub fn remove_token(scenario: &mut Scenario, index: usize) -> Result<(), LabError> {
    let t = scenario.x.dim().1;
    if index >= t {
        return Err(LabError::OutOfRange);
    }
    if t == 1 {
        return Err(LabError::LastToken);
    }
    // Position i of the result is position i of the input, or i + 1 past the
    // removed one. (Index arithmetic rather than ndarray's `select`, whose
    // generic code cost 1 KB of wasm for the two arrays.)
    let source = |i: usize| if i < index { i } else { i + 1 };
    let (batch, _, d) = scenario.x.dim();
    let x = &scenario.x;
    scenario.x = Array3::from_shape_fn((batch, t - 1, d), |(b, i, c)| x[[b, source(i), c]]);
    let mut labels = token_labels(scenario);
    labels.remove(index);
    scenario.tokens = Some(labels);
    fit_positions(scenario, 0);
    if let Some(mask) = &mut scenario.mask {
        *mask = Array2::from_shape_fn((batch, t - 1), |(b, i)| mask[[b, source(i)]]);
    }
    Ok(())
}

/// Renames token `index`.
pub fn rename_token(scenario: &mut Scenario, index: usize, label: &str) -> Result<(), LabError> {
    let label = check_label(label)?;
    let mut labels = token_labels(scenario);
    let slot = labels.get_mut(index).ok_or(LabError::OutOfRange)?;
    *slot = label;
    scenario.tokens = Some(labels);
    Ok(())
}

fn check_size(size: usize) -> Result<(), LabError> {
    if (MIN_DIM..=MAX_DIM).contains(&size) {
        Ok(())
    } else {
        Err(LabError::BadSize(size))
    }
}

/// Grows or shrinks `m` to rows×cols, keeping the overlap and filling new places from `seed`.
fn resized(m: &Array2<f64>, rows: usize, cols: usize, seed: u64) -> Array2<f64> {
    let mut out = fresh(rows, cols, seed);
    let (r, c) = (m.nrows().min(rows), m.ncols().min(cols));
    out.slice_mut(s![..r, ..c]).assign(&m.slice(s![..r, ..c]));
    out
}

/// Sets d_model: the feature columns of X and the rows of every W.
pub fn set_d_model(scenario: &mut Scenario, d: usize, seed: u64) -> Result<(), LabError> {
    check_size(d)?;
    if scenario.block.is_some() {
        return Err(LabError::FixedByBlock);
    }
    let (batch, t, _) = scenario.x.dim();
    let mut x = Array3::zeros((batch, t, d));
    for b in 0..batch {
        let seq = resized(
            &scenario.x.index_axis(Axis(0), b).to_owned(),
            t,
            d,
            seed ^ b as u64,
        );
        x.index_axis_mut(Axis(0), b).assign(&seq);
    }
    scenario.x = x;
    fit_positions(scenario, seed.wrapping_add(5));
    let head = &mut scenario.head;
    head.w_q = resized(&head.w_q, d, head.w_q.ncols(), seed.wrapping_add(1));
    head.w_k = resized(&head.w_k, d, head.w_k.ncols(), seed.wrapping_add(2));
    head.w_v = resized(&head.w_v, d, head.w_v.ncols(), seed.wrapping_add(3));
    // The layer's output has d_model columns, as PyTorch's.
    if let Some(w_o) = &mut scenario.w_o {
        *w_o = resized(w_o, w_o.nrows(), d, seed.wrapping_add(4));
    }
    Ok(())
}

/// d_k, each head's width of Q, K and (here) V.
pub fn head_width(scenario: &Scenario) -> usize {
    scenario.attention(0).0.w_q.ncols() / scenario.heads.max(1)
}

/// `m` with each of its `heads` blocks of columns grown or shrunk to `width`,
/// keeping each block's overlap: every head keeps its own numbers.
fn per_head_columns(m: &Array2<f64>, heads: usize, width: usize, seed: u64) -> Array2<f64> {
    let old = m.ncols() / heads;
    let blocks: Vec<Array2<f64>> = (0..heads)
        .map(|i| {
            let block = Array2::from_shape_fn((m.nrows(), old), |(r, c)| m[[r, i * old + c]]);
            resized(&block, m.nrows(), width, seed.wrapping_add(i as u64))
        })
        .collect();
    Array2::from_shape_fn((m.nrows(), heads * width), |(r, c)| {
        blocks[c / width][[r, c % width]]
    })
}

/// Sets d_k, each head's width of Q, K and (here) V. With one head it is
/// 2 to 16; with several, 1 to 16 and at most [`MAX_HEAD_COLUMNS`] in all.
pub fn set_d_k(scenario: &mut Scenario, d_k: usize, seed: u64) -> Result<(), LabError> {
    let heads = scenario.heads.max(1);
    let least = if heads > 1 { 1 } else { MIN_DIM };
    if !(least..=MAX_DIM).contains(&d_k) || heads * d_k > MAX_HEAD_COLUMNS {
        return Err(LabError::BadSize(d_k));
    }
    if scenario.block.is_some() {
        return Err(LabError::FixedByBlock);
    }
    if scenario.options.positions == Positions::Rope {
        check_rope_width(d_k)?;
    }
    // Each matrix's heads draw from seeds of their own: seed + matrix·8 + head.
    let seed_of = |matrix: u64| seed.wrapping_add(matrix * MAX_HEADS as u64);
    let head = &mut scenario.head;
    head.w_q = per_head_columns(&head.w_q, heads, d_k, seed_of(1));
    head.w_k = per_head_columns(&head.w_k, heads, d_k, seed_of(2));
    head.w_v = per_head_columns(&head.w_v, heads, d_k, seed_of(3));
    if let Some(w_o) = &scenario.w_o {
        // Each head writes through its own block of W_O's rows.
        let rows = per_head_columns(&w_o.t().to_owned(), heads, d_k, seed_of(4));
        scenario.w_o = Some(rows.t().to_owned());
    }
    Ok(())
}

/// A new W_O for `scenario`'s heads, (h·d_k)×d_model: normal with standard
/// deviation 1/√(h·d_k), rounded to two decimals like the other weights.
fn fresh_w_o(scenario: &Scenario, seed: u64) -> Array2<f64> {
    let (d, width) = scenario.head.w_v.dim();
    projection(width, d, seed)
}

/// A new width×d projection: normal with standard deviation 1/√width,
/// rounded to two decimals like the other weights.
fn projection(width: usize, d: usize, seed: u64) -> Array2<f64> {
    rounded(
        normal_matrix(width, d, 1.0 / (width as f64).sqrt(), seed),
        2,
    )
}

/// Splits the layer into `heads` heads, with d_k following d_model / h (at
/// least 1). When the width h·d_k comes out as it was (d_k was d_model / h,
/// and h divides d_model), W_Q, W_K, W_V and W_O keep every number: more
/// heads are the same weights in more parts. A layer split from one head
/// gets a W_O if it had none, as in PyTorch.
pub fn set_heads(scenario: &mut Scenario, heads: usize, seed: u64) -> Result<(), LabError> {
    let (batch, t, _) = scenario.x.dim();
    if !(1..=MAX_HEADS).contains(&heads) || !fits_tokens(batch, t, heads) {
        return Err(LabError::BadHeads(heads));
    }
    // A block's layers keep their weights: more heads cut them into more parts.
    if scenario.block.is_some() {
        return split_heads(scenario, heads);
    }
    let split_from_one = scenario.heads == 1 && heads > 1;
    let d = scenario.head.w_q.nrows();
    let d_k = (d / heads).max(1);
    if scenario.options.positions == Positions::Rope {
        check_rope_width(d_k)?;
    }
    let width = heads * d_k;
    let head = &mut scenario.head;
    if head.w_q.ncols() != width {
        head.w_q = resized(&head.w_q, d, width, seed.wrapping_add(1));
        head.w_k = resized(&head.w_k, d, width, seed.wrapping_add(2));
        head.w_v = resized(&head.w_v, d, width, seed.wrapping_add(3));
    }
    scenario.heads = heads;
    match &mut scenario.w_o {
        Some(w_o) if w_o.nrows() != width => {
            *w_o = resized(w_o, width, w_o.ncols(), seed.wrapping_add(4));
        }
        Some(_) => {}
        None if split_from_one => {
            scenario.w_o = Some(fresh_w_o(scenario, seed.wrapping_add(4)));
        }
        None => {}
    }
    Ok(())
}

/// Reads the same W_Q, W_K, W_V (and W_O) as `heads` heads, keeping every
/// number: the width is only cut into other parts. Refused when `heads`
/// does not divide the width, a head would be wider than [`MAX_DIM`], or
/// the score cells would not fit.
pub fn split_heads(scenario: &mut Scenario, heads: usize) -> Result<(), LabError> {
    let columns = scenario.attention(0).0.w_q.ncols();
    let (batch, t, _) = scenario.x.dim();
    // Every layer's widths, W_Q's (which W_K shares) and W_V's, cut evenly.
    let divides = (0..scenario.layer_count()).all(|l| {
        let head = scenario.attention(l).0;
        [head.w_q.ncols(), head.w_v.ncols()]
            .iter()
            .all(|w| w.is_multiple_of(heads.max(1)))
    });
    let fits = (1..=MAX_HEADS).contains(&heads)
        && divides
        && columns.is_multiple_of(heads)
        && columns / heads <= MAX_DIM
        && fits_tokens(batch, t, heads);
    if !fits {
        return Err(LabError::BadHeads(heads));
    }
    if scenario.options.positions == Positions::Rope {
        check_rope_width(columns / heads)?;
    }
    scenario.heads = heads;
    Ok(())
}

/// Gives the layer an output projection W_O (new numbers from `seed`), or
/// takes it away; a block's layers always have theirs.
pub fn set_w_o(scenario: &mut Scenario, on: bool, seed: u64) -> Result<(), LabError> {
    if scenario.block.is_some() {
        return Err(LabError::FixedByBlock);
    }
    scenario.w_o = on.then(|| fresh_w_o(scenario, seed));
    Ok(())
}

/// Sets one entry; for X, `place.sequence` picks the sequence of a batch,
/// and for W_Q, W_K and W_V `col` counts within `place.head`'s columns.
pub fn set_entry(
    scenario: &mut Scenario,
    matrix: Editable,
    place: Place,
    cell: (usize, usize),
    value: f64,
) -> Result<(), LabError> {
    if !value.is_finite() {
        return Err(LabError::NotANumber(shortest(value)));
    }
    if value.abs() > MAX_ENTRY {
        return Err(LabError::TooLarge(shortest(value)));
    }
    let (row, col) = located(scenario, matrix, place, cell).ok_or(LabError::OutOfRange)?;
    if let Some(layer) = block::layer_part(matrix) {
        return block::set_part(scenario, place.layer, layer, (row, col), value);
    }
    let slot = match matrix {
        Editable::X => scenario.x.get_mut([place.sequence, row, col]),
        Editable::P => scenario.p.as_mut().and_then(|p| p.get_mut([row, col])),
        _ => {
            let (head, w_o) = scenario.attention_mut(place.layer);
            match matrix {
                Editable::WQ => head.w_q.get_mut([row, col]),
                Editable::WK => head.w_k.get_mut([row, col]),
                Editable::WV => head.w_v.get_mut([row, col]),
                _ => w_o.and_then(|w| w.get_mut([row, col])),
            }
        }
    };
    *slot.ok_or(LabError::OutOfRange)? = value;
    Ok(())
}

/// Where `cell` of what is shown lies in the scenario's own matrix: a
/// column of W_Q, W_K or W_V counts within `place.head`'s columns, and must
/// lie there.
fn located(
    scenario: &Scenario,
    matrix: Editable,
    place: Place,
    (row, col): (usize, usize),
) -> Option<(usize, usize)> {
    match matrix {
        Editable::WQ | Editable::WK | Editable::WV => {
            let width = head_width(scenario);
            (col < width && place.head < scenario.heads).then_some((row, place.head * width + col))
        }
        _ => Some((row, col)),
    }
}

/// The value of one entry, if it exists (see [`set_entry`]).
pub fn entry(
    scenario: &Scenario,
    matrix: Editable,
    place: Place,
    cell: (usize, usize),
) -> Option<f64> {
    let (row, col) = located(scenario, matrix, place, cell)?;
    if let Some(layer) = block::layer_part(matrix) {
        return block::part(scenario, place.layer, layer, (row, col));
    }
    let (head, w_o) = scenario.attention(place.layer);
    match matrix {
        Editable::X => scenario.x.get([place.sequence, row, col]),
        Editable::WQ => head.w_q.get([row, col]),
        Editable::WK => head.w_k.get([row, col]),
        Editable::WV => head.w_v.get([row, col]),
        Editable::WO => w_o.and_then(|w| w.get([row, col])),
        Editable::P => scenario.p.as_ref().and_then(|p| p.get([row, col])),
        _ => None,
    }
    .copied()
}

/// Moves one entry by `delta` and rounds it to two decimals, as a drag does.
pub fn nudge_entry(
    scenario: &mut Scenario,
    matrix: Editable,
    place: Place,
    cell: (usize, usize),
    delta: f64,
) -> Result<(), LabError> {
    let value = entry(scenario, matrix, place, cell).ok_or(LabError::OutOfRange)?;
    set_entry(
        scenario,
        matrix,
        place,
        cell,
        ((value + delta) * 100.0).round() / 100.0,
    )
}

/// Toggles whether key `index` of `sequence` is padding.
pub fn toggle_padding(
    scenario: &mut Scenario,
    sequence: usize,
    index: usize,
) -> Result<(), LabError> {
    let (batch, t, _) = scenario.x.dim();
    if sequence >= batch || index >= t {
        return Err(LabError::OutOfRange);
    }
    let mask = scenario
        .mask
        .get_or_insert_with(|| Array2::from_elem((batch, t), true));
    mask[[sequence, index]] = !mask[[sequence, index]];
    Ok(())
}

/// Draws new W_Q, W_K and W_V (and W_O, if any) of `layer` (a block's; the
/// scenario's own without one) from `seed`: normal with standard deviation
/// 1/√d, rounded to two decimals so they stay readable.
pub fn randomize_weights(scenario: &mut Scenario, layer: usize, seed: u64) {
    let (head, _) = scenario.attention_mut(layer);
    let (d, d_k) = head.w_q.dim();
    let std = 1.0 / (d as f64).sqrt();
    head.w_q = rounded(normal_matrix(d, d_k, std, seed), 2);
    head.w_k = rounded(normal_matrix(d, d_k, std, seed.wrapping_add(1)), 2);
    head.w_v = rounded(
        normal_matrix(d, head.w_v.ncols(), std, seed.wrapping_add(2)),
        2,
    );
    randomize_w_o(scenario, layer, seed.wrapping_add(3));
}

/// Draws a new W_O for `layer` from `seed`, if the layer has one.
pub fn randomize_w_o(scenario: &mut Scenario, layer: usize, seed: u64) {
    let (head, w_o) = scenario.attention(layer);
    if w_o.is_some() {
        let fresh = projection(head.w_v.ncols(), scenario.x.dim().2, seed);
        if let (_, Some(w_o)) = scenario.attention_mut(layer) {
            *w_o = fresh;
        }
    }
}

pub mod block;
mod block_view;
pub mod number;
pub mod order;
mod positions;
mod sequence;

pub use positions::{check_rope_width, fit_positions, set_positions};

pub use block_view::{BlockView, NormView};
pub use sequence::{row_of, LayerView, SequenceTrace};

#[cfg(test)]
mod tests;
