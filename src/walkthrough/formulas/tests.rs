use super::*;
use crate::geometry::format::two_decimals;
use crate::lab::{token_labels, LayerView};

/// What a step reads, without a block.
fn plain<'a>(trace: &'a SequenceTrace, layer: Option<&'a LayerView>) -> Shown<'a> {
    Shown {
        trace,
        layer,
        block: None,
    }
}
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
            let formulas = step_formulas(step, plain(&t, None), AT, lang);
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
    let f = &step_formulas(Step::Scaling, plain(&t, None), AT, Lang::En)[0];
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
    let formulas = step_formulas(Step::Scaling, plain(&t, None), AT, Lang::Zh);
    assert!(formulas[0].contains(text::SCALING_OFF.zh));
    assert_eq!(
        numbers(&formulas[1]).last(),
        Some(&two_decimals(t.scores[(0, 1)]))
    );
}

#[test]
fn the_dot_product_writes_every_term_and_the_traces_total() {
    let t = sentence(true, false);
    let f = &step_formulas(Step::Scores, plain(&t, None), AT, Lang::En)[0];
    assert_eq!(f.matches("<mo>×</mo>").count(), t.d_k());
    assert_eq!(numbers(f).last(), Some(&two_decimals(t.scores[(0, 1)])));
}

#[test]
fn softmax_shows_the_weight_and_a_row_that_sums_to_one() {
    let t = sentence(true, false);
    let formulas = step_formulas(Step::Softmax, plain(&t, None), AT, Lang::En);
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
    let lines = step_formulas(
        Step::Fusion,
        plain(&t, None),
        Selection { query: 2, key: 0 },
        Lang::En,
    );
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
    let formulas = step_formulas(Step::Masking, plain(&open, None), AT, Lang::En);
    assert!(formulas[1].contains(text::NO_MASK.en));
    let causal = sentence(true, true);
    let formulas = step_formulas(Step::Masking, plain(&causal, None), AT, Lang::En);
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
    let f = &step_formulas(Step::Learning, plain(&t, None), AT, Lang::En)[2];
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
    let formulas = step_formulas(Step::Masking, plain(&t, None), AT, Lang::En);
    assert!(formulas[1].contains(text::ALL_MASKED.en));
    assert!(t.weights.iter().all(|&w| w == 0.0));
}

/// The two-head scenario: head 1 as the four diagrams show it, and the layer.
fn two_heads() -> (SequenceTrace, LayerView) {
    let scenario = presets::pronoun_heads();
    let layer = scenario.run().expect("two heads run");
    let view = LayerView::new(&layer, 0);
    let head = SequenceTrace::new(&layer.heads[0], 0, token_labels(&scenario));
    (head, view)
}

#[test]
fn the_heads_step_splits_d_k_and_shows_every_heads_row() {
    let (t, layer) = two_heads();
    let at = Selection { query: 2, key: 0 };
    let lines = step_formulas(Step::Heads, plain(&t, Some(&layer)), at, Lang::En);
    assert_eq!(lines.len(), 3, "the split, then one line per head");
    assert!(
        numbers(&lines[0]).ends_with(&["6".into(), "2".into(), "3".into()]),
        "d_k = 6 / 2 = 3"
    );
    // Split from the model's width, as PyTorch does, not from itself.
    assert!(
        lines[0].contains("model"),
        "d_k = d_model / h: {}",
        lines[0]
    );
    for (n, weights) in layer.weights.iter().enumerate() {
        let row: Vec<String> = weights.row(2).iter().map(|w| two_decimals(*w)).collect();
        assert!(numbers(&lines[n + 1]).ends_with(&row), "head {}", n + 1);
    }
    // One head: a sentence saying so, in either language.
    let one = step_formulas(
        Step::Heads,
        Shown {
            trace: &sentence(true, false),
            layer: None,
            block: None,
        },
        at,
        Lang::Zh,
    );
    assert!(
        one.last().is_some_and(|l| l.contains("只有一个头")),
        "{one:?}"
    );
}

#[test]
fn the_output_step_works_out_concat_times_w_o() {
    let (t, mut layer) = two_heads();
    // A W_O that mixes: output column 1 adds concat columns 1 and 4.
    let mut w_o = ndarray::Array2::<f64>::eye(6);
    w_o[[3, 0]] = 2.0;
    let concat = layer.concat.clone();
    layer.output = concat.dot(&w_o);
    layer.w_o = Some(w_o);
    let at = Selection { query: 1, key: 0 };
    let lines = step_formulas(Step::Output, plain(&t, Some(&layer)), at, Lang::En);
    assert_eq!(lines.len(), 4);
    let joined: Vec<String> = concat.row(1).iter().map(|v| two_decimals(*v)).collect();
    assert!(numbers(&lines[1]).ends_with(&joined));
    let worked = numbers(&lines[2]);
    assert_eq!(worked.last(), Some(&two_decimals(layer.output[[1, 0]])));
    let result: Vec<String> = layer
        .output
        .row(1)
        .iter()
        .map(|v| two_decimals(*v))
        .collect();
    assert!(numbers(&lines[3]).ends_with(&result));
    // Without W_O the output is the joined heads, and a note says so.
    layer.w_o = None;
    let lines = step_formulas(Step::Output, plain(&t, Some(&layer)), at, Lang::Zh);
    assert!(lines.last().is_some_and(|l| l.contains("没有 W_O")));
}

