//! The storage port: what the game needs to keep, not how. `crate::store`
//! implements it with sqlx. SQL is the record; everything else (LanceDB,
//! caches) can be rebuilt from it. The port is split by concern, so each
//! part says what it owns and what it must answer: `SessionRecord` (the
//! sessions and their turns, inbox and outbox), `Leases` (which process
//! runs a session, and hand-over between processes), `Stats` (boards
//! and players' records) and `MemoryRecord` (player memory's change feed,
//! which every process's vector index follows); `Store` is all four, what
//! callers hold.

use async_trait::async_trait;

use super::memory::MemoryItem;
use super::prompts::PublicTurn;
use super::record::{Audience, Intent, Message, Points, Reply, ReplyKind, Snapshot, TurnRecord, Verdict};
use crate::core::vocab::Language;
use crate::core::vocab::Player;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The event id was already committed for this session. `commit_turn`
    /// MUST return this (and write nothing) for a repeated event id.
    #[error("event {0:?} was already processed")]
    Duplicate(String),
    #[error("session {0:?} not found")]
    NotFound(String),
    /// The stored data could not be read back (corrupt snapshot, ...).
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
    #[error("database error: {0}")]
    Database(String),
    /// The database is away (not answering, restarting): nothing was
    /// written, and the same input may be sent again in a moment.
    #[error("the database is not answering: {0}")]
    Unavailable(String),
    /// The committing process no longer holds the session's lease: another
    /// process took it over (this one stalled past its expiry).
    #[error("the lease on session {0:?} passed to another process")]
    LeaseLost(String),
}

impl StoreError {
    /// The database is away rather than refusing: worth a "try again in
    /// a moment", never a half-played turn.
    pub fn is_unavailable(&self) -> bool {
        matches!(self, StoreError::Unavailable(_))
    }
}

/// A new session's first row.
#[derive(Debug, Clone)]
pub struct NewSession {
    pub id: String,
    /// The game's content id: a puzzle, a word pair, a world.
    pub puzzle_id: String,
    pub language: Language,
    /// Where the session lives, e.g. `console`, `discord:<thread id>`.
    pub channel: String,
    pub canary: String,
    /// The game (its kind and version) and its first state.
    pub snapshot: Snapshot,
    pub created_ms: i64,
}

impl NewSession {
    /// The row a hosted game's lobby starts from: a fresh id and canary,
    /// and a snapshot of `kind` for `HostedGame::open` to fill in.
    pub fn for_game(kind: &str, language: Language, channel: &str, created_ms: i64) -> NewSession {
        NewSession {
            id: uuid::Uuid::new_v4().simple().to_string(),
            puzzle_id: "-".into(),
            language,
            channel: channel.to_string(),
            canary: crate::core::secrecy::new_canary(),
            snapshot: Snapshot {
                kind: kind.to_string(),
                version: 0,
                phase: String::new(),
                progress: 0,
                deadline_ms: None,
                body: String::new(),
            },
            created_ms,
        }
    }
}

/// A session as stored, with its turns in order.
#[derive(Debug, Clone)]
pub struct LoadedSession {
    pub id: String,
    pub puzzle_id: String,
    pub channel: String,
    pub canary: String,
    pub snapshot: Snapshot,
    pub turns: Vec<StoredTurn>,
    pub last_activity_ms: i64,
}

/// One committed turn.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredTurn {
    pub seq: i64,
    pub event_id: Option<String>,
    pub player: Player,
    pub kind: String,
    pub input: String,
    pub intent: Option<Intent>,
    pub verdict: Option<Verdict>,
    pub reply: Reply,
    pub public: Option<PublicTurn>,
    pub model_calls: u32,
    pub prompt_tokens: u32,
    pub judge_parse: String,
    pub created_ms: i64,
}

/// Everything one turn writes, in one transaction: the turn row, the inbox
/// row for its event id, an outbox row for its reply and one for each
/// further message (with its audience), the session's new snapshot (and
/// so its deadline), and points when the game ended.
#[derive(Debug, Clone)]
pub struct TurnCommit<'a> {
    pub session_id: &'a str,
    pub event_id: Option<&'a str>,
    pub player: &'a Player,
    pub kind: &'a str,
    pub input: &'a str,
    pub record: &'a TurnRecord,
    pub reply: &'a Reply,
    pub messages: &'a [Message],
    /// The state after the turn; `None` when the turn changed nothing.
    pub next: Option<&'a Snapshot>,
    pub points: &'a [Points],
    pub created_ms: i64,
    /// The lease the committing process holds, renewed by the commit; a
    /// commit whose lease another process has taken writes nothing
    /// (`StoreError::LeaseLost`). `None` commits without a lease check.
    pub lease: Option<LeaseRenewal<'a>>,
}

