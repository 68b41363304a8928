//! Who is the Undercover on the engine: inputs become the game's events
//! (a description is checked against every secret word first), each
//! change of state becomes its public lines and private messages, and
//! every message passes the gate for its audience while the game is on.
//! AI seats move from their `SeatView` (the public record and their own
//! word, nothing else) through `agents.rs`.

use async_trait::async_trait;

use crate::core::actor::Inbound;
use crate::core::game::table::{AgentMove, Answers, GameTable, answered};
use crate::core::game::{
    AgentLog, Audience, Deadline, Game, Message, Played, Points, Reply, ReplyKind, SeatView, Secret, SecretGates, Turn,
    TurnContext, TurnInput, TurnRecord, human_pace,
};
use crate::core::prompts::PublicTurn;
use crate::core::secrecy::{Canary, Check};
use crate::core::vocab::Language;

use super::verbs::UndercoverVerb;
use super::words::fold;
use super::{Event, Outcome, Phase, Reasoning, Rejection, Role, UndercoverGame, agents, memory, say};

/// Longest description, in characters.
pub const MAX_DESCRIPTION: usize = 200;

pub struct UndercoverTable {
    pub game: UndercoverGame,
    history: Vec<PublicTurn>,
    canary: String,
    gates: SecretGates,
    /// The AI seats' moves handed to the engine, each once.
    agents: AgentLog,
}

pub struct Next {
    game: UndercoverGame,
    public: Option<PublicTurn>,
    /// The gates for the new state, when the roles were dealt this turn.
    gates: Option<SecretGates>,
}

/// The gate: every seat's word and its other forms, owned by that seat.
fn gates_for(game: &UndercoverGame, canary: &str) -> SecretGates {
    let mut secrets = Vec::new();
    for (seat, role) in &game.roles {
        for form in game.dealt.forms(*role) {
            secrets.push(Secret::of_seat(seat.clone(), form));
        }
    }
    // In the lobby nobody holds a word yet, but the words are still secret.
    if game.roles.is_empty() {
        for role in [Role::Civilian, Role::Undercover] {
            secrets.extend(game.dealt.forms(role).into_iter().map(Secret::hidden));
        }
    }
    SecretGates::new(say::title(game.language), &secrets, Canary::parse(canary))
}

