//! The card registry: every card on the page, in page order, and what the
//! rest of the app derives from it: the page's layout (the shell renders
//! [`Card::ALL`]), the panel names a link or an embed uses (`panels=`), the
//! embed builder's choices and their names in both languages, which panels an
//! embed shows by default, which cards draw after the first frame, and which a
//! read-only figure hides. A walkthrough step names its card with
//! `Step::card`. Adding a card is adding a variant here and its arms; nothing
//! else lists cards (ARCHITECTURE.md: Adding a card).

use crate::i18n::{cards as titles, Msg};

/// A card of the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Card {
    Walkthrough,
    Controls,
    Heads,
    Block,
    Positions,
    Projection,
    Rope,
    DotProducts,
    Softmax,
    Fusion,
    OutputProjection,
    FeedForward,
    WordOrder,
    Generation,
    Training,
    Experiment,
    Mistakes,
    Share,
}

/// What the page needs to know about a card, besides the card itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardSpec {
    /// Its name in links (`panels=`), in its slot's `data-card` and in the
    /// app root's `data-focus` while a walkthrough step is about it. Cards
    /// that are shown and hidden together share it (the positions and RoPE
    /// cards are one panel).
    pub panel: &'static str,
    /// Its name where the page lists cards (the embed builder).
    pub title: Msg,
    /// Whether an embed shows it when its link names no panel.
    pub in_default_embed: bool,
    /// Whether a course page can embed it at all: saving and sharing belong
    /// to the full page.
    pub embeddable: bool,
    /// Whether it is only for changing the lab, and so left out of a
    /// read-only figure (`lock=1`).
    pub edits: bool,
    /// Whether it lies below the four diagrams and is drawn only after the
    /// first frame at start-up (`data-later`, `page::Skipped`).
    pub later: bool,
}

impl CardSpec {
    /// An embeddable card that shows numbers and is drawn at once, not in a
    /// default embed; the builders below say what else it is.
    const fn new(panel: &'static str, title: Msg) -> Self {
        CardSpec {
            panel,
            title,
            in_default_embed: false,
            embeddable: true,
            edits: false,
            later: false,
        }
    }

    const fn in_default_embed(self) -> Self {
        CardSpec {
            in_default_embed: true,
            ..self
        }
    }

    const fn not_embeddable(self) -> Self {
        CardSpec {
            embeddable: false,
            ..self
        }
    }

    const fn edits(self) -> Self {
        CardSpec {
            edits: true,
            ..self
        }
    }

    const fn later(self) -> Self {
        CardSpec {
            later: true,
            ..self
        }
    }
}

impl Card {
    /// Every card, in the order the page shows them.
    pub const ALL: [Card; 18] = [
        Card::Walkthrough,
        Card::Controls,
        Card::Heads,
        Card::Block,
        Card::Positions,
        Card::Projection,
        Card::Rope,
        Card::DotProducts,
        Card::Softmax,
        Card::Fusion,
        Card::OutputProjection,
        Card::FeedForward,
        Card::WordOrder,
        Card::Generation,
        Card::Training,
        Card::Experiment,
        Card::Mistakes,
        Card::Share,
    ];

    /// The card's entry in the registry.
    pub const fn spec(self) -> CardSpec {
        use CardSpec as C;
        match self {
            Card::Walkthrough => C::new("walkthrough", titles::WALKTHROUGH),
            Card::Controls => C::new("controls", titles::CONTROLS).edits(),
            Card::Heads => C::new("heads", titles::HEADS),
            Card::Positions | Card::Rope => C::new("positions", titles::POSITIONS),
            Card::Projection => C::new("projection", titles::PROJECTION).in_default_embed(),
            Card::DotProducts => C::new("dot-products", titles::DOT_PRODUCTS).in_default_embed(),
            Card::Softmax => C::new("softmax", titles::SOFTMAX).in_default_embed(),
            Card::Fusion => C::new("fusion", titles::FUSION).in_default_embed().later(),
            Card::OutputProjection => C::new("output-projection", titles::OUTPUT_PROJECTION),
            // The block's stream and its matrices are one panel.
            Card::Block => C::new("block", titles::BLOCK),
            Card::FeedForward => C::new("block", titles::BLOCK).later(),
            Card::WordOrder => C::new("word-order", titles::WORD_ORDER).later(),
            Card::Generation => C::new("generation", titles::GENERATION).later(),
            Card::Training => C::new("training", titles::TRAINING).edits().later(),
            Card::Experiment => C::new("experiment", titles::EXPERIMENT).later(),
            Card::Mistakes => C::new("mistakes", titles::MISTAKES).later(),
            Card::Share => C::new("share", titles::SHARE)
                .not_embeddable()
                .edits()
                .later(),
        }
    }