#[test]
fn the_learning_step_counts_every_heads_weights_and_w_o() {
    let (t, layer) = two_heads();
    let lines = step_formulas(Step::Learning, plain(&t, Some(&layer)), AT, Lang::En);
    // 6 × 6 × 3 for W_Q, W_K, W_V of both heads, and 36 for W_O.
    assert_eq!(numbers(&lines[2]), ["6", "6", "3", "36", "144"]);
}

/// Token i's trace under `positions`, causal as generation is.
fn positioned(positions: attention_core::positions::Positions) -> SequenceTrace {
    let mut scenario = presets::sentence();
    scenario.options.causal = true;
    crate::lab::set_positions(&mut scenario, positions, 1).expect("positions");
    let trace = scenario.run().expect("runs").into_head(0);
    SequenceTrace::new(&trace, 0, token_labels(&scenario))
}

#[test]
fn the_positions_step_shows_what_the_projections_took_or_the_turn() {
    use attention_core::positions::Positions;
    let added = positioned(Positions::Sinusoidal);
    let at = Selection { query: 2, key: 0 };
    let f = step_formulas(Step::Positions, plain(&added, None), at, Lang::En);
    let shown = numbers(&f[0]);
    let row: Vec<String> = added.x.row(2).iter().map(|&v| two_decimals(v)).collect();
    assert_eq!(shown[shown.len() - 4..], row, "X + P's row, as projected");
    // Both rows counted from 1, as the tokens are: X₃ + P₃.
    let third = |name: &str| format!("<msub><mi>{name}</mi><mn>3</mn></msub>");
    assert!(
        f[0].contains(&third("X")) && f[0].contains(&third("P")),
        "{}",
        f[0]
    );
    let turned = positioned(Positions::Rope);
    let f = step_formulas(Step::Positions, plain(&turned, None), at, Lang::En);
    let (before, after) = turned
        .unrotated
        .as_ref()
        .map(|(q, _)| q)
        .zip(Some(&turned.q))
        .expect("rope");
    let first = numbers(&f[0]);
    assert!(
        first.contains(&two_decimals(before[[2, 0]]))
            && first.contains(&two_decimals(after[[2, 1]])),
        "{first:?}"
    );
    let none = step_formulas(
        Step::Positions,
        Shown {
            trace: &sentence(true, false),
            layer: None,
            block: None,
        },
        at,
        Lang::Zh,
    );
    assert!(none[1].contains(text::NO_POSITIONS.zh));
}

#[test]
fn the_generation_step_shows_the_cached_keys_weights_and_the_cores_work() {
    let t = positioned(attention_core::positions::Positions::None);
    let at = Selection { query: 2, key: 0 };
    let f = step_formulas(Step::Generation, plain(&t, None), at, Lang::En);
    let weights: Vec<String> = t
        .weights
        .row(2)
        .iter()
        .take(3)
        .map(|&v| two_decimals(v))
        .collect();
    let shown = numbers(&f[0]);
    assert_eq!(shown[shown.len() - 3..], weights, "keys 1 to 3 only");
    let sizes = attention_core::generate::Sizes {
        d: 4,
        d_k: 4,
        d_v: 4,
        heads: 1,
        d_out: None,
    };
    let work = sizes.step_work(2);
    assert!(
        f[1].contains(&format!(
            "{} with the cache, {} without",
            work.cached, work.uncached
        )),
        "{}",
        f[1]
    );
    assert_eq!(f.len(), 2, "causal: no reminder");
    let open = step_formulas(
        Step::Generation,
        Shown {
            trace: &sentence(true, false),
            layer: None,
            block: None,
        },
        at,
        Lang::En,
    );
    assert!(open[2].contains(text::NOT_CAUSAL.en));
}

#[test]
fn the_block_steps_write_the_shown_layers_numbers_or_say_there_is_no_block() {
    let s = attention_core::presets::block();
    let trace = s.run_block().expect("runs").expect("a block");
    let labels = token_labels(&s);
    let block = s.block.as_ref().expect("a block");
    let b = crate::lab::BlockView::new(block, &trace, 1, 0, labels).expect("layer 2");
    let t = sentence(true, false);
    let at = Selection { query: 2, key: 0 };
    let shown = Shown {
        trace: &t,
        layer: None,
        block: Some(&b),
    };
    let written = |step| step_formulas(step, shown, at, Lang::En).concat();
    let has_row = |text: &str, m: &ndarray::Array2<f64>| {
        m.row(2)
            .iter()
            .all(|&v| text.contains(&crate::geometry::format::rounded(v, 2)))
    };
    let residual = written(Step::Residual);
    assert!(
        has_row(&residual, &b.input) && has_row(&residual, &b.sum_1),
        "{residual}"
    );
    let norm = written(Step::LayerNorm);
    assert!(
        norm.contains(&crate::geometry::format::rounded(b.norm_1.mean[2], 2)),
        "{norm}"
    );
    assert!(has_row(&norm, &b.norm_1.output));
    let ffn = written(Step::FeedForward);
    assert!(has_row(&ffn, &b.hidden) && has_row(&ffn, &b.ffn), "{ffn}");
    let stacking = written(Step::Stacking);
    assert!(
        has_row(&stacking, &b.output) && stacking.contains("(2)"),
        "{stacking}"
    );
    let none = Shown {
        block: None,
        ..shown
    };
    let said = step_formulas(Step::Residual, none, at, Lang::Zh).concat();
    assert!(said.contains("没有 Transformer 块"), "{said}");
}
