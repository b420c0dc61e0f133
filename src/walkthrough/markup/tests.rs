use super::*;
use crate::geometry::format::two_decimals;
use crate::lab::token_labels;
use crate::walkthrough::predict::most_attended;
use attention_core::presets;

fn sentence() -> SequenceTrace {
    let scenario = presets::sentence();
    let trace = scenario
        .run()
        .expect("the lesson's sentence runs")
        .into_head(0);
    SequenceTrace::new(&trace, 0, token_labels(&scenario))
}

fn tour(step: Option<Step>, trace: &SequenceTrace, guess: Option<usize>) -> String {
    body(&TourView {
        step,
        lang: Lang::En,
        trace: Some(trace),
        layer: None,
        block: None,
        at: Selection { query: 0, key: 1 },
        guess,
    })
}

#[test]
fn every_part_of_the_general_formula_links_to_a_step() {
    let f = general_formula(Lang::Zh);
    for step in [
        Step::Projection,
        Step::Scores,
        Step::Scaling,
        Step::Softmax,
        Step::Fusion,
    ] {
        assert!(
            f.contains(&format!(
                "data-action=\"step\" data-index=\"{}\"",
                step.index()
            )),
            "{step:?}"
        );
    }
}

#[test]
fn previous_and_next_exist_only_while_the_walkthrough_runs() {
    let t = sentence();
    let free = tour(None, &t, None);
    assert!(free.contains("data-testid=\"walkthrough-toggle\" aria-pressed=\"false\""));
    assert!(!free.contains("step-next"));
    let running = tour(Some(Step::Input), &t, None);
    assert!(running.contains("data-testid=\"walkthrough-toggle\" aria-pressed=\"true\""));
    assert!(running.contains("data-action=\"step-prev\" data-testid=\"step-prev\""));
    assert!(running.contains("data-action=\"step-next\" data-testid=\"step-next\""));
    assert!(!running.contains("step-finish"));
    let last = tour(Some(Step::Stacking), &t, None);
    assert!(last.contains("data-action=\"step-finish\" data-testid=\"step-finish\""));
    assert!(!last.contains("step-next"));
}

#[test]
fn free_explore_shows_the_memory_aids_and_no_step() {
    let t = sentence();
    let page = tour(None, &t, None);
    assert!(page.contains(text::MNEMONIC.en) && page.contains(text::ANALOGY.en));
    assert!(!page.contains("data-testid=\"step\""));
}

#[test]
fn a_step_shows_its_text_code_formulas_and_indicator() {
    let t = sentence();
    let page = tour(Some(Step::Scaling), &t, None);
    assert!(page.contains(Step::Scaling.explanation().en));
    assert!(page.contains("Step 4 of 16"));
    assert!(page.contains("math.sqrt(d_k)"));
    assert!(page.contains("data-testid=\"step-formulas\""));
    assert_eq!(page.matches("class=\"current\"").count(), 1);
}

#[test]
fn softmax_weights_stay_hidden_until_the_learner_guesses() {
    let t = sentence();
    let before = tour(Some(Step::Softmax), &t, None);
    assert!(before.contains("data-testid=\"prediction\""));
    assert!(
        !before.contains("step-formulas"),
        "the weights would give the answer away"
    );
    assert!(!before.contains("prediction-result"));
    let best = most_attended(&t, 0).expect("a row has a largest weight");
    let wrong = (best + 1) % t.len();
    let after = tour(Some(Step::Softmax), &t, Some(wrong));
    assert!(after.contains("step-formulas"));
    assert!(after.contains("Not quite"));
    assert!(after.contains(&two_decimals(t.weights[(0, best)])));
    let right = tour(Some(Step::Softmax), &t, Some(best));
    assert!(right.contains("Right:"));
}

#[test]
fn the_most_attended_key_is_the_rows_largest_weight() {
    let t = sentence();
    for i in 0..t.len() {
        let best = most_attended(&t, i).expect("non-empty row");
        assert!(t.weights.row(i).iter().all(|&w| w <= t.weights[(i, best)]));
    }
    assert_eq!(most_attended(&t, 99), None);
}

#[test]
fn the_layer_norm_step_asks_for_a_guess_before_its_numbers() {
    let s = attention_core::presets::block();
    let trace = s.run_block().expect("runs").expect("a block");
    let block = s.block.as_ref().expect("a block");
    let b = crate::lab::BlockView::new(block, &trace, 0, 0, token_labels(&s)).expect("layer 1");
    let t = sentence();
    let page = |guess| {
        body(&TourView {
            step: Some(Step::LayerNorm),
            lang: Lang::En,
            trace: Some(&t),
            layer: None,
            block: Some(&b),
            at: Selection { query: 1, key: 0 },
            guess,
        })
    };
    let before = page(None);
    assert_eq!(before.matches("data-testid=\"guess\"").count(), 4);
    assert!(before.contains("喜欢"));
    assert!(
        !before.contains("step-formulas"),
        "the numbers wait for the guess"
    );
    let right = page(Some(1));
    assert!(
        right.contains("Right: the normalised row&#39;s standard deviation is 1.00"),
        "{right}"
    );
    assert!(right.contains("step-formulas"));
    let wrong = page(Some(3));
    assert!(wrong.contains("Not quite"));
    // Without a block the step asks nothing and says how to get one.
    let plain = tour(Some(Step::LayerNorm), &t, None);
    assert!(!plain.contains("data-testid=\"guess\"") && plain.contains("step-formulas"));
}
