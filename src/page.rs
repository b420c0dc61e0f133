//! The page's machinery: everything between a card's markup and the DOM.
//! A card writes its markup with pure functions (`crate::svg`) and reads its
//! events into an action (`crate::action`); this module shows that markup,
//! patched in place, and hands the events back.
//!
//! - [`patch`]: the one way markup reaches the page, through three scripts
//!   with a job each: `morph.js` the differ (and each host's state, in one
//!   `WeakMap`), `paint.js` the canvas painter,
//!   `highlight.js` the lit cells and the chosen control; and whether a
//!   host is drawn now;
//! - [`action_card`]: a card written as markup, whose controls speak the
//!   cards' protocol;
//! - [`svg_host`]: a diagram's markup, whose cells become [`CellEvent`]s;
//! - [`cell`]: the cells' hooks and the pure gesture state machine;
//! - [`visibility`]: which diagrams are on screen (`visibility.js`),
//!   whether start-up has reached the cards drawn later, and which element
//!   of a card is shown;
//! - [`markup`]: markup every card may write (a refused edit's message);
//! - [`screen`]: whether the screen is narrow, for geometry that follows it.

pub mod action_card;
pub mod cell;
pub mod markup;
pub mod patch;
pub mod screen;
pub mod svg_host;
pub mod visibility;

pub use action_card::ActionCard;
pub use cell::{hit, CellEvent};
pub use markup::refusal;
pub use patch::{drawn, keep_patched, while_drawn, Lit};
pub use screen::narrow_screen;
pub use svg_host::SvgHost;
pub use visibility::{shown_card, Drawn, Skipped};
