//! Turtle Soup on the engine: `SoupTable` holds one game's puzzle, state,
//! public history, secrecy gate and semantic ledger, and plays each input
//! through the turn pipeline (`core::pipeline`). Starting and resuming a
//! Soup session live here too, so the actor knows nothing of puzzles.

use std::sync::Arc;

use async_trait::async_trait;

use crate::core::actor::{Delivery, Engine, EngineError, Inbound, Opened, SessionHandle, new_canary};
use crate::core::game::table::{Afterwards, EndedWork};
use crate::core::game::{Deadline, Game, Played, Points, ReplyKind, Table, TurnContext, TurnInput, TurnRecord};
use crate::core::prompts::PublicTurn;
use crate::core::soup::i18n::{Msg, say};
use crate::core::soup::known;
use crate::core::soup::pipeline::{GameGate, LedgerVector, Pipeline, SessionView, TurnOutcome, ends_game};
use crate::core::soup::puzzle::Puzzle;
use crate::core::soup::remember::{EndedGame, remember_game};
use crate::core::store::{LoadedSession, NewSession, StoreError};
use crate::core::vocab::Language;

use super::{Phase, SoupGame};

use crate::core::vocab::Player;

pub struct SoupTable {
    puzzle: Arc<Puzzle>,
    game: SoupGame,
    history: Vec<PublicTurn>,
    canary: String,
    /// The secrecy gate, cut from the puzzle once per game.
    gate: GameGate,
    /// Question embeddings for the semantic ledger.
    ledger: Vec<LedgerVector>,
    /// Self-play: AI players go on with no human between their turns and
    /// without waiting.
    autoplay: bool,
}

/// The most AI players at one Soup table.
pub const MAX_AI_PLAYERS: u32 = 4;

/// How long an AI player waits after the last turn before it asks, so a
/// human's question comes first and the thread is never flooded.
pub const AI_DELAY_MS: i64 = 6_000;

/// An AI player at a Soup table, named as AI.
pub fn ai_player(k: u32, lang: Language) -> Player {
    let names: [&str; 4] = match lang {
        Language::En => ["Ada", "Basil", "Cleo", "Dmitri"],
        Language::Zh => ["小艾", "阿博", "晓晨", "大卫"],
    };
    let name = names[k as usize % names.len()];
    Player { id: format!("ai:soup:{k}"), name: format!("{name} 🤖") }
}

fn is_ai_turn(turn: &PublicTurn) -> bool {
    turn.player.ends_with('🤖')
}

/// What a committed Soup turn changes, for `adopt`.
struct SoupNext {
    game: Option<SoupGame>,
    public: Option<PublicTurn>,
    ledger_vector: Option<LedgerVector>,
}

impl SoupTable {
    pub fn new(puzzle: Arc<Puzzle>, game: SoupGame, history: Vec<PublicTurn>, canary: String) -> SoupTable {
        SoupTable {
            gate: GameGate::new(&puzzle, &canary),
            puzzle,
            game,
            history,
            canary,
            ledger: Vec::new(),
            autoplay: false,
        }
    }

    /// AI players go on by themselves (self-play).
    pub fn autoplay(mut self) -> SoupTable {
        self.autoplay = true;
        self
    }

    pub fn game(&self) -> &SoupGame {
        &self.game
    }

    fn view(&mut self) -> SessionView<'_> {
        self.gate.catch_up(&self.puzzle, &self.game, &self.history);
        SessionView {
            puzzle: &self.puzzle,
            game: &self.game,
            history: &self.history,
            canary: &self.canary,
            gate: &self.gate,
            ledger: &self.ledger,
        }
    }

    /// The pipeline's outcome as the engine's `Played`.
    fn played(&self, outcome: TurnOutcome) -> Played {
        let before = self.game.phase;
        let after = outcome.next.as_ref().map_or(before, |g| g.phase);
        let points = match &outcome.next {
            Some(next) if ends_game(before, after) => points_of(next),
            _ => Vec::new(),
        };
        let snapshot = match outcome.next.as_ref().map(Game::snapshot).transpose() {
            Ok(snapshot) => snapshot,
            Err(e) => {
                tracing::error!(error = %e, "cannot store the game's state; the turn is not counted");
                let reply =
                    crate::core::game::Reply::new(ReplyKind::Unavailable, say(self.puzzle.language, &Msg::ModelDown));
                let mut played = Played::reply(reply);
                played.commit = false;
                return played;
            }
        };
        let record = TurnRecord {
            intent: outcome.intent,
            facts: outcome.facts,
            public: outcome.public.clone(),
            usage: outcome.usage,
        };
        let next = SoupNext { game: outcome.next, public: outcome.public, ledger_vector: outcome.ledger_vector };
        Played {
            reply: outcome.reply,
            messages: Vec::new(),
            choices: Vec::new(),
            record,
            snapshot,
            points,
            commit: outcome.commit,
            withheld: outcome.withheld,
            next: Some(Box::new(next)),
        }
    }
}

