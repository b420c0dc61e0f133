use super::*;
use crate::geometry::format::two_decimals;
use crate::lab::token_labels;
use attention_core::presets;

fn sentence(scale: bool, causal: bool) -> SequenceTrace {
    let mut scenario = presets::sentence();
    scenario.options.scale = scale;
    scenario.options.causal = causal;
    let trace = scenario
        .run()
        .expect("the lesson's sentence runs")
        .into_head(0);
    SequenceTrace::new(&trace, 0, token_labels(&scenario))
}

/// The numbers a formula prints, in order, read back from its `<mn>` elements.
fn numbers(math: &str) -> Vec<String> {
    math.split("<mn>")
        .skip(1)
        .filter_map(|rest| rest.split_once("</mn>").map(|(n, _)| n.to_owned()))
        .collect()
}

const AT: Selection = Selection { query: 0, key: 1 };

#[test]
fn every_step_writes_mathml_or_a_note_and_lets_screen_readers_read_the_numbers() {
    let t = sentence(true, false);
    for step in Step::ALL {
        for lang in [Lang::Zh, Lang::En] {
            let formulas = step_formulas(step, &t, AT, lang);
            assert!(!formulas.is_empty(), "{step:?}");
            for f in formulas {
                let math = (f.starts_with("<math display=\"block\">") && f.ends_with("</math>"))
                    || (f.starts_with("<div class=\"math-line\"><math>")
                        && f.ends_with("</math></div>"));
                let note = f.starts_with("<p class=\"formula-note\">") && f.ends_with("</p>");
                assert!(math || note, "{f}");
            }
        }
    }
}

#[test]
fn the_scaling_step_shows_the_traces_raw_and_scaled_score() {
    let t = sentence(true, false);
    let f = &step_formulas(Step::Scaling, &t, AT, Lang::En)[0];
    let shown = numbers(f);
    let raw = two_decimals(t.scores[(0, 1)]);
    let root = two_decimals((t.d_k() as f64).sqrt());
    assert!(f.contains("<mi>α</mi><mn>12</mn>"), "{f}");
    assert!(shown.contains(&raw), "{shown:?}");
    assert!(shown.contains(&root), "{shown:?} lacks √d_k = {root}");
    assert_eq!(shown.last(), Some(&two_decimals(t.scaled[(0, 1)])));
}

#[test]
fn without_scaling_the_score_is_the_dot_product() {
    let t = sentence(false, false);
    let formulas = step_formulas(Step::Scaling, &t, AT, Lang::Zh);
    assert!(formulas[0].contains(text::SCALING_OFF.zh));
    assert_eq!(
        numbers(&formulas[1]).last(),
        Some(&two_decimals(t.scores[(0, 1)]))
    );
}

#[test]
fn the_dot_product_writes_every_term_and_the_traces_total() {
    let t = sentence(true, false);
    let f = &step_formulas(Step::Scores, &t, AT, Lang::En)[0];
    assert_eq!(f.matches("<mo>×</mo>").count(), t.d_k());
    assert_eq!(numbers(f).last(), Some(&two_decimals(t.scores[(0, 1)])));
}

#[test]
fn softmax_shows_the_weight_and_a_row_that_sums_to_one() {
    let t = sentence(true, false);
    let formulas = step_formulas(Step::Softmax, &t, AT, Lang::En);
    assert_eq!(
        numbers(&formulas[0]).last(),
        Some(&two_decimals(t.weights[(0, 1)]))
    );
    let row: Vec<String> = t.weights.row(0).iter().map(|w| two_decimals(*w)).collect();
    let shown = numbers(&formulas[1]);
    assert!(
        shown.windows(row.len()).any(|w| w == row.as_slice()),
        "{shown:?}"
    );
    assert_eq!(shown.last().map(String::as_str), Some("1.00"));
}

#[test]
fn fusion_elides_long_sums_and_ends_with_the_output_row() {
    let t = sentence(true, false);
    let lines = step_formulas(Step::Fusion, &t, Selection { query: 2, key: 0 }, Lang::En);
    let weights: Vec<String> = t.weights.row(2).iter().map(|v| two_decimals(*v)).collect();
    assert!(weights.iter().all(|w| numbers(&lines[0]).contains(w)));
    let out: Vec<String> = t.output.row(2).iter().map(|v| two_decimals(*v)).collect();
    assert!(numbers(&lines[1]).ends_with(&out));
    assert_eq!(shown_terms(4), vec![Some(0), Some(1), Some(2), Some(3)]);
    assert_eq!(
        shown_terms(9),
        vec![Some(0), Some(1), Some(2), Some(3), None, Some(8)]
    );
}

#[test]
fn masking_names_the_masked_keys_and_shows_their_zero_weights() {
    let open = sentence(true, false);
    let formulas = step_formulas(Step::Masking, &open, AT, Lang::En);
    assert!(formulas[1].contains(text::NO_MASK.en));
    let causal = sentence(true, true);
    let formulas = step_formulas(Step::Masking, &causal, AT, Lang::En);
    for later in ["喜欢", "打", "篮球"] {
        assert!(formulas[1].contains(later), "{later} is masked for 我");
    }
    let shown = numbers(&formulas[1]);
    assert_eq!(shown, ["1", "1.00", "0.00", "0.00", "0.00"]);
    assert_eq!(causal.weights[(0, 1)], 0.0);
}

#[test]
fn learning_counts_the_heads_parameters() {
    let t = sentence(true, false);
    let f = &step_formulas(Step::Learning, &t, AT, Lang::En)[2];
    let count = (3 * t.w_q.len()).to_string();
    assert_eq!(numbers(f).last(), Some(&count));
}

#[test]
fn a_query_with_every_key_masked_is_explained() {
    let mut scenario = presets::sentence();
    scenario.mask = Some(ndarray::Array2::from_elem((1, 4), false));
    let trace = scenario
        .run()
        .expect("a fully masked row is allowed")
        .into_head(0);
    let t = SequenceTrace::new(&trace, 0, token_labels(&scenario));
    let formulas = step_formulas(Step::Masking, &t, AT, Lang::En);
    assert!(formulas[1].contains(text::ALL_MASKED.en));
    assert!(t.weights.iter().all(|&w| w == 0.0));
}