/// `owner`'s lease on the session, to run until `until_ms`.
#[derive(Debug, Clone, Copy)]
pub struct LeaseRenewal<'a> {
    pub owner: &'a str,
    pub until_ms: i64,
}

/// Who runs a session's actor (`Leases::claim_lease`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lease {
    /// The caller holds it now.
    Held,
    /// Another process does, until `until_ms` unless it renews.
    HeldBy { owner: String, until_ms: i64 },
}

/// An event handed to the process holding its session's lease.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handed {
    pub session_id: String,
    pub event_id: String,
    /// The input, as `actor::Handoff` serialises it.
    pub inbound: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Committed {
    pub seq: i64,
    pub outbox_id: i64,
    /// The outbox rows of `TurnCommit::messages`, in order.
    pub message_ids: Vec<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxItem {
    pub id: i64,
    pub session_id: String,
    /// The turn that sent it.
    pub seq: i64,
    pub kind: ReplyKind,
    pub body: String,
    /// Who may read it: a front end never posts a `Seat` row in public.
    pub audience: Audience,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaderRow {
    pub player_id: String,
    pub name: String,
    pub points: i64,
    pub solves: i64,
}

/// One player's games and wins in one role.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoleRow {
    pub player_id: String,
    pub name: String,
    pub role: String,
    pub games: i64,
    pub wins: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionSummary {
    pub id: String,
    /// The game's kind (`soup`, ...).
    pub kind: String,
    pub puzzle_id: String,
    pub channel: String,
    /// The phase's stored name.
    pub phase: String,
    pub questions: u32,
    pub last_activity_ms: i64,
}

/// A player's record, counted from SQL since their memory was last erased.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlayerStats {
    pub games: u32,
    pub solves: u32,
    /// Questions asked in the games they solved, in total.
    pub questions_in_solves: u32,
    pub questions: u32,
    pub guesses: u32,
    pub hints: u32,
}

/// One player's Turtle Soup record (`/soup stats`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SoupStats {
    /// Finished games they took a turn in.
    pub games: u32,
    pub solves: u32,
    /// Questions asked in the games they solved, in total.
    pub questions_in_solves: u32,
    /// Key facts they found, each counted once per game.
    pub facts_found: u32,
    pub hints: u32,
    /// Finished games per puzzle id.
    pub puzzles: Vec<(String, u32)>,
}

/// Plays of one puzzle across all sessions.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PuzzleStats {
    pub plays: u32,
    pub solves: u32,
    /// Median questions asked in solved games.
    pub median_questions: Option<f32>,
}

/// A finished game, for rebuilding memory from the record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinishedSession {
    pub id: String,
    pub puzzle_id: String,
    pub phase: String,
    pub summary: Option<String>,
    pub ended_ms: i64,
    pub players: Vec<Player>,
}

/// A custom puzzle kept in SQL for one guild or workspace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomPuzzle {
    pub scope: String,
    pub id: String,
    pub source: String,
    pub enabled: bool,
}

/// The storage port, whole: what a process needs of the database. Every
/// caller holds one (`Arc<dyn Store>`); an adapter implements the three
/// concerns below and gets `Store` for free. Methods of the three are
/// callable on a `dyn Store` as they are; on a concrete store, import the
/// concern (`SessionRecord`, `Leases`, `Stats`, `MemoryRecord`) whose
/// methods you call.
pub trait Store: SessionRecord + Leases + Stats + MemoryRecord {}

impl<T: SessionRecord + Leases + Stats + MemoryRecord> Store for T {}

/// A session's record: its row and snapshot, its turns, the inbox of
/// events it processed and the outbox of replies to deliver; also the
/// sessions a process lists or resumes at start, the custom puzzles they
/// may play, and whether the database answers at all.
///
/// Errors: `commit_turn` MUST return `StoreError::Duplicate` (writing
/// nothing) for an event id already committed in the session, and
/// `StoreError::LeaseLost` (writing nothing) when its `TurnCommit::lease`
/// passed to another process. A stored value that cannot be read back
/// (a snapshot that is not JSON, an unknown enum name or audience) MUST be
/// `StoreError::Corrupt`. A missing session is `Ok(None)`, not
/// `StoreError::NotFound`. Anything else the database refuses is
/// `StoreError::Database`.
#[async_trait]
pub trait SessionRecord: Send + Sync {
    async fn create_session(&self, session: &NewSession) -> Result<(), StoreError>;

