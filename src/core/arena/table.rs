//! The Arena on the engine: inputs become the game's events (a
//! contribution is scored by the scorer model first), each change of state
//! becomes its public lines (the contribution, the round's score table,
//! an elimination, the narrator's comment, the next speaker), and every
//! message passes the gate for its audience while the game is on (every AI
//! contestant's private notes are secrets of that seat). AI contestants
//! speak from their `SeatView` (the public record and their own persona
//! card) through `agents.rs`; a reply that is empty, too long, says its
//! own notes or fails falls back to a stock line.
//!
//! The public record contestants read is rebuilt from the state: the
//! contributions, and each round's scores and narration once the round is
//! closed and shown, never before.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use async_trait::async_trait;

use crate::core::actor::Inbound;
use crate::core::game::table::{AgentMove, Answers, GameTable, answered};
use crate::core::game::{
    AgentLog, Audience, Deadline, Game, Message, Played, Points, Reply, ReplyKind, SeatView, Secret, SecretGates, Turn,
    TurnContext, TurnInput, TurnRecord,
};
use crate::core::prompts::PublicTurn;
use crate::core::secrecy::{Canary, Check};
use crate::core::vocab::Language;

use super::agents::{self, MAX_CONTRIBUTION, MAX_REPLY};
use super::memory::{self, NARRATOR_TOKENS, SCORER_TOKENS};
use super::roster::Cast;
use super::verbs::ArenaVerb;
use super::{ArenaGame, Event, Exit, Outcome, Phase, Rejection, RoundRecord, Scores, say, splitmix};

pub struct ArenaTable {
    pub game: ArenaGame,
    cast: Arc<Cast>,
    canary: String,
    pub(super) gates: SecretGates,
    /// Contributions scored, and of those whose scores could be read.
    scored: AtomicUsize,
    parsed: AtomicUsize,
    /// AI contributions made, each once, and of those that fell back to
    /// a stock line.
    agents: AgentLog,
}

pub struct Next {
    game: ArenaGame,
}

/// The gate: each AI contestant's private notes, owned by its seat; the
/// game's own sentences (the rules, the score dimensions), the public
/// cards and the topic are context, never evidence.
fn gates_for(game: &ArenaGame, canary: &str) -> SecretGates {
    let secrets: Vec<Secret> =
        game.cast.iter().map(|(seat, p)| Secret::of_seat(seat.clone(), p.secret.clone())).collect();
    let mut context = vec![say::book_text(game.language).to_string(), game.topic.clone()];
    for p in game.cast.values() {
        context.push(format!("{} {} {} {}", p.name, p.tagline, p.voice, p.goals.join(" ")));
    }
    SecretGates::new(&context.join("\n"), &secrets, Canary::parse(canary))
}

/// How the scorer is told a contribution answers someone.
fn reply_note(lang: Language, from: &str) -> String {
    match lang {
        Language::En => format!("a reply to {from}, who addressed them"),
        Language::Zh => format!("回应点名的 {from}"),
    }
}

impl ArenaTable {
    pub fn new(game: ArenaGame, cast: Arc<Cast>, canary: &str) -> ArenaTable {
        ArenaTable {
            gates: gates_for(&game, canary),
            game,
            cast,
            canary: canary.to_string(),
            scored: AtomicUsize::new(0),
            parsed: AtomicUsize::new(0),
            agents: AgentLog::default(),
        }
    }

    /// (contributions scored, of which the scorer's answer was readable).
    pub fn scorer_counts(&self) -> (usize, usize) {
        (self.scored.load(Ordering::Relaxed), self.parsed.load(Ordering::Relaxed))
    }

    /// (AI contributions made, of which fell back to a stock line).
    pub fn agent_counts(&self) -> (usize, usize) {
        self.agents.counts()
    }

    fn lang(&self) -> Language {
        self.game.language
    }

    fn label(g: &ArenaGame, seat: &str) -> String {
        format!("#{} {}", g.seats.number(seat).unwrap_or(0), g.name(seat))
    }

