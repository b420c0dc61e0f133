//! A small writer for SVG markup. Diagrams are written as text by pure
//! functions and handed to the page in one piece: far less WebAssembly than a
//! reactive node per element, and the same markup serves the SVG export.
//! Every text and attribute value is escaped, so a token such as
//! `<img onerror=…>` stays text.

pub use crate::geometry::format::coord;
use std::fmt::Write;

/// Escapes text for use in XML content and in double-quoted attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    escape_into(&mut out, text);
    out
}

/// [`escape`], appended to `out` without a string of its own.
fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            other => out.push(other),
        }
    }
}

/// Markup under construction.
#[derive(Default)]
pub struct Markup {
    out: String,
}

impl Markup {
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts `<tag`, for attributes written one at a time
    /// ([`Markup::attr`], [`Markup::coord`]) and then [`Markup::end`] or
    /// [`Markup::end_empty`]. Where values are computed this builds no list
    /// of strings first, which costs less WebAssembly than [`Markup::open`].
    pub fn start(&mut self, tag: &str) -> &mut Self {
        self.out.push('<');
        self.out.push_str(tag);
        self
    }

    /// Writes ` name="value"`, the value escaped, after [`Markup::start`].
    pub fn attr(&mut self, name: &str, value: &str) -> &mut Self {
        self.out.push(' ');
        self.out.push_str(name);
        self.out.push_str("=\"");
        escape_into(&mut self.out, value);
        self.out.push('"');
        self
    }

    /// Writes ` name="value"` for a coordinate, as [`coord`] shortens it.
    pub fn coord(&mut self, name: &str, value: f64) -> &mut Self {
        self.attr(name, &coord(value))
    }

    /// Writes a rectangle's `x`, `y`, `width` and `height`, after [`Markup::start`].
    pub fn bounds(&mut self, x: f64, y: f64, width: f64, height: f64) -> &mut Self {
        self.coord("x", x)
            .coord("y", y)
            .coord("width", width)
            .coord("height", height)
    }

    /// Writes an SVG root's `xmlns`, `viewBox`, `width` and `height` for a
    /// drawing of `width` × `height` units, after [`Markup::start`].
    pub fn svg_size(&mut self, width: f64, height: f64) -> &mut Self {
        let (w, h) = (coord(width), coord(height));
        let _ = write!(
            self.out,
            " xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\""
        );
        self
    }

    /// Ends a tag begun with [`Markup::start`]; close it with [`Markup::close`].
    pub fn end(&mut self) -> &mut Self {
        self.out.push('>');
        self
    }

    /// Ends a tag begun with [`Markup::start`] as childless.
    pub fn end_empty(&mut self) -> &mut Self {
        self.out.push_str("/>");
        self
    }

    fn attrs(&mut self, tag: &str, attrs: &[(&str, &str)]) -> &mut Self {
        self.start(tag);
        for (name, value) in attrs {
            self.attr(name, value);
        }
        self
    }

    /// Opens `<tag attrs…>`; close it with [`Markup::close`].
    pub fn open(&mut self, tag: &str, attrs: &[(&str, &str)]) -> &mut Self {
        self.attrs(tag, attrs).end()
    }

    /// Writes a childless `<tag attrs…/>`.
    pub fn empty(&mut self, tag: &str, attrs: &[(&str, &str)]) -> &mut Self {
        self.attrs(tag, attrs).end_empty()
    }

    /// Writes escaped text.
    pub fn text(&mut self, text: &str) -> &mut Self {
        self.out.push_str(&escape(text));
        self
    }

    /// Writes `<tag attrs…>text</tag>`.
    pub fn element(&mut self, tag: &str, attrs: &[(&str, &str)], text: &str) -> &mut Self {
        self.open(tag, attrs).text(text).close(tag)
    }

    /// Writes one `<option>` of a `<select>`: its `value`, `selected` when it
    /// is the one chosen, and the text it shows.
    pub fn option(&mut self, value: &str, selected: bool, text: &str) -> &mut Self {
        let attrs: &[(&str, &str)] = if selected {
            &[("value", value), ("selected", "")]
        } else {
            &[("value", value)]
        };
        self.element("option", attrs, text)
    }

    /// Inserts markup another writer of this crate produced, such as a
    /// [`crate::mathml::Math`] formula: it is already escaped.
    pub fn raw(&mut self, markup: &str) -> &mut Self {
        self.out.push_str(markup);
        self
    }

    /// Opens a part of a card that folds away under its heading (a
    /// `details` whose summary is the heading, a `tag` such as `h2`): what a
    /// learner opens when they want it costs one tab stop until then. Close
    /// it with `close("details")`.
    pub fn open_fold(&mut self, testid: &str, tag: &str, heading: &str) -> &mut Self {
        self.open("details", &[("class", "fold"), ("data-testid", testid)])
            .open("summary", &[])
            .element(tag, &[], heading)
            .close("summary")
    }

    /// Closes the innermost open `tag`.
    pub fn close(&mut self, tag: &str) -> &mut Self {
        let _ = write!(self.out, "</{tag}>");
        self
    }

    pub fn finish(self) -> String {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_nests_and_escapes_everything_it_is_given() {
        let mut m = Markup::new();
        m.open("svg", &[("data-testid", "x")])
            .element("text", &[("x", "1")], "<img src=x onerror=alert(1)>")
            .empty("rect", &[("title", "a\"b'c&d")])
            .close("svg");
        assert_eq!(
            m.finish(),
            "<svg data-testid=\"x\"><text x=\"1\">&lt;img src=x onerror=alert(1)&gt;</text>\
             <rect title=\"a&quot;b&#39;c&amp;d\"/></svg>"
        );
    }

    #[test]
    fn attributes_one_at_a_time_write_what_a_list_does() {
        let mut listed = Markup::new();
        listed.empty("circle", &[("class", "a<b"), ("cx", "1.5")]);
        let mut streamed = Markup::new();
        streamed
            .start("circle")
            .attr("class", "a<b")
            .coord("cx", 1.5)
            .end_empty();
        assert_eq!(streamed.finish(), listed.finish());
        let mut svg = Markup::new();
        svg.start("svg").svg_size(40.0, 12.5).end().close("svg");
        assert_eq!(
            svg.finish(),
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 40 12.5\" \
             width=\"40\" height=\"12.5\"></svg>"
        );
    }

    #[test]
    fn an_option_is_selected_only_when_chosen() {
        let mut m = Markup::new();
        m.option("1", false, "a").option("2", true, "b&c");
        assert_eq!(
            m.finish(),
            "<option value=\"1\">a</option><option value=\"2\" selected=\"\">b&amp;c</option>"
        );
    }

    #[test]
    fn coordinates_are_short() {
        assert_eq!(coord(12.0), "12");
        assert_eq!(coord(1.0 / 3.0), "0.3");
        assert_eq!(coord(-2.25), "-2.2");
        assert_eq!(coord(f64::NAN), "0");
    }
}
