//! What one change of state says, and to whom: public lines for the
//! table, a seat's own news to that seat (`Audience::Seat`), the pack's
//! to every living werewolf (the werewolves' channel). AI seats read the
//! game's state, so nothing private is addressed to them. Also the end's
//! summary: every role, every night action, every vote.

use crate::core::game::{Audience, Message, Reply, ReplyKind};
use crate::core::vocab::Language;

use super::seat::{night_lines, team_list};
use super::{Event, Outcome, Phase, Role, Task, VoteRecord, WerewolfGame, say};

/// A change of state as told.
pub struct Narration {
    pub reply: Reply,
    pub messages: Vec<Message>,
    /// The reply is part of the game's public record (not the neutral
    /// line a private move leaves, nor silence).
    pub public: bool,
}

/// Collects one change's lines and messages.
struct Told<'g> {
    after: &'g WerewolfGame,
    lines: Vec<String>,
    private: Vec<Message>,
    kind: ReplyKind,
}

impl Told<'_> {
    fn lang(&self) -> Language {
        self.after.language
    }

    fn label(&self, seat: &str) -> String {
        self.after.label(seat)
    }

    /// A seat's own news; AI seats read the state instead.
    fn tell(&mut self, seat: &str, text: String) {
        if !self.after.is_ai(seat) {
            self.private.push(Message::to(Audience::Seat(seat.to_string()), ReplyKind::Private, text));
        }
    }

    /// The pack's news, to every living werewolf.
    fn tell_pack(&mut self, text: &str) {
        for wolf in self.after.living_with(Role::Werewolf) {
            self.tell(&wolf, text.to_string());
        }
    }
}

/// The lines and messages of `before` → `after` through `event`, moved
/// by `mover`.
pub fn narrate(before: &WerewolfGame, after: &WerewolfGame, event: &Event, mover: &str) -> Narration {
    let lang = after.language;
    if before.phase == Phase::Lobby && after.phase == Phase::Lobby {
        let reply = Reply::new(ReplyKind::Lobby, lobby_text(after));
        return Narration { reply, messages: Vec::new(), public: false };
    }
    let mut out = Told { after, lines: Vec::new(), private: Vec::new(), kind: ReplyKind::Notice };
    if before.roles.is_empty() && !after.roles.is_empty() {
        deal(&mut out);
    }
    move_lines(&mut out, before, event);
    night_close(&mut out, before);
    ballot_lines(&mut out, before);
    for shot in &after.shots[before.shots.len().min(after.shots.len())..] {
        let target = shot.target.as_deref().map(|t| out.label(t));
        out.lines.push(say::hunter_shot(lang, &out.label(&shot.hunter), target.as_deref()));
    }
    phase_lines(&mut out, before);
    let public = !out.lines.is_empty();
    let text = match (public, &event) {
        (true, _) => out.lines.join("\n"),
        (false, Event::Pack { .. }) => say::sent_privately(lang),
        (false, _) if after.is_ai(mover) && out.private.is_empty() => String::new(),
        (false, _) => say::night_ack(lang),
    };
    Narration { reply: Reply::new(out.kind, text), messages: out.private, public }
}

/// The lobby: every seat, the host marked.
pub fn lobby_text(game: &WerewolfGame) -> String {
    let lang = game.language;
    let seats: Vec<String> = game
        .seats
        .seats
        .iter()
        .map(|s| match s.player.id == game.seats.host {
            true => format!("{} ({})", game.label(&s.player.id), say::host_mark(lang)),
            false => game.label(&s.player.id),
        })
        .collect();
    say::lobby(lang, &seats, game.seats.rules.max, game.rules.fill_to)
}