    fn narrator(&self) -> (&str, &str) {
        (&self.cast.narrator.name, &self.cast.narrator.voice)
    }

    /// The public record: contributions, and each closed round's scores
    /// and narration (what every contestant may read).
    pub fn record(g: &ArenaGame, narrator: &str) -> Vec<PublicTurn> {
        let lang = g.language;
        let mut out = Vec::new();
        let mut rounds = g.rounds.iter().peekable();
        let push_round = |out: &mut Vec<PublicTurn>, r: &RoundRecord| {
            let scores: Vec<String> =
                r.scores.iter().map(|(seat, s)| format!("{} {s:.1}", Self::label(g, seat))).collect();
            let mut text = scores.join(", ");
            if let Some(seat) = &r.out {
                text.push_str(&format!(
                    "; {}",
                    say::eliminated(lang, &Self::label(g, seat), r.scores.get(seat).copied().unwrap_or(0.0))
                ));
            }
            out.push(PublicTurn { player: "scores".into(), text, outcome: format!("round {}", r.round) });
            if let Some(n) = &r.narration {
                out.push(PublicTurn { player: narrator.to_string(), text: n.clone(), outcome: "narrator".into() });
            }
        };
        for c in &g.said {
            while let Some(r) = rounds.next_if(|r| r.round < c.round) {
                push_round(&mut out, r);
            }
            let text = if c.scores.is_none() { say::skipped_mark(lang).to_string() } else { c.text.clone() };
            let outcome = match c.reply_to {
                Some(to) => format!("turn {}, reply to turn {to}", c.turn),
                None => format!("turn {}", c.turn),
            };
            out.push(PublicTurn { player: Self::label(g, &c.seat), text, outcome });
        }
        for r in rounds {
            push_round(&mut out, r);
        }
        out
    }

    fn public_lines(g: &ArenaGame, narrator: &str) -> Vec<String> {
        Self::record(g, narrator).iter().map(|t| format!("{}: {} [{}]", t.player, t.text, t.outcome)).collect()
    }

    /// Why a contribution may not be played, if it may not.
    pub fn check_contribution(&self, text: &str) -> Option<String> {
        let lang = self.lang();
        let text = text.trim();
        if text.is_empty() {
            return Some(say::empty(lang));
        }
        if text.chars().count() > MAX_CONTRIBUTION {
            return Some(say::too_long(lang, MAX_CONTRIBUTION));
        }
        matches!(self.gates.check(&Audience::Everyone, text), Check::Blocked(_)).then(|| say::gives_away(lang))
    }

    /// Why a text may not go to `audience` while the game is on.
    pub fn gate_check(&self, audience: &Audience, text: &str) -> Option<String> {
        match self.gates.check(audience, text) {
            Check::Blocked(b) => Some(b.span),
            Check::Pass => None,
        }
    }

    pub(super) fn lobby_text(&self, g: &ArenaGame) -> String {
        let seats: Vec<String> = g.seats.seats.iter().map(|s| Self::label(g, &s.player.id)).collect();
        let mut text = say::lobby(self.lang(), &g.topic, &seats, g.seats.rules.max, g.seats.rules.min);
        for (seat, p) in &g.cast {
            text.push_str(&format!("\n  {} · {}", Self::label(g, seat), p.tagline));
        }
        text
    }

    fn status_text(&self) -> String {
        let g = &self.game;
        let lang = self.lang();
        if g.phase == Phase::Lobby {
            return self.lobby_text(g);
        }
        let living: Vec<String> = g
            .living()
            .iter()
            .map(|s| format!("{} ({:.1})", Self::label(g, s), g.totals.get(s).copied().unwrap_or(0.0)))
            .collect();
        let now = g.speaker().map(|s| say::now_speaking(lang, &Self::label(g, s))).unwrap_or_default();
        let phase = say::phase(lang, g.phase_name());
        say::status(lang, &g.topic, &phase, g.turn, g.rules.max_turns, &living.join(", "), &now)
    }

