//! Full-batch gradient descent on one task, step by step.

use super::optimizer::{Optimizer, State};
use super::pass::{Dims, Pass};
use super::tasks::Task;
use super::Gradients;
use crate::random::normal_matrix;
use crate::scenario::Scenario;
use crate::trace::Head;
use ndarray::{Array2, Axis};

/// Standard deviation of the seeded starting weights: small enough that the
/// first scores are near 0 and every row starts close to uniform, so the
/// softmax passes gradient back, yet not so small that the head starts dead.
pub const INIT_STD: f64 = 0.3;

/// Trains a head on a [`Task`]: each [`Trainer::step`] is one full-batch
/// gradient step on the task's one sequence.
///
/// The trainer always holds the loss and the gradient of its current head:
/// [`Trainer::new`] evaluates the starting head, and each step applies the
/// held gradient, then evaluates the new head. So `losses()[n]` is the loss
/// after n steps, `losses()[0]` the starting loss, and [`Trainer::gradients`]
/// is what the next step will follow.
///
/// ```
/// use attention_core::train::{default_optimizer, task, TaskId, Trainer};
///
/// let mut trainer = Trainer::new(task(TaskId::Pronoun), default_optimizer(), 1);
/// let start = trainer.loss();
/// for _ in 0..200 {
///     trainer.step();
/// }
/// assert_eq!(trainer.steps(), 200);
/// assert_eq!(trainer.losses().len(), 201);
/// assert!(trainer.loss() < trainer.task().threshold() && trainer.loss() < start);
/// // The learned head runs like any other scenario: the second 他 finds the first.
/// let trace = trainer.scenario().run().unwrap().into_head(0);
/// assert!(trace.weights[[0, 2, 0]] > 0.95);
/// ```
#[derive(Clone, Debug)]
pub struct Trainer {
    task: Task,
    optimizer: Optimizer,
    seed: u64,
    /// One pass per head, over that head's columns, with its optimizer state
    /// and the weights before the last step.
    passes: Vec<Pass>,
    states: Vec<State>,
    backups: Vec<[Vec<f64>; 3]>,
    /// Each head's sizes.
    dims: Dims,
    joined: Joined,
    head: Head,
    gradients: Gradients,
    losses: Vec<f64>,
}

/// What the loss reads from the heads together, and its gradients: the
/// heads' weights averaged, ᾱ = (1/h)·Σ α′ (T×T), and their outputs joined,
/// Concat(B₁, …, B_h) (T×h·d_v). With one head they are that head's α′ and B.
#[derive(Clone, Debug)]
struct Joined {
    mean: Vec<f64>,
    concat: Vec<f64>,
    d_mean: Vec<f64>,
    d_concat: Vec<f64>,
}

/// The starting weights: W_Q, W_K and (unless the task fixes it) W_V drawn
/// from [`normal_matrix`] with standard deviation [`INIT_STD`], from three
/// streams of `seed`, at the full width the heads share.
fn starting_head(task: &Task, seed: u64) -> Head {
    let d = task.x.ncols();
    let stream = |n: u64| seed.wrapping_mul(3).wrapping_add(n);
    Head {
        w_q: normal_matrix(d, task.d_k, INIT_STD, stream(0)),
        w_k: normal_matrix(d, task.d_k, INIT_STD, stream(1)),
        w_v: match &task.w_v {
            Some(w_v) => w_v.clone(),
            None => normal_matrix(d, task.d_v, INIT_STD, stream(2)),
        },
    }
}

/// Copies the passes' matrices `pick` (each head's columns, row-major) into
/// `a`, whose columns are the heads' side by side.
fn copy_columns(a: &mut Array2<f64>, passes: &[Pass], pick: impl Fn(&Pass) -> &[f64]) {
    let width = a.ncols() / passes.len().max(1);
    for ((r, c), a) in a.indexed_iter_mut() {
        if let Some(pass) = passes.get(c / width) {
            *a = pick(pass)[r * width + c % width];
        }
    }
}

