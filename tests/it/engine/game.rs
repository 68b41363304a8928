//! "Secret Ballot", the test game: not a real game, a small one that uses
//! every engine service. A lobby (3–4 seats, one AI seat allowed); on
//! start each seat is told a secret phrase privately; one secret vote
//! ("whom do you trust?") with a deadline; the votes are revealed at once
//! when everyone has voted or the deadline passes. Its AI seat votes from
//! its `SeatView` through the narrator model (public side only).

use std::collections::BTreeMap;
use std::sync::Arc;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use echoes::core::actor::{Engine, Inbound, Opened, SessionHandle, new_canary};
use echoes::core::game::table::AgentMove;
use echoes::core::game::{
    Audience, Ballot, Deadline, Game, Message, Played, Points, Reply, ReplyKind, SeatRules, SeatView, Seats, Secret,
    SecretGates, Snapshot, Table, TurnContext, TurnInput, TurnRecord,
};
use echoes::core::llm::{ChatMessage, ChatRequest};
use echoes::core::prompts::PublicTurn;
use echoes::core::secrecy::{Canary, Check};
use echoes::core::store::{NewSession, StoreError};
use echoes::core::vocab::Language;
use echoes::core::vocab::Player;

pub const RULES: SeatRules = SeatRules { min: 3, max: 4, max_ai: 2 };
pub const VOTE_SECONDS: u32 = 45;
/// One phrase per seat, in seating order.
pub const PHRASES: [&str; 4] = ["amber lighthouse", "velvet compass", "paper tiger", "silver kettle"];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    Lobby,
    Voting,
    Over,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BallotGame {
    pub seats: Seats,
    pub phase: Phase,
    /// Seat id → its secret phrase.
    pub phrases: BTreeMap<String, String>,
    pub ballot: Option<Ballot>,
    pub deadline: Option<Deadline>,
    /// The reveal, once the ballot closed.
    pub result: Option<String>,
}

#[derive(Debug, Clone)]
pub enum Event {
    Join(Player),
    Leave(String),
    AddAi,
    Begin { by: String, moderator: bool, now_ms: i64 },
    Vote { voter: String, option: String },
    Close { tag: String },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    Seat(String),
    Ballot(String),
    NotNow,
    StaleTimer,
}

impl BallotGame {
    pub fn new(host: &Player) -> BallotGame {
        BallotGame {
            seats: Seats::open(RULES, host),
            phase: Phase::Lobby,
            phrases: BTreeMap::new(),
            ballot: None,
            deadline: None,
            result: None,
        }
    }

    fn close(&self) -> BallotGame {
        let mut next = self.clone();
        let Some(ballot) = &self.ballot else { return next };
        let (closed, tally) = ballot.close();
        let name = |id: &str| self.seats.seat(id).map_or("?".to_string(), |s| s.player.name.clone());
        let mut lines: Vec<String> = tally.votes.iter().map(|(v, o)| format!("{} → {}", name(v), name(o))).collect();
        lines.extend(tally.abstained.iter().map(|v| format!("{} did not vote", name(v))));
        let verdict = match tally.winner() {
            Some(id) => format!("Most trusted: {}.", name(id)),
            None => "No one is trusted most.".to_string(),
        };
        next.result = Some(format!("{}\n{verdict}", lines.join("\n")));
        next.ballot = Some(closed);
        next.deadline = None;
        next.phase = Phase::Over;
        next
    }
}

impl Game for BallotGame {
    const KIND: &'static str = "test-ballot";
    const VERSION: u32 = 1;
    type Content = ();
    type Event = Event;
    type Rejection = Refusal;

    fn apply(&self, event: &Event, _: &()) -> Result<BallotGame, Refusal> {
        let seat = |r: Result<Seats, echoes::core::game::SeatError>| r.map_err(|e| Refusal::Seat(e.to_string()));
        let mut next = self.clone();
        match (self.phase, event) {
            (Phase::Lobby, Event::Join(p)) => next.seats = seat(self.seats.join(p))?,
            (Phase::Lobby, Event::Leave(id)) => next.seats = seat(self.seats.leave(id))?,
            (Phase::Lobby, Event::AddAi) => next.seats = seat(self.seats.add_ai())?,
            (Phase::Lobby, Event::Begin { by, moderator, now_ms }) => {
                next.seats = seat(self.seats.start(by, *moderator))?;
                let ids: Vec<String> = next.seats.seats.iter().map(|s| s.player.id.clone()).collect();
                next.phrases = ids.iter().cloned().zip(PHRASES.iter().map(|p| p.to_string())).collect();
                let options = next.seats.seats.iter().map(|s| (s.player.id.clone(), s.player.name.clone())).collect();
                next.ballot = Some(Ballot::open(options, ids));
                next.deadline = Some(Deadline::after(*now_ms, VOTE_SECONDS, "vote:1"));
                next.phase = Phase::Voting;
            }
            (Phase::Voting, Event::Vote { voter, option }) => {
                let ballot = self.ballot.as_ref().ok_or(Refusal::NotNow)?;
                let cast = ballot.cast(voter, option).map_err(|e| Refusal::Ballot(e.to_string()))?;
                next.ballot = Some(cast);
                if next.ballot.as_ref().is_some_and(Ballot::is_complete) {
                    next = next.close();
                }
            }
            (Phase::Voting, Event::Close { tag }) => {
                if self.deadline.as_ref().is_none_or(|d| &d.tag != tag) {
                    return Err(Refusal::StaleTimer);
                }
                next = self.close();
            }
            (Phase::Over, Event::Close { .. }) => return Err(Refusal::StaleTimer),
            _ => return Err(Refusal::NotNow),
        }
        Ok(next)
    }

