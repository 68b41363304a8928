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
pub mod catalogue;
pub mod context;
pub mod embed;
pub mod game;
pub mod guild;
pub mod knowledge;
pub mod llm;
pub mod memory;
pub mod phrases;
pub mod prompts;
pub mod record;
pub mod secrecy;
pub mod services;
pub mod soup;
pub mod store;
pub mod telemetry;
pub mod text;
pub mod vocab;

#[cfg(test)]
pub(crate) mod fixtures;

/// Registers the games the bots host beside Turtle Soup: each is its own
/// folder under `src/core/` with a `hosted(&dyn Bundled)` that builds its
/// `HostedGame` from its bundled data. A new game is one line here.
macro_rules! games {
    ($($game:ident),* $(,)?) => {
        $(pub mod $game;)*

        /// Every registered game's host, in registration order.
        pub fn hosted_games(data: &dyn game::Bundled) -> Vec<std::sync::Arc<dyn game::HostedGame>> {
            vec![$($game::hosted(data)),*]
        }
    };
}

games! {
    undercover,
    arena,
    rpg,
    secret_ballot,
    werewolf,
}
