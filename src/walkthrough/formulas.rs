//! Each step's formula with the numbers on screen substituted, as MathML.
//! Every number is read from the trace the core computed; nothing here does
//! attention arithmetic beyond adding up a row that is already there.

use super::steps::Step;
use crate::i18n::{walkthrough as text, Lang};
use crate::lab::{row_of, BlockView, LayerView, NormView, SequenceTrace};
use crate::mathml::Math;
use crate::svg::Markup;

/// Most terms of a sum written out before the middle is elided as `…`.
const MAX_TERMS: usize = 6;

/// The selection a formula is about: query i and key j, 0-based.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Selection {
    pub query: usize,
    pub key: usize,
}

/// A 1-based index pair such as `12`, or `1,12` once an index has two digits.
fn pair(i: usize, j: usize) -> String {
    if i < 9 && j < 9 {
        format!("{}{}", i + 1, j + 1)
    } else {
        format!("{},{}", i + 1, j + 1)
    }
}

/// Which of `count` terms are written out: all, or the first few and the
/// last with `None` standing for the elided middle.
fn shown_terms(count: usize) -> Vec<Option<usize>> {
    if count <= MAX_TERMS {
        (0..count).map(Some).collect()
    } else {
        let mut shown: Vec<_> = (0..MAX_TERMS - 2).map(Some).collect();
        shown.push(None);
        shown.push(Some(count - 1));
        shown
    }
}

/// What a step's formulas read: the shown head's sequence, the layer of
/// several heads or with W_O (if any), and the shown layer of a transformer
/// block (if any).
#[derive(Clone, Copy)]
pub struct Shown<'a> {
    pub trace: &'a SequenceTrace,
    pub layer: Option<&'a LayerView>,
    pub block: Option<&'a BlockView>,
}

/// The formulas of `step` for the selection, one `<math>` element per line.
pub fn step_formulas(step: Step, shown: Shown, at: Selection, lang: Lang) -> Vec<String> {
    let Shown {
        trace: t,
        layer,
        block,
    } = shown;
    let (i, j) = (at.query.min(t.len().saturating_sub(1)), at.key);
    let j = j.min(t.len().saturating_sub(1));
    match step {
        Step::Input => {
            let mut shape = Math::wrapping();
            shape.mi("X").mo("∈").open("msup").mi("ℝ").open("mrow");
            shape.count(&t.len().to_string()).mo("×");
            shape
                .count(&t.x.ncols().to_string())
                .close("mrow")
                .close("msup");
            let mut x_i = Math::wrapping();
            x_i.sub("X", &(i + 1).to_string())
                .mo("=")
                .vector(&row_of(&t.x, i));
            vec![shape.finish(), x_i.finish()]
        }
        Step::Projection => [
            ("Q", "W", "Q", &t.q),
            ("K", "W", "K", &t.k),
            ("V", "W", "V", &t.v),
        ]
        .into_iter()
        .map(|(name, w, which, m)| {
            let mut f = Math::wrapping();
            f.sub(name, &(i + 1).to_string()).mo("=");
            f.sub("X", &(i + 1).to_string())
                .sub(w, which)
                .mo("=")
                .wrap()
                .vector(&row_of(m, i));
            f.finish()
        })
        .collect(),
        Step::Scores => vec![dot_product(t, i, j)],
        Step::Scaling => scaling(t, i, j, lang),
        Step::Softmax => softmax(t, i, j),
        Step::Fusion => fusion(t, i),
        Step::Masking => masking(t, i, lang),
        Step::Learning => learning(t, layer, lang),
        Step::Heads => heads(t, layer, i, lang),
        Step::Output => output(t, layer, i, lang),
        Step::Positions => positions(t, i, lang),
        Step::Generation => generation(t, layer, i, lang),
        Step::Residual | Step::LayerNorm | Step::FeedForward | Step::Stacking => match block {
            Some(b) => block_step(step, b, i.min(b.len().saturating_sub(1))),
            None => vec![note(text::NO_BLOCK.get(lang))],
        },
    }
}

