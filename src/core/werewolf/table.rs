//! Werewolf on the engine: inputs become the game's events, each change
//! of state its lines by audience (`narrate.rs`), and every message
//! passes the gate for its audience while the game is on: the gate holds
//! every seat's private lines (`seat::secrets`) and the session's canary,
//! which every AI seat's prompt carries. AI seats move from their own
//! view (`moves.rs`).

use std::collections::HashSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use async_trait::async_trait;

use crate::core::game::input::Verb;
use crate::core::game::table::{AgentMove, GameTable};
use crate::core::game::{
    Audience, Deadline, Game, Inbound, Message, Played, Points, Reply, ReplyKind, Secret, SecretGates, TurnContext,
    TurnInput, TurnRecord,
};
use crate::core::prompts::PublicTurn;
use crate::core::secrecy::Canary;
use crate::core::vocab::{Language, Player};

use super::narrate::{narrate, summary, task_line};
use super::verbs::WerewolfVerb;
use super::{Event, Outcome, Phase, REMIND_BEFORE_SECONDS, Rejection, WerewolfGame, say, seat};

/// Longest speech a human may make, in characters.
pub const MAX_SPEECH: usize = 500;

pub struct WerewolfTable {
    pub game: WerewolfGame,
    pub(super) history: Vec<PublicTurn>,
    pub(super) canary: String,
    pub(super) gates: SecretGates,
    secrets: Vec<Secret>,
    /// AI moves that fell back to a safe move (the model failed, said
    /// garbage, or chose what the rules refuse).
    pub(super) fallbacks: AtomicUsize,
    /// AI moves made.
    pub(super) agent_moves: AtomicUsize,
    /// Moves already handed to the engine (by move id): a seat owes each
    /// move once, however often the engine asks.
    pub(super) issued: Mutex<HashSet<String>>,
}

pub struct Next {
    game: WerewolfGame,
    public: Option<PublicTurn>,
    /// The gate for the new state, when its secrets changed this turn.
    gates: Option<(SecretGates, Vec<Secret>)>,
}

/// What one input asks: the event, and for an AI seat its line to the
/// pack and its private notes.
struct Move {
    event: Event,
    note: Option<String>,
    memo: Option<String>,
}

fn gates_for(game: &WerewolfGame, canary: &str, secrets: &[Secret]) -> SecretGates {
    SecretGates::new(&seat::public_context(game.language), secrets, Canary::parse(canary))
}

fn refused(text: impl Into<String>) -> Played {
    Played::reply(Reply::new(ReplyKind::Rejected, text))
}

fn silent() -> Played {
    let mut played = Played::reply(Reply::new(ReplyKind::Notice, String::new()));
    played.commit = false;
    played
}

/// Letters and digits, lower case: how a typed name is compared.
fn fold(text: &str) -> String {
    text.chars().flat_map(char::to_lowercase).filter(|c| c.is_alphanumeric()).collect()
}

impl WerewolfTable {
    pub fn new(game: WerewolfGame, history: Vec<PublicTurn>, canary: &str) -> WerewolfTable {
        let secrets = seat::secrets(&game);
        WerewolfTable {
            gates: gates_for(&game, canary, &secrets),
            secrets,
            game,
            history,
            canary: canary.to_string(),
            fallbacks: AtomicUsize::new(0),
            agent_moves: AtomicUsize::new(0),
            issued: Mutex::new(HashSet::new()),
        }
    }

    /// (AI moves made, of which fell back to a safe move).
    pub fn agent_counts(&self) -> (usize, usize) {
        (self.agent_moves.load(Ordering::Relaxed), self.fallbacks.load(Ordering::Relaxed))
    }

    pub fn history(&self) -> &[PublicTurn] {
        &self.history
    }

    pub(super) fn lang(&self) -> Language {
        self.game.language
    }

    /// Why a text may not go to `audience` while the game is on (the
    /// matched span), if it may not.
    pub fn gate_check(&self, audience: &Audience, text: &str) -> Option<String> {
        match self.gates.check(audience, text) {
            crate::core::secrecy::Check::Blocked(b) => Some(b.span),
            crate::core::secrecy::Check::Pass => None,
        }
    }

