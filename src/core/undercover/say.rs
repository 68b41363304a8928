//! Every fixed sentence of Who is the Undercover, in en and zh: the words
//! are in `en.ftl` and `zh.ftl` beside this file, and each function here
//! says one message with its typed values. Players read these (and other
//! players' descriptions); a model's words reach them only as an AI seat's
//! description, after the same checks as a human's.

use std::sync::LazyLock;

use crate::core::phrases::flag;
use crate::core::vocab::Language;
use crate::phrase;

use super::{Outcome, Rejection, Role};

crate::phrasebook!(BOOK, "core/undercover");

pub fn title(lang: Language) -> &'static str {
    BOOK.fixed(lang, "title")
}

pub fn role(lang: Language, role: Role) -> &'static str {
    BOOK.fixed(
        lang,
        match role {
            Role::Civilian => "role-civilian",
            Role::Undercover => "role-undercover",
            Role::Blank => "role-blank",
        },
    )
}

pub fn lobby(lang: Language, seats: &[String], max: usize, min: usize) -> String {
    phrase!(BOOK, lang, "lobby", count = seats.len(), max = max, list = seats.join(", "), min = min)
}

pub fn begins(lang: Language, seats: usize, undercovers: usize, blank: bool) -> String {
    phrase!(BOOK, lang, "begins", seats = seats, undercovers = undercovers, blank = flag(blank))
}

pub fn your_word(lang: Language, word: &str) -> String {
    phrase!(BOOK, lang, "your-word", word = word)
}

pub fn you_are_blank(lang: Language) -> String {
    phrase!(BOOK, lang, "you-are-blank")
}

pub fn round_opens(lang: Language, round: u32, order: &str, speaker: &str, seconds: u32) -> String {
    phrase!(BOOK, lang, "round-opens", round = round, order = order, speaker = speaker, seconds = seconds)
}

pub fn described(lang: Language, who: &str, text: &str) -> String {
    phrase!(BOOK, lang, "described", who = who, text = text)
}

pub fn next_speaker(lang: Language, speaker: &str, seconds: u32) -> String {
    phrase!(BOOK, lang, "next-speaker", speaker = speaker, seconds = seconds)
}

pub fn skipped(lang: Language, who: &str) -> String {
    phrase!(BOOK, lang, "skipped", who = who)
}

pub fn vote_opens(lang: Language, runoff: bool, seconds: u32) -> String {
    phrase!(BOOK, lang, "vote-opens", runoff = flag(runoff), seconds = seconds)
}

pub fn tie(lang: Language, tied: &str) -> String {
    phrase!(BOOK, lang, "tie", tied = tied)
}

pub fn voted_count(lang: Language, cast: usize, of: usize) -> String {
    phrase!(BOOK, lang, "voted-count", cast = cast, of = of)
}

pub fn vote_in(lang: Language, target: &str) -> String {
    phrase!(BOOK, lang, "vote-in", target = target)
}

pub fn votes_list(lang: Language, lines: &[String], abstained: &[String]) -> String {
    let mut out = lines.join("\n");
    if !abstained.is_empty() {
        out.push('\n');
        out.push_str(&phrase!(BOOK, lang, "did-not-vote", list = abstained.join(", ")));
    }
    out
}

pub fn eliminated(lang: Language, who: &str, votes: usize, random: bool, role_name: &str) -> String {
    phrase!(BOOK, lang, "eliminated", random = flag(random), who = who, votes = votes, role = role_name)
}

pub fn left_game(lang: Language, who: &str) -> String {
    phrase!(BOOK, lang, "left-game", who = who)
}

pub fn last_guess_opens(lang: Language, who: &str, seconds: u32) -> String {
    phrase!(BOOK, lang, "last-guess-opens", who = who, seconds = seconds)
}

pub fn guess_prompt(lang: Language) -> String {
    phrase!(BOOK, lang, "guess-prompt")
}

