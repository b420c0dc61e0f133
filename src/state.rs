//! The state every card reads, provided once by the app shell as one context (`Lab`):
//! the scenario, its trace, the shown sequence as plain matrices, what is
//! selected, and how the page is shown. Cards import this module, never
//! `app.rs`, so dependencies point one way: state → cards → app shell.

use crate::lab::{BlockView, LabError, LayerView, Place, SequenceTrace};
use attention_core::{AttentionError, LayerTrace, Scenario};
use leptos::prelude::*;

/// The state the cards share, provided once as one context: each type
/// looked up on its own would cost its own copy of the lookup's code.
#[derive(Clone, Copy)]
pub struct Lab {
    /// The scenario the learner is working on; every diagram derives from it.
    pub scenario: RwSignal<Scenario>,
    /// Its trace, every head and the joined output, computed once per change:
    /// with a transformer block, the attention of the shown layer.
    pub trace: Memo<Result<LayerTrace, AttentionError>>,
    /// The shown sequence and layer of the scenario's block as plain
    /// matrices, for the block's cards; `None` without a block.
    pub block: Memo<Option<BlockView>>,
    /// The shown sequence and head of the trace as plain matrices, read by
    /// every diagram; `None` while the scenario cannot be computed.
    pub view: Memo<Option<SequenceTrace>>,
    /// The shown sequence of a layer of several heads or with W_O, for the
    /// heads card and the output projection; `None` for the lessons' one
    /// head (and while the scenario cannot be computed), when neither is shown.
    pub layer: Memo<Option<LayerView>>,
    /// What the learner has selected; all four diagrams follow it.
    pub focus: Focus,
    /// Which shuffle of the tokens the word-order card shows: the seed of
    /// its order (`lab::order::shuffled_order`), counted up by each Shuffle.
    pub shuffle: RwSignal<u64>,
    /// Whether matrices are shown as HTML tables instead of SVG heatmaps.
    pub tables: RwSignal<bool>,
    /// Whether the page is a read-only figure (`lock=1`): nothing can be edited.
    pub locked: bool,
    /// The head the four diagrams show and how many there are, counted from
    /// 1, when there are several; `None` for one head. A memo, so the titles
    /// and grid names that say it are not worked out again on every edit.
    pub shown_head: Memo<Option<(usize, usize)>>,
}

/// The shared state, from within the app.
pub fn lab() -> Lab {
    expect_context::<Lab>()
}

/// What the learner has selected; all four diagrams follow it.
#[derive(Clone, Copy)]
pub struct Focus {
    /// The selected query token i.
    pub query: RwSignal<usize>,
    /// The selected key token j (the column of the selected score).
    pub key: RwSignal<usize>,
    /// Which sequence of a batch is shown.
    pub sequence: RwSignal<usize>,
    /// Which head the four diagrams show, counted from 0.
    pub head: RwSignal<usize>,
    /// Which layer of a block the four diagrams and the block's cards show,
    /// counted from 0.
    pub layer: RwSignal<usize>,
}

impl Focus {
    /// Where an edited entry lies: the shown sequence and head (tracked).
    pub fn place(&self) -> Place {
        Place {
            sequence: self.sequence.get(),
            head: self.head.get(),
            layer: self.layer.get(),
        }
    }
}

/// Why the page's link could not be used, if it could not; shown by the controls.
#[derive(Clone)]
pub struct LinkProblem(pub Option<LabError>);
