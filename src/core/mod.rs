//! The game core: Turtle Soup's rules and state machine, the turn pipeline,
//! session actors, prompts, and the ports (traits) for models and storage.
//!
//! Architecture invariant: nothing in `core` does I/O or names an I/O crate
//! (sqlx, lancedb, reqwest, serenity, poise, slack_morphism). Adapters
//! implement the ports outside; a test in `tests/` checks the imports.

pub mod actor;
pub mod catalogue;
pub mod embed;
pub mod guild;
pub mod i18n;
pub mod knowledge;
pub mod llm;
pub mod memory;
pub mod pipeline;
pub mod prompts;
pub mod puzzle;
pub mod remember;
pub mod secrecy;
pub mod soup;
pub mod store;
pub mod text;
pub mod verdict;

#[cfg(test)]
pub(crate) mod fixtures;