    /// A seat from what was typed: its number (`3`, `#3`) or its name.
    fn target(&self, typed: &str) -> Result<String, String> {
        let g = &self.game;
        if let Some(seat) = g.seat_by_number(typed) {
            return Ok(seat.to_string());
        }
        let wanted = fold(typed);
        let by_name = g.seats.seats.iter().find(|s| !wanted.is_empty() && fold(&s.player.name) == wanted);
        by_name.map(|s| s.player.id.clone()).ok_or_else(|| say::unknown_seat(self.lang(), typed.trim()))
    }

    /// A day ballot's option (a seat number) from what was typed.
    fn option_of(&self, typed: &str) -> Result<String, String> {
        let seat = self.target(typed)?;
        Ok(self.game.number(&seat).unwrap_or(0).to_string())
    }

    fn speech(&self, seat: String, text: &str, now_ms: i64) -> Result<Event, String> {
        let text = text.trim();
        if text.is_empty() {
            return Err(say::speech_empty(self.lang()));
        }
        if text.chars().count() > MAX_SPEECH {
            return Err(say::speech_too_long(self.lang(), MAX_SPEECH));
        }
        Ok(Event::Speak { seat, text: text.to_string(), now_ms })
    }

    fn event_for(&self, inbound: &Inbound, now_ms: i64) -> Result<Move, String> {
        let who = &inbound.player;
        let seat = who.id.clone();
        let event = match &inbound.input {
            TurnInput::Join => Event::Join(who.clone()),
            TurnInput::Leave => Event::Leave { seat, now_ms },
            TurnInput::AddAi => Event::AddAi,
            TurnInput::Begin | TurnInput::Start => Event::Begin { by: seat, moderator: inbound.moderator, now_ms },
            TurnInput::Vote(typed) => Event::Vote { voter: seat, option: self.option_of(typed)?, now_ms },
            TurnInput::Timer(tag) => Event::Timer { tag: tag.clone(), now_ms },
            TurnInput::End => Event::End { by: seat, moderator: inbound.moderator, now_ms },
            TurnInput::Say(text) => self.said(seat, text, now_ms)?,
            TurnInput::Verb(verb) => match WerewolfVerb::read(verb) {
                Some(WerewolfVerb::Agent(name, arg, note, memo)) if self.game.is_ai(&seat) => {
                    let event = if name == "vote" {
                        Event::Vote { voter: seat, option: self.option_of(&arg)?, now_ms }
                    } else {
                        match WerewolfVerb::read(&Verb::new(name, [arg])) {
                            Some(WerewolfVerb::Agent(..)) | None => return Err(say::not_a_verb(self.lang())),
                            Some(own) => self.own_verb(seat, own, now_ms)?,
                        }
                    };
                    let some = |s: String| (!s.trim().is_empty()).then_some(s);
                    return Ok(Move { event, note: some(note), memo: some(memo) });
                }
                Some(WerewolfVerb::Agent(..)) | None => return Err(say::not_a_verb(self.lang())),
                Some(own) => self.own_verb(seat, own, now_ms)?,
            },
            TurnInput::Status | TurnInput::Whisper => return Err(say::not_a_verb(self.lang())),
        };
        Ok(Move { event, note: None, memo: None })
    }

