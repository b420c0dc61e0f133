//! Steps through the walkthrough in both languages and checks that every
//! number its formulas print is one of the core's trace for the page's
//! scenario, and that the key results are the right ones.

use crate::page::LabPage;
use attention_core::presets;
use attention_lab::geometry::format::two_decimals;
use attention_lab::lab::SequenceTrace;
use std::collections::HashSet;
use wasm_bindgen_test::wasm_bindgen_test;

/// Every number the trace can print to two decimals, and √d_k.
fn printable(view: &SequenceTrace) -> HashSet<String> {
    let matrices = [
        &view.x,
        &view.w_q,
        &view.w_k,
        &view.w_v,
        &view.q,
        &view.k,
        &view.v,
        &view.scores,
        &view.scaled,
        &view.weights,
        &view.output,
    ];
    let mut known: HashSet<String> = matrices
        .iter()
        .flat_map(|m| m.iter().map(|v| two_decimals(*v)))
        .collect();
    known.insert(two_decimals((view.d_k() as f64).sqrt()));
    known.extend(
        view.weights
            .rows()
            .into_iter()
            .map(|r| two_decimals(r.sum())),
    );
    known
}

/// Whether `text` is a number printed to two decimals.
fn is_decimal(text: &str) -> bool {
    let digits = text.trim_start_matches('\u{2212}');
    digits.split_once('.').is_some_and(|(int, frac)| {
        !int.is_empty() && int.bytes().all(|b| b.is_ascii_digit()) && frac.len() == 2
    })
}

#[wasm_bindgen_test]
async fn every_step_prints_the_cores_numbers_in_both_languages() {
    let lab = LabPage::mount().await;
    let trace = presets::sentence()
        .run()
        .expect("the default scenario runs")
        .into_head(0);
    let view = SequenceTrace::new(&trace, 0, vec![]);
    let known = printable(&view);
    let mut indicators = Vec::new();
    for _lang in 0..2 {
        lab.click("walkthrough-toggle").await;
        for step in 0..16 {
            if step >= 12 {
                // The default scenario has no transformer block: the block's
                // steps say how to get one, in either language.
                let said = lab.texts("[data-testid=step-formulas]").concat();
                assert!(said.contains("Transformer"), "step {step}: {said}");
                indicators.extend(lab.texts("[data-testid=step-indicator]"));
                if step < 15 {
                    lab.click("step-next").await;
                }
                continue;
            }
            if step == 4 {
                // The softmax step shows its numbers once the learner has guessed.
                assert!(lab.texts("[data-testid=step-formulas]").is_empty());
                lab.click_nth("guess", 1).await;
            }
            let numbers = lab.texts("[data-testid=step-formulas] mn");
            assert!(!numbers.is_empty(), "step {step} prints its numbers");
            for n in numbers.iter().filter(|n| is_decimal(n)) {
                assert!(
                    known.contains(n),
                    "step {step} prints {n}, not in the trace"
                );
            }
            let last = numbers.last().cloned().unwrap_or_default();
            match step {
                2 => assert_eq!(last, two_decimals(view.scores[[0, 0]]), "Q₁·K₁"),
                3 => assert_eq!(last, two_decimals(view.scaled[[0, 0]]), "α₁₁"),
                4 => assert_eq!(last, "1.00", "the row's sum"),
                5 => {
                    let output: Vec<String> = view
                        .output
                        .row(0)
                        .iter()
                        .map(|v| two_decimals(*v))
                        .collect();
                    assert!(numbers.ends_with(&output), "B₁ is the output row");
                }
                _ => {}
            }
            indicators.extend(lab.texts("[data-testid=step-indicator]"));
            assert!(lab.texts("[data-testid=step-finish]").is_empty());
            lab.click("step-next").await;
        }
        // The last step offers Finish instead of a dead Next, and Finish
        // leaves the walkthrough.
        assert!(lab.texts("[data-testid=step-next]").is_empty());
        lab.click("step-finish").await;
        assert!(
            lab.texts("[data-testid=step]").is_empty(),
            "the walkthrough ended"
        );
        lab.click("lang-switch").await;
    }
    // Thirty-two indicators, sixteen per language, all different.
    let distinct: HashSet<_> = indicators.iter().collect();
    assert_eq!(
        (indicators.len(), distinct.len()),
        (32, 32),
        "{indicators:?}"
    );
}

#[wasm_bindgen_test]
fn decimals_are_recognised() {
    assert!(is_decimal("0.50") && is_decimal("\u{2212}1.25") && is_decimal("12.00"));
    assert!(!is_decimal("12") && !is_decimal("1j") && !is_decimal(".5"));
}
