//! Training mode: learn W_Q, W_K and W_V by backpropagation.
//!
//! A [`Task`] ([`task`]) is one sequence, a loss and a goal, learnt by one
//! head or by several side by side ([`Task::with_heads`]); a [`Trainer`]
//! runs full-batch gradient steps on it with an [`Optimizer`]; [`backward`]
//! is the gradient of the whole head, which `tests/gradients.rs` checks
//! against finite differences. With several heads the trainer runs one
//! backward pass per head, each on its own columns of the weights.
//!
//! Training gives the same bits natively and in WebAssembly: the forward and
//! backward loops use only +, −, ×, ÷ and √, which IEEE 754 rounds correctly,
//! never a fused multiply-add; the forward pass is the crate's own kernels
//! (`crate::kernels`), and the loss's `ln` comes from the `libm` crate, as the
//! softmax's `exp` does, rather than from the platform's maths library, whose
//! last bit varies between targets.

mod loss;
mod optimizer;
mod pass;
mod tasks;
mod trainer;

pub use loss::{AttendTarget, Loss, OutputTarget, MIN_SHARE};
pub use optimizer::Optimizer;
pub use tasks::{task, Task, TaskId, Trainable};
pub use trainer::{Trainer, INIT_STD};

use crate::error::AttentionError;
use crate::positions::Positions;
use crate::trace::{check_input, Head, Options};
use ndarray::{Array2, ArrayView2, Axis};
use pass::{matrix, Pass};

/// The optimizer the app starts with: Adam with learning rate 0.02. It solves
/// every task within its [`Task::budget`] (Pronoun in about 60 steps), slowly
/// enough that one step per animation frame shows the weights move for about
/// a second, and its steps are about lr in size whatever the loss's scale.
pub fn default_optimizer() -> Optimizer {
    Optimizer::adam(0.02)
}

/// Gradients of a loss with respect to the head's weights and its input.
#[derive(Clone, Debug, PartialEq)]
pub struct Gradients {
    /// dL/dW_Q, d×d_k.
    pub w_q: Array2<f64>,
    /// dL/dW_K, d×d_k.
    pub w_k: Array2<f64>,
    /// dL/dW_V, d×d_v.
    pub w_v: Array2<f64>,
    /// dL/dX, T×d.
    pub x: Array2<f64>,
}

/// What the loss reads from one forward pass: the weights α′ (T×T) and the
/// output B (T×d_v), equal to [`crate::forward_sequence`]'s to about 1e-15.
#[derive(Clone, Debug, PartialEq)]
pub struct Attended {
    pub weights: Array2<f64>,
    pub output: Array2<f64>,
}

/// Checks the input like [`crate::forward`] and builds the pass, run forward.
/// Training learns without positions: the backward pass knows none, so
/// positions would give the gradient of another function.
fn checked_pass(
    x: ArrayView2<f64>,
    head: &Head,
    key_is_real: Option<&[bool]>,
    options: Options,
) -> Result<Pass, AttentionError> {
    if options.positions != Positions::None {
        return Err(AttentionError::WrongType {
            field: "positions".into(),
            row: "the value".into(),
            expected: "none here: training learns without positions",
        });
    }
    let mask = key_is_real.map(|m| Array2::from_shape_fn((1, m.len()), |(_, j)| m[j]));
    check_input(
        x.insert_axis(Axis(0)),
        head,
        mask.as_ref().map(|m| m.view()),
    )?;
    let mut pass = Pass::new(x, head, key_is_real, options);
    pass.forward();
    for (field, values) in [("weights", &pass.weights), ("output", &pass.output)] {
        if !values.iter().all(|v| v.is_finite()) {
            return Err(AttentionError::Overflow {
                field: field.into(),
            });
        }
    }
    Ok(pass)
}

/// Runs one head over `x` (T×d) as training does and returns α′ and B.
/// Bad input is an [`AttentionError`], as for [`crate::forward_sequence`].
pub fn forward_values(
    x: ArrayView2<f64>,
    head: &Head,
    key_is_real: Option<&[bool]>,
    options: Options,
) -> Result<Attended, AttentionError> {
    let pass = checked_pass(x, head, key_is_real, options)?;
    let (t, d_v) = (pass.dims.t, pass.dims.d_v);
    Ok(Attended {
        weights: matrix(t, t, &pass.weights),
        output: matrix(t, d_v, &pass.output),
    })
}

