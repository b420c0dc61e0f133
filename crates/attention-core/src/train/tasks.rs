//! The toy tasks a learner can train a head on, each small enough to read by eye.

mod pronoun;
mod retrieve;
mod speaker;

use super::loss::Loss;
use crate::error::AttentionError;
use crate::layer::check_split;
use crate::trace::Options;
use ndarray::Array2;

/// The training tasks, by a stable id that links and saved state can use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum TaskId {
    /// The default. 他 / 说 / 他 / 今天 / 不能 / 来 (T = 6, d = 8): the second 他
    /// must attend to the first, though the two differ only in a position
    /// feature. [`Loss::AttendTo`] on row 2 with S = {0}, `L = −ln α′_20`;
    /// threshold 0.05 (at least 95 % of that row on the first 他).
    #[default]
    Pronoun,
    /// Frames A1 A2 B1 A3 B2 B3 A4 B4 (T = 8, d = 8: three voice features,
    /// five of loudness and content that say nothing about the speaker):
    /// every frame must attend to its own speaker's frames. [`Loss::AttendTo`]
    /// on every row, S_i = the frames of i's speaker; threshold 0.05.
    SameSpeaker,
    /// 猫 / 狗 / 鸟 / 鱼 / ?鸟 / ?猫 (T = 6, d = 8): each question's output must be
    /// the value of the animal it names, whose facts only the animal carries.
    /// [`Loss::Output`] on rows 4 and 5 with targets V_鸟 and V_猫; threshold
    /// 0.002 (within about 0.13 per feature). W_V is frozen (the identity), or
    /// W_V = 0 would meet targets that are themselves values without any attention.
    Retrieve,
}

impl TaskId {
    /// Every task, the default first.
    pub const ALL: [TaskId; 3] = [TaskId::Pronoun, TaskId::SameSpeaker, TaskId::Retrieve];

    /// The stable id: `pronoun`, `same-speaker` or `retrieve`. Never change one.
    ///
    /// ```
    /// use attention_core::train::TaskId;
    ///
    /// assert_eq!(TaskId::from_id(TaskId::SameSpeaker.id()), Some(TaskId::SameSpeaker));
    /// assert_eq!(TaskId::from_id("Pronoun"), None);
    /// ```
    pub fn id(self) -> &'static str {
        match self {
            TaskId::Pronoun => "pronoun",
            TaskId::SameSpeaker => "same-speaker",
            TaskId::Retrieve => "retrieve",
        }
    }

    /// The task with this id, or None (ids are case-sensitive).
    pub fn from_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|task| task.id() == id)
    }
}

/// Which weight matrices training changes; the others keep their first value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trainable {
    pub w_q: bool,
    pub w_k: bool,
    pub w_v: bool,
}

impl Trainable {
    pub(crate) fn flags(self) -> [bool; 3] {
        [self.w_q, self.w_k, self.w_v]
    }
}

/// A training task: one sequence, the head's sizes, the loss, and the
/// documented goal. Built only by [`task`], so its parts always fit together.
#[derive(Clone, Debug, PartialEq)]
pub struct Task {
    pub(super) id: TaskId,
    pub(super) tokens: Vec<String>,
    pub(super) x: Array2<f64>,
    pub(super) mask: Option<Vec<bool>>,
    pub(super) options: Options,
    pub(super) d_k: usize,
    pub(super) d_v: usize,
    pub(super) w_v: Option<Array2<f64>>,
    pub(super) trainable: Trainable,
    pub(super) heads: usize,
    pub(super) loss: Loss,
    pub(super) threshold: f64,
    pub(super) budget: usize,
}

/// Columns of W_Q and W_K in every task.
const D_K: usize = 8;
/// Steps the default optimizer gets every task solved in.
const BUDGET: usize = 200;

/// What the three tasks share: one unmasked, scaled sequence `x` labelled
/// `tokens`; W_Q and W_K (d×8, so d_v = d_k as the lab draws it) train, and W_V is fixed to the d×d identity,
/// so V = X and each output row B_i shows which tokens' features were mixed
/// into it.
fn query_key_task(id: TaskId, tokens: &[&str], x: Array2<f64>, loss: Loss, threshold: f64) -> Task {
    let d = x.ncols();
    Task {
        id,
        tokens: tokens.iter().map(|&t| String::from(t)).collect(),
        x,
        mask: None,
        options: Options::default(),
        d_k: D_K,
        d_v: d,
        w_v: Some(Array2::eye(d)),
        trainable: Trainable {
            w_q: true,
            w_k: true,
            w_v: false,
        },
        heads: 1,
        loss,
        threshold,
        budget: BUDGET,
    }
}

/// A matrix from rows of eight, kept as data rather than code.
fn rows_of_8(rows: &[[f64; 8]]) -> Array2<f64> {
    Array2::from_shape_fn((rows.len(), 8), |(i, j)| rows[i][j])
}