impl Trainer {
    /// A trainer at step 0: the weights start from `seed` (see [`INIT_STD`]),
    /// split among the task's heads ([`Task::with_heads`]), and the loss and
    /// gradient are evaluated.
    pub fn new(task: Task, optimizer: Optimizer, seed: u64) -> Self {
        let head = starting_head(&task, seed);
        let heads = task.heads;
        let passes: Vec<Pass> = (0..heads)
            .map(|i| {
                let part = head.part(i, heads);
                Pass::new(task.x.view(), &part, task.mask.as_deref(), task.options)
            })
            .collect();
        let (t, d) = task.x.dim();
        let dims = Dims {
            t,
            d,
            d_k: task.d_k / heads,
            d_v: task.d_v / heads,
        };
        let zeros = |n: usize| vec![0.0; n];
        let gradients = Gradients {
            w_q: Array2::zeros(head.w_q.raw_dim()),
            w_k: Array2::zeros(head.w_k.raw_dim()),
            w_v: Array2::zeros(head.w_v.raw_dim()),
            x: Array2::zeros((t, d)),
        };
        let mut trainer = Self {
            states: passes
                .iter()
                .map(|pass| State::new(pass.w.each_ref().map(Vec::len)))
                .collect(),
            backups: passes.iter().map(|pass| pass.w.clone()).collect(),
            joined: Joined {
                mean: zeros(t * t),
                concat: zeros(t * task.d_v),
                d_mean: zeros(t * t),
                d_concat: zeros(t * task.d_v),
            },
            dims,
            task,
            optimizer,
            seed,
            passes,
            head,
            gradients,
            losses: Vec::new(),
        };
        let loss = trainer.evaluate();
        trainer.losses.push(loss);
        trainer.sync();
        trainer
    }

    /// One step: every trainable matrix moves along the current gradient by
    /// the optimizer's rule, then the new weights are evaluated. Returns the
    /// new loss, which is also pushed onto [`Trainer::losses`].
    ///
    /// A step that would make a weight, the weights α′, the output or the
    /// loss non-finite (a huge learning rate) is undone: the weights stay as
    /// they were, the optimizer's state is reset, and the step still counts.
    pub fn step(&mut self) -> f64 {
        let trainable = self.task.trainable.flags();
        for ((pass, state), backup) in self
            .passes
            .iter_mut()
            .zip(&mut self.states)
            .zip(&mut self.backups)
        {
            for (backup, w) in backup.iter_mut().zip(&pass.w) {
                backup.clone_from(w);
            }
            state.apply(&self.optimizer, &mut pass.w, &pass.d_w, trainable);
        }
        let mut loss = self.evaluate();
        if !(loss.is_finite() && self.all_finite()) {
            for ((pass, state), backup) in self
                .passes
                .iter_mut()
                .zip(&mut self.states)
                .zip(&mut self.backups)
            {
                std::mem::swap(&mut pass.w, backup);
                state.reset();
            }
            loss = self.evaluate();
        }
        self.losses.push(loss);
        self.sync();
        loss
    }

    /// Forward pass of every head, the loss of the heads together (their
    /// averaged weights and joined outputs, see [`Task::with_heads`]), and
    /// each head's backward pass at the current weights: ∂L/∂α′ of a head is
    /// ∂L/∂ᾱ / h, and ∂L/∂B of a head is its columns of ∂L/∂Concat.
    fn evaluate(&mut self) -> f64 {
        let Dims { t, d_v, .. } = self.dims;
        let heads = self.passes.len();
        let width = heads * d_v;
        let share = heads as f64;
        let joined = &mut self.joined;
        for pass in &mut self.passes {
            pass.forward();
        }
        for (n, mean) in joined.mean.iter_mut().enumerate() {
            let sum = self
                .passes
                .iter()
                .fold(-0.0, |sum, pass| sum + pass.weights[n]);
            *mean = sum / share;
        }
        for (i, pass) in self.passes.iter().enumerate() {
            for (row, out) in joined
                .concat
                .chunks_exact_mut(width)
                .zip(pass.output.chunks_exact(d_v))
            {
                row[i * d_v..(i + 1) * d_v].copy_from_slice(out);
            }
        }
        let loss = self.task.loss.evaluate_into(
            t,
            width,
            &joined.mean,
            &joined.concat,
            &mut joined.d_mean,
            &mut joined.d_concat,
        );
        for (i, pass) in self.passes.iter_mut().enumerate() {
            for (d, &d_mean) in pass.d_weights.iter_mut().zip(&joined.d_mean) {
                *d = d_mean / share;
            }
            for (d, row) in pass
                .d_output
                .chunks_exact_mut(d_v)
                .zip(joined.d_concat.chunks_exact(width))
            {
                d.copy_from_slice(&row[i * d_v..(i + 1) * d_v]);
            }
            pass.backward(true);
        }
        loss
    }