/// A block's step for token i: the sums, a LayerNorm, the feed-forward
/// network, or the layer's place in the stack.
fn block_step(step: Step, b: &BlockView, i: usize) -> Vec<String> {
    let n = (i + 1).to_string();
    let row = |m: &ndarray::Array2<f64>| row_of(m, i);
    // y = a + b, with both addends and the sum written out.
    let sum = |name: &str,
               a: (&str, &ndarray::Array2<f64>),
               b: (&str, &ndarray::Array2<f64>),
               total: &ndarray::Array2<f64>| {
        let mut f = Math::wrapping();
        f.sub(name, &n).mo("=").mi(a.0).mo("+").mi(b.0).mo("=");
        f.wrap().vector(&row(a.1)).mo("+").vector(&row(b.1));
        f.wrap().mo("=").vector(&row(total));
        f.finish()
    };
    match step {
        Step::Residual => {
            let (second_input, second_name) = if b.norm_first {
                (&b.sum_1, "h")
            } else {
                (&b.norm_1.output, "h")
            };
            vec![
                sum("h", ("x", &b.input), ("MHA(x)", &b.attention), &b.sum_1),
                sum("y", (second_name, second_input), ("FFN", &b.ffn), &b.sum_2),
            ]
        }
        Step::LayerNorm => norm_lines(&b.norm_1, "1", i),
        Step::FeedForward => {
            let mut hidden = Math::wrapping();
            hidden
                .sub("H", &n)
                .mo("=")
                .mi("x")
                .sub("W", "1")
                .mo("+")
                .sub("b", "1")
                .mo("=");
            hidden.wrap().vector(&row(&b.hidden));
            let mut act = Math::wrapping();
            act.mi(b.activation.id())
                .mo("(")
                .sub("H", &n)
                .mo(")")
                .mo("=");
            act.wrap().vector(&row(&b.activated));
            let mut out = Math::wrapping();
            out.sub("FFN", &n)
                .mo("=")
                .mi("act(H)")
                .sub("W", "2")
                .mo("+")
                .sub("b", "2")
                .mo("=");
            out.wrap().vector(&row(&b.ffn));
            vec![hidden.finish(), act.finish(), out.finish()]
        }
        _ => {
            let (l, count) = ((b.layer + 1).to_string(), b.layers.to_string());
            let mut input = Math::wrapping();
            input
                .open("msup")
                .mi("x")
                .mi(&format!("({l})"))
                .close("msup");
            input
                .mo("=")
                .open("msup")
                .mi("y")
                .mi(&format!("({})", b.layer))
                .close("msup");
            input.mo("=").vector(&row(&b.input));
            let mut output = Math::wrapping();
            output
                .open("msup")
                .mi("y")
                .mi(&format!("({l})"))
                .close("msup");
            output
                .mo("=")
                .mi("Block")
                .sub("", &l)
                .mo("(")
                .open("msup")
                .mi("x")
                .mi(&format!("({l})"))
                .close("msup")
                .mo(")");
            output.mo("=").vector(&row(&b.output));
            let mut of = Math::wrapping();
            of.mi("L").mo("=").count(&count);
            vec![of.finish(), input.finish(), output.finish()]
        }
    }
}

