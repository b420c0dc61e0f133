//! Decoding one token at a time with a KV cache, as a language model
//! generates text.
//!
//! Step t (from 0) adds token t. Its row of X (with sinusoidal or learned
//! positions added, `x_t + P_t`) is projected by every head,
//! `q_t = x_t·W_Q`, `k_t = x_t·W_K`, `v_t = x_t·W_V` (RoPE then turns q_t and
//! k_t as at position t); k_t and v_t are appended to that head's cache of
//! keys and values, so each cache grows by one row a step; q_t is scored
//! against the cached keys 0 … t, `α_tj = q_t·k_j/√d_k`, and
//! `out_t = Σ_j softmax(α_t)_j·v_j`; the heads' rows are joined and, with
//! W_O, projected. Nothing already computed is computed again: without the
//! cache, step t would rerun the whole causal pass over the t + 1 tokens so
//! far to get the same last row ([`Sizes::step_work`] counts both).
//!
//! Generation always masks causally, whatever the scenario's `causal` says:
//! token t cannot see tokens not generated yet. A padding mask still
//! applies. Row t of every step equals row t of the causal forward pass
//! ([`crate::forward_heads`]) to rounding (`tests/generation.rs`).

use crate::error::AttentionError;
use crate::kernels::{dot_scores, mix_values, project, scale_factor, softmax_in_place};
use crate::layer::check_layer;
use crate::limits;
use crate::positions::{self, rope_row, Positions};
use crate::scenario::Scenario;
use crate::trace::Head;
use ndarray::{s, Array1, Array2, ArrayView1, ArrayView2, Axis};

/// The sizes that decide how much work a step is: d features, `heads`
/// heads of d_k and d_v columns each, and W_O's d_out columns, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    pub d: usize,
    pub d_k: usize,
    pub d_v: usize,
    pub heads: usize,
    pub d_out: Option<usize>,
}

/// Multiply-adds, with the KV cache and without it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Projecting the new token only and scoring it against the cache.
    pub cached: u64,
    /// Rerunning the whole causal pass over every token so far.
    pub uncached: u64,
}

impl Sizes {
    /// The multiply-adds of step t (from 0), t + 1 tokens in all, with h
    /// heads and `o = h·d_v·d_out` (0 without W_O):
    ///
    /// - cached: `h·(d·(2·d_k + d_v) + (t+1)·d_k + (t+1)·d_v) + o`: one row
    ///   projected to q, k and v, its t + 1 scores, its mix of t + 1 values,
    ///   and one row through W_O;
    /// - uncached: `h·((t+1)·d·(2·d_k + d_v) + (t+1)²·d_k + (t+1)²·d_v) + (t+1)·o`:
    ///   every row projected, every score of the (t+1)×(t+1) square (the
    ///   mask zeroes the later ones after they are computed, as the forward
    ///   pass does), every row mixed, and every row through W_O.
    ///
    /// Only the products are counted: positions, scaling and the softmax are
    /// a few operations per entry, on one row with the cache and on every
    /// row without it.
    ///
    /// ```
    /// use attention_core::generate::Sizes;
    ///
    /// let sizes = Sizes { d: 4, d_k: 4, d_v: 4, heads: 1, d_out: None };
    /// // Step 0: one token either way.
    /// assert_eq!(sizes.step_work(0).cached, sizes.step_work(0).uncached);
    /// // Step 3: 4·12 + 4·4 + 4·4 = 80 with the cache; 4·48 + 16·4 + 16·4 = 320 without.
    /// let work = sizes.step_work(3);
    /// assert_eq!((work.cached, work.uncached), (80, 320));
    /// ```
    pub fn step_work(self, t: usize) -> Work {
        let n = t as u64 + 1;
        let [project, per_key, o] = self.parts();
        Work {
            cached: project + n * per_key + o,
            uncached: n * project + n * n * per_key + n * o,
        }
    }

