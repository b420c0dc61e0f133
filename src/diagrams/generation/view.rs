//! What the generation card shows, computed by the core: the caches, the
//! step, its check against the whole causal pass and the work counted with
//! and without the cache. `markup.rs` only writes it.

use attention_core::generate::{causal_difference, Generation, Step, Work};
use attention_core::positions::Positions;
use attention_core::Scenario;
use ndarray::Array2;

/// What the card shows after step `t` of one sequence.
#[derive(Clone, Debug, PartialEq)]
pub struct GenerationView {
    pub labels: Vec<String>,
    /// The step shown, from 0; the caches hold t + 1 rows.
    pub t: usize,
    /// T, one step per token.
    pub steps: usize,
    /// The head whose cache and weights are shown.
    pub head: usize,
    /// Every token's key and value, T rows: the first t + 1 are the caches.
    /// The card writes the rows not yet cached too, hidden, so that each
    /// step's markup has the same shape and is patched in place.
    pub keys: Array2<f64>,
    pub values: Array2<f64>,
    pub step: Step,
    /// The largest difference between this step's output row and row t of
    /// the whole causal pass.
    pub difference: f64,
    /// The multiply-adds of all T steps.
    pub total: Work,
    /// Whether the scenario itself is causal (generation is, regardless).
    pub causal: bool,
    /// Whether RoPE turned the cached keys and the query.
    pub rope: bool,
    /// How many heads the layer has.
    pub heads: usize,
}

impl GenerationView {
    /// Sequence `sequence` of `s` generated step by step, showing step `t`
    /// (clamped to the last) and head `head`; `None` if the core cannot run
    /// it. Every step runs, so the caches hold the rows written hidden too.
    pub fn new(s: &Scenario, sequence: usize, head: usize, t: usize) -> Option<Self> {
        let mut generation = Generation::new(s, sequence).ok()?;
        let steps = generation.steps();
        let t = t.min(steps.saturating_sub(1));
        // Every step, for the rows written hidden; a step that overflows
        // ends the generation, and the card only if it is at or before t.
        let mut step = None;
        while let Some(Ok(next)) = generation.step() {
            if next.position == t {
                step = Some(next);
            }
        }
        let step = step?;
        let head = head.min(step.heads.len().saturating_sub(1));
        let (keys, values) = generation.cache(head)?;
        let difference = causal_difference(s, sequence, &step).ok()?;
        Some(GenerationView {
            labels: crate::lab::token_labels(s),
            t,
            steps,
            head,
            keys: keys.to_owned(),
            values: values.to_owned(),
            total: generation.sizes().total_work(steps),
            step,
            difference,
            causal: s.options.causal,
            rope: s.options.positions == Positions::Rope,
            heads: s.heads,
        })
    }
}