impl UndercoverTable {
    pub fn new(game: UndercoverGame, history: Vec<PublicTurn>, canary: &str) -> UndercoverTable {
        UndercoverTable {
            gates: gates_for(&game, canary),
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

    fn lang(&self) -> Language {
        self.game.language
    }

    /// Why a description may not be posted, if it may not.
    pub fn check_description(&self, text: &str) -> Option<String> {
        let lang = self.lang();
        let text = text.trim();
        if text.is_empty() {
            return Some(say::description_empty(lang));
        }
        if text.chars().count() > MAX_DESCRIPTION {
            return Some(say::description_too_long(lang, MAX_DESCRIPTION));
        }
        let spelled = joined_letters(text);
        let blocked = [text, spelled.as_str()]
            .iter()
            .any(|t| !t.is_empty() && matches!(self.gates.check(&Audience::Everyone, t), Check::Blocked(_)));
        blocked.then(|| say::description_gives_away(lang))
    }

    /// Why a text may not go to `audience` while the game is on (the
    /// matched span), if it may not.
    pub fn gate_check(&self, audience: &Audience, text: &str) -> Option<String> {
        match self.gates.check(audience, text) {
            Check::Blocked(b) => Some(b.span),
            Check::Pass => None,
        }
    }

    /// A vote's option from what was typed: a seat number (`3`, `#3`) or
    /// a seat's name.
    fn option_of(&self, typed: &str) -> String {
        let typed = typed.trim();
        if self.game.seats.by_number(typed).is_some() {
            return typed.trim_start_matches('#').to_string();
        }
        let wanted = fold(typed);
        let by_name = self.game.seats.seats.iter().position(|s| !wanted.is_empty() && fold(&s.player.name) == wanted);
        by_name.map_or_else(|| typed.to_string(), |i| (i + 1).to_string())
    }

    fn event_for(&self, inbound: &Inbound, now_ms: i64) -> Result<Event, String> {
        let who = &inbound.player;
        let seat = who.id.clone();
        Ok(match &inbound.input {
            TurnInput::Join => Event::Join(who.clone()),
            TurnInput::Leave => Event::Leave { seat, now_ms },
            TurnInput::AddAi => Event::AddAi,
            TurnInput::Begin | TurnInput::Start => Event::Begin { by: seat, moderator: inbound.moderator, now_ms },
            TurnInput::Vote(typed) => Event::Vote { voter: seat, option: self.option_of(typed), now_ms },
            TurnInput::Timer(tag) => Event::Timer { tag: tag.clone(), now_ms },
            TurnInput::End => Event::End { by: seat, moderator: inbound.moderator, now_ms },
            TurnInput::Say(text) => self.said(seat, text, now_ms)?,
            TurnInput::Verb(verb) => match UndercoverVerb::read(verb) {
                Some(UndercoverVerb::Guess(text)) => self.guessed(seat, &text, now_ms),
                Some(UndercoverVerb::AgentVote(_, option, _)) if self.game.seats.is_ai(&seat) => {
                    Event::Vote { voter: seat, option: self.option_of(&option), now_ms }
                }
                Some(UndercoverVerb::AgentVote(..)) | None => return Err(say::not_a_verb(self.lang())),
            },
            _ => return Err(say::not_a_verb(self.lang())),
        })
    }

    /// An AI seat's reasons for the vote it makes with `inbound`, as the
    /// state keeps them; `None` for any other input.
    fn reasons_in(&self, inbound: &Inbound) -> Option<Reasoning> {
        let seat = inbound.player.id.as_str();
        let Some(UndercoverVerb::AgentVote(_, option, reasons)) = UndercoverVerb::of(&inbound.input) else {
            return None;
        };
        let Phase::Vote { round, runoff } = self.game.phase else { return None };
        let reasons: agents::Reasons = serde_json::from_str(&reasons).ok().filter(|_| self.game.seats.is_ai(seat))?;
        Some(Reasoning {
            round,
            runoff,
            seat: seat.to_string(),
            believes: reasons.believes,
            why: reasons.why,
            reads: reasons.reads,
            vote: self.option_of(&option),
        })
    }

    /// Free text: a description on the speaker's turn, the seats a player
    /// thinks are AI, or the blank seat's last guess.
    fn said(&self, seat: String, text: &str, now_ms: i64) -> Result<Event, String> {
        if self.game.phase == Phase::GuessAi || matches!(self.game.phase, Phase::LastGuess { .. }) {
            return Ok(self.guessed(seat, text, now_ms));
        }
        if matches!(self.game.phase, Phase::Describe { .. })
            && self.game.speaker() == Some(seat.as_str())
            && let Some(why) = self.check_description(text)
        {
            return Err(why);
        }
        Ok(Event::Describe { seat, text: text.trim().to_string(), now_ms })
    }

    /// `guess`: the seats a player thinks are AI, or the last guess.
    fn guessed(&self, seat: String, text: &str, now_ms: i64) -> Event {
        if self.game.phase == Phase::GuessAi {
            return Event::GuessAi { seat, seats: self.game.seats.by_numbers(text) };
        }
        let guess = fold(text);
        let right = !guess.is_empty() && self.game.dealt.forms(Role::Civilian).iter().any(|f| fold(f) == guess);
        Event::LastGuess { seat, text: text.trim().to_string(), right, now_ms }
    }

    fn lobby_text(&self, game: &UndercoverGame) -> String {
        let lang = self.lang();
        let seats: Vec<String> = game
            .seats
            .seats
            .iter()
            .map(|s| {
                let host =
                    if s.player.id == game.seats.host { format!(" ({})", say::host_mark(lang)) } else { String::new() };
                format!("{}{host}", game.seats.label(&s.player.id))
            })
            .collect();
        say::lobby(lang, &seats, game.seats.rules.max, game.seats.rules.min)
    }

    fn status_text(&self) -> String {
        let g = &self.game;
        let lang = self.lang();
        if g.phase == Phase::Lobby {
            return self.lobby_text(g);
        }
        let living: Vec<String> = g.living().iter().map(|s| g.seats.label(s)).collect();
        let waiting: Vec<String> = self.waiting_for().iter().map(|s| g.seats.label(s)).collect();
        let waiting = if waiting.is_empty() { String::new() } else { say::waiting_for(lang, &waiting.join(", ")) };
        say::status(lang, say::phase(lang, g.phase_name()), g.round(), &living.join(", "), &waiting)
    }

    /// The seats the phase waits for.
    fn waiting_for(&self) -> Vec<String> {
        let g = &self.game;
        match &g.phase {
            Phase::Describe { .. } => g.speaker().map(str::to_string).into_iter().collect(),
            Phase::Vote { .. } => {
                let ballot = g.ballot.as_ref();
                g.living().into_iter().filter(|s| ballot.is_some_and(|b| !b.has_voted(s))).collect()
            }
            Phase::LastGuess { seat, .. } => vec![seat.clone()],
            Phase::GuessAi => g.ai_guesses.waiting(&g.seats),
            Phase::Lobby | Phase::Over => Vec::new(),
        }
    }

    /// The whole story, shown when the game ends: words, roles, winners,
    /// every vote.
    fn reveal(&self, g: &UndercoverGame) -> String {
        let lang = self.lang();
        let mut lines = vec![say::words_reveal(lang, &g.dealt.civilian, &g.dealt.undercover)];
        lines.push(say::roles_heading(lang).to_string());
        let winners = g.winners();
        for seat in g.seat_ids() {
            let role = g.role(&seat).map_or("?", |r| say::role(lang, r));
            let out = if g.out.contains_key(&seat) { format!(" · {}", say::out_mark(lang)) } else { String::new() };
            let won = if winners.contains(&seat) { format!(" {}", say::winner_mark(lang)) } else { String::new() };
            lines.push(format!("  {} · {role}{out}{won}", g.seats.label(&seat)));
        }
        for record in &g.votes {
            lines.push(say::votes_heading(lang, record.round, record.runoff));
            lines.push(self.vote_lines(g, record));
        }
        // While the humans still guess which seats were AI, the reasons
        // (which only AI seats give) wait for the very end.
        if g.phase == Phase::Over {
            lines.extend(self.reasons_text(g));
        }
        lines.join("\n")
    }

    /// Why each AI seat voted as it did, once the game is over: what it
    /// believed its own role was, its reads of the others, its vote.
    fn reasons_text(&self, g: &UndercoverGame) -> Option<String> {
        if g.reasons.is_empty() {
            return None;
        }
        let lang = self.lang();
        let seat_label = |n: &str| g.seats.by_number(n).map_or_else(|| format!("#{n}"), |s| g.seats.label(s));
        let mut lines = vec![say::reasons_heading(lang).to_string()];
        for r in &g.reasons {
            let reads: Vec<String> = r.reads.iter().map(|(n, read)| format!("{}: {read}", seat_label(n))).collect();
            lines.push(say::reason_line(lang, r, &g.seats.label(&r.seat), &seat_label(&r.vote), &reads.join("; ")));
        }
        Some(lines.join("\n"))
    }

    /// Which seats were AI, and how each human guessed.
    fn ai_reveal(&self, g: &UndercoverGame) -> String {
        let lang = self.lang();
        let ai: Vec<String> = g.seats.agents().map(|s| g.seats.label(&s.player.id)).collect();
        let mut lines = vec![say::ai_were(lang, &ai.join(", "))];
        for (seat, right, wrong) in g.ai_guess_scores() {
            lines.push(format!("  {} · {}", g.seats.label(&seat), say::ai_score(lang, right, ai.len(), wrong)));
        }
        lines.join("\n")
    }

    fn vote_lines(&self, g: &UndercoverGame, record: &super::VoteRecord) -> String {
        let votes: Vec<String> = record
            .votes
            .iter()
            .map(|(voter, target)| format!("  {} → {}", g.seats.label(voter), g.seats.label(target)))
            .collect();
        let abstained: Vec<String> = record.abstained.iter().map(|s| g.seats.label(s)).collect();
        say::votes_list(self.lang(), &votes, &abstained)
    }

    /// The public lines and private messages one change of state sends:
    /// the deal, the move itself, the ballots it closed, a guess at the AI,
    /// then what the new phase opens with. The reply's kind is the last
    /// step's that sets one.
    fn narrate(&self, before: &UndercoverGame, after: &UndercoverGame, event: &Event) -> (Reply, Vec<Message>) {
        let mut lines: Vec<String> = Vec::new();
        let mut private: Vec<Message> = Vec::new();
        let mut kind = ReplyKind::Notice;
        if before.phase == Phase::Lobby && after.phase == Phase::Lobby {
            return (Reply::new(ReplyKind::Lobby, self.lobby_text(after)), private);
        }
        if before.roles.is_empty() && !after.roles.is_empty() {
            self.deal_lines(after, &mut lines, &mut private);
        }
        if let Some(k) = self.move_lines(before, after, event, &mut lines, &mut private) {
            kind = k;
        }
        if self.ballot_lines(before, after, &mut lines) {
            kind = ReplyKind::Ballot;
        }
        if let Event::GuessAi { seat, .. } = event {
            self.ai_guess_lines(after, seat, &mut lines, &mut private);
        }
        if let Some(k) = self.phase_lines(before, after, &mut lines, &mut private) {
            kind = k;
        }
        (Reply::new(kind, lines.join("\n")), private)
    }

    /// The roles were just dealt: the opening line, and each seat's word
    /// (or that it is the blank) in private.
    fn deal_lines(&self, after: &UndercoverGame, lines: &mut Vec<String>, private: &mut Vec<Message>) {
        let lang = self.lang();
        let undercovers = after.roles.values().filter(|r| **r == Role::Undercover).count();
        let blank = after.roles.values().any(|r| *r == Role::Blank);
        lines.push(say::begins(lang, after.seats.len(), undercovers, blank));
        for (seat, role) in &after.roles {
            let text = match after.dealt.word(*role) {
                Some(word) => say::your_word(lang, word),
                None => say::you_are_blank(lang),
            };
            private.push(Message::to(Audience::Seat(seat.clone()), ReplyKind::Private, text));
        }
    }

    /// The move itself: a description, a skipped turn, a seat leaving, the
    /// blank's guess, or a vote (its receipt in private, the count in
    /// public). The reply's kind, when the move sets one.
    fn move_lines(
        &self,
        before: &UndercoverGame,
        after: &UndercoverGame,
        event: &Event,
        lines: &mut Vec<String>,
        private: &mut Vec<Message>,
    ) -> Option<ReplyKind> {
        let lang = self.lang();
        let label = |s: &str| after.seats.label(s);
        match event {
            Event::Describe { seat, text, .. } => {
                lines.push(say::described(lang, &label(seat), text));
                return Some(ReplyKind::Verdict);
            }
            Event::Timer { .. } if matches!(before.phase, Phase::Describe { .. }) => {
                lines.push(say::skipped(lang, &before.speaker().map(label).unwrap_or_default()));
            }
            Event::Leave { seat, .. } => lines.push(say::left_game(lang, &label(seat))),
            Event::LastGuess { seat, right, .. } => lines.push(say::guess_result(lang, &label(seat), *right)),
            Event::Timer { .. } if matches!(before.phase, Phase::LastGuess { .. }) => {
                if let Phase::LastGuess { seat, .. } = &before.phase {
                    lines.push(say::guess_missed(lang, &label(seat)));
                }
            }
            Event::Vote { voter, option, .. } => {
                let target = after.seats.by_number(option).map(label).unwrap_or_default();
                private.push(Message::to(
                    Audience::Seat(voter.clone()),
                    ReplyKind::Private,
                    say::vote_in(lang, &target),
                ));
                if let Some(ballot) = after.ballot.as_ref().filter(|_| after.votes.len() == before.votes.len()) {
                    lines.push(say::voted_count(lang, ballot.cast_count(), ballot.voters.len()));
                    return Some(ReplyKind::Ballot);
                }
            }
            _ => {}
        }
        None
    }

    /// The ballots this change closed: every vote, then who went out (and
    /// their role) or the tie. Whether there were any.
    fn ballot_lines(&self, before: &UndercoverGame, after: &UndercoverGame, lines: &mut Vec<String>) -> bool {
        let lang = self.lang();
        let label = |s: &str| after.seats.label(s);
        let closed = &after.votes[before.votes.len().min(after.votes.len())..];
        for record in closed {
            lines.push(self.vote_lines(after, record));
            match &record.out {
                Some(seat) => {
                    let votes = record.votes.values().filter(|t| *t == seat).count();
                    let role = after.role(seat).map_or("?", |r| say::role(lang, r));
                    lines.push(say::eliminated(lang, &label(seat), votes, record.random, role));
                }
                None => {
                    let tied: Vec<String> = after
                        .ballot
                        .as_ref()
                        .map(|b| b.options.iter().map(|(_, l)| l.clone()).collect())
                        .unwrap_or_default();
                    lines.push(say::tie(lang, &tied.join(", ")));
                }
            }
        }
        !closed.is_empty()
    }

    /// A human's guess at the AI seats: its receipt in private, and how
    /// many humans have guessed while the guessing goes on.
    fn ai_guess_lines(&self, after: &UndercoverGame, seat: &str, lines: &mut Vec<String>, private: &mut Vec<Message>) {
        let lang = self.lang();
        private.push(Message::to(Audience::Seat(seat.to_string()), ReplyKind::Private, say::ai_guess_in(lang)));
        if after.phase == Phase::GuessAi {
            let humans = after.seats.humans().count();
            lines.push(say::ai_guesses_count(lang, after.ai_guesses.len(), humans));
        }
    }

    /// What the new phase opens with: the result and the reveal, a vote, the
    /// blank's last guess, or the next speaker. The reply's kind, when the
    /// phase sets one.
    fn phase_lines(
        &self,
        before: &UndercoverGame,
        after: &UndercoverGame,
        lines: &mut Vec<String>,
        private: &mut Vec<Message>,
    ) -> Option<ReplyKind> {
        let lang = self.lang();
        match (&before.phase, &after.phase) {
            (Phase::GuessAi, Phase::Over) => {
                lines.push(self.ai_reveal(after));
                lines.extend(self.reasons_text(after));
                Some(ReplyKind::Ended)
            }
            (_, Phase::Over) | (_, Phase::GuessAi) if before.outcome.is_none() => {
                lines.push(say::outcome(lang, after.outcome.unwrap_or(Outcome::Ended)));
                lines.push(self.reveal(after));
                if after.phase == Phase::GuessAi {
                    lines.push(say::guess_ai_opens(lang, after.rules.vote_seconds));
                }
                Some(ReplyKind::Ended)
            }
            (_, Phase::Over) => Some(ReplyKind::Ended),
            (_, Phase::Vote { runoff, .. }) if before.phase != after.phase => {
                lines.push(say::vote_opens(lang, *runoff, after.rules.vote_seconds));
                Some(ReplyKind::Ballot)
            }
            (_, Phase::LastGuess { seat, .. }) if before.phase != after.phase => {
                lines.push(say::last_guess_opens(lang, &after.seats.label(seat), after.rules.guess_seconds));
                private.push(Message::to(Audience::Seat(seat.clone()), ReplyKind::Private, say::guess_prompt(lang)));
                None
            }
            (_, Phase::Describe { round, turn }) => {
                lines.extend(self.speaker_line(before, after, *round, *turn));
                None
            }
            _ => None,
        }
    }

    /// A new round's speaking order and first speaker, or the next speaker
    /// in the round; nothing when the speaker has not changed.
    fn speaker_line(&self, before: &UndercoverGame, after: &UndercoverGame, round: u32, turn: usize) -> Option<String> {
        let lang = self.lang();
        let label = |s: &str| after.seats.label(s);
        let speaker = after.speakers.get(turn).map(|s| label(s)).unwrap_or_default();
        let seconds = after.rules.describe_seconds;
        if before.round() != round || !matches!(before.phase, Phase::Describe { .. }) {
            let order: Vec<String> = after.speakers.iter().map(|s| label(s)).collect();
            Some(say::round_opens(lang, round, &order.join(" → "), &speaker, seconds))
        } else if before.phase != after.phase {
            Some(say::next_speaker(lang, &speaker, seconds))
        } else {
            None
        }
    }

    /// Every message passes the gate for its audience while the game is
    /// on; the turn that ends the game (the reveal) is not gated.
    fn gated(&self, played: Played, over: bool) -> Played {
        self.gates.gate(played, over, &say::withheld(self.lang()))
    }
}

impl UndercoverTable {
    /// The turn that took the game to `next`: its lines by audience, the
    /// ballot it opens, its public line, and, when the roles were dealt,
    /// the new state's gate (each seat's word is gated as the new state's).
    fn moved(&self, next: UndercoverGame, event: &Event, seat: &str) -> Played {
        let (reply, messages) = self.narrate(&self.game, &next, event);
        let public = (!matches!(next.phase, Phase::Lobby) && !reply.text.is_empty()).then(|| PublicTurn {
            player: next.seats.label(seat),
            text: reply.text.clone(),
            outcome: next.phase_name().to_string(),
        });
        let choices = match (&next.phase, &next.ballot) {
            (Phase::Vote { .. }, Some(ballot))
                if self.game.phase != next.phase || next.votes.len() > self.game.votes.len() =>
            {
                ballot.options.clone()
            }
            _ => Vec::new(),
        };
        let record = TurnRecord { public: public.clone(), ..TurnRecord::default() };
        let turn = Turn { reply, messages, choices, record, points: Self::points(&next) };
        let fresh = (next.roles != self.game.roles).then(|| gates_for(&next, &self.canary));
        // Once the result is in, every word has been shown.
        let over = next.outcome.is_some();
        match Played::moved(&next, turn, fresh.as_ref().unwrap_or(&self.gates), over, &say::withheld(self.lang())) {
            Ok(played) => played.adopting(Next { game: next, public, gates: fresh }),
            Err(refusal) => *refusal,
        }
    }

    /// The refusal for a rejected event.
    fn refusal(&self, r: &Rejection) -> Played {
        let speaker = match r {
            Rejection::NotYourTurn { speaker } => self.game.seats.label(speaker),
            _ => String::new(),
        };
        Played::refused(say::refusal(self.lang(), r, &speaker))
    }

    fn points(next: &UndercoverGame) -> Vec<Points> {
        if !next.is_over() || next.outcome == Some(Outcome::Ended) {
            return Vec::new();
        }
        Points::of_winners(&next.seats, &next.winners(), |s| next.role(s).map(|r| r.as_str().to_string()))
    }

    fn private_word(&self, seat: &str) -> Option<String> {
        let lang = self.lang();
        let role = self.game.role(seat)?;
        Some(match self.game.dealt.word(role) {
            Some(word) => say::your_word(lang, word),
            None => say::you_are_blank(lang),
        })
    }
}

/// Letters spelled out one by one (`c-o-f-f-e-e`, `c o f f e e`) joined
/// back into words; empty when the text spells nothing out.
fn joined_letters(text: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut run = String::new();
    for token in text.split(|c: char| !c.is_alphanumeric()).filter(|t| !t.is_empty()) {
        let mut chars = token.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if !crate::core::text::is_cjk(c) => run.push(c),
            _ => {
                if run.chars().count() >= 2 {
                    out.push(std::mem::take(&mut run));
                }
                run.clear();
            }
        }
    }
    if run.chars().count() >= 2 {
        out.push(run);
    }
    out.join(" ")
}

impl Answers for UndercoverTable {
    fn status(&self) -> Played {
        self.gated(Played::reply(Reply::status(self.game.phase == Phase::Lobby, self.status_text())), false)
    }