/// A LayerNorm of token i: its mean, its σ and its output.
fn norm_lines(norm: &NormView, which: &str, i: usize) -> Vec<String> {
    let n = (i + 1).to_string();
    let mut mean = Math::wrapping();
    mean.sub("μ", &n)
        .mo("=")
        .mn(norm.mean.get(i).copied().unwrap_or(0.0));
    mean.mo(",")
        .wrap()
        .sub("σ", &n)
        .mo("=")
        .mo("√")
        .mo("(")
        .mi("var")
        .mo("+")
        .mi("ε")
        .mo(")");
    mean.wrap()
        .mo("=")
        .mn(norm.std.get(i).copied().unwrap_or(1.0));
    let mut normalised = Math::wrapping();
    normalised
        .mo("(")
        .mi("x")
        .mo("−")
        .sub("μ", &n)
        .mo(")")
        .mo("/")
        .sub("σ", &n)
        .mo("=");
    normalised.wrap().vector(&row_of(&norm.normalised, i));
    let mut out = Math::wrapping();
    out.sub("LN", which)
        .mo("(")
        .sub("x", &n)
        .mo(")")
        .mo("=")
        .mi("…")
        .mo("·")
        .mi("γ")
        .mo("+")
        .mi("β")
        .mo("=");
    out.wrap().vector(&row_of(&norm.output, i));
    vec![mean.finish(), normalised.finish(), out.finish()]
}

/// What positions did to token i: `X_i + P_i` (the row the
/// projections took), or q_i's first pair turned by RoPE, or nothing.
fn positions(t: &SequenceTrace, i: usize, lang: Lang) -> Vec<String> {
    let index = (i + 1).to_string();
    if t.adds_positions() {
        let mut f = Math::wrapping();
        // Rows counted from 1, as the tokens are: P₁ is the first position's row.
        f.sub("X", &index).mo("+").sub("P", &index).mo("=");
        f.wrap().vector(&row_of(&t.x, i));
        return vec![f.finish()];
    }
    let Some((q, _)) = t.unrotated.as_ref() else {
        // The token's row alone, wherever it stands.
        let mut f = Math::wrapping();
        f.sub("X", &index).mo("=").vector(&row_of(&t.x, i));
        return vec![f.finish(), note(text::NO_POSITIONS.get(lang))];
    };
    // The first pair turns by i·θ₀ = i radians (θ₀ = 10000⁰ = 1).
    let (before, after) = (row_of(q, i), row_of(&t.q, i));
    let mut f = Math::wrapping();
    f.mo("(")
        .sub("q", &format!("{index},1"))
        .mo(",")
        .sub("q", &format!("{index},2"))
        .mo(")");
    f.mo("=")
        .mo("(")
        .mn(before[0])
        .mo(",")
        .mn(before[1])
        .mo(")");
    f.wrap()
        .mo("↻")
        .mi("φ")
        .mo("=")
        .count(&i.to_string())
        .mo("·")
        .sub("θ", "0");
    f.mo("⇒").mo("(").mn(after[0]).mo(",").mn(after[1]).mo(")");
    let mut whole = Math::wrapping();
    whole.sub("q̃", &index).mo("=").vector(&after);
    vec![f.finish(), whole.finish()]
}

/// Step i of generation: query i's weights over the cached keys 1 … i, and
/// the work of the step with the cache and without it (counted by the core).
fn generation(t: &SequenceTrace, layer: Option<&LayerView>, i: usize, lang: Lang) -> Vec<String> {
    let index = (i + 1).to_string();
    let weights = row_of(&t.weights, i);
    let mut f = Math::wrapping();
    f.sub("α′", &index).mo("=").mi("softmax").mo("(");
    f.sub("q", &index).mo("·").mo("[");
    f.sub("k", "1").mo("…").sub("k", &index).mo("]");
    f.mo("/").open("msqrt").sub("d", "k").close("msqrt").mo(")");
    // Keys 1 … i: the cache at step i (a query out of range has no row).
    let cached = weights.get(..=i).unwrap_or(&weights);
    f.wrap().mo("=").vector(cached);
    let sizes = attention_core::generate::Sizes {
        d: t.w_q.nrows(),
        d_k: t.d_k(),
        d_v: t.v.ncols(),
        heads: layer.map_or(1, LayerView::heads),
        d_out: layer.and_then(|l| l.w_o.as_ref()).map(|w| w.ncols()),
    };
    let work = sizes.step_work(i);
    let count = text::CACHED_WORK
        .get(lang)
        .replace("{cached}", &work.cached.to_string())
        .replace("{uncached}", &work.uncached.to_string());
    let mut lines = vec![f.finish(), note(&count)];
    let causal = (0..t.len()).all(|j| j <= i || !t.allowed[[i, j]]);
    if !causal {
        lines.push(note(text::NOT_CAUSAL.get(lang)));
    }
    lines
}