/// Points per player at the end, and who solved it.
fn points_of(game: &SoupGame) -> Vec<Points> {
    game.player_points()
        .into_iter()
        .map(|(id, name, points)| Points {
            solved: game.solver.as_deref() == Some(id.as_str()),
            player: Player { id, name },
            points,
            role: None,
        })
        .collect()
}

#[async_trait]
impl Table for SoupTable {
    fn kind(&self) -> &'static str {
        SoupGame::KIND
    }

    fn language(&self) -> Language {
        self.puzzle.language
    }

    fn is_over(&self) -> bool {
        self.game.phase.is_over()
    }

    fn is_running(&self) -> bool {
        self.game.phase == Phase::InProgress
    }

    fn deadline(&self) -> Option<Deadline> {
        None
    }

    async fn play(&mut self, ctx: &TurnContext<'_>, inbound: &Inbound) -> Played {
        // An AI player's move queued before others played (two humans
        // asked within its delay) waits for the next human instead.
        let ai = inbound.player.id.starts_with("ai:soup:");
        let streak = self.history.iter().rev().take_while(|t| is_ai_turn(t)).count();
        if ai && !self.autoplay && (streak >= self.game.ai_players as usize || !self.is_running()) {
            let mut played = Played::reply(crate::core::game::Reply::new(ReplyKind::Notice, String::new()));
            played.commit = false;
            return played;
        }
        let pipeline = ctx.pipeline;
        let view = self.view();
        let outcome = pipeline.run(&view, &inbound.player, &inbound.input, ctx.progress).await;
        let mut played = self.played(outcome);
        // Nobody typed an AI player's question in the thread: the reply
        // says it first.
        if ai && !inbound.input.text().is_empty() {
            played.reply.text = format!("{}: {}\n{}", inbound.player.name, inbound.input.text(), played.reply.text);
        }
        played
    }

    fn expire(&mut self, ctx: &TurnContext<'_>) -> Played {
        let view = self.view();
        let outcome = ctx.pipeline.expire(&view);
        self.played(outcome)
    }

    /// An AI player's question or guess, from public information only:
    /// after a human's turn (one AI turn per AI player at most before a
    /// human speaks again), a few seconds later; in self-play, every turn
    /// at once. Its id is the history's length, so it is asked once.
    async fn agent_moves(&self, ctx: &TurnContext<'_>, _seq: i64) -> Vec<crate::core::game::table::AgentMove> {
        let n = self.game.ai_players;
        if n == 0 || self.game.phase != Phase::InProgress {
            return Vec::new();
        }
        let streak = self.history.iter().rev().take_while(|t| is_ai_turn(t)).count();
        if !self.autoplay && streak >= n as usize {
            return Vec::new();
        }
        let asked = self.game.questions + self.game.guesses;
        let seat = ai_player(asked % n, self.puzzle.language);
        let text = match ctx.pipeline.ai_player_question(&self.puzzle, &self.history).await {
            Ok(Some(text)) => text,
            Ok(None) => return Vec::new(),
            Err(e) => {
                tracing::info!(error = %e, "an AI player could not ask; it waits for the next turn");
                return Vec::new();
            }
        };
        vec![crate::core::game::table::AgentMove {
            seat,
            input: TurnInput::Say(text),
            event_id: format!("agent:soup-ai:{}", self.history.len()),
            not_before_ms: (!self.autoplay).then_some(ctx.now_ms + AI_DELAY_MS),
        }]
    }

    fn adopt(&mut self, played: Played) {
        let Some(next) = played.next.and_then(|n| n.downcast::<SoupNext>().ok()) else { return };
        if let Some(game) = next.game {
            self.game = game;
        }
        if let Some(public) = next.public {
            self.history.push(public);
        }
        self.ledger.extend(next.ledger_vector);
    }

    fn ended(&self, after: &Afterwards, session_id: &str, now_ms: i64) -> Option<EndedWork> {
        after.pipeline.memory.as_ref()?;
        let after = after.clone();
        let (id, puzzle, game, history) =
            (session_id.to_string(), self.puzzle.clone(), self.game.clone(), self.history.clone());
        Some(Box::pin(async move {
            let Some(memory) = after.pipeline.memory.clone() else { return };
            let ended = EndedGame { session_id: &id, puzzle: &puzzle, game: &game, history: &history, now_ms };
            if let Err(e) = remember_game(&after.pipeline, after.store.as_ref(), memory.as_ref(), &ended).await {
                tracing::warn!(session = %id, error = %e, "could not write the game to memory");
            }
        }))
    }
}