pub fn guess_result(lang: Language, who: &str, right: bool) -> String {
    phrase!(BOOK, lang, "guess-result", who = who, right = flag(right))
}

pub fn guess_missed(lang: Language, who: &str) -> String {
    phrase!(BOOK, lang, "guess-missed", who = who)
}

pub fn outcome(lang: Language, outcome: Outcome) -> String {
    let outcome = match outcome {
        Outcome::Civilians => "civilians",
        Outcome::Undercover => "undercover",
        Outcome::Blank => "blank",
        Outcome::Ended => "ended",
    };
    phrase!(BOOK, lang, "outcome", outcome = outcome)
}

pub fn words_reveal(lang: Language, civilian: &str, undercover: &str) -> String {
    phrase!(BOOK, lang, "words-reveal", civilian = civilian, undercover = undercover)
}

pub fn roles_heading(lang: Language) -> &'static str {
    BOOK.fixed(lang, "roles-heading")
}

pub fn votes_heading(lang: Language, round: u32, runoff: bool) -> String {
    phrase!(BOOK, lang, "votes-heading", round = round, runoff = flag(runoff))
}

pub fn winner_mark(lang: Language) -> &'static str {
    BOOK.fixed(lang, "winner-mark")
}

pub fn status(lang: Language, phase: &str, round: u32, living: &str, waiting: &str) -> String {
    phrase!(BOOK, lang, "status", phase = phase, round = round, living = living, waiting = waiting)
}

pub fn phase(lang: Language, name: &str) -> &'static str {
    let id = match name {
        "lobby" => "phase-lobby",
        "describe" => "phase-describe",
        "vote" => "phase-vote",
        "last_guess" => "phase-last-guess",
        "guess_ai" => "phase-guess-ai",
        _ => "phase-over",
    };
    BOOK.fixed(lang, id)
}

pub fn waiting_for(lang: Language, who: &str) -> String {
    phrase!(BOOK, lang, "waiting-for", who = who)
}

/// A reminder before a deadline: who the phase still waits for.
pub fn reminder(lang: Language, seconds_left: i64, who: &str, phase_name: &str) -> String {
    phrase!(BOOK, lang, "reminder", seconds = seconds_left, who = who, phase = phase_name)
}

/// Why a moderator's pair was not added.
pub fn pair_refused(lang: Language, problems: &[String]) -> String {
    let problems = problems.join(BOOK.fixed(lang, "problems-separator"));
    phrase!(BOOK, lang, "pair-refused", problems = problems)
}

pub fn sent_privately(lang: Language) -> String {
    phrase!(BOOK, lang, "sent-privately")
}

/// A refused move, said to whoever made it.
pub fn refusal(lang: Language, r: &Rejection, speaker: &str) -> String {
    use crate::core::game::SeatError as S;
    match r {
        Rejection::Seat(S::AlreadySeated) => phrase!(BOOK, lang, "refusal-already-seated"),
        Rejection::Seat(S::NotSeated) => phrase!(BOOK, lang, "refusal-not-seated"),
        Rejection::Seat(S::Full { max }) => phrase!(BOOK, lang, "refusal-full", max = max),
        Rejection::Seat(S::NoAiSeats { max_ai }) => phrase!(BOOK, lang, "refusal-no-ai-seats", max = max_ai),
        Rejection::Seat(S::NotHost) => phrase!(BOOK, lang, "refusal-not-host-start"),
        Rejection::Seat(S::TooFew { min, seated }) => {
            phrase!(BOOK, lang, "refusal-too-few", min = min, seated = seated)
        }
        Rejection::Seat(S::Started) | Rejection::NotNow => phrase!(BOOK, lang, "refusal-not-now"),
        Rejection::NotSeated => phrase!(BOOK, lang, "refusal-no-seat"),
        Rejection::Out => phrase!(BOOK, lang, "refusal-out"),
        Rejection::NotYourTurn { .. } => phrase!(BOOK, lang, "refusal-not-your-turn", speaker = speaker),
        Rejection::NotAnOption => phrase!(BOOK, lang, "refusal-not-an-option"),
        Rejection::OwnVote => phrase!(BOOK, lang, "refusal-own-vote"),
        Rejection::TooFewForBlank => {
            phrase!(BOOK, lang, "refusal-too-few-for-blank", min = super::MIN_SEATS_WITH_BLANK)
        }
        Rejection::NotHost => phrase!(BOOK, lang, "refusal-not-host-end"),
        Rejection::StaleTimer => phrase!(BOOK, lang, "refusal-stale-timer"),
        Rejection::TooFewForUndercovers { undercovers, seats } => {
            phrase!(BOOK, lang, "refusal-too-few-for-undercovers", undercovers = *undercovers, seats = *seats)
        }
    }
}