    /// The card's panel name ([`CardSpec::panel`]).
    pub const fn panel(self) -> &'static str {
        self.spec().panel
    }

    /// Whether the page shows this card when its link picks `panels`
    /// (space-separated; `None`: every card) and is read-only (`lock`).
    pub fn shown_with(self, panels: Option<&str>, lock: bool) -> bool {
        let spec = self.spec();
        let picked = match panels {
            None => true,
            Some(panels) => spec.embeddable && panels.split(' ').any(|p| p == spec.panel),
        };
        picked && !(lock && spec.edits)
    }
}

/// Every panel a link can name in `panels=`, each once, in page order: the
/// entry of its first card (cards that share a panel share what a link reads
/// of it, `cards_that_share_a_panel_share_everything_a_link_reads`).
pub fn panels() -> Vec<CardSpec> {
    let mut panels: Vec<CardSpec> = Vec::new();
    for spec in Card::ALL.map(Card::spec) {
        if spec.embeddable && !panels.iter().any(|p| p.panel == spec.panel) {
            panels.push(spec);
        }
    }
    panels
}

#[cfg(test)]
mod tests {
    use super::{panels, Card};

    #[test]
    fn every_card_is_listed_once_with_a_name_of_its_own() {
        for (i, card) in Card::ALL.into_iter().enumerate() {
            assert!(!Card::ALL[..i].contains(&card), "{card:?} twice");
            let spec = card.spec();
            assert!(!spec.panel.is_empty(), "{card:?} has no panel name");
            assert!(
                spec.panel
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '-'),
                "{card:?}: a panel name is written in links and selectors"
            );
        }
    }

    #[test]
    fn cards_that_share_a_panel_share_everything_a_link_reads() {
        for a in Card::ALL.map(Card::spec) {
            for b in Card::ALL.map(Card::spec) {
                if a.panel == b.panel {
                    assert_eq!(
                        (a.title, a.in_default_embed, a.embeddable),
                        (b.title, b.in_default_embed, b.embeddable),
                        "{}",
                        a.panel
                    );
                }
            }
        }
    }

    #[test]
    fn links_name_every_embeddable_card_and_the_four_diagrams_by_default() {
        let names: Vec<&str> = panels().iter().map(|p| p.panel).collect();
        for card in Card::ALL {
            assert_eq!(
                names.contains(&card.panel()),
                card.spec().embeddable,
                "{card:?}"
            );
        }
        let default: Vec<&str> = panels()
            .iter()
            .filter(|p| p.in_default_embed)
            .map(|p| p.panel)
            .collect();
        assert_eq!(default, ["projection", "dot-products", "softmax", "fusion"]);
    }

    #[test]
    fn an_embed_shows_the_named_panels_and_a_locked_one_nothing_to_edit() {
        let shown = |panels: Option<&str>, lock| -> Vec<Card> {
            Card::ALL
                .into_iter()
                .filter(|c| c.shown_with(panels, lock))
                .collect()
        };
        assert_eq!(shown(None, false), Card::ALL);
        assert_eq!(
            shown(Some("softmax positions controls"), false),
            [Card::Controls, Card::Positions, Card::Rope, Card::Softmax]
        );
        assert_eq!(shown(Some("softmax controls share"), true), [Card::Softmax]);
        let locked = shown(None, true);
        assert!(!locked.contains(&Card::Training) && locked.contains(&Card::Fusion));
    }
}