    /// The round's table: each contestant's dimensions, round score
    /// (with reactions) and total.
    pub(super) fn round_table(&self, g: &ArenaGame, r: &RoundRecord) -> String {
        let lang = self.lang();
        let mut lines = vec![
            say::round_heading(lang, r.round, say::stage(lang, r.stage)),
            format!("`{}`", say::round_row_head(lang)),
        ];
        for c in g.said.iter().filter(|c| c.round == r.round) {
            let mut label = Self::label(g, &c.seat);
            if c.reply_to.is_some() {
                label = format!("{} {label}", say::reply_mark(lang));
            }
            let dims = match c.scores {
                Some(s) => s.values().iter().map(|v| format!("{v:>3}")).collect::<Vec<_>>().join(" "),
                None => say::skipped_mark(lang).to_string(),
            };
            let round = r.scores.get(&c.seat).copied().unwrap_or(0.0);
            let total = g.totals.get(&c.seat).copied().unwrap_or(0.0);
            let cheers = r.reactions.get(&c.seat).map(|n| format!(" {}", say::reactions(*n))).unwrap_or_default();
            lines.push(format!("`{dims}  {round:>5.1}  {total:>5.1}` {label}{cheers}"));
        }
        match &r.out {
            Some(seat) => {
                lines.push(say::eliminated(lang, &Self::label(g, seat), r.scores.get(seat).copied().unwrap_or(0.0)))
            }
            None if r.stage != super::Stage::Early => lines.push(say::nobody_out(lang)),
            None => {}
        }
        lines.join("\n")
    }

    /// The end: the result, standings, every round's scores, the hidden
    /// strategies and the narrator's summary.
    fn final_text(&self, g: &ArenaGame) -> String {
        let lang = self.lang();
        let mut lines = vec![match g.outcome {
            Some(Outcome::Ended) => say::ended_by(lang),
            Some(Outcome::Abandoned) => say::abandoned(lang),
            _ => say::game_over(lang),
        }];
        if let Some(w) = g.winner() {
            lines.push(say::winner(lang, &Self::label(g, &w), g.totals.get(&w).copied().unwrap_or(0.0)));
        }
        lines.push(say::standings_heading(lang).to_string());
        for (i, (seat, total)) in g.standings().iter().enumerate() {
            let mark = match g.out.get(seat) {
                Some(Exit::Eliminated { round }) => format!(" · {}", say::out_mark(lang, *round, false)),
                Some(Exit::Left { round }) => format!(" · {}", say::out_mark(lang, *round, true)),
                None => String::new(),
            };
            lines.push(format!("  {}. {} · {total:.1}{mark}", i + 1, Self::label(g, seat)));
        }
        if !g.rounds.is_empty() {
            lines.push(say::history_heading(lang).to_string());
            for r in &g.rounds {
                let row: Vec<String> = r.scores.iter().map(|(s, v)| format!("{} {v:.1}", Self::label(g, s))).collect();
                lines.push(format!("  {} · {}", r.round, row.join(", ")));
            }
        }
        if !g.cast.is_empty() {
            lines.push(say::strategies_heading(lang).to_string());
            for (seat, p) in &g.cast {
                lines.push(format!("  {} · {}", Self::label(g, seat), p.secret));
            }
        }
        if let Some(summary) = &g.summary {
            lines.push(say::narrator(&self.cast.narrator.name, summary));
        }
        lines.join("\n")
    }

    fn gated(&self, played: Played, over: bool) -> Played {
        self.gates.gate(played, over, &say::withheld(self.lang()))
    }

    /// The persona for the next AI seat: an unused one, picked by the seed.
    fn next_persona(&self) -> Option<super::Persona> {
        let g = &self.game;
        let unused: Vec<&super::Persona> =
            self.cast.personas.iter().filter(|p| !g.cast.values().any(|c| c.id == p.id)).collect();
        let n = unused.len() as u64;
        (n > 0).then(|| unused[(splitmix(g.seed ^ g.cast.len() as u64) % n) as usize].clone())
    }