    /// The multiply-adds of `steps` steps, `Σ_{t<T} step_work(t)` with
    /// T = `steps`, in closed form with `Σ n = T(T+1)/2` and
    /// `Σ n² = T(T+1)(2T+1)/6` over n = t + 1 = 1 … T:
    ///
    /// - cached: `T·h·d·(2·d_k + d_v) + T(T+1)/2·h·(d_k + d_v) + T·o`;
    /// - uncached: `T(T+1)/2·(h·d·(2·d_k + d_v) + o) + T(T+1)(2T+1)/6·h·(d_k + d_v)`.
    ///
    /// The cache turns the cubic term into a square one.
    ///
    /// ```
    /// use attention_core::generate::Sizes;
    ///
    /// let sizes = Sizes { d: 4, d_k: 2, d_v: 2, heads: 2, d_out: Some(3) };
    /// let total = sizes.total_work(5);
    /// let summed: u64 = (0..5).map(|t| sizes.step_work(t).uncached).sum();
    /// assert_eq!(total.uncached, summed);
    /// assert!(total.cached < total.uncached);
    /// ```
    pub fn total_work(self, steps: usize) -> Work {
        let big_t = steps as u64;
        let [project, per_key, o] = self.parts();
        let sum_n = big_t * (big_t + 1) / 2;
        let sum_n2 = big_t * (big_t + 1) * (2 * big_t + 1) / 6;
        Work {
            cached: big_t * project + sum_n * per_key + big_t * o,
            uncached: sum_n * (project + o) + sum_n2 * per_key,
        }
    }

    /// The three terms of the counts, in 64 bits (the totals pass 2³² at
    /// the limits, and the wasm's usize has 32): `h·d·(2·d_k + d_v)` to
    /// project one row in every head, `h·(d_k + d_v)` to score one query
    /// against one key and mix in its value, and `o = h·d_v·d_out` to take
    /// one row through W_O.
    fn parts(self) -> [u64; 3] {
        let [d, d_k, d_v, h] = [self.d, self.d_k, self.d_v, self.heads].map(|s| s as u64);
        let d_out = self.d_out.map_or(0, |d_out| d_out as u64);
        [h * d * (2 * d_k + d_v), h * (d_k + d_v), h * d_v * d_out]
    }
}

/// What one head did in one step.
#[derive(Clone, Debug, PartialEq)]
pub struct HeadStep {
    /// q_t = x_t·W_Q (turned as at position t with RoPE), d_k.
    pub q: Array1<f64>,
    /// k_t, the row this step appended to the head's key cache, d_k.
    pub k: Array1<f64>,
    /// v_t, the row this step appended to the head's value cache, d_v.
    pub v: Array1<f64>,
    /// With RoPE, q_t and k_t before their turn; None otherwise.
    pub q_unrotated: Option<Array1<f64>>,
    pub k_unrotated: Option<Array1<f64>>,
    /// q_t·k_j for the cached keys j = 0 … t.
    pub scores: Array1<f64>,
    /// The scores times 1/√d_k (or 1 with scaling off).
    pub scaled: Array1<f64>,
    /// softmax of the scaled scores over the real cached keys, t + 1 weights;
    /// exactly 0 for padding.
    pub weights: Array1<f64>,
    /// `Σ_j weights_j·v_j`, d_v.
    pub output: Array1<f64>,
}

/// Everything one step computed, for the page to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// t, the position of the token this step added, from 0; the caches now
    /// hold t + 1 rows.
    pub position: usize,
    /// Row t of X as projected: with sinusoidal or learned positions, `x_t + P_t`.
    pub x: Array1<f64>,
    /// Each head's part, in order.
    pub heads: Vec<HeadStep>,
    /// The heads' output rows side by side, h·d_v.
    pub concat: Array1<f64>,
    /// The layer's output row: `concat·W_O`, or `concat` without W_O.
    pub output: Array1<f64>,
    /// This step's multiply-adds with and without the cache.
    pub work: Work,
}

/// Step-by-step decoding of one sequence of a scenario, holding each head's
/// KV cache; an iterator of [`Step`]s, one per token.
///
/// ```
/// use attention_core::generate::Generation;
/// use attention_core::presets::sentence;
///
/// let mut scenario = sentence();
/// scenario.options.causal = true;
/// let full = scenario.run().unwrap();
/// let mut generation = Generation::new(&scenario, 0).unwrap();
/// let first = generation.step().unwrap().unwrap();
/// assert_eq!(first.heads[0].weights.to_vec(), vec![1.0]);
/// let second = generation.step().unwrap().unwrap();
/// assert_eq!(generation.cache(0).unwrap().0.nrows(), 2);
/// assert!((second.output[1] - full.output[[0, 1, 1]]).abs() < 1e-12);
/// ```
#[derive(Clone, Debug)]
pub struct Generation {
    /// The sequence as projected, T×d (positions added, if they are).
    x: Array2<f64>,
    /// Each head's columns of the weights.
    heads: Vec<Head>,
    w_o: Option<Array2<f64>>,
    key_is_real: Vec<bool>,
    rope: bool,
    factor: f64,
    sizes: Sizes,
    /// Each head's keys and values, T rows made room for at the start; the
    /// first `next` rows are the cache.
    keys: Vec<Array2<f64>>,
    values: Vec<Array2<f64>>,
    /// The position the next step adds.
    next: usize,
}