    /// A seat's word again, privately.
    fn whisper(&self, seat: &str) -> Played {
        let lang = self.lang();
        match self.private_word(seat) {
            Some(text) => self.gated(Played::to_seat(say::sent_privately(lang), seat, text), false),
            None => Played::refused(say::refusal(lang, &Rejection::NotSeated, "")),
        }
    }

    /// The humans the phase still waits for, and the time left; nothing
    /// when it waits for no human.
    fn remind(&self, left: i64) -> Option<Played> {
        let g = &self.game;
        let humans: Vec<String> = self
            .waiting_for()
            .iter()
            .filter(|s| g.seats.humans().any(|h| &h.player.id == *s))
            .map(|s| g.seats.label(s))
            .collect();
        if humans.is_empty() || left <= 0 {
            return Some(Played::silent());
        }
        let text = say::reminder(self.lang(), left, &humans.join(", "), g.phase_name());
        Some(self.gated(Played::reply(Reply::new(ReplyKind::Notice, text)), false))
    }
}

#[async_trait]
impl GameTable for UndercoverTable {
    type Game = UndercoverGame;
    type Next = Next;

    fn game(&self) -> &UndercoverGame {
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
        let event = match self.event_for(inbound, ctx.now_ms) {
            Ok(event) => event,
            Err(why) => return Played::refused(why),
        };
        match self.game.apply(&event, &()) {
            Ok(mut next) => {
                if let Some(reasons) = self.reasons_in(inbound) {
                    next.keep_reasons(reasons);
                }
                self.moved(next, &event, &inbound.player.id)
            }
            Err(r) => self.refusal(&r),
        }
    }