    fn own_verb(&self, seat: String, verb: WerewolfVerb, now_ms: i64) -> Result<Event, String> {
        Ok(match verb {
            WerewolfVerb::Speak(text) => self.speech(seat, &text, now_ms)?,
            WerewolfVerb::Pass => Event::Pass { seat, now_ms },
            WerewolfVerb::Kill(s) => Event::Kill { seat, target: self.target(&s)?, now_ms },
            WerewolfVerb::Check(s) => Event::Check { seat, target: self.target(&s)?, now_ms },
            WerewolfVerb::Protect(s) => Event::Protect { seat, target: self.target(&s)?, now_ms },
            WerewolfVerb::Save => Event::Cure { seat, now_ms },
            WerewolfVerb::Poison(s) => Event::Poison { seat, target: self.target(&s)?, now_ms },
            WerewolfVerb::Shoot(s) => Event::Shoot { seat, target: self.target(&s)?, now_ms },
            WerewolfVerb::Pack(text) => match text.trim() {
                "" => return Err(say::speech_empty(self.lang())),
                text => Event::Pack { seat, text: text.chars().take(MAX_SPEECH).collect() },
            },
            WerewolfVerb::Guess(text) => self.guessed(seat, &text),
            WerewolfVerb::Agent(..) => return Err(say::not_a_verb(self.lang())),
        })
    }

    /// Free text: a speech in the debate, a werewolf's line to the pack at
    /// night, the seats a human thinks were AI.
    fn said(&self, seat: String, text: &str, now_ms: i64) -> Result<Event, String> {
        match &self.game.phase {
            Phase::Night { .. } if self.game.role(&seat).is_some_and(super::Role::is_wolf) => {
                self.own_verb(seat, WerewolfVerb::Pack(text.to_string()), now_ms)
            }
            Phase::GuessAi => Ok(self.guessed(seat, text)),
            _ => self.speech(seat, text, now_ms),
        }
    }

