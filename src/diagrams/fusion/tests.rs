//! The fusion markup read back natively: the numbers it writes are the
//! trace's, the hooks the tests rely on are where they should be, and user
//! text stays text.

use super::markup::{fusion, fusion_svg, FusionSpec};
use ndarray::{array, Array2};
use std::collections::HashMap;

/// Every element's tag and attributes, in document order. The writer escapes
/// every value, so a `"` always ends one.
fn elements(markup: &str) -> Vec<(String, HashMap<String, String>)> {
    markup
        .split('<')
        .filter(|tag| !tag.starts_with('/') && !tag.is_empty())
        .filter_map(|tag| {
            let inside = tag.split('>').next()?.trim_end_matches('/');
            let (name, mut rest) = inside.split_once(' ').unwrap_or((inside, ""));
            let mut attrs = HashMap::new();
            while let Some((key, after)) = rest.split_once("=\"") {
                let (value, tail) = after.split_once('"')?;
                attrs.insert(key.trim().to_string(), value.to_string());
                rest = tail;
            }
            Some((name.to_string(), attrs))
        })
        .collect()
}

fn number(attrs: &HashMap<String, String>, key: &str) -> f64 {
    attrs[key].parse().unwrap()
}

struct Example {
    labels: Vec<String>,
    v: Array2<f64>,
    weights: Array2<f64>,
    allowed: Array2<bool>,
    output: Array2<f64>,
}

/// Three tokens, the last one masked for the first query.
fn example() -> Example {
    let weights = array![[0.6, 0.4, 0.0], [0.2, 0.3, 0.5], [0.1, 0.1, 0.8]];
    let v = array![[0.31, -1.0], [-0.52, 0.25], [0.8, 1.0 / 3.0]];
    Example {
        labels: vec![
            "<img src=x onerror=alert(1)>".into(),
            "a&b".into(),
            "c".into(),
        ],
        output: weights.dot(&v),
        allowed: array![[true, true, false], [true, true, true], [true, true, true]],
        v,
        weights,
    }
}

fn spec(e: &Example, query: usize, component: Option<usize>) -> FusionSpec<'_> {
    FusionSpec {
        labels: &e.labels,
        v: &e.v,
        weights: &e.weights,
        allowed: &e.allowed,
        output: &e.output,
        query,
        query_name: (query, e.labels.get(query).map_or("", String::as_str)),
        component,
        aria: "fusion",
        masked_word: "masked",
        legend_title: "Token colours:",
        tick_note: "The tick is the total.",
        stacked: false,
    }
}

#[test]
fn stacked_the_same_numbers_and_hooks_are_drawn_in_a_narrower_picture() {
    let e = example();
    let beside = fusion_svg(&spec(&e, 1, Some(0)));
    let stacked = fusion_svg(&FusionSpec {
        stacked: true,
        ..spec(&e, 1, Some(0))
    });
    let numbers = |svg: &str| -> Vec<String> {
        let mut found: Vec<String> = svg
            .split("class=\"cell-value\"")
            .skip(1)
            .filter_map(|rest| rest.split('>').nth(1)?.split('<').next().map(str::to_owned))
            .collect();
        found.sort();
        found
    };
    assert_eq!(numbers(&stacked), numbers(&beside));
    assert_eq!(
        stacked.matches("data-hit=").count(),
        beside.matches("data-hit=").count()
    );
    let width = |svg: &str| -> f64 {
        let at = svg.find(" width=\"").map_or(0, |i| i + 8);
        svg[at..]
            .split('"')
            .next()
            .and_then(|w| w.parse().ok())
            .unwrap_or(f64::NAN)
    };
    assert!(
        width(&stacked) < 0.8 * width(&beside),
        "{} vs {}",
        width(&stacked),
        width(&beside)
    );
}