    fn event_for(&self, inbound: &Inbound, now_ms: i64) -> Result<Event, String> {
        let lang = self.lang();
        let seat = inbound.player.id.clone();
        let (by, moderator) = (seat.clone(), inbound.moderator);
        Ok(match &inbound.input {
            TurnInput::Join => Event::Join(inbound.player.clone()),
            TurnInput::Leave => Event::Leave { seat, now_ms },
            TurnInput::AddAi => match self.next_persona() {
                Some(p) => Event::AddAi(p),
                None => {
                    return Err(say::refusal(
                        lang,
                        &Rejection::Seats(crate::core::game::SeatError::NoAiSeats { max_ai: self.cast.personas.len() }),
                        "",
                    ));
                }
            },
            TurnInput::Begin | TurnInput::Start => Event::Begin { by, moderator, now_ms },
            TurnInput::Vote(option) => {
                Event::React { spectator: seat, option: option.trim().trim_start_matches('#').to_string() }
            }
            TurnInput::Timer(tag) => Event::Timer { tag: tag.clone(), now_ms },
            TurnInput::End => Event::End { by, moderator, now_ms },
            TurnInput::Verb(verb) => match ArenaVerb::read(verb) {
                Some(ArenaVerb::Pause) => Event::Pause { by, moderator },
                Some(ArenaVerb::Resume) => Event::Resume { by, moderator, now_ms },
                Some(ArenaVerb::Topic(text)) => {
                    let text = text.trim();
                    if text.is_empty() || text.chars().count() > 200 {
                        return Err(say::too_long(lang, 200));
                    }
                    Event::Topic { by, moderator, text: text.to_string() }
                }
                None => return Err(say::not_a_verb(lang)),
            },
            _ => return Err(say::not_a_verb(lang)),
        })
    }

    /// The refusal for a rejected event.
    fn rejection(&self, r: &Rejection) -> Played {
        let speaker = match r {
            Rejection::NotYourTurn { speaker } => Self::label(&self.game, speaker),
            _ => String::new(),
        };
        Played::refused(say::refusal(self.lang(), r, &speaker))
    }

    /// A contribution by the speaker: checked, scored, applied.
    async fn speak(&self, ctx: &TurnContext<'_>, seat: &str, text: &str) -> Result<Event, Played> {
        let g = &self.game;
        if g.speaker() != Some(seat) || g.paused {
            // Let the state machine say why (not your turn, paused, out).
            let probe = Event::Speak {
                seat: seat.to_string(),
                text: String::new(),
                scores: Scores::NEUTRAL,
                parsed: true,
                now_ms: ctx.now_ms,
                to: None,
            };
            return match g.apply(&probe, &()) {
                Err(r) => Err(self.rejection(&r)),
                Ok(_) => Err(Played::refused(say::not_a_verb(self.lang()))),
            };
        }
        if let Some(why) = self.check_contribution(text) {
            return Err(Played::refused(why));
        }
        let replying = g.reply.as_ref().filter(|r| r.seat == seat);
        if replying.is_some() && text.trim().chars().count() > MAX_REPLY {
            return Err(Played::refused(say::reply_too_long(self.lang(), MAX_REPLY)));
        }
        let text = text.trim().to_string();
        let to = if replying.is_some() { None } else { self.addressed(seat, &text) };
        let heard = self.whole_game(ctx, g, SCORER_TOKENS);
        let speaker = match replying {
            Some(r) => format!("{} ({})", Self::label(g, seat), reply_note(self.lang(), &Self::label(g, &r.from))),
            None => Self::label(g, seat),
        };
        let scores = agents::score(ctx, self.lang(), &g.topic, &heard, &speaker, &text).await;
        self.scored.fetch_add(1, Ordering::Relaxed);
        if scores.is_some() {
            self.parsed.fetch_add(1, Ordering::Relaxed);
        }
        Ok(Event::Speak {
            seat: seat.to_string(),
            parsed: scores.is_some(),
            scores: scores.unwrap_or(Scores::NEUTRAL),
            text,
            now_ms: ctx.now_ms,
            to,
        })
    }