    fn guessed(&self, seat: String, text: &str) -> Event {
        let mut seats: Vec<String> = text
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|n| self.game.seat_by_number(n))
            .map(str::to_string)
            .collect();
        seats.dedup();
        Event::GuessAi { seat, seats }
    }

    /// How a mover is named in the public record.
    fn who(game: &WerewolfGame, player: &Player) -> String {
        if game.seats.is_seated(&player.id) { game.label(&player.id) } else { player.name.clone() }
    }

    fn status_text(&self) -> String {
        let g = &self.game;
        let lang = self.lang();
        if g.phase == Phase::Lobby {
            return super::narrate::lobby_text(g);
        }
        let living: Vec<String> = g.living().iter().map(|s| g.label(s)).collect();
        let mut text = say::status(lang, g.phase_name(), g.day(), &living.join(", "));
        let waiting: Vec<String> = self.waiting_for().iter().map(|s| g.label(s)).collect();
        if !waiting.is_empty() {
            text.push('\n');
            text.push_str(&say::waiting_for(lang, &waiting.join(", ")));
        }
        text
    }

    /// The seats the phase openly waits for (never who acts at night).
    fn waiting_for(&self) -> Vec<String> {
        let g = &self.game;
        match &g.phase {
            Phase::Vote { .. } => {
                let ballot = g.ballot.as_ref();
                g.living().into_iter().filter(|s| ballot.is_some_and(|b| !b.has_voted(s))).collect()
            }
            Phase::Hunter { seat, .. } => vec![seat.clone()],
            Phase::GuessAi => g
                .seats
                .humans()
                .filter(|h| !g.ai_guesses.contains_key(&h.player.id))
                .map(|h| h.player.id.clone())
                .collect(),
            _ => Vec::new(),
        }
    }

    /// "Show me my role": everything the seat was told, and its task if
    /// it owes one tonight, privately.
    fn whisper(&self, seat: &str) -> Played {
        let lang = self.lang();
        let g = &self.game;
        if g.role(seat).is_none() {
            let why = if g.seats.is_seated(seat) { Rejection::NotNow } else { Rejection::NotSeated };
            return refused(say::refusal(lang, &why));
        }
        let mut lines = seat::private_lines(g, seat);
        if g.role(seat) == Some(super::Role::Witch) {
            lines.push(say::witch_choices(lang, !g.cure_used, !g.poison_used));
        }
        for (_, task) in g.night_tasks().into_iter().filter(|(s, _)| s == seat) {
            lines.extend(task_line(g, task));
        }
        let mut played = Played::reply(Reply::new(ReplyKind::Private, say::sent_privately(lang)));
        played.messages.push(Message::to(Audience::Seat(seat.to_string()), ReplyKind::Private, lines.join("\n")));
        self.gated(played, false)
    }

    /// A timer's turn: a reminder (in public the time left, the humans a
    /// vote or a shot waits for; privately each human who owes a night
    /// move its task); a timer for a phase that already ended says
    /// nothing and is not stored. `None`: a live deadline, played as an
    /// event.
    fn timer(&self, tag: &str, now_ms: i64) -> Option<Played> {
        let g = &self.game;
        if !g.timer_is_live(tag) {
            return Some(silent());
        }
        let reminder = g.reminder().filter(|r| r.tag == tag)?;
        let left = (reminder.at_ms + i64::from(REMIND_BEFORE_SECONDS) * 1000 - now_ms).div_euclid(1000);
        if left <= 0 {
            return Some(silent());
        }
        let lang = self.lang();
        let human = |s: &String| !g.is_ai(s);
        let humans_waited: Vec<String> = self.waiting_for().iter().filter(|s| human(s)).map(|s| g.label(s)).collect();
        let played = match &g.phase {
            Phase::Night { .. } if g.living().iter().any(human) => {
                let mut played = Played::reply(Reply::new(ReplyKind::Notice, say::night_reminder(lang, left)));
                for (seat, task) in g.night_tasks().into_iter().filter(|(s, _)| human(s)) {
                    if let Some(text) = task_line(g, task) {
                        played.messages.push(Message::to(
                            Audience::Seat(seat),
                            ReplyKind::Private,
                            format!("⏳ {text}"),
                        ));
                    }
                }
                played
            }
            Phase::Debate { .. } if g.living().iter().any(human) => {
                Played::reply(Reply::new(ReplyKind::Notice, say::debate_reminder(lang, left)))
            }
            Phase::Vote { .. } | Phase::GuessAi if !humans_waited.is_empty() => {
                Played::reply(Reply::new(ReplyKind::Notice, say::vote_reminder(lang, left, &humans_waited.join(", "))))
            }
            Phase::Hunter { .. } if !humans_waited.is_empty() => Played::reply(Reply::new(
                ReplyKind::Notice,
                say::hunter_reminder(lang, left, &humans_waited.join(", ")),
            )),
            _ => return Some(silent()),
        };
        Some(self.gated(played, false))
    }

    fn gated(&self, played: Played, over: bool) -> Played {
        self.gates.gate(played, over, &say::withheld(self.lang()))
    }

    fn points(next: &WerewolfGame) -> Vec<Points> {
        if !next.is_over() || next.outcome == Some(Outcome::Ended) {
            return Vec::new();
        }
        let winners = next.winners();
        next.seats
            .humans()
            .map(|s| {
                let won = winners.contains(&s.player.id);
                Points {
                    player: s.player.clone(),
                    points: u32::from(won),
                    solved: won,
                    role: next.role(&s.player.id).map(|r| r.as_str().to_string()),
                }
            })
            .collect()
    }

    /// Plays `mv` against the state: an AI werewolf's line to the pack
    /// first, then the move; its notes kept with the seat. The
    /// narration's messages, in order, and the state after.
    fn apply_move(&self, mv: &Move, seat: &str) -> Result<(WerewolfGame, WerewolfGame, Vec<Message>), Rejection> {
        let mut before = self.game.clone();
        let mut messages = Vec::new();
        if let Some(note) = &mv.note {
            let pack = Event::Pack { seat: seat.to_string(), text: note.clone() };
            if let Ok(mid) = self.game.apply(&pack, &()) {
                messages.extend(narrate(&self.game, &mid, &pack, seat).messages);
                before = mid;
            }
        }
        let mut next = before.apply(&mv.event, &())?;
        if let Some(memo) = &mv.memo {
            next.memos.insert(seat.to_string(), memo.clone());
        }
        Ok((before, next, messages))
    }
}

#[async_trait]
impl GameTable for WerewolfTable {
    type Game = WerewolfGame;
    type Next = Next;

    fn game(&self) -> &WerewolfGame {
        &self.game
    }

    fn language(&self) -> Language {
        self.lang()
    }

