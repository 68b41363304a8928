//! Every fixed sentence of Werewolf, in en and zh (`en.ftl`, `zh.ftl`
//! beside this file): one function per sentence, its arguments the
//! message's variables. Players read these and the seats' own speeches,
//! nothing a model wrote unchecked.

use crate::core::game::SeatError;
use crate::core::vocab::Language;

use super::{Outcome, Rejection, Role};

crate::phrasebook!(BOOK, "core/werewolf");

pub fn title(lang: Language) -> String {
    crate::phrase!(BOOK, lang, "title")
}

pub fn role(lang: Language, role: Role) -> String {
    crate::phrase!(BOOK, lang, "role", role = role.as_str())
}

pub fn host_mark(lang: Language) -> String {
    crate::phrase!(BOOK, lang, "host-mark")
}

pub fn out_mark(lang: Language) -> String {
    crate::phrase!(BOOK, lang, "out-mark")
}

pub fn winner_mark(lang: Language) -> String {
    crate::phrase!(BOOK, lang, "winner-mark")
}

pub fn lobby(lang: Language, seats: &[String], max: usize, fill: usize) -> String {
    let head = crate::phrase!(
        BOOK,
        lang,
        "lobby",
        title = title(lang),
        taken = seats.len(),
        max = max,
        list = seats.join(", ")
    );
    format!("{head}\n{}", crate::phrase!(BOOK, lang, "lobby-help", fill = fill))
}

pub fn begins(lang: Language, seats: usize, cast: &str) -> String {
    crate::phrase!(BOOK, lang, "begins", seats = seats, cast = cast)
}

/// A seat's role, privately: who it is, its role and what the role does.
pub fn role_line(lang: Language, seat: &str, r: Role) -> String {
    let line = crate::phrase!(BOOK, lang, "role-line", seat = seat, role = role(lang, r));
    format!("{line} {}", crate::phrase!(BOOK, lang, "role-goal", role = r.as_str()))
}

pub fn team_line(lang: Language, list: &str) -> String {
    crate::phrase!(BOOK, lang, "team-line", list = list)
}

pub fn night_falls(lang: Language, night: u32, seconds: u32) -> String {
    crate::phrase!(BOOK, lang, "night-falls", night = night, seconds = seconds)
}

pub fn task_kill(lang: Language, night: u32, choices: &str) -> String {
    crate::phrase!(BOOK, lang, "task-kill", night = night, choices = choices)
}

pub fn task_check(lang: Language, night: u32) -> String {
    crate::phrase!(BOOK, lang, "task-check", night = night)
}

pub fn task_protect(lang: Language, night: u32, last: Option<&str>) -> String {
    match last {
        Some(last) => crate::phrase!(BOOK, lang, "task-protect-not", night = night, last = last),
        None => crate::phrase!(BOOK, lang, "task-protect", night = night),
    }
}

pub fn witch_victim(lang: Language, night: u32, victim: Option<&str>) -> String {
    match victim {
        Some(victim) => crate::phrase!(BOOK, lang, "witch-victim", night = night, victim = victim),
        None => crate::phrase!(BOOK, lang, "witch-no-victim", night = night),
    }
}

pub fn witch_choices(lang: Language, cure: bool, poison: bool) -> String {
    let mut list = Vec::new();
    if cure {
        list.push(crate::phrase!(BOOK, lang, "potion-cure"));
    }
    if poison {
        list.push(crate::phrase!(BOOK, lang, "potion-poison"));
    }
    if list.is_empty() {
        list.push(crate::phrase!(BOOK, lang, "potions-none"));
    }
    crate::phrase!(BOOK, lang, "witch-choices", list = list.join(lang.pick(", ", "，")))
}

pub fn night_ack(lang: Language) -> String {
    crate::phrase!(BOOK, lang, "night-ack")
}

pub fn kill_vote(lang: Language, wolf: &str, target: &str) -> String {
    crate::phrase!(BOOK, lang, "kill-vote", wolf = wolf, target = target)
}