/// The roles were just dealt: the cast in public, each role privately,
/// the roster to the werewolves.
fn deal(out: &mut Told<'_>) {
    let (lang, after) = (out.lang(), out.after);
    let cast: Vec<String> = Role::ALL
        .into_iter()
        .map(|r| (r, after.seats_with(r).len()))
        .filter(|(_, n)| *n > 0)
        .map(|(r, n)| format!("{} ×{n}", say::role(lang, r)))
        .collect();
    out.lines.push(say::begins(lang, after.seats.len(), &cast.join(", ")));
    for (seat, role) in &after.roles {
        out.tell(seat, say::role_line(lang, &after.label(seat), *role));
    }
    let roster = say::team_line(lang, &team_list(after));
    for wolf in after.seats_with(Role::Werewolf) {
        out.tell(&wolf, roster.clone());
    }
}

/// The move itself: a speech, a pass, a vote's receipt and count, a seat
/// leaving, a night move's receipt (the pack's to the pack), a guess at
/// the AI; a missed night, told to the humans who missed it.
fn move_lines(out: &mut Told<'_>, before: &WerewolfGame, event: &Event) {
    let (lang, after) = (out.lang(), out.after);
    let night = before.day();
    match event {
        Event::Speak { seat, text, .. } => out.lines.push(say::spoke(lang, &out.label(seat), text)),
        Event::Pass { seat, .. } if matches!(before.phase, Phase::Debate { .. }) => {
            out.lines.push(say::passed_day(lang, &out.label(seat)))
        }
        Event::Pass { seat, .. } if matches!(before.phase, Phase::Night { .. }) => {
            out.tell(seat, say::passed_night(lang))
        }
        Event::Kill { seat, target, .. } => out.tell_pack(&say::kill_vote(lang, &out.label(seat), &out.label(target))),
        Event::Pack { seat, text } => out.tell_pack(&say::pack_said(lang, &out.label(seat), text)),
        Event::Check { seat, .. }
        | Event::Protect { seat, .. }
        | Event::Cure { seat, .. }
        | Event::Poison { seat, .. } => {
            let own = night_lines(after, seat, night);
            let before_lines = night_lines(before, seat, night);
            for line in own.into_iter().filter(|l| !before_lines.contains(l)) {
                out.tell(seat, line);
            }
        }
        Event::Vote { voter, option, .. } => {
            let target = after.seat_by_number(option).map(|s| out.label(s)).unwrap_or_default();
            out.tell(voter, say::vote_in(lang, &target));
            let same_ballot = after.votes.len() == before.votes.len();
            if let Some(ballot) = after.ballot.as_ref().filter(|_| same_ballot) {
                out.lines.push(say::voted_count(lang, ballot.cast_count(), ballot.voters.len()));
                out.kind = ReplyKind::Ballot;
            }
        }
        Event::Leave { seat, .. } => out.lines.push(say::left_game(lang, &out.label(seat))),
        Event::Timer { .. } if matches!(before.phase, Phase::Night { .. }) => {
            for (seat, _) in before.night_tasks() {
                out.tell(&seat, say::missed_night(lang));
            }
        }
        Event::GuessAi { seat, .. } => {
            out.tell(seat, say::ai_guess_in(lang));
            if after.phase == Phase::GuessAi {
                let humans = after.seats.humans().count();
                out.lines.push(say::ai_guesses_count(lang, after.ai_guesses.len(), humans));
            }
        }
        _ => {}
    }
}

/// The werewolves' ballot closed: their choice to the pack, and the
/// victim to the Witch if she may still act; the night ended: its deaths.
fn night_close(out: &mut Told<'_>, before: &WerewolfGame) {
    let (lang, after) = (out.lang(), out.after);
    let Phase::Night { night } = before.phase else { return };
    let was = before.tonight().is_some_and(|n| n.wolves_done);
    let Some(record) = after.nights.iter().find(|n| n.night == night) else { return };
    if record.wolves_done && !was {
        let victim = record.victim.as_deref().map(|v| out.label(v));
        out.tell_pack(&say::wolves_chose(lang, victim.as_deref(), record.random));
        for (witch, task) in after.night_tasks() {
            if task == Task::Potion {
                let text = format!(
                    "{} {}",
                    say::witch_victim(lang, night, victim.as_deref()),
                    say::witch_choices(lang, !after.cure_used && victim.is_some(), !after.poison_used)
                );
                out.tell(&witch, text);
            }
        }
    }
    if record.dawned && before.tonight().is_some_and(|n| !n.dawned) {
        let died: Vec<String> = record.died.iter().map(|s| out.label(s)).collect();
        out.lines.push(say::dawn(lang, night, &died));
    }
}