impl Engine {
    /// Creates a Turtle Soup session, starts its actor and plays the Start turn.
    pub async fn start_session(
        self: &Arc<Self>,
        puzzle: Arc<Puzzle>,
        channel: &str,
        hint_limit: u32,
        host: Player,
    ) -> Result<(SessionHandle, Delivery), EngineError> {
        self.start_session_with(puzzle, channel, hint_limit, host, 0).await
    }

    /// `start_session` with AI players at the table.
    pub async fn start_session_with(
        self: &Arc<Self>,
        puzzle: Arc<Puzzle>,
        channel: &str,
        hint_limit: u32,
        host: Player,
        ai_players: u32,
    ) -> Result<(SessionHandle, Delivery), EngineError> {
        let now = self.clock.now_ms();
        let mut game = SoupGame::new(&puzzle, hint_limit);
        game.ai_players = ai_players.min(MAX_AI_PLAYERS);
        let snapshot = game.snapshot().map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let new = NewSession {
            id: uuid::Uuid::new_v4().simple().to_string(),
            puzzle_id: puzzle.id.clone(),
            language: puzzle.language,
            channel: channel.to_string(),
            canary: new_canary(),
            snapshot,
            created_ms: now,
        };
        self.store.create_session(&new).await?;
        self.warm_up(&puzzle);
        let table = SoupTable::new(puzzle, game, Vec::new(), new.canary);
        let handle = self.open_table(Opened { id: new.id, last_activity_ms: now, seq: 0 }, Box::new(table));
        let intro = handle.send(Inbound::new(host, TurnInput::Start)).await?;
        Ok((handle, intro))
    }

    /// Loads a stored Turtle Soup session and starts its actor.
    /// `find_puzzle` resolves the stored puzzle id.
    pub async fn resume_session(
        self: &Arc<Self>,
        id: &str,
        find_puzzle: impl FnOnce(&str) -> Option<Arc<Puzzle>>,
    ) -> Result<(SessionHandle, LoadedSession), EngineError> {
        let loaded = self.store.load_session(id).await?.ok_or_else(|| StoreError::NotFound(id.to_string()))?;
        let game = SoupGame::restore(&loaded.snapshot).map_err(|e| EngineError::Resume(e.to_string()))?;
        let puzzle =
            find_puzzle(&loaded.puzzle_id).ok_or_else(|| EngineError::UnknownPuzzle(loaded.puzzle_id.clone()))?;
        let history = loaded.turns.iter().filter_map(|t| t.public.clone()).collect();
        self.warm_up(&puzzle);
        let mut table = SoupTable::new(puzzle, game, history, loaded.canary.clone());
        table.ledger = ledger_vectors(&self.pipeline, &table.game).await;
        let seq = loaded.turns.last().map_or(0, |t| t.seq);
        let opened = Opened { id: loaded.id.clone(), last_activity_ms: loaded.last_activity_ms, seq };
        Ok((self.open_table(opened, Box::new(table)), loaded))
    }

    /// Prepares the puzzle's known answers in the background while the
    /// players read the story, so the first question does not wait for
    /// them to be embedded (seconds, the first time on a machine).
    fn warm_up(&self, puzzle: &Arc<Puzzle>) {
        let pipeline = &self.pipeline;
        if !pipeline.settings.known_answers {
            return;
        }
        let (puzzle, embedder, cache) = (puzzle.clone(), pipeline.embedder.clone(), pipeline.vector_cache.clone());
        tokio::spawn(async move {
            known::prepared(&puzzle, embedder.as_ref(), cache.as_ref()).await;
        });
    }
}

/// Re-embeds a resumed game's ledger questions (vectors are not stored).
async fn ledger_vectors(pipeline: &Pipeline, game: &SoupGame) -> Vec<LedgerVector> {
    let Some(embedder) = &pipeline.embedder else { return Vec::new() };
    let keys: Vec<String> = game.ledger.keys().cloned().collect();
    match embedder.embed(&keys).await {
        Ok(vectors) => keys
            .into_iter()
            .zip(vectors)
            .filter_map(|(key, vector)| Some(LedgerVector { verdict: game.ledger_verdict(&key)?, key, vector }))
            .collect(),
        Err(e) => {
            tracing::warn!(error = %e, "could not re-embed the ledger; exact matching only");
            Vec::new()
        }
    }
}