    /// The contestant a contribution addresses, if it opens with one: a
    /// seat number (`#3, …`), or a living contestant's name (`@Ada …`,
    /// `Ada Quill: …`); never the speaker itself.
    pub fn addressed(&self, seat: &str, text: &str) -> Option<String> {
        let g = &self.game;
        let t = text.trim_start();
        let (mention, t) = match t.strip_prefix('@') {
            Some(rest) => (true, rest.trim_start()),
            None => (false, t),
        };
        if let Some(rest) = t.strip_prefix('#') {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            let to = g.seats.by_number(&digits)?;
            return g.addressable(seat, to).then(|| to.to_string());
        }
        let lower = t.to_lowercase();
        let after_name = |name: &str| -> bool {
            let name = name.trim_end_matches('🤖').trim().to_lowercase();
            let rest = (!name.is_empty()).then(|| lower.strip_prefix(&name)).flatten();
            rest.is_some_and(|rest| {
                rest.starts_with([',', ':', '，', '：', '!', '?', '！', '？'])
                    || (mention && (rest.is_empty() || rest.starts_with(char::is_whitespace)))
            })
        };
        g.living().into_iter().filter(|s| g.addressable(seat, s)).find(|s| after_name(&g.name(s)))
    }

    /// The whole public record for the narrator or the scorer, within `budget` tokens.
    fn whole_game(&self, ctx: &TurnContext<'_>, g: &ArenaGame, budget: usize) -> String {
        let lines = Self::public_lines(g, self.narrator().0);
        let count = memory::counter(&*ctx.pipeline.models.narrator);
        crate::core::context::fit_record(self.lang(), &lines, budget, &count)
    }

    /// The narrator's comment on a round just closed (or its quiet line).
    async fn narrate_round(&self, ctx: &TurnContext<'_>, g: &ArenaGame, r: &RoundRecord) -> String {
        let heard = self.whole_game(ctx, g, NARRATOR_TOKENS);
        let result = self.round_table(g, r);
        let what = agents::Narration::Round { result: &result };
        let prompt = agents::narrator_prompt(&ctx.pipeline.prompts, self.lang(), self.narrator(), what, &g.topic, &heard);
        let public = format!("{}\n{heard}\n{result}", g.topic);
        self.checked_narration(agents::narrate(ctx, prompt, &public, self.lang()).await)
    }

    async fn summarise(&self, ctx: &TurnContext<'_>, g: &ArenaGame) -> String {
        let heard = self.whole_game(ctx, g, NARRATOR_TOKENS);
        let standings: Vec<String> =
            g.standings().iter().map(|(s, t)| format!("{} {t:.1}", Self::label(g, s))).collect();
        let standings = standings.join("\n");
        let what = agents::Narration::Summary { standings: &standings };
        let prompt = agents::narrator_prompt(&ctx.pipeline.prompts, self.lang(), self.narrator(), what, &g.topic, &heard);
        let public = format!("{}\n{heard}\n{standings}", g.topic);
        self.checked_narration(agents::narrate(ctx, prompt, &public, self.lang()).await)
    }

    /// A narrator line that would reveal a secret is replaced.
    fn checked_narration(&self, said: Option<String>) -> String {
        match said {
            Some(text) if self.gate_check(&Audience::Everyone, &text).is_none() => text,
            _ => say::narrator_quiet(self.lang()),
        }
    }

