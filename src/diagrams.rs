//! The SVG diagrams, one per file. Each reads the shown sequence from
//! [`crate::state::LabView`] and its geometry from [`crate::geometry`].

pub mod dot_products;
pub mod editor;
pub mod fusion;
pub mod heads;
pub mod host;
pub mod legend;
pub mod matrix;
pub mod output;
pub mod projection;
pub mod softmax;
