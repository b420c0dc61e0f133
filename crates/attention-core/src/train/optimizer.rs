//! Gradient descent and its two popular refinements, momentum and Adam.
//!
//! Every update uses only +, −, ×, ÷ and √, which IEEE 754 rounds correctly,
//! so an update gives the same bits natively and in WebAssembly.

/// How the gradient g of a weight θ becomes a step. Each rule keeps its own
/// state per weight, reset whenever training starts over.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Optimizer {
    /// Plain gradient descent: `θ ← θ − lr·g`.
    Sgd { lr: f64 },
    /// Heavy-ball momentum, as in PyTorch: `v ← β·v + g`, `θ ← θ − lr·v`. The
    /// velocity v remembers past gradients, so steps grow along a direction
    /// that keeps its sign and cancel out where the gradient zigzags.
    Momentum { lr: f64, beta: f64 },
    /// Adam: running means of the gradient and of its square,
    /// `m ← β₁·m + (1−β₁)·g`, `s ← β₂·s + (1−β₂)·g²`, bias-corrected after t
    /// steps as `m̂ = m/(1−β₁ᵗ)`, `ŝ = s/(1−β₂ᵗ)`, and `θ ← θ − lr·m̂/(√ŝ + ε)`.
    /// Each weight's step is about lr whatever the gradient's size.
    Adam {
        lr: f64,
        beta1: f64,
        beta2: f64,
        eps: f64,
    },
}

impl Optimizer {
    /// Plain gradient descent with learning rate `lr`.
    pub fn sgd(lr: f64) -> Self {
        Optimizer::Sgd { lr }
    }

    /// Momentum with learning rate `lr` and the usual β = 0.9.
    pub fn momentum(lr: f64) -> Self {
        Optimizer::Momentum { lr, beta: 0.9 }
    }

    /// Adam with learning rate `lr` and the usual β₁ = 0.9, β₂ = 0.999, ε = 10⁻⁸.
    pub fn adam(lr: f64) -> Self {
        Optimizer::Adam {
            lr,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
        }
    }

    /// The learning rate.
    pub fn lr(&self) -> f64 {
        match *self {
            Optimizer::Sgd { lr } | Optimizer::Momentum { lr, .. } | Optimizer::Adam { lr, .. } => {
                lr
            }
        }
    }

    /// The same rule with learning rate `lr`, for a slider.
    ///
    /// ```
    /// use attention_core::train::Optimizer;
    ///
    /// assert_eq!(Optimizer::adam(0.05).with_lr(0.1), Optimizer::adam(0.1));
    /// ```
    pub fn with_lr(self, lr: f64) -> Self {
        match self {
            Optimizer::Sgd { .. } => Optimizer::Sgd { lr },
            Optimizer::Momentum { beta, .. } => Optimizer::Momentum { lr, beta },
            Optimizer::Adam {
                beta1, beta2, eps, ..
            } => Optimizer::Adam {
                lr,
                beta1,
                beta2,
                eps,
            },
        }
    }

    /// Whether `other` is the same rule, whatever its settings.
    pub(crate) fn same_rule(&self, other: &Optimizer) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other)
    }
}

/// The optimizer's memory for the three weight matrices: momentum's velocity
/// or Adam's two running means, and Adam's β₁ᵗ and β₂ᵗ.
#[derive(Clone, Debug)]
pub(crate) struct State {
    first: [Vec<f64>; 3],
    second: [Vec<f64>; 3],
    beta1_t: f64,
    beta2_t: f64,
}

impl State {
    /// Zero state for matrices of `sizes` entries.
    pub fn new(sizes: [usize; 3]) -> Self {
        Self {
            first: sizes.map(|n| vec![0.0; n]),
            second: sizes.map(|n| vec![0.0; n]),
            beta1_t: 1.0,
            beta2_t: 1.0,
        }
    }

    /// Forgets everything, as if no step had been taken.
    pub fn reset(&mut self) {
        for v in self.first.iter_mut().chain(&mut self.second) {
            v.fill(0.0);
        }
        self.beta1_t = 1.0;
        self.beta2_t = 1.0;
    }

    /// One update of each matrix whose `trainable` flag is set.
    pub fn apply(
        &mut self,
        rule: &Optimizer,
        params: &mut [Vec<f64>; 3],
        grads: &[Vec<f64>; 3],
        trainable: [bool; 3],
    ) {
        if let Optimizer::Adam { beta1, beta2, .. } = *rule {
            self.beta1_t *= beta1;
            self.beta2_t *= beta2;
        }
        for n in (0..3).filter(|&n| trainable[n]) {
            let theta = params[n].iter_mut().zip(&grads[n]);
            let state = self.first[n].iter_mut().zip(self.second[n].iter_mut());
            match *rule {
                Optimizer::Sgd { lr } => {
                    for (theta, &g) in theta {
                        *theta -= lr * g;
                    }
                }
                Optimizer::Momentum { lr, beta } => {
                    for ((theta, &g), (v, _)) in theta.zip(state) {
                        *v = beta * *v + g;
                        *theta -= lr * *v;
                    }
                }
                Optimizer::Adam {
                    lr,
                    beta1,
                    beta2,
                    eps,
                } => {
                    let (c1, c2) = (1.0 - self.beta1_t, 1.0 - self.beta2_t);
                    for ((theta, &g), (m, s)) in theta.zip(state) {
                        *m = beta1 * *m + (1.0 - beta1) * g;
                        *s = beta2 * *s + (1.0 - beta2) * (g * g);
                        *theta -= lr * (*m / c1) / ((*s / c2).sqrt() + eps);
                    }
                }
            }
        }
    }
}
