//! Pure diagram geometry: where cells and labels go, which colour a value gets,
//! and how a number is printed. Components only turn these into SVG, so all of
//! it is tested natively.

pub mod colour;
pub mod extent;
pub mod format;
pub mod grid;
