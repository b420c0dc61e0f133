//! attention-core: scaled dot-product self-attention over ndarray.
//!
//! One call to [`forward`] computes one head, `Attention(Q, K, V) =
//! softmax(QKᵀ/√d_k)·V`, for a batch of sequences and returns a [`Trace`]
//! holding every intermediate (Q, K, V, raw and scaled scores, masks,
//! weights and output), because a teaching tool shows them all.
//! [`forward_heads`] runs several heads side by side and joins them,
//! `Concat(head_1, …, head_h)·W_O`, keeping each head's trace. Positions
//! ([`positions`]) are added to X or turn Q and K; [`generate`] decodes a
//! causal layer one token at a time with a KV cache. [`block`] wraps the
//! layer in a transformer block (residuals, LayerNorm, feed-forward), stacked.
//!
//! The crate knows nothing about the web: it builds and tests natively with
//! plain `cargo test`, and the same code runs in WebAssembly.

// User input must never panic: errors are values that name what is wrong.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod block;
pub mod error;
pub mod experiment;
pub mod generate;
pub mod json;
/// The kernels, from their own crate (built less hard for size than the rest; see its doc).
pub use attention_kernels as kernels;
pub mod layer;
pub mod limits;
pub mod positions;
pub mod presets;
pub mod random;
pub mod scenario;
pub mod trace;
pub mod train;

pub use error::AttentionError;
pub use layer::{forward_heads, LayerTrace};
pub use positions::Positions;
pub use scenario::Scenario;
pub use trace::{forward, forward_sequence, Head, Options, Trace};