    /// `Ok(None)` when no such session exists.
    async fn load_session(&self, id: &str) -> Result<Option<LoadedSession>, StoreError>;

    /// The reply recorded for an event already processed in this session.
    async fn find_event(&self, session_id: &str, event_id: &str) -> Result<Option<Reply>, StoreError>;

    /// Writes the whole turn atomically; see `TurnCommit`.
    async fn commit_turn(&self, turn: &TurnCommit<'_>) -> Result<Committed, StoreError>;

    /// Marks an outbox row delivered to the platform.
    async fn mark_sent(&self, outbox_id: i64) -> Result<(), StoreError>;

    /// Committed replies not yet marked sent, oldest first.
    async fn unsent(&self, session_id: &str) -> Result<Vec<OutboxItem>, StoreError>;
    /// Every outbox row of a session, sent or not, in order: a finished
    /// game's transcript.
    async fn outbox(&self, session_id: &str) -> Result<Vec<OutboxItem>, StoreError>;

    async fn recent_sessions(&self, limit: u32) -> Result<Vec<SessionSummary>, StoreError>;

    /// Keeps the public summary of a finished game.
    async fn set_summary(&self, session_id: &str, summary: &str) -> Result<(), StoreError>;

    async fn custom_puzzles(&self) -> Result<Vec<CustomPuzzle>, StoreError>;

    /// Sessions whose current phase has a deadline, earliest first: a
    /// process resumes them at start so their timers fire after a restart.
    async fn pending_deadlines(&self) -> Result<Vec<(String, i64)>, StoreError>;

    /// The game a session plays (`soup`, ...); `Ok(None)` when there is no such session.
    async fn session_kind(&self, id: &str) -> Result<Option<String>, StoreError>;

    /// The newest session of game `kind` that is over (Soup: solved, given up,
    /// revealed or expired; a seated game: over) and was played in `place`: a channel key, or
    /// any key under it (`slack:C1` holds `slack:C1:<thread ts>`).
    async fn last_finished(&self, place: &str, kind: &str) -> Result<Option<String>, StoreError>;

    /// Whether the database answers (`/healthz`).
    async fn ping(&self) -> Result<(), StoreError>;
}

/// Leases and hand-over between processes: which process runs a session's
/// actor, and the queue of inputs that reached another process and wait
/// for the holder. (A commit's own lease check is `SessionRecord::commit_turn`'s.)
///
/// Errors: a lease held by someone else is an answer, not an error
/// (`Lease::HeldBy`); an event queued twice is `Ok(false)`, not
/// `StoreError::Duplicate`; releasing or dropping what is not there is a
/// no-op. Everything else the database refuses, and a lease that keeps
/// changing hands while claimed, is `StoreError::Database`.
#[async_trait]
pub trait Leases: Send + Sync {
    /// Takes `session_id`'s lease for `owner` until `until_ms`, or renews
    /// it: when nobody holds it, `owner` does, or its holder's expired
    /// before `now_ms`. Otherwise says who holds it.
    async fn claim_lease(&self, session_id: &str, owner: &str, now_ms: i64, until_ms: i64)
    -> Result<Lease, StoreError>;

    /// Gives the lease up (the actor stopped); a no-op if `owner` does not hold it.
    async fn release_lease(&self, session_id: &str, owner: &str) -> Result<(), StoreError>;

    /// Queues an event for the process holding the session's lease; `false`
    /// when the same event was queued before (nothing written).
    async fn hand_off(&self, handed: &Handed, now_ms: i64) -> Result<bool, StoreError>;

    /// Events waiting for the sessions whose lease `owner` holds, or whose
    /// lease expired before `now_ms` (their holder is gone), oldest first.
    async fn handed(&self, owner: &str, now_ms: i64, limit: u32) -> Result<Vec<Handed>, StoreError>;

    /// The events waiting for one session, oldest first: its actor plays
    /// them before an input that reached it directly.
    async fn handed_to(&self, session_id: &str) -> Result<Vec<Handed>, StoreError>;

    /// Removes a handed event once its session played it (or found it played).
    async fn drop_handed(&self, session_id: &str, event_id: &str) -> Result<(), StoreError>;

