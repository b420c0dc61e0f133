//! The `<iframe>` snippet a teacher pastes into a course page: the page's
//! current link (so the figure shows what is on screen now) with `embed=1`,
//! the chosen `panels=` and maybe `lock=1`, and the one script line that
//! sizes the frame (`examples/embed.js`, shipped in `dist/`).

use crate::link::{pairs_without, EMBEDDING};
use crate::svg::escape;

/// The embed code for the page at `href`, showing `panels` (none: the four
/// diagrams), read-only when `lock`.
pub fn embed_code(href: &str, panels: &[&str], lock: bool, title: &str) -> String {
    let without_hash = href.split('#').next().unwrap_or(href);
    let (page, query) = without_hash.split_once('?').unwrap_or((without_hash, ""));
    // The snippet sets the embedding: any the page's link already has is replaced.
    let mut params: Vec<String> = pairs_without(query, &EMBEDDING)
        .map(str::to_owned)
        .collect();
    params.push("embed=1".into());
    if !panels.is_empty() {
        params.push(format!("panels={}", panels.join(",")));
    }
    if lock {
        params.push("lock=1".into());
    }
    let folder = page.rsplit_once('/').map_or(page, |(folder, _)| folder);
    let src = format!("{page}?{}", params.join("&"));
    format!(
        "<iframe src=\"{}\" title=\"{}\" style=\"width: 100%; height: 480px; border: 0\" loading=\"lazy\"></iframe>\n<script src=\"{}\"></script>",
        escape(&src),
        escape(title),
        escape(&format!("{folder}/examples/embed.js"))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_code_keeps_the_state_and_sets_the_embedding() {
        let code = embed_code(
            "https://example.edu/nlp/attention/index.html?s=1|x&embed=1&lock=1&q=2#top",
            &["softmax", "fusion"],
            true,
            "Attention \"lab\"",
        );
        assert_eq!(
            code,
            "<iframe src=\"https://example.edu/nlp/attention/index.html?s=1|x&amp;q=2&amp;embed=1&amp;panels=softmax,fusion&amp;lock=1\" \
             title=\"Attention &quot;lab&quot;\" style=\"width: 100%; height: 480px; border: 0\" loading=\"lazy\"></iframe>\n\
             <script src=\"https://example.edu/nlp/attention/examples/embed.js\"></script>"
        );
    }

    #[test]
    fn a_page_without_parameters_gets_only_the_embedding() {
        let code = embed_code("http://127.0.0.1:8080/", &[], false, "t");
        assert!(
            code.starts_with("<iframe src=\"http://127.0.0.1:8080/?embed=1\""),
            "{code}"
        );
        assert!(code.ends_with("<script src=\"http://127.0.0.1:8080/examples/embed.js\"></script>"));
    }
}