/// `Q_i·K_j = q₁×k₁ + … = raw`.
fn dot_product(t: &SequenceTrace, i: usize, j: usize) -> String {
    let mut f = Math::wrapping();
    f.sub("Q", &(i + 1).to_string())
        .mo("·")
        .sub("K", &(j + 1).to_string())
        .mo("=");
    products(&mut f, &row_of(&t.q, i), &row_of(&t.k, j));
    f.wrap()
        .mo("=")
        .mn(t.scores.get((i, j)).copied().unwrap_or(0.0));
    f.finish()
}

/// `a₁×b₁ + a₂×b₂ + …`, the middle elided past [`MAX_TERMS`] terms.
fn products(f: &mut Math, a: &[f64], b: &[f64]) {
    for (n, term) in shown_terms(a.len().min(b.len())).into_iter().enumerate() {
        f.wrap();
        if n > 0 {
            f.mo("+");
        }
        match term {
            Some(c) => f.factor(a[c]).mo("×").factor(b[c]),
            None => f.mo("…"),
        };
    }
}

/// `α_ij = Q_i·K_j / √d_k = raw / √d_k = scaled`, or the unscaled score.
fn scaling(t: &SequenceTrace, i: usize, j: usize, lang: Lang) -> Vec<String> {
    let raw = t.scores.get((i, j)).copied().unwrap_or(0.0);
    let scaled = t.scaled.get((i, j)).copied().unwrap_or(0.0);
    let d_k = t.d_k().to_string();
    let mut f = Math::wrapping();
    f.sub("α", &pair(i, j)).mo("=");
    if t.scale_factor == 1.0 && t.d_k() > 1 {
        f.sub("Q", &(i + 1).to_string())
            .mo("·")
            .sub("K", &(j + 1).to_string());
        f.mo("=").mn(raw);
        return vec![note(text::SCALING_OFF.get(lang)), f.finish()];
    }
    f.open("mfrac").open("mrow");
    f.sub("Q", &(i + 1).to_string())
        .mo("·")
        .sub("K", &(j + 1).to_string());
    f.close("mrow")
        .open("msqrt")
        .sub("d", "k")
        .close("msqrt")
        .close("mfrac");
    f.mo("=")
        .open("mfrac")
        .mn(raw)
        .open("msqrt")
        .count(&d_k)
        .close("msqrt")
        .close("mfrac");
    f.mo("=")
        .open("mfrac")
        .mn(raw)
        .mn(1.0 / t.scale_factor)
        .close("mfrac");
    f.mo("=").mn(scaled);
    vec![f.finish()]
}

/// `α′_ij = e^{α_ij} / Σ_k e^{α_ik} = w`, the whole row, and its sum.
fn softmax(t: &SequenceTrace, i: usize, j: usize) -> Vec<String> {
    let weights = row_of(&t.weights, i);
    let mut one = Math::wrapping();
    one.sub("α′", &pair(i, j)).mo("=").open("mfrac");
    one.open("msup").mi("e").sub("α", &pair(i, j)).close("msup");
    one.open("mrow")
        .open("munder")
        .mo("∑")
        .mi("k")
        .close("munder");
    one.open("msup")
        .mi("e")
        .sub("α", &format!("{}k", i + 1))
        .close("msup");
    one.close("mrow").close("mfrac");
    one.mo("=").mn(weights.get(j).copied().unwrap_or(0.0));
    let mut all = Math::wrapping();
    all.sub("α′", &(i + 1).to_string()).mo("=").vector(&weights);
    all.mo(",").open("munder").mo("∑").mi("j").close("munder");
    all.sub("α′", &format!("{}j", i + 1))
        .mo("=")
        .mn(weights.iter().sum());
    vec![one.finish(), all.finish()]
}

