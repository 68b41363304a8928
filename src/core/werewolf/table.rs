//! Werewolf on the engine: inputs become the game's events, each change
//! of state its lines by audience (`narrate.rs`), and every message
//! passes the gate for its audience while the game is on: the gate holds
//! every seat's private lines (`seat::secrets`) and the session's canary,
//! which every AI seat's prompt carries. AI seats move from their own
//! view (`moves.rs`).

use async_trait::async_trait;

use crate::core::game::input::Verb;
use crate::core::game::table::{AgentMove, Answers, GameTable, answered};
use crate::core::game::{
    AgentLog, Audience, Deadline, Game, Inbound, Message, Played, Points, Reply, ReplyKind, Secret, SecretGates, Turn,
    TurnContext, TurnInput, TurnRecord,
};
use crate::core::prompts::PublicTurn;
use crate::core::secrecy::Canary;
use crate::core::vocab::{Language, Player};

use super::narrate::{narrate, summary, task_line};
use super::verbs::WerewolfVerb;
use super::{Event, Outcome, Phase, Rejection, WerewolfGame, say, seat};

/// Longest speech a human may make, in characters.
pub const MAX_SPEECH: usize = 500;

pub struct WerewolfTable {
    pub game: WerewolfGame,
    pub(super) history: Vec<PublicTurn>,
    pub(super) canary: String,
    pub(super) gates: SecretGates,
    secrets: Vec<Secret>,
    /// The AI seats' moves handed to the engine, each once; those that
    /// fell back to a safe move (the model failed, said garbage, or chose
    /// what the rules refuse).
    pub(super) agents: AgentLog,
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
            agents: AgentLog::default(),
        }
    }

    /// (AI moves made, of which fell back to a safe move).
    pub fn agent_counts(&self) -> (usize, usize) {
        self.agents.counts()
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
        Event::GuessAi { seat, seats: self.game.seats.by_numbers(text) }
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
            Phase::GuessAi => g.ai_guesses.waiting(&g.seats),
            _ => Vec::new(),
        }
    }

    fn gated(&self, played: Played, over: bool) -> Played {
        self.gates.gate(played, over, &say::withheld(self.lang()))
    }

    fn points(next: &WerewolfGame) -> Vec<Points> {
        if !next.is_over() || next.outcome == Some(Outcome::Ended) {
            return Vec::new();
        }
        Points::of_winners(&next.seats, &next.winners(), |s| next.role(s).map(|r| r.as_str().to_string()))
    }

    /// The turn that took the game from `before` to `next`: the
    /// narration's lines by audience after `messages` (the pack's line),
    /// the ballot it opens, its public line, and the new state's gate
    /// when its secrets changed.
    fn moved(
        &self,
        before: WerewolfGame,
        next: WerewolfGame,
        mut messages: Vec<Message>,
        event: &Event,
        who: &Player,
    ) -> Played {
        let told = narrate(&before, &next, event, &who.id);
        messages.extend(told.messages);
        let public = told.public.then(|| PublicTurn {
            player: Self::who(&next, who),
            text: told.reply.text.clone(),
            outcome: next.phase_name().to_string(),
        });
        let choices = match (&next.phase, &next.ballot) {
            (Phase::Vote { .. }, Some(ballot)) if before.phase != next.phase => ballot.options.clone(),
            _ => Vec::new(),
        };
        let record = TurnRecord { public: public.clone(), ..TurnRecord::default() };
        let turn = Turn { reply: told.reply, messages, choices, record, points: Self::points(&next) };
        let secrets = seat::secrets(&next);
        let fresh = (secrets != self.secrets).then(|| (gates_for(&next, &self.canary, &secrets), secrets));
        let gates = fresh.as_ref().map_or(&self.gates, |(g, _)| g);
        // Once the result is in, every role is shown.
        match Played::moved(&next, turn, gates, next.outcome.is_some(), &say::withheld(self.lang())) {
            Ok(played) => played.adopting(Next { game: next, public, gates: fresh }),
            Err(refusal) => *refusal,
        }
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

impl Answers for WerewolfTable {
    fn status(&self) -> Played {
        self.gated(Played::reply(Reply::status(self.game.phase == Phase::Lobby, self.status_text())), false)
    }

    /// "Show me my role": everything the seat was told, and its task if
    /// it owes one tonight, privately.
    fn whisper(&self, seat: &str) -> Played {
        let lang = self.lang();
        let g = &self.game;
        if g.role(seat).is_none() {
            let why = if g.seats.is_seated(seat) { Rejection::NotNow } else { Rejection::NotSeated };
            return Played::refused(say::refusal(lang, &why));
        }
        let mut lines = seat::private_lines(g, seat);
        if g.role(seat) == Some(super::Role::Witch) {
            lines.push(say::witch_choices(lang, !g.cure_used, !g.poison_used));
        }
        for (_, task) in g.night_tasks().into_iter().filter(|(s, _)| s == seat) {
            lines.extend(task_line(g, task));
        }
        self.gated(Played::to_seat(say::sent_privately(lang), seat, lines.join("\n")), false)
    }

    /// In public the time left and the humans a vote or a shot waits for;
    /// privately each human who owes a night move its task.
    fn remind(&self, left: i64) -> Option<Played> {
        let g = &self.game;
        if left <= 0 {
            return Some(Played::silent());
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
            _ => return Some(Played::silent()),
        };
        Some(self.gated(played, false))
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
        if let Some(answer) = answered(self, inbound, ctx.now_ms) {
            return answer;
        }
        let mv = match self.event_for(inbound, ctx.now_ms) {
            Ok(mv) => mv,
            Err(why) => return Played::refused(why),
        };
        match self.apply_move(&mv, &inbound.player.id) {
            Ok((before, next, messages)) => self.moved(before, next, messages, &mv.event, &inbound.player),
            Err(r) => Played::refused(say::refusal(self.lang(), &r)),
        }
    }

    fn expire(&mut self, ctx: &TurnContext<'_>) -> Played {
        let mut next = self.game.clone();
        next.close(ctx.now_ms);
        let text = format!("{}\n{}", say::ended_idle(self.lang()), summary(&next));
        Played::idle_end(&next, text).adopting(Next { game: next, public: None, gates: None })
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