    fn is_running(&self) -> bool {
        !matches!(self.game.phase, Phase::Lobby | Phase::Over)
    }

    fn reminder(&self) -> Option<Deadline> {
        self.game.reminder()
    }

    async fn play(&mut self, ctx: &TurnContext<'_>, inbound: &Inbound) -> Played {
        let lang = self.lang();
        let seat = inbound.player.id.as_str();
        match &inbound.input {
            TurnInput::Status => {
                let kind = if self.game.phase == Phase::Lobby { ReplyKind::Lobby } else { ReplyKind::Status };
                return self.gated(Played::reply(Reply::new(kind, self.status_text())), false);
            }
            TurnInput::Whisper => return self.whisper(seat),
            TurnInput::Timer(tag) => {
                if let Some(played) = self.timer(tag, ctx.now_ms) {
                    return played;
                }
            }
            _ => {}
        }
        let mv = match self.event_for(inbound, ctx.now_ms) {
            Ok(mv) => mv,
            Err(why) => return refused(why),
        };
        let (before, next, mut messages) = match self.apply_move(&mv, seat) {
            Ok(done) => done,
            Err(r) => return refused(say::refusal(lang, &r)),
        };
        let told = narrate(&before, &next, &mv.event, seat);
        messages.extend(told.messages);
        let public = told.public.then(|| PublicTurn {
            player: Self::who(&next, &inbound.player),
            text: told.reply.text.clone(),
            outcome: next.phase_name().to_string(),
        });
        let choices = match (&next.phase, &next.ballot) {
            (Phase::Vote { .. }, Some(ballot)) if before.phase != next.phase => ballot.options.clone(),
            _ => Vec::new(),
        };
        // Once the result is in, every role is shown.
        let over = next.outcome.is_some();
        let snapshot = match next.snapshot() {
            Ok(s) => s,
            Err(e) => return refused(format!("internal error: {e}")),
        };
        let secrets = seat::secrets(&next);
        let fresh = (secrets != self.secrets).then(|| (gates_for(&next, &self.canary, &secrets), secrets));
        let played = Played {
            reply: told.reply,
            messages,
            choices,
            record: TurnRecord { public: public.clone(), ..TurnRecord::default() },
            snapshot: Some(snapshot),
            points: Self::points(&next),
            commit: true,
            withheld: None,
            next: None,
        };
        let gates = fresh.as_ref().map_or(&self.gates, |(g, _)| g);
        let mut played = gates.gate(played, over, &say::withheld(lang));
        played.next = Some(Box::new(Next { game: next, public, gates: fresh }));
        played
    }

    fn expire(&mut self, ctx: &TurnContext<'_>) -> Played {
        let mut next = self.game.clone();
        match next.outcome {
            // Idle while the humans guess the AI: the result stands.
            Some(_) => {
                next.phase = Phase::Over;
                next.deadline = None;
            }
            None => next.finish(Outcome::Ended, ctx.now_ms),
        }
        let text = format!("{}\n{}", say::ended_idle(self.lang()), summary(&next));
        let snapshot = next.snapshot().ok();
        Played {
            reply: Reply::new(ReplyKind::Ended, text),
            messages: Vec::new(),
            choices: Vec::new(),
            record: TurnRecord::default(),
            snapshot,
            points: Vec::new(),
            commit: true,
            withheld: None,
            next: Some(Box::new(Next { game: next, public: None, gates: None })),
        }
    }

    fn adopt(&mut self, next: Next) {
        match next.gates {
            Some((gates, secrets)) => {
                self.gates = gates;
                self.secrets = secrets;
            }
            None => {
                let secrets = seat::secrets(&next.game);
                if secrets != self.secrets {
                    self.gates = gates_for(&next.game, &self.canary, &secrets);
                    self.secrets = secrets;
                }
            }
        }
        self.game = next.game;
        self.history.extend(next.public);
    }

    async fn agent_moves(&self, ctx: &TurnContext<'_>, seq: i64) -> Vec<AgentMove> {
        self.owed_moves(ctx, seq).await
    }
}