/// The task `id`, built fresh (see [`TaskId`]'s variants; the comments of
/// `train/tasks/*.rs` say how each task's numbers were chosen). In every task
/// W_Q and W_K (d×8) train, and W_V is fixed to the identity, so V = X and
/// each output row B_i shows which tokens' features were mixed into it.
///
/// ```
/// use attention_core::train::{task, TaskId};
///
/// for id in TaskId::ALL {
///     let task = task(id);
///     assert_eq!(task.id(), id);
///     assert_eq!(task.tokens().len(), task.x().nrows());
///     assert!(task.threshold() > 0.0 && task.budget() > 0);
/// }
/// ```
pub fn task(id: TaskId) -> Task {
    match id {
        TaskId::Pronoun => pronoun::pronoun(),
        TaskId::SameSpeaker => speaker::same_speaker(),
        TaskId::Retrieve => retrieve::retrieve(),
    }
}

impl Task {
    /// The same task for a layer of `heads` heads side by side, which share
    /// the same width: each head gets d_k / h columns of W_Q and W_K and
    /// d_v / h of W_V (`crate::Head::part`), as the app's heads slider splits
    /// them, and the trainer starts from the same numbers as one head does.
    /// The loss then reads what PyTorch's `nn.MultiheadAttention` returns:
    /// the heads' weights averaged, ᾱ = (1/h)·Σ α′ (`average_attn_weights`),
    /// and the heads' outputs joined, Concat(B₁, …, B_h). So an
    /// [`Loss::AttendTo`] goal holds for the heads on average, and an
    /// [`Loss::Output`] target is met by the joined row.
    ///
    /// `heads` must divide d_k and d_v, at most [`crate::limits::MAX_HEADS`].
    ///
    /// ```
    /// use attention_core::train::{default_optimizer, task, TaskId, Trainer};
    ///
    /// let two = task(TaskId::Pronoun).with_heads(2).unwrap();
    /// let mut trainer = Trainer::new(two, default_optimizer(), 1);
    /// while trainer.loss() >= trainer.task().threshold() && trainer.steps() < 200 {
    ///     trainer.step();
    /// }
    /// let layer = trainer.scenario().run().unwrap();
    /// // Both heads learned to send the second 他 to the first.
    /// assert_eq!(layer.heads.len(), 2);
    /// assert!(layer.heads.iter().all(|head| head.weights[[0, 2, 0]] > 0.8));
    /// assert!(trainer.loss() < trainer.task().threshold());
    /// assert!(task(TaskId::Pronoun).with_heads(3).is_err(), "8 columns do not split in 3");
    /// ```
    pub fn with_heads(mut self, heads: usize) -> Result<Task, AttentionError> {
        check_split(heads, [("w_q", self.d_k), ("w_v", self.d_v)])?;
        self.heads = heads;
        Ok(self)
    }

    /// Heads side by side (see [`Task::with_heads`]); 1 for every task as built.
    pub fn heads(&self) -> usize {
        self.heads
    }

    /// Which task this is.
    pub fn id(&self) -> TaskId {
        self.id
    }

    /// One label per position.
    pub fn tokens(&self) -> &[String] {
        &self.tokens
    }

    /// The input X, T×d; it does not change during training.
    pub fn x(&self) -> &Array2<f64> {
        &self.x
    }

    /// The key padding mask (true for a real position), if any.
    pub fn mask(&self) -> Option<&[bool]> {
        self.mask.as_deref()
    }

    /// Causal masking and scaling.
    pub fn options(&self) -> Options {
        self.options
    }

    /// Columns of W_Q and W_K, of all heads together.
    pub fn d_k(&self) -> usize {
        self.d_k
    }

    /// Columns of W_V, of all heads together.
    pub fn d_v(&self) -> usize {
        self.d_v
    }

    /// W_V when the task fixes it (it is then not trainable); None when it
    /// starts from the seed like W_Q and W_K.
    pub fn fixed_w_v(&self) -> Option<&Array2<f64>> {
        self.w_v.as_ref()
    }

    /// Which of W_Q, W_K and W_V training changes.
    pub fn trainable(&self) -> Trainable {
        self.trainable
    }

    /// What training minimises.
    pub fn loss(&self) -> &Loss {
        &self.loss
    }

    /// The documented goal: a loss below this means the task is solved, in
    /// the sense each builder states. `tests/training.rs` checks that the
    /// default optimizer gets there from seeds 1 to 5 within [`Task::budget`] steps.
    pub fn threshold(&self) -> f64 {
        self.threshold
    }

    /// Steps within which [`super::default_optimizer`] brings the loss below
    /// [`Task::threshold`] from every seed 1 to 5.
    pub fn budget(&self) -> usize {
        self.budget
    }
}
