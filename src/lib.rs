//! Attention Lab (注意力实验室): the web app. Its cards (the registry,
//! [`cards`]) show a scenario computed by `attention-core`: one attention head
//! step by step, several heads and W_O, positions, word order, generation with
//! a KV cache, training and the √d_k experiment. ARCHITECTURE.md is the map.

// User input must never panic: errors are values that name what is wrong.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod action;
pub mod announce;
pub mod app;
pub mod cards;
pub mod classroom;
pub mod controls;
pub mod diagrams;
pub mod experiment;
pub mod geometry;
pub mod i18n;
pub mod lab;
pub mod lessons;
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