impl Generation {
    /// Prepares to decode sequence `sequence` (from 0) of `scenario`, checked
    /// as [`Scenario::run`] checks it. The caches start empty.
    pub fn new(scenario: &Scenario, sequence: usize) -> Result<Self, AttentionError> {
        let x = scenario.x.view();
        let (batch, t, _) = x.dim();
        let heads = scenario.heads;
        let mask = scenario.mask.as_ref().map(|m| m.view());
        let added = check_layer(
            x,
            &scenario.head,
            heads,
            scenario.w_o.as_ref().map(|w| w.view()),
            mask,
            scenario.p.as_ref().map(|p| p.view()),
            scenario.options,
        )?;
        limits::check_range("sequence", "the index", sequence, 0, batch - 1)?;
        let x = x.slice(s![sequence..=sequence, .., ..]);
        let x = added
            .map_or_else(|| x.to_owned(), |added| positions::plus(x, &added))
            .index_axis_move(Axis(0), 0);
        let parts: Vec<Head> = (0..heads).map(|i| scenario.head.part(i, heads)).collect();
        // The layer's checks found 1 or more heads that split the columns evenly.
        let (d_k, d_v) = (
            scenario.head.w_q.ncols() / heads,
            scenario.head.w_v.ncols() / heads,
        );
        let sizes = Sizes {
            d: x.ncols(),
            d_k,
            d_v,
            heads,
            d_out: scenario.w_o.as_ref().map(Array2::ncols),
        };
        Ok(Self {
            x,
            keys: vec![Array2::zeros((t, d_k)); heads],
            values: vec![Array2::zeros((t, d_v)); heads],
            heads: parts,
            w_o: scenario.w_o.clone(),
            key_is_real: mask.map_or_else(|| vec![true; t], |m| m.row(sequence).to_vec()),
            rope: scenario.options.positions == Positions::Rope,
            factor: scale_factor(d_k, scenario.options.scale),
            sizes,
            next: 0,
        })
    }

    /// T, how many steps there are: one per token of the sequence.
    pub fn steps(&self) -> usize {
        self.x.nrows()
    }

    /// The position the next step adds, which is also how many rows each
    /// cache holds.
    pub fn position(&self) -> usize {
        self.next
    }

    /// The sizes that decide each step's work ([`Sizes::step_work`]).
    pub fn sizes(&self) -> Sizes {
        self.sizes
    }

    /// Head `head`'s cache: the keys (rows × d_k) and values (rows × d_v)
    /// of the tokens added so far, or None if there is no such head.
    pub fn cache(&self, head: usize) -> Option<(ArrayView2<'_, f64>, ArrayView2<'_, f64>)> {
        let rows = s![..self.next, ..];
        Some((
            self.keys.get(head)?.slice(rows),
            self.values.get(head)?.slice(rows),
        ))
    }

    /// Adds the next token ([`crate::generate`] says how), or None once
    /// every token has been added. Numbers so large that a step overflows
    /// are an [`AttentionError::Overflow`] that ends the generation.
    pub fn step(&mut self) -> Option<Result<Step, AttentionError>> {
        let t = self.next;
        if t >= self.steps() {
            return None;
        }
        let step = self.add(t);
        // A failed step leaves nothing to continue from.
        self.next = if step.is_ok() { t + 1 } else { self.steps() };
        Some(step)
    }

    /// Step t: every head's row, then the heads joined and projected.
    fn add(&mut self, t: usize) -> Result<Step, AttentionError> {
        let x = self.x.row(t).to_owned();
        let heads = (0..self.heads.len())
            .map(|i| self.add_to_head(i, t, x.view()))
            .collect::<Result<Vec<_>, _>>()?;
        let concat: Array1<f64> = heads
            .iter()
            .flat_map(|h| h.output.iter().copied())
            .collect();
        let output = match &self.w_o {
            Some(w_o) => row_of(project(concat.view().insert_axis(Axis(0)), w_o.view())),
            None => concat.clone(),
        };
        finite("output", &output)?;
        Ok(Step {
            position: t,
            x,
            heads,
            concat,
            output,
            work: self.sizes.step_work(t),
        })
    }