pub fn pack_said(lang: Language, wolf: &str, text: &str) -> String {
    crate::phrase!(BOOK, lang, "pack-said", wolf = wolf, text = text)
}

pub fn wolves_chose(lang: Language, target: Option<&str>, tied: bool) -> String {
    match (target, tied) {
        (None, _) => crate::phrase!(BOOK, lang, "wolves-chose-none"),
        (Some(t), false) => crate::phrase!(BOOK, lang, "wolves-chose", target = t),
        (Some(t), true) => crate::phrase!(BOOK, lang, "wolves-chose-tied", target = t),
    }
}

pub fn vision(lang: Language, night: u32, target: &str, wolf: bool) -> String {
    crate::phrase!(BOOK, lang, "vision", night = night, target = target, wolf = yes(wolf))
}

pub fn protect_done(lang: Language, night: u32, target: &str) -> String {
    crate::phrase!(BOOK, lang, "protect-done", night = night, target = target)
}

pub fn cure_done(lang: Language, night: u32, target: &str) -> String {
    crate::phrase!(BOOK, lang, "cure-done", night = night, target = target)
}

pub fn poison_done(lang: Language, night: u32, target: &str) -> String {
    crate::phrase!(BOOK, lang, "poison-done", night = night, target = target)
}

pub fn passed_night(lang: Language) -> String {
    crate::phrase!(BOOK, lang, "passed-night")
}

pub fn missed_night(lang: Language) -> String {
    crate::phrase!(BOOK, lang, "missed-night")
}

pub fn night_reminder(lang: Language, seconds: i64) -> String {
    crate::phrase!(BOOK, lang, "night-reminder", seconds = seconds)
}

pub fn dawn(lang: Language, day: u32, names: &[String]) -> String {
    match names {
        [] => crate::phrase!(BOOK, lang, "dawn-none", day = day),
        _ => crate::phrase!(BOOK, lang, "dawn-deaths", day = day, names = names.join(lang.pick(", ", "、"))),
    }
}

pub fn hunter_opens(lang: Language, seat: &str, seconds: u32) -> String {
    crate::phrase!(BOOK, lang, "hunter-opens", seat = seat, seconds = seconds)
}

pub fn hunter_shot(lang: Language, hunter: &str, target: Option<&str>) -> String {
    match target {
        Some(target) => crate::phrase!(BOOK, lang, "hunter-shot", hunter = hunter, target = target),
        None => crate::phrase!(BOOK, lang, "hunter-no-shot", hunter = hunter),
    }
}

pub fn debate_opens(lang: Language, limit: usize, seconds: u32) -> String {
    crate::phrase!(BOOK, lang, "debate-opens", limit = limit, seconds = seconds)
}

pub fn spoke(lang: Language, seat: &str, text: &str) -> String {
    crate::phrase!(BOOK, lang, "spoke", seat = seat, text = text)
}

pub fn passed_day(lang: Language, seat: &str) -> String {
    crate::phrase!(BOOK, lang, "passed-day", seat = seat)
}

pub fn debate_reminder(lang: Language, seconds: i64) -> String {
    crate::phrase!(BOOK, lang, "debate-reminder", seconds = seconds)
}

pub fn vote_opens(lang: Language, runoff: Option<&str>, seconds: u32) -> String {
    match runoff {
        Some(list) => crate::phrase!(BOOK, lang, "runoff-opens", list = list, seconds = seconds),
        None => crate::phrase!(BOOK, lang, "vote-opens", seconds = seconds),
    }
}

pub fn vote_in(lang: Language, target: &str) -> String {
    crate::phrase!(BOOK, lang, "vote-in", target = target)
}

pub fn voted_count(lang: Language, cast: usize, voters: usize) -> String {
    crate::phrase!(BOOK, lang, "voted-count", cast = cast, voters = voters)
}