/// `B_i = Σ_j α′_ij V_j = w₁·V₁ + …`, then `B_i = [the output row]`: two
/// lines, so the result is not scrolled out of sight.
fn fusion(t: &SequenceTrace, i: usize) -> Vec<String> {
    let weights = row_of(&t.weights, i);
    let b_i = (i + 1).to_string();
    let mut f = Math::wrapping();
    f.sub("B", &b_i)
        .mo("=")
        .open("munder")
        .mo("∑")
        .mi("j")
        .close("munder");
    f.sub("α′", &format!("{b_i}j")).sub("V", "j").mo("=");
    for (n, term) in shown_terms(weights.len()).into_iter().enumerate() {
        f.wrap();
        if n > 0 {
            f.mo("+");
        }
        match term {
            Some(c) => f.mn(weights[c]).mo("·").sub("V", &(c + 1).to_string()),
            None => f.mo("…"),
        };
    }
    let mut result = Math::wrapping();
    result.sub("B", &b_i).mo("=").vector(&row_of(&t.output, i));
    vec![f.finish(), result.finish()]
}

/// A sentence beside the formulas, as HTML so it wraps.
fn note(sentence: &str) -> String {
    let mut m = Markup::new();
    m.element("p", &[("class", "formula-note")], sentence);
    m.finish()
}

/// What the mask does to query i's row: masked keys listed, their weights 0.
fn masking(t: &SequenceTrace, i: usize, lang: Lang) -> Vec<String> {
    let mut rule = Math::wrapping();
    rule.sub("α", "ij")
        .mo("=")
        .mo("−∞")
        .mo("⇒")
        .sub("α′", "ij")
        .mo("=");
    rule.open("mfrac")
        .open("msup")
        .mi("e")
        .mo("−∞")
        .close("msup");
    rule.open("mrow")
        .mo("∑")
        .mo("…")
        .close("mrow")
        .close("mfrac")
        .mo("=")
        .count("0");
    let masked: Vec<usize> = (0..t.len())
        .filter(|&j| t.allowed.get((i, j)) == Some(&false))
        .collect();
    if masked.is_empty() {
        return vec![rule.finish(), note(text::NO_MASK.get(lang))];
    }
    if masked.len() == t.len() {
        return vec![rule.finish(), note(text::ALL_MASKED.get(lang))];
    }
    let mut live = Math::wrapping();
    live.text(text::MASKED_KEYS.get(lang)).mo(":");
    for (n, &j) in masked.iter().enumerate() {
        if n > 0 {
            live.mo(",");
        }
        live.text(t.labels.get(j).map_or("", String::as_str));
    }
    live.mo("⇒")
        .sub("α′", &(i + 1).to_string())
        .mo("=")
        .vector(&row_of(&t.weights, i));
    vec![rule.finish(), live.finish()]
}

/// The update rule, and how many numbers training would set in the layer:
/// W_Q, W_K and W_V of every head (and W_O).
fn learning(t: &SequenceTrace, layer: Option<&LayerView>, lang: Lang) -> Vec<String> {
    let mut rule = Math::wrapping();
    rule.mi("W").mo("←").mi("W").mo("−").mi("η").open("mfrac");
    rule.open("mrow").mo("∂").mi("L").close("mrow");
    rule.open("mrow")
        .mo("∂")
        .mi("W")
        .close("mrow")
        .close("mfrac");
    let heads = layer.map_or(1, LayerView::heads);
    let columns = t.w_q.ncols() * heads;
    let w_o = layer.and_then(|l| l.w_o.as_ref()).map_or(0, |w| w.len());
    let count = 3 * t.w_q.nrows() * columns + w_o;
    let mut size = Math::wrapping();
    size.count(&t.w_q.nrows().to_string())
        .mo("×")
        .count(&columns.to_string());
    size.mo("×").count("3");
    if w_o > 0 {
        size.mo("+").count(&w_o.to_string());
    }
    size.mo("=").count(&count.to_string());
    size.wrap().text(text::PARAMETERS.get(lang));
    vec![
        rule.finish(),
        note(text::LEARNING_RULE.get(lang)),
        size.finish(),
    ]
}

