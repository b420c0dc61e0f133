//! Attention Lab (注意力实验室): the web app. It renders one self-attention head,
//! computed by `attention-core`, as SVG diagrams in Leptos components.

// User input must never panic: errors are values that name what is wrong.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod action;
pub mod announce;
pub mod app;
pub mod cards;
pub mod controls;
pub mod diagrams;
pub mod experiment;
pub mod geometry;
pub mod i18n;
pub mod lab;
pub mod link;
pub mod mathml;
pub mod mistakes;
pub mod page;
pub mod share;
pub mod state;
pub mod svg;
pub mod training;
pub mod walkthrough;

pub use app::App;