    fn all_finite(&self) -> bool {
        self.passes.iter().all(|pass| {
            let values = [&pass.weights, &pass.d_x].into_iter();
            pass.forward_is_finite()
                && values
                    .chain(&pass.w)
                    .chain(&pass.d_w)
                    .all(|v| v.iter().all(|x| x.is_finite()))
        })
    }

    /// Copies the passes' weights and gradients into the arrays handed out,
    /// the heads' columns side by side; dL/dX sums every head's.
    fn sync(&mut self) {
        let passes = &self.passes;
        copy_columns(&mut self.head.w_q, passes, |p| &p.w[0]);
        copy_columns(&mut self.head.w_k, passes, |p| &p.w[1]);
        copy_columns(&mut self.head.w_v, passes, |p| &p.w[2]);
        copy_columns(&mut self.gradients.w_q, passes, |p| &p.d_w[0]);
        copy_columns(&mut self.gradients.w_k, passes, |p| &p.d_w[1]);
        copy_columns(&mut self.gradients.w_v, passes, |p| &p.d_w[2]);
        for (n, x) in self.gradients.x.iter_mut().enumerate() {
            *x = passes.iter().fold(-0.0, |sum, pass| sum + pass.d_x[n]);
        }
    }

    /// Steps taken so far.
    pub fn steps(&self) -> usize {
        self.losses.len() - 1
    }

    /// The loss curve: the loss after 0, 1, …, [`Trainer::steps`] steps.
    /// It grows by one number (8 bytes) per step.
    pub fn losses(&self) -> &[f64] {
        &self.losses
    }

    /// The loss of the current head.
    pub fn loss(&self) -> f64 {
        self.losses.last().copied().unwrap_or(f64::NAN)
    }

    /// The current weights: W_Q, W_K and W_V of every head, side by side.
    pub fn head(&self) -> &Head {
        &self.head
    }

    /// The gradient of the loss at the current head, dL/dW_Q, dL/dW_K,
    /// dL/dW_V and dL/dX: the direction the next step follows, against the
    /// sign. A matrix the task does not train still shows its gradient, but
    /// never moves (see [`Task::trainable`]); X never moves either.
    pub fn gradients(&self) -> &Gradients {
        &self.gradients
    }

    /// The task being trained.
    pub fn task(&self) -> &Task {
        &self.task
    }

    /// The seed the head started from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The optimizer in use.
    pub fn optimizer(&self) -> Optimizer {
        self.optimizer
    }

    /// Switches the optimizer mid-run; the head is kept. Changing only
    /// settings of the same rule (a learning-rate slider) keeps the rule's
    /// memory (momentum's velocity, Adam's running means), so training goes on
    /// smoothly; changing the rule itself (SGD → Adam) starts its memory afresh.
    pub fn set_optimizer(&mut self, optimizer: Optimizer) {
        if !self.optimizer.same_rule(&optimizer) {
            self.states.iter_mut().for_each(State::reset);
        }
        self.optimizer = optimizer;
    }

    /// The current weights on the task's sequence as a [`Scenario`] of the
    /// task's heads, without W_O, so the learned layer can be shown, exported, linked and stepped through like
    /// any other: the task's tokens, X as 1×T×d, the head, mask and options.
    pub fn scenario(&self) -> Scenario {
        Scenario {
            tokens: Some(self.task.tokens.clone()),
            x: self.task.x.clone().insert_axis(Axis(0)),
            batched: false,
            head: self.head.clone(),
            heads: self.task.heads,
            w_o: None,
            mask: self
                .task
                .mask
                .as_ref()
                .map(|m| Array2::from_shape_fn((1, m.len()), |(_, j)| m[j])),
            options: self.task.options,
            p: None,
            block: None,
        }
    }
}
