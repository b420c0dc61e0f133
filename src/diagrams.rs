//! The cards that draw the trace, one per file (each in the card registry,
//! `crate::cards`), and the parts they share: the heatmap ([`matrix`]), its
//! colour legend ([`legend`]) and the cell editor ([`editor`]). Each reads the
//! shown sequence from `crate::state::Lab` and its layout from
//! [`crate::geometry`].

pub mod block;
pub mod dot_products;
pub mod editor;
pub mod feed_forward;
pub mod fusion;
pub mod generation;
pub mod heads;
pub mod legend;
pub mod matrix;
pub mod order;
pub mod output;
pub mod positions;
pub mod projection;
pub mod rope;
pub mod softmax;