/// `d_k = d_model / h` (or, with d_k set apart, `h·d_k`), then query i's row
/// of weights in every head.
fn heads(t: &SequenceTrace, layer: Option<&LayerView>, i: usize, lang: Lang) -> Vec<String> {
    let Some(layer) = layer.filter(|l| l.heads() > 1) else {
        let mut one = Math::wrapping();
        one.mi("h").mo("=").count("1").mo(",");
        one.sub("head", "1").mo("=").mi("B");
        return vec![one.finish(), note(text::ONE_HEAD.get(lang))];
    };
    let (h, d_k, d_model) = (layer.heads(), t.d_k(), t.x.ncols());
    let mut split = Math::wrapping();
    if d_model == h * d_k {
        // As PyTorch splits the model's width: d_k = d_model / h.
        split.sub("d", "k").mo("=").open("mfrac");
        split.sub("d", "model").mi("h").close("mfrac");
        split.mo("=").open("mfrac");
        split
            .count(&d_model.to_string())
            .count(&h.to_string())
            .close("mfrac");
        split.mo("=").count(&d_k.to_string());
    } else {
        // The d_k slider moved off d_model / h: the heads' columns side by side.
        split.mi("h").mo("·").sub("d", "k").mo("=");
        split.count(&h.to_string()).mo("·").count(&d_k.to_string());
        split.mo("=").count(&(h * d_k).to_string());
    }
    let mut lines = vec![split.finish()];
    for (n, weights) in layer.weights.iter().enumerate() {
        let mut row = Math::wrapping();
        row.sub("head", &(n + 1).to_string()).mo(":");
        row.sub("α′", &(i + 1).to_string())
            .mo("=")
            .vector(&row_of(weights, i));
        lines.push(row.finish());
    }
    lines
}

/// `MultiHead(Q, K, V) = Concat(head₁, …, head_h)·W_O`, query i's row of
/// the concatenation, one entry of the output worked out, and the output row.
fn output(t: &SequenceTrace, layer: Option<&LayerView>, i: usize, lang: Lang) -> Vec<String> {
    let mut general = Math::wrapping();
    general
        .mi("MultiHead")
        .mo("(")
        .mi("Q")
        .mo(",")
        .mi("K")
        .mo(",");
    general.mi("V").mo(")").mo("=").wrap().mi("Concat").mo("(");
    general
        .sub("head", "1")
        .mo(",")
        .mo("…")
        .mo(",")
        .sub("head", "h");
    general.mo(")").wrap().mo("·").sub("W", "O");
    let n = (i + 1).to_string();
    let (concat, w_o, output) = match layer {
        Some(l) => (row_of(&l.concat, i), l.w_o.as_ref(), row_of(&l.output, i)),
        None => (row_of(&t.output, i), None, row_of(&t.output, i)),
    };
    let mut joined = Math::wrapping();
    joined.sub("Concat", &n).mo("=").vector(&concat);
    let Some(w_o) = w_o else {
        let sentence = note(text::NO_OUTPUT_PROJECTION.get(lang));
        return vec![general.finish(), joined.finish(), sentence];
    };
    let mut first = Math::wrapping();
    first.sub("MultiHead", &format!("{n},1")).mo("=");
    first.sub("Concat", &n).mo("·").sub("W", "O[:, 1]").mo("=");
    products(&mut first, &concat, &w_o.column(0).to_vec());
    first
        .wrap()
        .mo("=")
        .mn(output.first().copied().unwrap_or(0.0));
    let mut result = Math::wrapping();
    result.sub("MultiHead", &n).mo("=").vector(&output);
    vec![
        general.finish(),
        joined.finish(),
        first.finish(),
        result.finish(),
    ]
}

#[cfg(test)]
mod tests;