    fn expire(&mut self, ctx: &TurnContext<'_>) -> Played {
        let mut next = self.game.clone();
        next.close(ctx.now_ms);
        let text = format!("{}\n{}", say::ended_idle(self.lang()), self.reveal(&next));
        Played::idle_end(&next, text).adopting(Next { game: next, public: None, gates: None })
    }

    fn adopt(&mut self, next: Next) {
        if let Some(gates) = next.gates {
            self.gates = gates;
        } else if next.game.roles != self.game.roles {
            self.gates = gates_for(&next.game, &self.canary);
        }
        self.game = next.game;
        self.history.extend(next.public);
    }

    async fn agent_moves(&self, ctx: &TurnContext<'_>, seq: i64) -> Vec<AgentMove> {
        let g = &self.game;
        let record = memory::record(g);
        let mut moves: Vec<AgentMove> = Vec::new();
        for (seat, id) in self.owed() {
            if !self.agents.issue(&id) {
                continue;
            }
            let Some(player) = g.seats.seat(&seat).map(|s| s.player.clone()) else { continue };
            // The seat's own facts: its word (empty for the blank), then
            // its own reasons from earlier votes.
            let own = self.own_facts(&seat);
            let view = SeatView::new(&player, &record, own.iter().map(String::as_str).collect());
            let input = match &g.phase {
                Phase::Describe { round, .. } => {
                    let said = agents::describe(ctx, &view, self.lang()).await;
                    match said.filter(|t| self.check_description(t).is_none()) {
                        Some(text) => TurnInput::Say(text),
                        None => {
                            self.agents.fell_back();
                            TurnInput::Say(self.stock_description(&seat, *round))
                        }
                    }
                }
                Phase::Vote { .. } => match self.agent_vote(ctx, &view, &seat, seq).await {
                    Some(input) => input,
                    None => continue,
                },
                Phase::LastGuess { .. } => {
                    let view = SeatView::new(&player, &record, Vec::new());
                    let guess = agents::guess(ctx, &view, self.lang()).await.unwrap_or_else(|| {
                        self.agents.fell_back();
                        "?".to_string()
                    });
                    UndercoverVerb::Guess(guess).into()
                }
                Phase::Lobby | Phase::GuessAi | Phase::Over => continue,
            };
            self.agents.made();
            let not_before_ms = self.human_pace(&id, &input).map(|ms| ctx.now_ms + ms);
            moves.push(AgentMove { seat: player, input, event_id: id, not_before_ms });
        }
        moves
    }
}

impl UndercoverTable {
    /// What one seat knows of itself: its word (empty for the blank),
    /// then its reasons from its latest votes, one line each.
    pub fn own_facts(&self, seat: &str) -> Vec<String> {
        let g = &self.game;
        let lang = self.lang();
        let notes = g.reasons_of(seat).map(|r| {
            let reasons = agents::Reasons { believes: r.believes.clone(), why: r.why.clone(), reads: r.reads.clone() };
            agents::note_line(lang, r.round, &r.vote, &reasons)
        });
        std::iter::once(g.word_of(seat).unwrap_or_default().to_string())
            .chain(agents::kept_notes(notes.collect()))
            .collect()
    }