    fn phase_name(&self) -> &'static str {
        match self.phase {
            Phase::Lobby => "lobby",
            Phase::Voting => "voting",
            Phase::Over => "over",
        }
    }

    fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    fn deadline(&self) -> Option<Deadline> {
        self.deadline.clone()
    }
}

/// The game on the engine.
pub struct BallotTable {
    pub game: BallotGame,
    history: Vec<PublicTurn>,
    canary: String,
    gates: SecretGates,
}

struct Next {
    game: BallotGame,
    public: Option<PublicTurn>,
}

fn gates_for(game: &BallotGame, canary: &str) -> SecretGates {
    let secrets: Vec<Secret> = game.phrases.iter().map(|(seat, p)| Secret::of_seat(seat.clone(), p.clone())).collect();
    SecretGates::new("Whom do you trust?", &secrets, Canary::parse(canary))
}

impl BallotTable {
    pub fn new(game: BallotGame, history: Vec<PublicTurn>, canary: &str) -> BallotTable {
        BallotTable { gates: gates_for(&game, canary), game, history, canary: canary.to_string() }
    }

    fn event_for(&self, inbound: &Inbound, now_ms: i64) -> Option<Event> {
        let who = inbound.player.clone();
        Some(match &inbound.input {
            TurnInput::Join => Event::Join(who),
            TurnInput::Leave => Event::Leave(who.id),
            TurnInput::AddAi => Event::AddAi,
            TurnInput::Begin => Event::Begin { by: who.id, moderator: inbound.moderator, now_ms },
            TurnInput::Vote(option) => Event::Vote { voter: who.id, option: option.clone() },
            TurnInput::Timer(tag) => Event::Close { tag: tag.clone() },
            _ => return None,
        })
    }

    /// The messages a change of state sends.
    fn messages(&self, before: &BallotGame, after: &BallotGame, who: &Player) -> (Reply, Vec<Message>) {
        let mut out = Vec::new();
        let reply = match (before.phase, after.phase) {
            (Phase::Lobby, Phase::Lobby) => Reply::new(
                ReplyKind::Lobby,
                format!("{} seats taken ({}–{}).", after.seats.len(), RULES.min, RULES.max),
            ),
            (Phase::Lobby, Phase::Voting) => {
                for (seat, phrase) in &after.phrases {
                    let text = format!("Your secret phrase: {phrase}");
                    out.push(Message::to(Audience::Seat(seat.clone()), ReplyKind::Private, text));
                }
                Reply::new(ReplyKind::Ballot, format!("Voting is open: whom do you trust? {VOTE_SECONDS} s."))
            }
            (_, Phase::Over) => Reply::new(ReplyKind::Ended, after.result.clone().unwrap_or_default()),
            _ => {
                let ballot = after.ballot.as_ref().map_or(0, Ballot::cast_count);
                out.push(Message::to(Audience::Seat(who.id.clone()), ReplyKind::Private, "Your vote is in."));
                Reply::new(ReplyKind::Ballot, format!("{ballot}/{} have voted.", after.seats.len()))
            }
        };
        (reply, out)
    }

    /// Every message passes the gate for its audience while the game is on.
    fn gated(&self, mut played: Played) -> Played {
        if let Check::Blocked(b) = self.gates.check(&Audience::Everyone, &played.reply.text) {
            played.reply.text = "(withheld)".into();
            played.withheld = Some(b);
        }
        for m in &mut played.messages {
            if let Check::Blocked(b) = self.gates.check(&m.audience, &m.reply.text) {
                m.reply.text = "(withheld)".into();
                played.withheld = Some(b);
            }
        }
        played
    }
}

fn refused(text: impl Into<String>) -> Played {
    Played::reply(Reply::new(ReplyKind::Rejected, text))
}