/// A `difficulty` option that is not one.
pub fn unknown_difficulty(lang: Language, typed: &str) -> String {
    phrase!(BOOK, lang, "unknown-difficulty", typed = typed)
}

/// An `undercovers` option that is not a number of seats.
pub fn bad_undercovers(lang: Language, typed: &str) -> String {
    phrase!(BOOK, lang, "bad-undercovers", typed = typed)
}

/// More undercovers than a table of `seats` can hold.
pub fn too_many_undercovers(lang: Language, undercovers: usize, needed: usize, seats: usize) -> String {
    phrase!(BOOK, lang, "too-many-undercovers", undercovers = undercovers, needed = needed, seats = seats)
}

pub fn reasons_heading(lang: Language) -> &'static str {
    BOOK.fixed(lang, "reasons-heading")
}

/// One AI vote's reasons, for the end: who voted for whom, the role it
/// believed it had and why, then its reads of the others.
pub fn reason_line(lang: Language, r: &super::Reasoning, who: &str, target: &str, reads: &str) -> String {
    let believes = match r.believes.as_str() {
        "civilian" => role(lang, Role::Civilian),
        "undercover" => role(lang, Role::Undercover),
        "blank" => role(lang, Role::Blank),
        _ => BOOK.fixed(lang, "believes-unsure"),
    };
    let mut line = phrase!(
        BOOK,
        lang,
        "reason-line",
        round = r.round,
        runoff = flag(r.runoff),
        who = who,
        target = target,
        believes = believes,
        reasoned = flag(!r.why.trim().is_empty()),
        why = r.why.as_str()
    );
    if !reads.is_empty() {
        line.push('\n');
        line.push_str(&phrase!(BOOK, lang, "reason-reads", reads = reads));
    }
    line
}

pub fn description_gives_away(lang: Language) -> String {
    phrase!(BOOK, lang, "description-gives-away")
}

pub fn description_empty(lang: Language) -> String {
    phrase!(BOOK, lang, "description-empty")
}

pub fn description_too_long(lang: Language, max: usize) -> String {
    phrase!(BOOK, lang, "description-too-long", max = max)
}

pub fn not_a_verb(lang: Language) -> String {
    phrase!(BOOK, lang, "not-a-verb")
}

pub fn guess_ai_opens(lang: Language, seconds: u32) -> String {
    phrase!(BOOK, lang, "guess-ai-opens", seconds = seconds)
}

pub fn ai_guess_in(lang: Language) -> String {
    phrase!(BOOK, lang, "ai-guess-in")
}

pub fn ai_guesses_count(lang: Language, guessed: usize, of: usize) -> String {
    phrase!(BOOK, lang, "ai-guesses-count", guessed = guessed, of = of)
}

pub fn ai_were(lang: Language, seats: &str) -> String {
    phrase!(BOOK, lang, "ai-were", seats = seats)
}

pub fn ai_score(lang: Language, right: usize, of: usize, wrong: usize) -> String {
    phrase!(BOOK, lang, "ai-score", right = right, of = of, wrong = wrong)
}

pub fn withheld(lang: Language) -> String {
    phrase!(BOOK, lang, "withheld")
}

pub fn ended_idle(lang: Language) -> String {
    phrase!(BOOK, lang, "ended-idle")
}