/// The day ballots this change closed: every vote, then the exile (and
/// the role, when shown), the tie or no exile.
fn ballot_lines(out: &mut Told<'_>, before: &WerewolfGame) {
    let (lang, after) = (out.lang(), out.after);
    for record in &after.votes[before.votes.len().min(after.votes.len())..] {
        out.lines.push(vote_list(after, record));
        let line = match &record.out {
            Some(seat) => {
                let votes = record.votes.values().filter(|t| *t == seat).count();
                let shown = after.revealed.contains(seat).then(|| after.role(seat)).flatten();
                say::exiled(lang, &out.label(seat), votes, shown)
            }
            None if matches!(after.phase, Phase::Vote { runoff: true, .. }) && !record.runoff => {
                let tied: Vec<String> =
                    after.ballot.iter().flat_map(|b| b.options.iter().map(|(_, l)| l.clone())).collect();
                say::tie(lang, &tied.join(", "))
            }
            None => say::no_exile(lang, !record.votes.is_empty()),
        };
        out.lines.push(line);
        out.kind = ReplyKind::Ballot;
    }
}

/// One closed ballot, vote by vote.
fn vote_list(game: &WerewolfGame, record: &VoteRecord) -> String {
    let votes: Vec<String> =
        record.votes.iter().map(|(voter, target)| format!("{} → {}", game.label(voter), game.label(target))).collect();
    let abstained: Vec<String> = record.abstained.iter().map(|s| game.label(s)).collect();
    say::votes_list(game.language, record.day, record.runoff, &votes, &abstained)
}

/// What the new phase opens with: the night's tasks (privately), the
/// Hunter's shot, the debate, a vote, or the result and the summary.
fn phase_lines(out: &mut Told<'_>, before: &WerewolfGame) {
    let (lang, after) = (out.lang(), out.after);
    let rules = &after.rules;
    match (&before.phase, &after.phase) {
        (Phase::GuessAi, Phase::Over) => {
            out.lines.push(ai_reveal(after));
            out.kind = ReplyKind::Ended;
        }
        (_, Phase::Over | Phase::GuessAi) if before.outcome.is_none() => {
            out.lines.push(say::outcome(lang, after.outcome.unwrap_or(Outcome::Ended)));
            out.lines.push(summary(after));
            if after.phase == Phase::GuessAi {
                out.lines.push(say::guess_ai_opens(lang, rules.vote_seconds));
            }
            out.kind = ReplyKind::Ended;
        }
        (b, a) if b == a => {}
        (_, Phase::Night { night }) => {
            out.lines.push(say::night_falls(lang, *night, rules.night_seconds));
            for (seat, task) in after.night_tasks() {
                if let Some(text) = task_line(after, task) {
                    out.tell(&seat, text);
                }
            }
        }
        (_, Phase::Hunter { seat, .. }) => {
            out.lines.push(say::hunter_opens(lang, &out.label(seat), rules.shot_seconds));
        }
        (_, Phase::Debate { .. }) => {
            out.lines.push(say::debate_opens(lang, super::SPEECHES_PER_DAY, rules.debate_seconds));
        }
        (_, Phase::Vote { runoff, .. }) => {
            let tied: Vec<String> =
                after.ballot.iter().flat_map(|b| b.options.iter().map(|(_, l)| l.clone())).collect();
            let list = runoff.then(|| tied.join(", "));
            out.lines.push(say::vote_opens(lang, list.as_deref(), rules.vote_seconds));
            out.kind = ReplyKind::Ballot;
        }
        _ => {}
    }
}

