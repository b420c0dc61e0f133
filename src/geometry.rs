//! Pure diagram geometry: where cells and labels go, which colour a value gets,
//! and how a number is printed. Components only turn these into SVG, so all of
//! it is tested natively.

pub mod bars;
pub mod chart;
pub mod colour;
pub mod curve;
pub mod dot_text;
pub mod extent;
pub mod flow;
pub mod format;
pub mod grid;
pub mod raster;
pub mod rope;
pub mod softmax_text;
pub mod thumbnail;
