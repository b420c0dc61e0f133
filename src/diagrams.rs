//! The SVG diagrams, one per file. Each reads the shown sequence from
//! [`crate::state::LabView`] and its geometry from [`crate::geometry`].

pub mod dot_products;
pub mod editor;
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
