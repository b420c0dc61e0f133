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
    state: State,
    pass: Pass,
    head: Head,
    gradients: Gradients,
    losses: Vec<f64>,
    backup: [Vec<f64>; 3],
}

/// The starting head: W_Q, W_K and (unless the task fixes it) W_V drawn from
/// [`normal_matrix`] with standard deviation [`INIT_STD`], from three streams
/// of `seed`.
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

/// Copies row-major `data` into `a`, which has as many entries.
fn copy_into(a: &mut Array2<f64>, data: &[f64]) {
    a.iter_mut().zip(data).for_each(|(a, &v)| *a = v);
}

impl Trainer {
    /// A trainer at step 0: the head starts from `seed` (see [`INIT_STD`]),
    /// and its loss and gradient are evaluated.
    pub fn new(task: Task, optimizer: Optimizer, seed: u64) -> Self {
        let head = starting_head(&task, seed);
        let pass = Pass::new(task.x.view(), &head, task.mask.as_deref(), task.options);
        let Dims { t, d, .. } = pass.dims;
        let gradients = Gradients {
            w_q: Array2::zeros(head.w_q.raw_dim()),
            w_k: Array2::zeros(head.w_k.raw_dim()),
            w_v: Array2::zeros(head.w_v.raw_dim()),
            x: Array2::zeros((t, d)),
        };
        let mut trainer = Self {
            state: State::new(pass.w.each_ref().map(Vec::len)),
            backup: pass.w.clone(),
            task,
            optimizer,
            seed,
            pass,
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
    /// the optimizer's rule, then the new head is evaluated. Returns the new
    /// loss, which is also pushed onto [`Trainer::losses`].
    ///
    /// A step that would make a weight, the weights α′, the output or the
    /// loss non-finite (a huge learning rate) is undone: the head stays as it
    /// was, the optimizer's state is reset, and the step still counts.
    pub fn step(&mut self) -> f64 {
        for (backup, w) in self.backup.iter_mut().zip(&self.pass.w) {
            backup.clone_from(w);
        }
        let trainable = self.task.trainable.flags();
        self.state
            .apply(&self.optimizer, &mut self.pass.w, &self.pass.d_w, trainable);
        let mut loss = self.evaluate();
        if !(loss.is_finite() && self.all_finite()) {
            std::mem::swap(&mut self.pass.w, &mut self.backup);
            self.state.reset();
            loss = self.evaluate();
        }
        self.losses.push(loss);
        self.sync();
        loss
    }

    /// Forward pass, loss and backward pass at the current weights.
    fn evaluate(&mut self) -> f64 {
        let pass = &mut self.pass;
        pass.forward();
        let Dims { t, d_v, .. } = pass.dims;
        let loss = self.task.loss.evaluate_into(
            t,
            d_v,
            &pass.weights,
            &pass.output,
            &mut pass.d_weights,
            &mut pass.d_output,
        );
        pass.backward(true);
        loss
    }

    fn all_finite(&self) -> bool {
        let pass = &self.pass;
        let values = [&pass.weights, &pass.d_x].into_iter();
        pass.forward_is_finite()
            && values
                .chain(&pass.w)
                .chain(&pass.d_w)
                .all(|v| v.iter().all(|x| x.is_finite()))
    }

    /// Copies the pass's weights and gradients into the arrays handed out.
    fn sync(&mut self) {
        let pass = &self.pass;
        copy_into(&mut self.head.w_q, &pass.w[0]);
        copy_into(&mut self.head.w_k, &pass.w[1]);
        copy_into(&mut self.head.w_v, &pass.w[2]);
        copy_into(&mut self.gradients.w_q, &pass.d_w[0]);
        copy_into(&mut self.gradients.w_k, &pass.d_w[1]);
        copy_into(&mut self.gradients.w_v, &pass.d_w[2]);
        copy_into(&mut self.gradients.x, &pass.d_x);
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

    /// The current head.
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
            self.state.reset();
        }
        self.optimizer = optimizer;
    }

    /// The current head on the task's sequence as a [`Scenario`], so the
    /// learned head can be shown, exported, linked and stepped through like
    /// any other: the task's tokens, X as 1×T×d, the head, mask and options.
    pub fn scenario(&self) -> Scenario {
        Scenario {
            tokens: Some(self.task.tokens.clone()),
            x: self.task.x.clone().insert_axis(Axis(0)),
            batched: false,
            head: self.head.clone(),
            heads: 1,
            w_o: None,
            mask: self
                .task
                .mask
                .as_ref()
                .map(|m| Array2::from_shape_fn((1, m.len()), |(_, j)| m[j])),
            options: self.task.options,
        }
    }
}