/// A night role's task line, as it opens (or is reminded).
pub fn task_line(game: &WerewolfGame, task: Task) -> Option<String> {
    let (lang, night) = (game.language, game.day());
    Some(match task {
        Task::Kill => {
            let choices: Vec<String> =
                game.ballot.iter().flat_map(|b| b.options.iter().map(|(_, l)| l.clone())).collect();
            say::task_kill(lang, night, &choices.join(", "))
        }
        Task::Check => say::task_check(lang, night),
        Task::Protect => say::task_protect(lang, night, game.last_protected().map(|s| game.label(s)).as_deref()),
        Task::Potion => {
            let record = game.tonight()?;
            let victim = record.victim.as_deref().map(|v| game.label(v));
            format!(
                "{} {}",
                say::witch_victim(lang, night, victim.as_deref()),
                say::witch_choices(lang, !game.cure_used && victim.is_some(), !game.poison_used)
            )
        }
    })
}

/// The whole story, shown when the game ends: every role (who was out,
/// who won), night by night what each night role did, every day's votes,
/// the Hunter's shots.
pub fn summary(game: &WerewolfGame) -> String {
    let lang = game.language;
    let label = |s: &str| game.label(s);
    let mut lines = vec![say::roles_heading(lang)];
    let winners = game.winners();
    for seat in game.seats.ids() {
        let role = game.role(&seat).map_or_else(|| "?".to_string(), |r| say::role(lang, r));
        let out = if game.out.contains_key(&seat) { format!(" · {}", say::out_mark(lang)) } else { String::new() };
        let won = if winners.contains(&seat) { format!(" {}", say::winner_mark(lang)) } else { String::new() };
        lines.push(format!("  {} · {role}{out}{won}", label(&seat)));
    }
    let days = game.nights.len() as u32;
    for day in 1..=days {
        if let Some(record) = game.nights.iter().find(|n| n.night == day) {
            lines.push(say::night_heading(lang, day));
            let votes: Vec<String> =
                record.wolf_votes.iter().map(|(w, t)| format!("{} → {}", label(w), label(t))).collect();
            let victim = record.victim.as_deref().map(label);
            lines.push(format!("  {}", say::sum_wolves(lang, &votes.join(", "), victim.as_deref(), record.random)));
            if let Some(target) = &record.check {
                let wolf = game.role(target).is_some_and(Role::is_wolf);
                lines.push(format!("  {}", say::sum_check(lang, &label(target), wolf)));
            }
            if let Some(target) = &record.protect {
                lines.push(format!("  {}", say::sum_protect(lang, &label(target))));
            }
            if let Some(victim) = victim.as_deref().filter(|_| record.cured) {
                lines.push(format!("  {}", say::sum_cure(lang, victim)));
            }
            if let Some(target) = &record.poison {
                lines.push(format!("  {}", say::sum_poison(lang, &label(target))));
            }
            let died: Vec<String> = record.died.iter().map(|s| label(s)).collect();
            lines.push(format!("  {}", say::sum_died(lang, &died)));
        }
        for record in game.votes.iter().filter(|v| v.day == day) {
            lines.push(vote_list(game, record));
        }
        for shot in game.shots.iter().filter(|s| s.day == day) {
            let target = shot.target.as_deref().map(label);
            lines.push(format!("  {}", say::hunter_shot(lang, &label(&shot.hunter), target.as_deref())));
        }
    }
    lines.join("\n")
}

/// Which seats were AI, and how each human guessed.
fn ai_reveal(game: &WerewolfGame) -> String {
    let lang = game.language;
    let ai: Vec<String> = game.seats.agents().map(|s| game.label(&s.player.id)).collect();
    let mut lines = vec![say::ai_were(lang, &ai.join(", "))];
    for (seat, right, wrong) in game.ai_guess_scores() {
        lines.push(format!("  {} · {}", game.label(&seat), say::ai_score(lang, right, ai.len(), wrong)));
    }
    lines.join("\n")
}
