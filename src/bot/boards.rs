//! The boards every front end shows (the terminal, Discord, Slack): the
//! leaderboard's top rows in a scope or everywhere, and the newest
//! finished game played in a place (for its transcript). Read through the
//! store's `Stats` and session record ports; a front end renders them in
//! its own markup (`leaderboard_lines` for the chats).

use crate::core::store::{LeaderRow, Store, StoreError};

/// How many players a leaderboard shows.
pub const BOARD_ROWS: u32 = 10;

/// Turtle Soup's best players in one server's or workspace's threads
/// (`scope`), or everywhere (`None`, the terminal's board).
pub async fn leaderboard(store: &dyn Store, scope: Option<&str>) -> Result<Vec<LeaderRow>, StoreError> {
    store.leaderboard(scope, BOARD_ROWS).await
}

/// The newest game of `kind` that is over and was played in `place` (a
/// thread key, a key prefix such as a Slack channel's, or `console` for
/// the terminal's games); `None` when none has ended there.
pub async fn last_finished(store: &dyn Store, place: &str, kind: &str) -> Result<Option<String>, StoreError> {
    store.last_finished(place, kind).await
}