/// The gradients of a loss with respect to W_Q, W_K, W_V and X, given the
/// upstream gradients `d_weights` = ∂L/∂α′ (T×T) and `d_output` = ∂L/∂B (T×d_v).
///
/// With `Q = X·W_Q`, `K = X·W_K`, `V = X·W_V`, `S = c·Q·Kᵀ` (c = 1/√d_k with
/// scaling, else 1), `α′ = softmax(S)` over each row's allowed keys and
/// `B = α′·V`, the chain rule gives, in order:
///
/// - `dV = α′ᵀ·dB`, and `G = ∂L/∂α′ + dB·Vᵀ`, everything that reaches α′;
/// - the softmax Jacobian `∂α′_ij/∂S_il = α′_ij(δ_jl − α′_il)`, so
///   `dS_ij = α′_ij·(G_ij − Σ_l α′_il·G_il)`. Masked keys have α′_ij = 0 and so
///   get exactly zero gradient, and so does every entry of a row with no
///   allowed key (all its weights are 0);
/// - the scale, `d(QKᵀ) = c·dS`; then `dQ = c·dS·K` and `dK = c·dSᵀ·Q`;
/// - `dW_Q = Xᵀ·dQ`, `dW_K = Xᵀ·dK`, `dW_V = Xᵀ·dV`;
/// - X feeds all three projections: `dX = dQ·W_Qᵀ + dK·W_Kᵀ + dV·W_Vᵀ`.
///
/// ```
/// use attention_core::train::backward;
/// use attention_core::{Head, Options};
/// use ndarray::{array, Array2};
///
/// // Two tokens; push query 0's weight on key 1 up: L = −α′_01.
/// let x = array![[1.0, 0.0], [0.0, 1.0]];
/// let head = Head { w_q: Array2::eye(2), w_k: Array2::eye(2), w_v: Array2::eye(2) };
/// let d_weights = array![[0.0, -1.0], [0.0, 0.0]];
/// let g = backward(x.view(), &head, None, Options::default(), d_weights.view(),
///     Array2::zeros((2, 2)).view()).unwrap();
/// // Scores of query 0 are (1, 0)/√2, so α′_0 = (p, 1 − p) and dS_01 = −p(1 − p).
/// let p = 1.0 / (1.0 + (-1.0 / 2f64.sqrt()).exp());
/// let ds = -p * (1.0 - p) / 2f64.sqrt();
/// // dW_Q = Xᵀ·dQ with dQ_0 = dS_00·K_0 + dS_01·K_1 = (−ds, ds).
/// assert!((g.w_q[[0, 0]] + ds).abs() < 1e-12 && (g.w_q[[0, 1]] - ds).abs() < 1e-12);
/// // dK_1 = dS_01·Q_0 = (ds, 0): key 1 moves towards query 0, in column 0 only.
/// assert!((g.w_k[[1, 0]] - ds).abs() < 1e-12);
/// assert_eq!(g.w_k[[1, 1]], 0.0);
/// // The values play no part in this loss.
/// assert!(g.w_v.iter().all(|&v| v == 0.0));
/// ```
///
/// Bad input is an [`AttentionError`], as for [`crate::forward_sequence`], and
/// so are upstream gradients of the wrong shape.
pub fn backward(
    x: ArrayView2<f64>,
    head: &Head,
    key_is_real: Option<&[bool]>,
    options: Options,
    d_weights: ArrayView2<f64>,
    d_output: ArrayView2<f64>,
) -> Result<Gradients, AttentionError> {
    let mut pass = checked_pass(x, head, key_is_real, options)?;
    let (t, d_v) = (pass.dims.t, pass.dims.d_v);
    for (field, found, expected) in [
        ("d_weights", d_weights.dim(), (t, t)),
        ("d_output", d_output.dim(), (t, d_v)),
    ] {
        if found != expected {
            return Err(AttentionError::ShapeMismatch {
                field: field.into(),
                expected: format!("{}×{}", expected.0, expected.1),
                found: format!("{}×{}", found.0, found.1),
            });
        }
    }
    pass.d_weights = pass::flat(d_weights);
    pass.d_output = pass::flat(d_output);
    Ok(gradients(&mut pass))
}

/// The loss of the head on `x` and its gradients, in one forward and one
/// backward pass: [`Loss::evaluate`] then [`backward`].
pub fn loss_and_gradients(
    x: ArrayView2<f64>,
    head: &Head,
    key_is_real: Option<&[bool]>,
    options: Options,
    loss: &Loss,
) -> Result<(f64, Gradients), AttentionError> {
    let mut pass = checked_pass(x, head, key_is_real, options)?;
    let (t, d_v) = (pass.dims.t, pass.dims.d_v);
    loss.check(t, d_v)?;
    let value = loss.evaluate_into(
        t,
        d_v,
        &pass.weights,
        &pass.output,
        &mut pass.d_weights,
        &mut pass.d_output,
    );
    Ok((value, gradients(&mut pass)))
}

fn gradients(pass: &mut Pass) -> Gradients {
    pass.backward(true);
    let dims = pass.dims;
    Gradients {
        w_q: matrix(dims.d, dims.d_k, &pass.d_w[0]),
        w_k: matrix(dims.d, dims.d_k, &pass.d_w[1]),
        w_v: matrix(dims.d, dims.d_v, &pass.d_w[2]),
        x: matrix(dims.t, dims.d, &pass.d_x),
    }
}