#[test]
fn segments_are_the_terms_and_add_up_to_the_totals() {
    let e = example();
    for i in 0..3 {
        let all = elements(&fusion_svg(&spec(&e, i, None)));
        let with_both: Vec<_> = all
            .iter()
            .filter(|(_, a)| a.contains_key("data-row") && a.contains_key("data-col"))
            .collect();
        assert_eq!(with_both.len(), 6, "only the segments carry row and column");
        let mut sums = [0.0; 2];
        for (tag, a) in with_both {
            assert_eq!((tag.as_str(), a["class"].as_str()), ("rect", "segment"));
            let (j, c): (usize, usize) = (
                a["data-row"].parse().unwrap(),
                a["data-col"].parse().unwrap(),
            );
            assert_eq!(number(a, "data-value"), e.weights[[i, j]] * e.v[[j, c]]);
            sums[c] += number(a, "data-value");
        }
        let totals: Vec<_> = all
            .iter()
            .filter(|(_, a)| a.get("data-testid").map(String::as_str) == Some("fusion-total"))
            .collect();
        assert_eq!(totals.len(), 2);
        for (_, a) in totals {
            let c: usize = a["data-col"].parse().unwrap();
            assert_eq!(number(a, "data-value"), e.output[[i, c]]);
            assert!(
                (sums[c] - e.output[[i, c]]).abs() < 1e-12,
                "column {c} of query {i}"
            );
        }
    }
}

#[test]
fn connectors_carry_the_weights_and_masked_keys_are_marked() {
    let e = example();
    let all = elements(&fusion_svg(&spec(&e, 0, None)));
    let connectors: Vec<_> = all.iter().filter(|(tag, _)| tag == "path").collect();
    assert_eq!(connectors.len(), 3);
    for (j, (_, a)) in connectors.iter().enumerate() {
        assert!(a["class"].starts_with("connector"));
        assert_eq!(a["data-row"], j.to_string());
        assert_eq!(number(a, "data-weight"), e.weights[[0, j]]);
        let masked = j == 2;
        assert_eq!(
            a.get("data-masked").map(String::as_str),
            masked.then_some("true")
        );
        assert_eq!(a["class"].contains("masked"), masked);
    }
    let unmasked = elements(&fusion_svg(&spec(&e, 1, None)));
    assert!(unmasked.iter().all(|(_, a)| !a.contains_key("data-masked")));
}

#[test]
fn every_component_is_a_target_and_the_chosen_one_is_lit() {
    let e = example();
    let all = elements(&fusion_svg(&spec(&e, 1, Some(1))));
    let (svg, root) = &all[0];
    assert_eq!(
        (svg.as_str(), root["data-testid"].as_str()),
        ("svg", "fusion")
    );
    assert_eq!(
        (root["role"].as_str(), root["aria-label"].as_str()),
        ("group", "fusion")
    );
    let hits: Vec<_> = all
        .iter()
        .filter(|(_, a)| a.contains_key("data-hit"))
        .collect();
    assert_eq!(hits.len(), 4, "two output cells and two bar columns");
    let columns: Vec<_> = hits
        .iter()
        .filter(|(_, a)| a.contains_key("tabindex"))
        .collect();
    assert_eq!(columns.len(), 2, "the bar columns take focus");
    for (c, (_, a)) in columns.iter().enumerate() {
        assert_eq!(a["data-hit"], format!("0,{c}"));
        assert_eq!(a["class"].contains("lit"), c == 1);
    }
    // Column 1 of V and of B_i is lit: three value cells and one output cell.
    let lit = all
        .iter()
        .filter(|(_, a)| a.get("class").map(String::as_str) == Some("cell lit"));
    assert_eq!(lit.count(), 4);
}

#[test]
fn labels_stay_text_in_the_diagram_and_the_legend() {
    let e = example();
    let markup = fusion(&spec(&e, 0, None));
    assert!(!markup.contains("<img"), "{markup}");
    // Each label is written as a row label, in both components' tooltips and
    // in the legend; the selected query's also in B_i's caption, in both
    // columns' names and in their toolbar's.
    assert_eq!(
        markup.matches("&lt;img src=x onerror=alert(1)&gt;").count(),
        8
    );
    assert_eq!(markup.matches("a&amp;b").count(), 4);
    let legend = markup.split_once("</svg></div>").map(|(_, l)| l);
    let items = elements(legend.unwrap());
    assert_eq!(items.iter().filter(|(tag, _)| tag == "li").count(), 3);
}

#[test]
fn a_query_out_of_range_draws_without_panicking() {
    let e = example();
    let all = elements(&fusion_svg(&spec(&e, 7, Some(9))));
    assert!(all.iter().any(|(tag, _)| tag == "svg"));
}