    /// Head i's part of step t: project x_t, cache k_t and v_t, and attend
    /// from q_t to the cache.
    fn add_to_head(
        &mut self,
        i: usize,
        t: usize,
        x: ArrayView1<f64>,
    ) -> Result<HeadStep, AttentionError> {
        let head = &self.heads[i];
        let x = x.insert_axis(Axis(0));
        let [mut q, mut k, v] =
            [&head.w_q, &head.w_k, &head.w_v].map(|w| row_of(project(x, w.view())));
        finite("q", &q)?;
        finite("k", &k)?;
        finite("v", &v)?;
        let (q_unrotated, k_unrotated) = if self.rope {
            let unrotated = (q.clone(), k.clone());
            rope_row(q.view_mut(), t);
            rope_row(k.view_mut(), t);
            finite("q", &q)?;
            finite("k", &k)?;
            (Some(unrotated.0), Some(unrotated.1))
        } else {
            (None, None)
        };
        self.keys[i].row_mut(t).assign(&k);
        self.values[i].row_mut(t).assign(&v);
        let cached = s![..=t, ..];
        let keys = self.keys[i].slice(cached);
        let scores = row_of(dot_scores(q.view().insert_axis(Axis(0)), keys));
        finite("scores", &scores)?;
        let scaled = scores.mapv(|s| s * self.factor);
        // Every cached key is at or before t: only padding is masked.
        let mut weights = scaled.clone();
        softmax_in_place(weights.view_mut(), |j| self.key_is_real[j]);
        let values = self.values[i].slice(cached);
        let output = row_of(mix_values(weights.view().insert_axis(Axis(0)), values));
        finite("output", &output)?;
        Ok(HeadStep {
            q,
            k,
            v,
            q_unrotated,
            k_unrotated,
            scores,
            scaled,
            weights,
            output,
        })
    }
}

/// How far a step is from the whole causal pass: the largest absolute
/// difference between `step`'s output row and row `step.position` of sequence
/// `sequence` of `scenario` run with the causal mask. The cache changes no
/// number, so this is 0 up to rounding. A sequence or position the scenario
/// does not have is an error, as in [`Generation::new`].
///
/// ```
/// use attention_core::generate::{causal_difference, Generation};
/// use attention_core::presets::sentence;
///
/// let scenario = sentence();
/// for step in Generation::new(&scenario, 0).unwrap() {
///     let step = step.unwrap();
///     assert!(causal_difference(&scenario, 0, &step).unwrap() < 1e-12);
/// }
/// let first = Generation::new(&scenario, 0).unwrap().next().unwrap().unwrap();
/// assert!(causal_difference(&scenario, 1, &first).is_err());
/// ```
pub fn causal_difference(
    scenario: &Scenario,
    sequence: usize,
    step: &Step,
) -> Result<f64, AttentionError> {
    let mut causal = scenario.clone();
    causal.options.causal = true;
    let full = causal.run()?;
    let (batch, t, _) = full.output.dim();
    limits::check_range("sequence", "the index", sequence, 0, batch - 1)?;
    limits::check_range("step", "the position", step.position, 0, t - 1)?;
    let row = full.output.slice(s![sequence, step.position, ..]);
    Ok(row
        .iter()
        .zip(&step.output)
        .fold(0.0, |most: f64, (a, b)| most.max((a - b).abs())))
}

impl Iterator for Generation {
    type Item = Result<Step, AttentionError>;

    /// [`Generation::step`].
    fn next(&mut self) -> Option<Self::Item> {
        self.step()
    }
}

/// The one row of a 1×n product.
fn row_of(product: Array2<f64>) -> Array1<f64> {
    product.index_axis_move(Axis(0), 0)
}

fn finite(field: &str, values: &Array1<f64>) -> Result<(), AttentionError> {
    if values.iter().all(|v| v.is_finite()) {
        Ok(())
    } else {
        Err(AttentionError::Overflow {
            field: field.into(),
        })
    }
}
