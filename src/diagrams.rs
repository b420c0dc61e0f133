//! The SVG diagrams, one per file. Each takes its numbers from the shared
//! trace and its geometry from [`crate::geometry`].

pub mod weights_heatmap;