#[async_trait]
impl Table for BallotTable {
    fn kind(&self) -> &'static str {
        BallotGame::KIND
    }

    fn language(&self) -> Language {
        Language::En
    }

    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    fn is_running(&self) -> bool {
        false
    }

    fn deadline(&self) -> Option<Deadline> {
        self.game.deadline.clone()
    }

    async fn play(&mut self, ctx: &TurnContext<'_>, inbound: &Inbound) -> Played {
        if inbound.input == TurnInput::Status {
            let text = format!("Secret Ballot · {} · {} seats", self.game.phase_name(), self.game.seats.len());
            return self.gated(Played::reply(Reply::new(ReplyKind::Status, text)));
        }
        if inbound.input == TurnInput::Whisper {
            let Some(phrase) = self.game.phrases.get(&inbound.player.id) else { return refused("You have no seat.") };
            let mut played = Played::reply(Reply::new(ReplyKind::Private, "Sent to you privately."));
            let text = format!("Your secret phrase: {phrase}");
            played.messages.push(Message::to(Audience::Seat(inbound.player.id.clone()), ReplyKind::Private, text));
            return self.gated(played);
        }
        let Some(event) = self.event_for(inbound, ctx.now_ms) else { return refused("Not in this game.") };
        let next = match self.game.apply(&event, &()) {
            Ok(next) => next,
            Err(r) => return refused(format!("Refused: {r:?}")),
        };
        let (reply, messages) = self.messages(&self.game, &next, &inbound.player);
        let public =
            PublicTurn { player: inbound.player.name.clone(), text: reply.text.clone(), outcome: "move".into() };
        let points = match next.is_over() {
            true => next
                .seats
                .humans()
                .map(|s| Points { player: s.player.clone(), points: 1, solved: false, role: None })
                .collect(),
            false => Vec::new(),
        };
        let snapshot: Snapshot = next.snapshot().expect("a ballot game serialises");
        let record = TurnRecord { public: Some(public.clone()), ..TurnRecord::default() };
        let choices = match (self.game.phase, next.phase, &next.ballot) {
            (Phase::Lobby, Phase::Voting, Some(ballot)) => ballot.options.clone(),
            _ => Vec::new(),
        };
        let played = Played {
            reply,
            messages,
            choices,
            record,
            snapshot: Some(snapshot),
            points,
            commit: true,
            withheld: None,
            next: Some(Box::new(Next { game: next, public: Some(public) })),
        };
        self.gated(played)
    }

    fn expire(&mut self, _: &TurnContext<'_>) -> Played {
        refused("expired")
    }

    fn adopt(&mut self, played: Played) {
        let Some(next) = played.next.and_then(|n| n.downcast::<Next>().ok()) else { return };
        if next.game.phrases != self.game.phrases {
            self.gates = gates_for(&next.game, &self.canary);
        }
        self.game = next.game;
        self.history.extend(next.public);
    }

    async fn agent_moves(&self, ctx: &TurnContext<'_>, seq: i64) -> Vec<AgentMove> {
        let Some(ballot) = self.game.ballot.as_ref().filter(|b| !b.closed) else { return Vec::new() };
        let mut moves = Vec::new();
        for seat in self.game.seats.agents().filter(|s| !ballot.has_voted(&s.player.id)) {
            let own: Vec<&str> = self.game.phrases.get(&seat.player.id).map(String::as_str).into_iter().collect();
            let view = SeatView::new(&seat.player, &self.history, own);
            let option = agent_vote(ctx, &view, ballot).await;
            let event_id = format!("agent:{}:{seq}", seat.player.id);
            moves.push(AgentMove {
                seat: seat.player.clone(),
                input: TurnInput::Vote(option),
                event_id,
                not_before_ms: None,
            });
        }
        moves
    }
}

/// The AI seat's choice from its own view; garbage or a failed call falls
/// back to the first option that is not itself.
async fn agent_vote(ctx: &TurnContext<'_>, view: &SeatView<'_>, ballot: &Ballot) -> String {
    let ids: Vec<&str> = ballot.options.iter().map(|(id, _)| id.as_str()).collect();
    let prompt = format!(
        "You are {}. Your secret phrase: {}.\nWhat happened:\n{}\nAnswer with one id to trust: {}",
        view.seat.name,
        view.own.join(", "),
        view.public_lines(12),
        ids.join(", ")
    );
    let request = ChatRequest {
        messages: vec![ChatMessage::system("You play Secret Ballot."), ChatMessage::user(prompt)],
        max_tokens: 16,
        temperature: 0.0,
        seed: None,
        json_schema: None,
    };
    let said = ctx.pipeline.models.narrator.chat(request).await.map(|r| r.text).unwrap_or_default();
    let fallback = ids.iter().find(|id| **id != view.seat.id).copied().unwrap_or_default();
    ids.iter().find(|id| said.trim() == **id).copied().unwrap_or(fallback).to_string()
}