    /// The public lines one change of state sends.
    pub(super) fn narrate(
        &self,
        before: &ArenaGame,
        after: &ArenaGame,
        event: &Event,
    ) -> (Reply, Vec<(String, String)>) {
        let lang = self.lang();
        let mut lines: Vec<String> = Vec::new();
        let mut kind = ReplyKind::Notice;
        let label = |s: &str| Self::label(after, s);
        if before.phase == Phase::Lobby && after.phase == Phase::Lobby {
            return (Reply::new(ReplyKind::Lobby, self.lobby_text(after)), Vec::new());
        }
        if before.phase == Phase::Lobby {
            lines.push(say::begins(lang, &after.topic, after.seats.len(), after.rules.max_turns));
            let r = &after.rules;
            let lowest = r.elimination == super::Elimination::Lowest;
            lines.push(say::rules_line(lang, r.early_until + 1, lowest, r.threshold, r.middle_until + 1));
            for (seat, p) in &after.cast {
                lines.push(format!("  {} · {}", label(seat), p.tagline));
            }
        }
        match event {
            Event::Speak { seat, text, .. } => {
                kind = ReplyKind::Verdict;
                lines.push(say::spoke(&label(seat), text));
                if let Some(to) = after.said.last().and_then(|c| c.to.as_ref()).filter(|_| after.reply.is_some()) {
                    lines.push(say::may_reply(lang, &label(to)));
                }
            }
            Event::Timer { .. } => lines.push(say::skipped(lang, &before.speaker().map(label).unwrap_or_default())),
            Event::Leave { seat, .. } => lines.push(say::left(lang, &label(seat))),
            Event::Pause { .. } => lines.push(say::paused(lang)),
            Event::Resume { .. } => lines.push(say::resumed(lang)),
            Event::Topic { text, .. } => lines.push(say::topic_set(lang, text)),
            // Public: that someone reacted; only they hear for whom.
            Event::React { .. } => lines.push(say::reacted(lang, after.reactions.len())),
            _ => {}
        }
        for r in &after.rounds[before.rounds.len().min(after.rounds.len())..] {
            lines.push(self.round_table(after, r));
            if let Some(n) = &r.narration {
                lines.push(say::narrator(&self.cast.narrator.name, n));
            }
        }
        let mut choices = Vec::new();
        if after.is_over() {
            kind = ReplyKind::Ended;
            lines.push(self.final_text(after));
        } else if let (Some(speaker), Phase::Turn { round, .. }) = (after.speaker(), &after.phase)
            && (before.speaker() != Some(speaker) || before.round() != *round || matches!(event, Event::Resume { .. }))
            && !after.paused
        {
            let seconds = (!after.seats.is_ai(speaker)).then_some(after.rules.turn_seconds);
            let stage = say::stage(lang, after.stage());
            match &after.reply {
                Some(r) => {
                    lines.push(say::reply_turn(lang, after.turn + 1, stage, &label(speaker), &label(&r.from), seconds))
                }
                None => lines.push(say::next_speaker(lang, after.turn + 1, stage, &label(speaker), seconds)),
            }
            if before.round() != *round || before.phase == Phase::Lobby {
                lines.push(say::react_prompt(lang));
                kind = ReplyKind::Ballot;
                choices =
                    after.living().iter().map(|s| (after.seats.number(s).unwrap_or(0).to_string(), label(s))).collect();
            }
        }
        (Reply::new(kind, lines.join("\n")), choices)
    }

    fn points(next: &ArenaGame) -> Vec<Points> {
        if next.outcome != Some(Outcome::Finished) {
            return Vec::new();
        }
        let winner = next.winner();
        next.seats
            .humans()
            .map(|s| {
                let total = next.totals.get(&s.player.id).copied().unwrap_or(0.0);
                let won = winner.as_deref() == Some(s.player.id.as_str());
                Points {
                    player: s.player.clone(),
                    points: total.round().max(0.0) as u32,
                    solved: won,
                    role: Some("contestant".into()),
                }
            })
            .collect()
    }

    /// Builds the played turn from the new state.
    fn played(&self, next: ArenaGame, event: &Event, seat: &str, private: Vec<Message>) -> Played {
        let (reply, choices) = self.narrate(&self.game, &next, event);
        let public = matches!(event, Event::Speak { .. }).then(|| PublicTurn {
            player: Self::label(&next, seat),
            text: reply.text.lines().next().unwrap_or_default().to_string(),
            outcome: next.phase_name().to_string(),
        });
        let record = TurnRecord { public, ..TurnRecord::default() };
        let turn = Turn { reply, messages: private, choices, record, points: Self::points(&next) };
        let fresh =
            (next.cast != self.game.cast || next.topic != self.game.topic).then(|| gates_for(&next, &self.canary));
        let gates = fresh.as_ref().unwrap_or(&self.gates);
        match Played::moved(&next, turn, gates, next.is_over(), &say::withheld(self.lang())) {
            Ok(played) => played.adopting(Next { game: next }),
            Err(refusal) => *refusal,
        }
    }
}