/// A closed ballot: its heading, every vote, who did not vote.
pub fn votes_list(lang: Language, day: u32, runoff: bool, votes: &[String], abstained: &[String]) -> String {
    let heading = match runoff {
        true => crate::phrase!(BOOK, lang, "runoff-heading", day = day),
        false => crate::phrase!(BOOK, lang, "votes-heading", day = day),
    };
    let mut lines = vec![heading];
    if votes.is_empty() {
        lines.push(format!("  {}", crate::phrase!(BOOK, lang, "no-votes")));
    }
    lines.extend(votes.iter().map(|v| format!("  {v}")));
    if !abstained.is_empty() {
        let list = abstained.join(", ");
        lines.push(format!("  {}", crate::phrase!(BOOK, lang, "abstained", list = list)));
    }
    lines.join("\n")
}

pub fn exiled(lang: Language, seat: &str, votes: usize, role_shown: Option<Role>) -> String {
    let line = crate::phrase!(BOOK, lang, "exiled", seat = seat, votes = votes);
    match role_shown {
        Some(r) => format!("{line} {}", crate::phrase!(BOOK, lang, "exiled-role", role = role(lang, r))),
        None => line,
    }
}

pub fn tie(lang: Language, list: &str) -> String {
    crate::phrase!(BOOK, lang, "tie", list = list)
}

pub fn no_exile(lang: Language, anyone_voted: bool) -> String {
    match anyone_voted {
        true => crate::phrase!(BOOK, lang, "no-exile"),
        false => crate::phrase!(BOOK, lang, "no-exile-empty"),
    }
}

pub fn vote_reminder(lang: Language, seconds: i64, names: &str) -> String {
    crate::phrase!(BOOK, lang, "vote-reminder", seconds = seconds, names = names)
}

pub fn hunter_reminder(lang: Language, seconds: i64, names: &str) -> String {
    crate::phrase!(BOOK, lang, "hunter-reminder", seconds = seconds, names = names)
}

pub fn left_game(lang: Language, seat: &str) -> String {
    crate::phrase!(BOOK, lang, "left-game", seat = seat)
}

pub fn outcome(lang: Language, outcome: Outcome) -> String {
    let key = match outcome {
        Outcome::Villagers => "villagers",
        Outcome::Werewolves => "werewolves",
        Outcome::Ended => "ended",
    };
    crate::phrase!(BOOK, lang, "outcome", outcome = key)
}

pub fn ended_idle(lang: Language) -> String {
    crate::phrase!(BOOK, lang, "ended-idle")
}

pub fn roles_heading(lang: Language) -> String {
    crate::phrase!(BOOK, lang, "roles-heading")
}

pub fn night_heading(lang: Language, night: u32) -> String {
    crate::phrase!(BOOK, lang, "night-heading", night = night)
}

/// The werewolves' votes of one night and their choice, for the end.
pub fn sum_wolves(lang: Language, votes: &str, target: Option<&str>, tied: bool) -> String {
    match (target, tied) {
        (None, _) => crate::phrase!(BOOK, lang, "sum-wolves-none"),
        (Some(t), false) => crate::phrase!(BOOK, lang, "sum-wolves", votes = votes, target = t),
        (Some(t), true) => crate::phrase!(BOOK, lang, "sum-wolves-tied", votes = votes, target = t),
    }
}

pub fn sum_check(lang: Language, target: &str, wolf: bool) -> String {
    crate::phrase!(BOOK, lang, "sum-check", target = target, wolf = yes(wolf))
}

pub fn sum_protect(lang: Language, target: &str) -> String {
    crate::phrase!(BOOK, lang, "sum-protect", target = target)
}

pub fn sum_cure(lang: Language, target: &str) -> String {
    crate::phrase!(BOOK, lang, "sum-cure", target = target)
}

pub fn sum_poison(lang: Language, target: &str) -> String {
    crate::phrase!(BOOK, lang, "sum-poison", target = target)
}

pub fn sum_died(lang: Language, names: &[String]) -> String {
    match names {
        [] => crate::phrase!(BOOK, lang, "sum-nobody"),
        _ => crate::phrase!(BOOK, lang, "sum-died", names = names.join(", ")),
    }
}