/// Opens a lobby: the session row, the actor.
pub async fn open_lobby(engine: &Arc<Engine>, host: &Player) -> Result<SessionHandle, StoreError> {
    let game = BallotGame::new(host);
    let new = NewSession {
        id: uuid_like(),
        puzzle_id: "-".into(),
        language: Language::En,
        channel: "test".into(),
        canary: new_canary(),
        snapshot: game.snapshot().expect("serialises"),
        created_ms: engine.clock.now_ms(),
    };
    engine.store.create_session(&new).await?;
    let table = BallotTable::new(game, Vec::new(), &new.canary);
    let opened = Opened { id: new.id, last_activity_ms: new.created_ms, seq: 0 };
    Ok(engine.open_table(opened, Box::new(table)))
}

/// Resumes a stored ballot game after a restart.
pub async fn resume(engine: &Arc<Engine>, id: &str) -> SessionHandle {
    let loaded = engine.store.load_session(id).await.unwrap().unwrap();
    let game: BallotGame = loaded.game().unwrap();
    let history = loaded.turns.iter().filter_map(|t| t.public.clone()).collect();
    let table = BallotTable::new(game, history, &loaded.canary);
    let seq = loaded.turns.last().map_or(0, |t| t.seq);
    engine.open_table(Opened { id: loaded.id.clone(), last_activity_ms: loaded.last_activity_ms, seq }, Box::new(table))
}

fn uuid_like() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    format!("ballot-{}-{}", std::process::id(), N.fetch_add(1, Ordering::SeqCst))
}

/// Secret Ballot as a game the bots host, under the catalogue group `ballot`.
pub struct BallotHost;

impl echoes::bot::HostedGame for BallotHost {
    fn about(&self) -> echoes::core::game::About {
        echoes::core::game::About { kind: BallotGame::KIND, group: "ballot", verbs: CATALOGUE }
    }

    fn open(
        &self,
        host: &Player,
        _: Language,
        _: &echoes::core::game::TableOptions,
        mut new: NewSession,
    ) -> Result<(NewSession, Box<dyn Table>), String> {
        let game = BallotGame::new(host);
        new.snapshot = game.snapshot().expect("serialises");
        let table = BallotTable::new(game, Vec::new(), &new.canary);
        Ok((new, Box::new(table)))
    }

    fn resume(
        &self,
        loaded: &echoes::core::store::LoadedSession,
    ) -> Result<Box<dyn Table>, echoes::core::actor::EngineError> {
        let game: BallotGame = loaded.game().map_err(|e| echoes::core::actor::EngineError::Resume(e.to_string()))?;
        let history = loaded.turns.iter().filter_map(|t| t.public.clone()).collect();
        Ok(Box::new(BallotTable::new(game, history, &loaded.canary)))
    }
}

/// The catalogue group the test game's commands are built from, appended
/// to the shipped catalogue by the front-end tests.
pub const CATALOGUE: &str = r#"
[[verb]]
group = "ballot"
name = "start"
who = "player"
move = "start"
frontends = ["terminal", "discord", "slack"]
options = []
help.en = "Open a Secret Ballot lobby here."
help.zh = "在这里开一局秘密投票。"

[[verb]]
group = "ballot"
name = "join"
who = "player"
move = "join"
frontends = ["terminal", "discord", "slack"]
options = []
help.en = "Take a seat."
help.zh = "入座。"

[[verb]]
group = "ballot"
name = "leave"
who = "player"
move = "leave"
frontends = ["terminal", "discord", "slack"]
options = []
help.en = "Leave the lobby."
help.zh = "离开大厅。"

[[verb]]
group = "ballot"
name = "begin"
who = "player"
move = "begin"
frontends = ["terminal", "discord", "slack"]
options = []
help.en = "Start now (host or moderator)."
help.zh = "立即开始（房主或管理员）。"

[[verb]]
group = "ballot"
name = "add-ai"
who = "player"
move = "add-ai"
frontends = ["terminal", "discord", "slack"]
options = []
help.en = "Fill a seat with an AI player."
help.zh = "让 AI 玩家入座。"

[[verb]]
group = "ballot"
name = "vote"
who = "player"
move = "vote"
frontends = ["terminal", "discord", "slack"]
options = [{ name = "choice", kind = "text", required = true }]
help.en = "Vote in secret."
help.zh = "秘密投票。"

[[verb]]
group = "ballot"
name = "whisper"
who = "player"
move = "whisper"
frontends = ["terminal", "discord", "slack"]
options = []
help.en = "Show me my secret again, privately."
help.zh = "再私下给我看一次我的秘密。"

[[verb]]
group = "ballot"
name = "status"
who = "player"
move = "status"
frontends = ["terminal", "discord", "slack"]
options = []
help.en = "Show the table."
help.zh = "查看牌桌。"
"#;