impl Answers for ArenaTable {
    fn status(&self) -> Played {
        self.gated(Played::reply(Reply::status(self.game.phase == Phase::Lobby, self.status_text())), false)
    }

    /// Nobody holds a secret to be shown again: a human contestant has no
    /// persona, so "whisper" is the status.
    fn whisper(&self, _seat: &str) -> Played {
        self.status()
    }

    /// The speaker's reminder, with the time left.
    fn remind(&self, left: i64) -> Option<Played> {
        let speaker = self.game.speaker()?;
        if left <= 0 {
            return Some(Played::silent());
        }
        let text = say::reminder(self.lang(), left, &Self::label(&self.game, speaker));
        Some(self.gated(Played::reply(Reply::new(ReplyKind::Notice, text)), false))
    }
}

#[async_trait]
impl GameTable for ArenaTable {
    type Game = ArenaGame;
    type Next = Next;

    fn game(&self) -> &ArenaGame {
        &self.game
    }

    fn language(&self) -> Language {
        self.game.language
    }

    fn is_running(&self) -> bool {
        matches!(self.game.phase, Phase::Turn { .. })
    }

    fn reminder(&self) -> Option<Deadline> {
        self.game.reminder()
    }

    async fn play(&mut self, ctx: &TurnContext<'_>, inbound: &Inbound) -> Played {
        if let Some(answer) = answered(self, inbound, ctx.now_ms) {
            return answer;
        }
        let lang = self.lang();
        let seat = inbound.player.id.clone();
        let event = match &inbound.input {
            TurnInput::Say(text) => match self.speak(ctx, &seat, text).await {
                Ok(event) => event,
                Err(played) => return played,
            },
            _ => match self.event_for(inbound, ctx.now_ms) {
                Ok(event) => event,
                Err(why) => return Played::refused(why),
            },
        };
        let mut next = match self.game.apply(&event, &()) {
            Ok(next) => next,
            Err(r) => return self.rejection(&r),
        };
        let mut private = Vec::new();
        if let Event::React { option, .. } = &event {
            let who = next.seats.by_number(option).map(|s| Self::label(&next, s)).unwrap_or_default();
            private.push(Message::to(Audience::Seat(seat.clone()), ReplyKind::Private, say::reaction_in(lang, &who)));
        }
        // A round just closed: the narrator's comment (every few rounds),
        // unless the game ended (the summary covers it).
        if next.rounds.len() > self.game.rounds.len()
            && !next.is_over()
            && let Some(r) = next.rounds.last().cloned()
            && r.round % next.rules.narrator_every.max(1) == 0
        {
            let text = self.narrate_round(ctx, &next, &r).await;
            next = next.apply(&Event::Narrate { text }, &()).unwrap_or(next);
        }
        if next.is_over() && !self.game.is_over() && next.turn > 0 {
            let text = self.summarise(ctx, &next).await;
            next = next.apply(&Event::Narrate { text }, &()).unwrap_or(next);
        }
        self.played(next, &event, &seat, private)
    }

    fn expire(&mut self, _ctx: &TurnContext<'_>) -> Played {
        let mut next = self.game.clone();
        next.phase = Phase::Over;
        next.deadline = None;
        if next.outcome.is_none() {
            next.outcome = Some(Outcome::Ended);
        }
        let text = format!("{}\n{}", say::ended_idle(self.lang()), self.final_text(&next));
        Played::idle_end(&next, text).adopting(Next { game: next })
    }

    fn adopt(&mut self, next: Next) {
        if next.game.cast != self.game.cast || next.game.topic != self.game.topic {
            self.gates = gates_for(&next.game, &self.canary);
        }
        self.game = next.game;
    }