pub fn shots_heading(lang: Language) -> String {
    crate::phrase!(BOOK, lang, "shots-heading")
}

pub fn status(lang: Language, phase_name: &str, day: u32, living: &str) -> String {
    let phase = phase(lang, phase_name);
    crate::phrase!(BOOK, lang, "status", title = title(lang), phase = phase, day = day, living = living)
}

pub fn waiting_for(lang: Language, names: &str) -> String {
    crate::phrase!(BOOK, lang, "waiting-for", names = names)
}

pub fn phase(lang: Language, phase_name: &str) -> String {
    crate::phrase!(BOOK, lang, "phase", phase = phase_name)
}

/// Why a move was refused, as the player reads it.
pub fn refusal(lang: Language, r: &Rejection) -> String {
    let why = match r {
        Rejection::NotNow => "not-now",
        Rejection::NotSeated => "not-seated",
        Rejection::Dead => "dead",
        Rejection::NotYourRole => "not-your-role",
        Rejection::Done => "done",
        Rejection::NotATarget => "not-a-target",
        Rejection::Yourself => "yourself",
        Rejection::SameProtect => "same-protect",
        Rejection::NoPotion => "no-potion",
        Rejection::NoVictim => "no-victim",
        Rejection::SpokenOut => "spoken-out",
        Rejection::NotHost => "not-host",
        Rejection::StaleTimer => "stale",
        Rejection::Seat(e) => match e {
            SeatError::AlreadySeated => "already-seated",
            SeatError::NotSeated => "not-seated",
            SeatError::Full { .. } => "full",
            SeatError::NoAiSeats { .. } => "no-ai",
            SeatError::NotHost => "not-host-start",
            SeatError::TooFew { .. } => "not-now",
            SeatError::Started => "started",
        },
    };
    crate::phrase!(BOOK, lang, "refusal", why = why)
}

pub fn not_a_verb(lang: Language) -> String {
    crate::phrase!(BOOK, lang, "not-a-verb")
}

pub fn speech_empty(lang: Language) -> String {
    crate::phrase!(BOOK, lang, "speech-empty")
}

pub fn speech_too_long(lang: Language, max: usize) -> String {
    crate::phrase!(BOOK, lang, "speech-too-long", max = max)
}

pub fn sent_privately(lang: Language) -> String {
    crate::phrase!(BOOK, lang, "sent-privately")
}

pub fn withheld(lang: Language) -> String {
    crate::phrase!(BOOK, lang, "withheld")
}

pub fn unknown_seat(lang: Language, typed: &str) -> String {
    crate::phrase!(BOOK, lang, "unknown-seat", typed = typed)
}

pub fn guess_ai_opens(lang: Language, seconds: u32) -> String {
    crate::phrase!(BOOK, lang, "guess-ai-opens", seconds = seconds)
}

pub fn ai_were(lang: Language, list: &str) -> String {
    crate::phrase!(BOOK, lang, "ai-were", list = list)
}

pub fn ai_score(lang: Language, right: usize, total: usize, wrong: usize) -> String {
    crate::phrase!(BOOK, lang, "ai-score", right = right, total = total, wrong = wrong)
}

pub fn ai_guess_in(lang: Language) -> String {
    crate::phrase!(BOOK, lang, "ai-guess-in")
}

pub fn ai_guesses_count(lang: Language, guessed: usize, humans: usize) -> String {
    crate::phrase!(BOOK, lang, "ai-guesses-count", guessed = guessed, humans = humans)
}

/// A safe speech for an AI seat whose own could not be used (four of them).
pub fn stock_speech(lang: Language, n: usize) -> String {
    crate::phrase!(BOOK, lang, "stock-speech", n = n % 4)
}

pub fn stock_pack(lang: Language) -> String {
    crate::phrase!(BOOK, lang, "stock-pack")
}

fn yes(flag: bool) -> &'static str {
    if flag { "yes" } else { "no" }
}