pub fn host_mark(lang: Language) -> &'static str {
    BOOK.fixed(lang, "host-mark")
}

pub fn out_mark(lang: Language) -> &'static str {
    BOOK.fixed(lang, "out-mark")
}

/// Safe descriptions an AI seat falls back to when its own broke a rule
/// (one a line of `stock-descriptions`).
pub fn stock_descriptions(lang: Language) -> &'static [&'static str] {
    static LINES: LazyLock<[Vec<&'static str>; 2]> = LazyLock::new(|| {
        [Language::En, Language::Zh].map(|lang| BOOK.fixed(lang, "stock-descriptions").lines().collect())
    });
    &LINES[lang.pick(0, 1)]
}

/// Every fixed sentence players may read in public or in private, with
/// empty or sample fields: a secret word must not be one of their words
/// (the gate would withhold the sentence; `words.rs` checks the pairs).
pub fn fixed_text(lang: Language) -> String {
    let r = Rejection::NotYourTurn { speaker: String::new() };
    let mut out = vec![
        title(lang).to_string(),
        lobby(lang, &[String::new()], 12, 3),
        begins(lang, 6, 1, true),
        begins(lang, 7, 2, false),
        your_word(lang, ""),
        you_are_blank(lang),
        round_opens(lang, 1, "", "", 90),
        described(lang, "", ""),
        next_speaker(lang, "", 90),
        skipped(lang, ""),
        vote_opens(lang, false, 60),
        vote_opens(lang, true, 60),
        tie(lang, ""),
        voted_count(lang, 1, 6),
        vote_in(lang, ""),
        votes_list(lang, &[], &[String::new()]),
        eliminated(lang, "", 1, false, ""),
        eliminated(lang, "", 2, true, ""),
        left_game(lang, ""),
        last_guess_opens(lang, "", 60),
        guess_prompt(lang),
        guess_result(lang, "", true),
        guess_result(lang, "", false),
        guess_missed(lang, ""),
        guess_ai_opens(lang, 60),
        ai_guess_in(lang),
        ai_guesses_count(lang, 1, 2),
        ai_were(lang, ""),
        ai_score(lang, 1, 2, 0),
        words_reveal(lang, "", ""),
        roles_heading(lang).to_string(),
        votes_heading(lang, 1, false),
        votes_heading(lang, 1, true),
        status(lang, "", 1, "", ""),
        waiting_for(lang, ""),
        reminder(lang, 20, "", "describe"),
        reminder(lang, 20, "", "vote"),
        reminder(lang, 20, "", "last_guess"),
        reminder(lang, 20, "", "guess_ai"),
        sent_privately(lang),
        refusal(lang, &r, ""),
        refusal(lang, &Rejection::OwnVote, ""),
        refusal(lang, &Rejection::NotAnOption, ""),
        refusal(lang, &Rejection::Out, ""),
        refusal(lang, &Rejection::NotHost, ""),
        refusal(lang, &Rejection::TooFewForUndercovers { undercovers: 2, seats: 5 }, ""),
        unknown_difficulty(lang, ""),
        bad_undercovers(lang, ""),
        too_many_undercovers(lang, 2, 5, 4),
        description_gives_away(lang),
        description_empty(lang),
        description_too_long(lang, 200),
        withheld(lang),
        host_mark(lang).to_string(),
        out_mark(lang).to_string(),
    ];
    for outcome in [Outcome::Civilians, Outcome::Undercover, Outcome::Blank, Outcome::Ended] {
        out.push(self::outcome(lang, outcome));
    }
    for r in [Role::Civilian, Role::Undercover, Role::Blank] {
        out.push(role(lang, r).to_string());
    }
    for name in ["lobby", "describe", "vote", "last_guess", "guess_ai", "over"] {
        out.push(phase(lang, name).to_string());
    }
    out.extend(stock_descriptions(lang).iter().map(|s| s.to_string()));
    out.join("\n")
}