    /// An AI seat's vote with its reasons; a seeded pick among the options
    /// when its answer names none. `None`: there is nobody to vote for.
    async fn agent_vote(&self, ctx: &TurnContext<'_>, view: &SeatView<'_>, seat: &str, seq: i64) -> Option<TurnInput> {
        let g = &self.game;
        let own_number = g.number(seat).unwrap_or(0).to_string();
        let options: Vec<(String, String)> =
            g.ballot.iter().flat_map(|b| b.options.iter()).filter(|(id, _)| *id != own_number).cloned().collect();
        if options.is_empty() {
            return None;
        }
        let ballot = agents::vote(ctx, view, self.lang(), &options).await;
        let (option, reasons) = match ballot {
            Some(agents::Ballot { option: Some(option), reasons }) => (option, reasons),
            _ => {
                self.agents.fell_back();
                let salt = seq as u64 ^ g.number(seat).unwrap_or(0) as u64;
                let pick = (super::splitmix(g.seed ^ salt) % options.len() as u64) as usize;
                (options[pick].0.clone(), None)
            }
        };
        let reasons = reasons.and_then(|r| serde_json::to_string(&r).ok()).unwrap_or_default();
        Some(UndercoverVerb::AgentVote("vote".into(), option, reasons).into())
    }

    /// The AI seats that owe a move now, each with the move's id (the same
    /// id however often it is asked, so a move is made once).
    fn owed(&self) -> Vec<(String, String)> {
        let g = &self.game;
        let is_ai = |seat: &str| g.seats.seat(seat).is_some_and(|s| s.ai);
        match &g.phase {
            Phase::Describe { round, turn } => g
                .speaker()
                .filter(|s| is_ai(s))
                .map(|s| (s.to_string(), format!("agent:{s}:describe:{round}:{turn}")))
                .into_iter()
                .collect(),
            Phase::Vote { round, runoff } => {
                let Some(ballot) = g.ballot.as_ref() else { return Vec::new() };
                let stage = if *runoff { "runoff" } else { "main" };
                g.living()
                    .into_iter()
                    .filter(|s| is_ai(s) && !ballot.has_voted(s))
                    .map(|s| {
                        let id = format!("agent:{s}:vote:{round}:{stage}");
                        (s, id)
                    })
                    .collect()
            }
            Phase::LastGuess { round, seat } if is_ai(seat) => {
                vec![(seat.clone(), format!("agent:{seat}:guess:{round}"))]
            }
            _ => Vec::new(),
        }
    }

    /// In anonymous mode an AI seat takes a human's time (an instant
    /// answer would give it away): about a second per five characters
    /// typed, 3 s to read first, up to 20 s, varied by the move's id.
    pub(super) fn human_pace(&self, move_id: &str, input: &TurnInput) -> Option<i64> {
        let g = &self.game;
        g.rules.anonymous.then(|| human_pace(g.seed, move_id, input.text().chars().count()))
    }

    /// A safe description for an AI seat whose own broke a rule: a stock
    /// line (one that passes the gate), varied by seat and round.
    fn stock_description(&self, seat: &str, round: u32) -> String {
        let lines = say::stock_descriptions(self.lang());
        let start = (self.game.number(seat).unwrap_or(0) + round as usize) % lines.len();
        (0..lines.len())
            .map(|i| lines[(start + i) % lines.len()])
            .find(|l| self.check_description(l).is_none())
            .unwrap_or("…")
            .to_string()
    }
}
