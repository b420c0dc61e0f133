//! The heads card: with several heads, a button per head and every head's
//! weights side by side as small maps; picking one shows that head in the
//! four diagrams. A single head, the lessons' layer, has no card.

mod action;
mod markup;

use crate::action::Heard;
use crate::diagrams::host::ActionCard;
use crate::i18n::LangContext;
use crate::state::{Focus, LabLayer};
use action::{apply, HeadsAction};
use leptos::prelude::*;

/// Every head's weights, and the picker of the head the diagrams show.
#[component]
pub fn Heads() -> impl IntoView {
    let LabLayer(layer) = expect_context::<LabLayer>();
    let LangContext(lang) = expect_context::<LangContext>();
    let focus = expect_context::<Focus>();
    let markup = Memo::new(move |_| layer.with(|l| markup::heads(l.as_ref(), lang.get())));
    let act = Callback::new(move |heard: Heard| {
        let Some(action) = HeadsAction::read(&heard.reading()) else {
            return;
        };
        let heads = layer.with_untracked(|l| l.as_ref().map_or(1, |l| l.heads()));
        let head = apply(heads, action);
        if head != focus.head.get_untracked() {
            focus.head.set(head);
        }
    });
    view! {
        <ActionCard
            class="card heads"
            testid="heads-view"
            markup=markup
            on_action=act
            chosen=focus.head
        />
    }
}
