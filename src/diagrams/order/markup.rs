//! The word-order card as HTML: the Shuffle button, both orders of the
//! tokens, what became of the outputs, and each token's output row in both
//! orders. Pure, so tests read it natively.

use super::action::Control;
use crate::geometry::format::fixed;
use crate::i18n::{order as text, Lang, Msg};
use crate::lab::order::{Comparison, SAME};
use crate::lab::LabError;
use crate::page::refusal;
use crate::svg::Markup;
use attention_core::positions::Positions;
use ndarray::ArrayView1;

/// Rows the table lists; the sentence above it counts every token.
const MAX_ROWS: usize = 16;
/// Decimals of each output entry: enough that "equal to the last digit" is
/// a strong claim, and a difference of rounding (below [`SAME`]) shows none.
const DECIMALS: u8 = 10;

/// What the card shows besides the comparison: the scenario's positions and
/// causal mask (which ties outputs to positions by itself), and why the
/// last choice of positions was refused, if it was.
pub struct OrderView<'a> {
    pub positions: Positions,
    pub causal: bool,
    pub notice: Option<&'a LabError>,
}

/// The card's markup for `comparison` (none while the scenario cannot run).
pub fn order_card(comparison: Option<&Comparison>, view: &OrderView, lang: Lang) -> String {
    let mut m = Markup::new();
    // Folded until opened, as the other cards below the diagrams: closed,
    // it costs one tab stop.
    m.open_fold("word-order-fold", "h2", text::ORDER_TITLE.get(lang));
    m.element("p", &[("class", "explain")], text::ORDER_EXPLAIN.get(lang));
    // The lesson's own control: how positions enter the whole page.
    positions_choice(&mut m, Control::Positions.name(), view.positions, lang);
    if let Some(error) = view.notice {
        refusal(&mut m, error, "positions-notice", lang);
    }
    m.element(
        "button",
        &[
            ("data-action", Control::Shuffle.name()),
            ("data-testid", Control::Shuffle.name()),
        ],
        text::SHUFFLE.get(lang),
    );
    let Some(c) = comparison else {
        m.close("details");
        return m.finish();
    };
    let shuffled: Vec<&str> = c.order.iter().map(|&p| c.labels[p].as_str()).collect();
    let yours: Vec<&str> = c.labels.iter().map(String::as_str).collect();
    m.open("div", &[("class", "order-lines")]);
    tokens_line(&mut m, text::YOURS.get(lang), &yours, "order-yours");
    tokens_line(
        &mut m,
        text::SHUFFLED.get(lang),
        &shuffled,
        "order-shuffled",
    );
    m.close("div");
    let changed = c.changed();
    // Without positions, only the causal mask can tie outputs to places.
    let by_mask = view.causal && view.positions == Positions::None;
    let verdict = match (c.labels.len(), changed) {
        (1, _) => text::ONE_TOKEN.get(lang).to_owned(),
        (_, 0) => text::ALL_SAME.get(lang).to_owned(),
        _ if by_mask => format!("{changed}{}", text::MASK_CHANGED.get(lang)),
        _ => format!("{changed}{}", text::SOME_CHANGED.get(lang)),
    };
    let changed_text = changed.to_string();
    m.start("p")
        .attr("class", "order-verdict")
        .attr("data-testid", "order-verdict")
        .attr("data-changed", &changed_text)
        .end()
        .text(&verdict)
        .close("p");
    if view.causal && !by_mask {
        m.element("p", &[("class", "note")], text::CAUSAL_NOTE.get(lang));
    }
    table(&mut m, c, lang);
    if c.labels.len() > MAX_ROWS {
        m.element("p", &[("class", "note")], text::MORE_ROWS.get(lang));
    }
    m.close("details");
    m.finish()
}

/// The choice of how positions enter: none, added to X, or RoPE; a select
/// whose action (and test id) is `action`. The word-order card shows it, and
/// "Input and settings" beside the heads and W_O.
pub fn positions_choice(m: &mut Markup, action: &str, chosen: Positions, lang: Lang) {
    m.open("label", &[("class", "slider")]);
    m.element("span", &[], text::POSITIONS.get(lang));
    m.open(
        "select",
        &[("data-testid", action), ("data-action", action)],
    );
    for (choice, name) in [
        (Positions::None, text::NONE),
        (Positions::Sinusoidal, text::SINUSOIDAL),
        (Positions::Learned, text::LEARNED),
        (Positions::Rope, text::ROPE),
    ] {
        m.option(choice.id(), choice == chosen, name.get(lang));
    }
    m.close("select").close("label");
}

/// A caption and the tokens in one order.
fn tokens_line(m: &mut Markup, caption: &str, tokens: &[&str], testid: &str) {
    m.start("p")
        .attr("class", "order-line")
        .attr("data-testid", testid)
        .end();
    m.element("span", &[("class", "order-caption")], caption);
    for token in tokens {
        m.element("span", &[("class", "chip")], token);
    }
    m.close("p");
}

