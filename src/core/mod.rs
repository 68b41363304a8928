//! The game core: the engine every game plugs into (`game`: the `Game`
//! and `Table` contracts, seats, audiences, ballots, deadlines, seat views,
//! per-game secrecy), session actors (`actor`), Turtle Soup's rules and
//! state machine (`soup`) and turn pipeline (`pipeline`), prompts, and the
//! ports (traits) for models and storage.
//!
//! Architecture invariant: nothing in `core` does I/O or names an I/O crate
//! (sqlx, lancedb, reqwest, serenity, poise, slack_morphism). Adapters
//! implement the ports outside; a test in `tests/` checks the imports.

pub mod actor;
pub mod arena;
pub mod catalogue;
pub mod context;
pub mod embed;
pub mod game;
pub mod guild;
pub mod i18n;
pub mod knowledge;
pub mod llm;
pub mod lore;
pub mod memory;
pub mod pipeline;
pub mod prompts;
pub mod puzzle;
pub mod remember;
pub mod secrecy;
pub mod soup;
pub mod store;
pub mod telemetry;
pub mod text;
pub mod undercover;
pub mod verdict;

#[cfg(test)]
pub(crate) mod fixtures;
