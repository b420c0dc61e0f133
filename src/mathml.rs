//! A small writer for MathML, which browsers lay out natively: formulas need
//! no script, font or request. Built on [`Markup`], so every text is escaped.
//! Numbers are printed like everywhere else in the app ([`two_decimals`]).

use crate::geometry::format::two_decimals;
use crate::svg::Markup;

/// One formula under construction: a `<math display="block">` element, or,
/// for a long one, a line of inline `<math>` pieces that wraps like text.
pub struct Math {
    m: Markup,
    wrapping: bool,
    /// Links opened so far: the first is the formula's one tab stop.
    links: usize,
}

impl Math {
    /// Starts a formula. Screen readers read MathML itself, numbers included,
    /// so a `label` is only for a formula that also works as a control: a
    /// group of links (a `math` role would make its links presentational),
    /// one tab stop whose links the arrows walk (`action::rove`).
    pub fn new(label: Option<&str>) -> Self {
        let mut m = Markup::new();
        match label {
            Some(label) => m
                .start("math")
                .attr("display", "block")
                .attr("role", "group")
                .attr("data-rove", "")
                .attr("aria-label", label)
                .end(),
            None => m.open("math", &[("display", "block")]),
        };
        Self {
            m,
            wrapping: false,
            links: 0,
        }
    }

    /// Starts a long formula, such as a sum written out term by term: a
    /// line of inline `<math>` pieces, which may wrap between pieces (at
    /// each [`Math::wrap`]) on a narrow screen rather than run off its edge.
    pub fn wrapping() -> Self {
        let mut m = Markup::new();
        m.open("div", &[("class", "math-line")]).open("math", &[]);
        Self {
            m,
            wrapping: true,
            links: 0,
        }
    }

    /// Where a wrapping formula may break its line. Only at the top level of
    /// the formula: a piece must be whole MathML.
    pub fn wrap(&mut self) -> &mut Self {
        if self.wrapping {
            self.m.close("math");
            self.m.text(" ");
            self.m.open("math", &[]);
        }
        self
    }

    /// An identifier such as `Q` or `d`.
    pub fn mi(&mut self, name: &str) -> &mut Self {
        self.m.element("mi", &[], name);
        self
    }

    /// An operator such as `=`, `+` or `·`.
    pub fn mo(&mut self, op: &str) -> &mut Self {
        self.m.element("mo", &[], op);
        self
    }

    /// A number to two decimals.
    pub fn mn(&mut self, value: f64) -> &mut Self {
        self.m.element("mn", &[], &two_decimals(value));
        self
    }

    /// A number as given, such as a count or an index.
    pub fn count(&mut self, text: &str) -> &mut Self {
        self.m.element("mn", &[], text);
        self
    }

    /// A factor of a product: a negative number goes in parentheses.
    pub fn factor(&mut self, value: f64) -> &mut Self {
        if value < 0.0 && two_decimals(value) != "0.00" {
            self.mo("(").mn(value).mo(")")
        } else {
            self.mn(value)
        }
    }

    /// A gap, such as between a number and the words after it.
    pub fn space(&mut self) -> &mut Self {
        self.m.empty("mspace", &[("width", "0.4em")]);
        self
    }

    /// Words inside a formula.
    pub fn text(&mut self, words: &str) -> &mut Self {
        self.m.element("mtext", &[], words);
        self
    }

    /// `name` with a subscript, as in `Q₁` or `α′₁₂`.
    pub fn sub(&mut self, name: &str, index: &str) -> &mut Self {
        self.m.open("msub", &[]);
        self.mi(name).count(index);
        self.m.close("msub");
        self
    }

    /// Opens a layout element (`mrow`, `mfrac`, `msqrt`, `msup`, `msub`,
    /// `munder`); each of its children is one element, so group with `mrow`.
    pub fn open(&mut self, tag: &str) -> &mut Self {
        self.m.open(tag, &[]);
        self
    }

    /// Opens an `mrow` that is a link for its card's listener: focusable,
    /// naming its action and index (see `crate::action`). Its name is what
    /// it shows (a name that left out the visible symbols would fail WCAG
    /// 2.5.3, speech users say what they see); `title` says where it leads.
    pub fn open_link(&mut self, action: &str, index: usize, title: &str) -> &mut Self {
        let index = index.to_string();
        let stop = if self.links == 0 { "0" } else { "-1" };
        self.links += 1;
        self.m
            .start("mrow")
            .attr("class", "formula-link")
            .attr("data-action", action)
            .attr("data-index", &index)
            .attr("tabindex", stop)
            .attr("role", "link")
            .attr("title", title)
            .end();
        self
    }

    /// Closes the innermost open `tag`.
    pub fn close(&mut self, tag: &str) -> &mut Self {
        self.m.close(tag);
        self
    }

    /// A row vector `[a, b, …]` to two decimals; a wrapping formula may
    /// break the line after any comma.
    pub fn vector(&mut self, values: &[f64]) -> &mut Self {
        self.mo("[");
        for (n, value) in values.iter().enumerate() {
            if n > 0 {
                self.mo(",").wrap();
            }
            self.mn(*value);
        }
        self.mo("]")
    }

    /// The finished `<math>` element (or line of them).
    pub fn finish(mut self) -> String {
        self.m.close("math");
        if self.wrapping {
            self.m.close("div");
        }
        self.m.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrapping_formula_is_inline_pieces_that_break_only_where_asked() {
        let mut f = Math::wrapping();
        f.mi("a").mo("=").wrap().mn(1.0).mo("+").wrap().mn(2.0);
        assert_eq!(
            f.finish(),
            "<div class=\"math-line\"><math><mi>a</mi><mo>=</mo></math> \
             <math><mn>1.00</mn><mo>+</mo></math> <math><mn>2.00</mn></math></div>"
        );
        let mut block = Math::new(None);
        block.mi("a").wrap().mi("b");
        assert_eq!(
            block.finish(),
            "<math display=\"block\"><mi>a</mi><mi>b</mi></math>"
        );
    }

    #[test]
    fn a_scaled_score_is_nested_mathml_with_escaped_text() {
        let mut f = Math::new(Some("a<b"));
        f.sub("α", "12")
            .mo("=")
            .open("mfrac")
            .mn(1.7349)
            .open("msqrt")
            .count("8")
            .close("msqrt")
            .close("mfrac")
            .mo("=")
            .factor(-0.613)
            .text("<x>");
        assert_eq!(
            f.finish(),
            "<math display=\"block\" role=\"group\" data-rove=\"\" aria-label=\"a&lt;b\"><msub><mi>α</mi><mn>12</mn></msub>\
             <mo>=</mo><mfrac><mn>1.73</mn><msqrt><mn>8</mn></msqrt></mfrac><mo>=</mo>\
             <mo>(</mo><mn>\u{2212}0.61</mn><mo>)</mo><mtext>&lt;x&gt;</mtext></math>"
        );
    }

    #[test]
    fn vectors_list_their_values_and_only_true_negatives_get_parentheses() {
        let mut f = Math::new(None);
        f.vector(&[0.5, -0.25]).factor(-0.001);
        let text = f.finish();
        assert!(text.starts_with("<math display=\"block\"><mo>[</mo>"));
        assert!(text.contains("<mo>[</mo><mn>0.50</mn><mo>,</mo><mn>\u{2212}0.25</mn><mo>]</mo>"));
        assert!(text.ends_with("<mn>0.00</mn></math>"), "{text}");
    }
}