/// Each token's output row in both orders, and how far apart they are.
fn table(m: &mut Markup, c: &Comparison, lang: Lang) {
    // Its rows may be wider than the screen: a keyboard scrolls it too, and
    // a narrow screen says so (`.scroll-hint`).
    m.element(
        "p",
        &[("class", "scroll-hint")],
        text::SCROLL_HINT.get(lang),
    );
    m.start("div")
        .attr("class", "scroll")
        .attr("tabindex", "0")
        .attr("role", "region")
        .attr("aria-label", text::TABLE_NAME.get(lang))
        .end();
    m.open(
        "table",
        &[("class", "order-table"), ("data-testid", "order-table")],
    );
    m.open("thead", &[]).open("tr", &[]);
    // The verdict before the long rows, so a narrow screen shows it; each
    // token's two rows, in the learner's order and shuffled, one under the
    // other so their digits line up.
    for heading in [text::TOKEN, text::VERDICT, text::WHERE, text::OUTPUT] {
        m.element("th", &[("scope", "col")], heading.get(lang));
    }
    m.close("tr").close("thead").open("tbody", &[]);
    // Where each of the learner's tokens went.
    let mut moved_to = vec![0; c.order.len()];
    for (k, &p) in c.order.iter().enumerate() {
        moved_to[p] = k;
    }
    for (p, label) in c.labels.iter().enumerate().take(MAX_ROWS) {
        let difference = c.differences[p];
        let same = difference <= SAME;
        m.start("tr")
            .attr("data-same", if same { "true" } else { "false" })
            .end();
        m.element("th", &[("scope", "rowgroup"), ("rowspan", "2")], label);
        let verdict = if same {
            text::SAME.get(lang).to_owned()
        } else {
            format!("{}{}", text::DIFFERS.get(lang), fixed(difference, 4))
        };
        m.element(
            "td",
            &[("class", "order-difference"), ("rowspan", "2")],
            &verdict,
        );
        let at = |msg: Msg, position: usize| format!("{}{position}", msg.get(lang));
        m.element("td", &[], &at(text::IN_YOURS, p));
        numbers(m, c.before.row(p));
        m.close("tr").open("tr", &[("class", "order-after")]);
        m.element("td", &[], &at(text::IN_SHUFFLED, moved_to[p]));
        numbers(m, c.after.row(moved_to[p]));
        m.close("tr");
    }
    m.close("tbody").close("table").close("div");
}

/// One output row, to [`DECIMALS`] places.
fn numbers(m: &mut Markup, row: ArrayView1<f64>) {
    let written: Vec<String> = row.iter().map(|&v| fixed(v, DECIMALS)).collect();
    m.element("td", &[("class", "order-row")], &written.join("  "));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::order::{compare, shuffled_order};
    use attention_core::presets::sentence;

    fn plain() -> OrderView<'static> {
        OrderView {
            positions: Positions::None,
            causal: false,
            notice: None,
        }
    }

    #[test]
    fn without_positions_every_row_is_the_same_to_the_last_digit() {
        let s = sentence();
        let order = shuffled_order(4, 1);
        let c = compare(&s, s.run().expect("runs").output.view(), 0, &order).expect("runs");
        let html = order_card(Some(&c), &plain(), Lang::En);
        assert!(html.contains("data-changed=\"0\""), "{html}");
        assert_eq!(html.matches("data-same=\"true\"").count(), 4);
        assert_eq!(html.matches("identical in every digit").count(), 4);
        // Each row shows the core's output, written to ten decimals.
        let first = fixed(c.before[[0, 0]], DECIMALS);
        assert!(html.contains(&first), "{html}");
        let shuffled: Vec<&str> = order.iter().map(|&p| c.labels[p].as_str()).collect();
        let line = shuffled
            .iter()
            .map(|t| format!("<span class=\"chip\">{t}</span>"))
            .collect::<String>();
        assert!(html.contains(&line), "{html}");
        assert!(!html.contains("causal"));
    }

    #[test]
    fn with_the_causal_mask_and_no_positions_the_mask_is_named_as_the_cause() {
        let mut s = sentence();
        s.options.causal = true;
        let c = compare(
            &s,
            s.run().expect("runs").output.view(),
            0,
            &shuffled_order(4, 1),
        )
        .expect("runs");
        assert!(c.changed() > 0, "the mask ties outputs to places");
        let view = OrderView {
            positions: Positions::None,
            causal: true,
            notice: None,
        };
        let html = order_card(Some(&c), &view, Lang::En);
        assert!(html.contains("not through positions"), "{html}");
        assert!(!html.contains(text::SOME_CHANGED.en));
        // Each token's two rows: the learner's order, then shuffled.
        assert!(html.contains("your order, position 0"));
        assert_eq!(html.matches("class=\"order-after\"").count(), 4);
        let mut one = sentence();
        for _ in 0..3 {
            crate::lab::remove_token(&mut one, 1).expect("removes");
        }
        let single = compare(
            &one,
            one.run().expect("runs").output.view(),
            0,
            &shuffled_order(1, 1),
        )
        .expect("runs");
        assert!(order_card(Some(&single), &plain(), Lang::Zh).contains(text::ONE_TOKEN.zh));
    }

    #[test]
    fn a_changed_output_says_by_how_much() {
        let s = sentence();
        let order = shuffled_order(4, 1);
        let mut c = compare(&s, s.run().expect("runs").output.view(), 0, &order).expect("runs");
        c.differences[2] = 0.25;
        let refused = LabError::OddForRope(3);
        let view = OrderView {
            positions: Positions::Rope,
            causal: true,
            notice: Some(&refused),
        };
        let html = order_card(Some(&c), &view, Lang::Zh);
        assert!(
            html.contains("<option value=\"rope\" selected=\"\">"),
            "{html}"
        );
        assert!(html.contains("每个头的 d_k 必须是偶数"), "{html}");
        assert!(html.contains("data-changed=\"1\""), "{html}");
        assert!(html.contains("最多相差 0.2500"), "{html}");
        assert!(html.contains("因果掩码"), "{html}");
        assert!(order_card(None, &plain(), Lang::En).contains("data-action=\"shuffle\""));
    }
}