    async fn agent_moves(&self, ctx: &TurnContext<'_>, _seq: i64) -> Vec<AgentMove> {
        let g = &self.game;
        let Some(seat) = g.speaker().filter(|s| g.seats.is_ai(s) && !g.paused).map(str::to_string) else {
            return Vec::new();
        };
        let id = format!("agent:{seat}:speak:{}", g.turn + 1);
        if !self.agents.issue(&id) {
            return Vec::new();
        }
        let (Some(player), Some(persona)) = (g.seats.seat(&seat).map(|s| s.player.clone()), g.cast.get(&seat)) else {
            return Vec::new();
        };
        let said = match agents::persona_card(&ctx.pipeline.prompts, self.lang(), persona) {
            Ok(card) => {
                let record = Self::record(g, self.narrator().0);
                let view = SeatView::new(&player, &record, vec![card.as_str()]);
                agents::contribute(ctx, &view, self.lang(), &g.topic, &self.situation(g)).await
            }
            Err(e) => {
                tracing::warn!(error = %e, "the persona's card did not render; the stock line is used");
                None
            }
        };
        let text = match said.filter(|t| self.check_contribution(t).is_none()) {
            Some(text) => text,
            None => {
                self.agents.fell_back();
                self.stock_line(g.turn)
            }
        };
        self.agents.made();
        vec![AgentMove { seat: player, input: TurnInput::Say(text), event_id: id, not_before_ms: None }]
    }
}

impl ArenaTable {
    /// Where the game stands for its speaker: the turn, the stage, the
    /// standings as shown, and what it replies to when it owes a reply.
    pub fn situation(&self, g: &ArenaGame) -> agents::Situation {
        let lang = self.lang();
        let standings: Vec<String> = g
            .standings()
            .iter()
            .filter(|(s, _)| !g.out.contains_key(s))
            .map(|(s, t)| format!("{} {t:.1}", Self::label(g, s)))
            .collect();
        let reply_to = g.reply.as_ref().map(|r| {
            let said = g.said.iter().find(|c| c.turn == r.to_turn).map(|c| c.text.clone()).unwrap_or_default();
            (Self::label(g, &r.from), said)
        });
        agents::Situation {
            turn: g.turn + 1,
            max_turns: g.rules.max_turns,
            stage: say::stage(lang, g.stage()).to_string(),
            standings: standings.join(", "),
            reply_to,
        }
    }

    /// The whole game as the record holds it (`echoes replay`):
    /// every contribution with its scores, each round's table and the
    /// narrator, then the end.
    pub fn replay(&self) -> String {
        let g = &self.game;
        let lang = self.lang();
        let mut lines = vec![format!("{} · {}", say::title(lang), g.topic)];
        let last = g.said.last().map_or(0, |c| c.round);
        for round in 1..=last {
            lines.push(String::new());
            for c in g.said.iter().filter(|c| c.round == round) {
                let label = Self::label(g, &c.seat);
                match c.scores {
                    Some(s) => {
                        let dims: Vec<String> = s.values().iter().map(u8::to_string).collect();
                        let unread = if c.parsed { "" } else { " ?" };
                        lines.push(format!("turn {} · {label}: {}  [{}{unread}]", c.turn, c.text, dims.join(" ")));
                    }
                    None => lines.push(format!("turn {} · {label} {}", c.turn, say::skipped_mark(lang))),
                }
            }
            if let Some(r) = g.rounds.iter().find(|r| r.round == round) {
                lines.push(self.round_table(g, r));
                if let Some(n) = &r.narration {
                    lines.push(say::narrator(&self.cast.narrator.name, n));
                }
            }
        }
        if g.is_over() {
            lines.push(String::new());
            lines.push(self.final_text(g));
        }
        lines.join("\n")
    }

    /// A stock contribution that passes the gate, varied by turn.
    fn stock_line(&self, turn: u32) -> String {
        let lines = say::stock_lines(self.lang());
        (0..lines.len())
            .map(|i| lines[(turn as usize + i) % lines.len()])
            .find(|l| self.check_contribution(l).is_none())
            .unwrap_or("…")
            .to_string()
    }
}