    /// A signal each time an input is handed to a session `owner` holds
    /// (or one nobody holds), where the database can tell its listeners
    /// (PostgreSQL's `LISTEN/NOTIFY`); `None` where it cannot, and the
    /// holder polls. Signals may be merged or, across a reconnect, lost:
    /// a listener still polls now and then.
    async fn handoff_signals(&self, owner: &str) -> Result<Option<tokio::sync::mpsc::Receiver<()>>, StoreError> {
        let _ = owner;
        Ok(None)
    }
}

/// Statistics and boards, counted from the record: leaderboards, role and
/// player records, puzzle plays, the finished games that memory is rebuilt
/// from, and a player's right to be forgotten (games before an erase of
/// their memory no longer count). Reads only, but for the erase.
///
/// Errors: a player or puzzle with no games is an empty or zero answer
/// (`Default`), never `StoreError::NotFound`, and erasing an unknown
/// player's memory is `Ok(())`. Anything the database refuses is
/// `StoreError::Database`.
#[async_trait]
pub trait Stats: Send + Sync {
    /// Turtle Soup's best players, in one server's or workspace's threads
    /// (`scope`) or everywhere.
    async fn leaderboard(&self, scope: Option<&str>, limit: u32) -> Result<Vec<LeaderRow>, StoreError>;

    /// One player's Turtle Soup games, in one scope or everywhere; games
    /// before an erase of their memory are not counted.
    async fn soup_stats(&self, player_id: &str, scope: Option<&str>) -> Result<SoupStats, StoreError>;

    /// Games and wins per player and role in one game (`undercover`),
    /// within one server or workspace when `scope` is given; most wins first.
    async fn role_stats(&self, kind: &str, scope: Option<&str>, limit: u32) -> Result<Vec<RoleRow>, StoreError>;

    /// Finished games, oldest first, with their players; for each player
    /// only games after their memory was erased.
    async fn finished_sessions(&self) -> Result<Vec<FinishedSession>, StoreError>;

    async fn player_stats(&self, player_id: &str) -> Result<PlayerStats, StoreError>;

    async fn puzzle_stats(&self, puzzle_id: &str) -> Result<PuzzleStats, StoreError>;

    /// Players whose id or name matches, for `echoes memory`.
    async fn find_players(&self, id_or_name: &str) -> Result<Vec<Player>, StoreError>;

    /// Marks a player's memory erased now: rebuilds skip everything before.
    async fn erase_player_memory(&self, player_id: &str, now_ms: i64) -> Result<(), StoreError>;
}

/// One change in player memory's record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryChange {
    /// Its place in commit order: a follower that applied up to `seq` reads
    /// only what comes after.
    pub seq: i64,
    pub op: MemoryOp,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MemoryOp {
    /// A memory written (or written again: it replaces the one with its id).
    Put(MemoryItem),
    /// A namespace erased (a player's `forget-me`).
    Forget { namespace: String },
}

/// Player memory's record: every memory written or erased, in commit
/// order, a change feed that each process's vector index catches up from
/// and can be rebuilt from at any time (`SharedMemory`). A memory written
/// again keeps only its newest row; erasing a namespace deletes its rows
/// (the text is gone from the record too) and leaves one `Forget` change.
///
/// Errors: anything the database refuses is `StoreError::Database`; a row
/// that cannot be read back (an unknown kind or op) is `StoreError::Corrupt`.
#[async_trait]
pub trait MemoryRecord: Send + Sync {
    /// Records memories written, in one transaction.
    async fn record_memories(&self, items: &[MemoryItem]) -> Result<(), StoreError>;

    /// Erases a namespace from the record; how many memories it held.
    async fn record_forget(&self, namespace: &str, at_ms: i64) -> Result<usize, StoreError>;

    /// Up to `limit` changes committed after `after`, in commit order.
    async fn memory_changes(&self, after: i64, limit: u32) -> Result<Vec<MemoryChange>, StoreError>;

    /// A signal each time memory's record changes, where the database can
    /// tell its listeners (PostgreSQL's `LISTEN/NOTIFY`); `None` where it
    /// cannot, and followers poll. Signals may be merged or lost across a
    /// reconnect: a follower still polls now and then.
    async fn memory_signals(&self) -> Result<Option<tokio::sync::mpsc::Receiver<()>>, StoreError> {
        Ok(None)
    }
}

/// Time, injected so tests and replays control it.
pub trait Clock: Send + Sync {
    fn now_ms(&self) -> i64;

    /// Waits until `now_ms()` reaches `at_ms` (a deadline). The default
    /// sleeps on tokio's timer, so tests with paused time control it.
    fn sleep_until(&self, at_ms: i64) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + '_>> {
        let wait = u64::try_from(at_ms - self.now_ms()).unwrap_or(0);
        Box::pin(tokio::time::sleep(std::time::Duration::from_millis(wait)))
    }
}

/// The real clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> i64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as i64)
            .unwrap_or_default()
    }
}
