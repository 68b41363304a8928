//! Every fixed sentence of the Lore RPG, in English and Chinese: the words
//! are in `en.ftl` and `zh.ftl` beside this file, and each function here
//! says one message with its typed values.

use crate::core::vocab::Language;
use crate::phrase;

use super::Tally;

crate::phrasebook!(BOOK, "core/rpg");

pub fn title(lang: Language) -> &'static str {
    BOOK.fixed(lang, "title")
}

pub fn gm(lang: Language) -> &'static str {
    BOOK.fixed(lang, "gm")
}

pub fn opening(lang: Language, world: &str, premise: &str, opening: &str, npcs: &str) -> String {
    phrase!(BOOK, lang, "opening", world = world, premise = premise, opening = opening, npcs = npcs)
}

pub fn step_retrieving(lang: Language) -> String {
    phrase!(BOOK, lang, "step-retrieving")
}

pub fn step_validating(lang: Language) -> String {
    phrase!(BOOK, lang, "step-validating")
}

pub fn step_planning(lang: Language) -> String {
    phrase!(BOOK, lang, "step-planning")
}

pub fn step_persona(lang: Language, name: &str) -> String {
    phrase!(BOOK, lang, "step-persona", name = name)
}

pub fn step_npc(lang: Language, name: &str) -> String {
    phrase!(BOOK, lang, "step-npc", name = name)
}

pub fn step_narrating(lang: Language) -> String {
    phrase!(BOOK, lang, "step-narrating")
}

pub fn step_disqualifying(lang: Language) -> String {
    phrase!(BOOK, lang, "step-disqualifying")
}

pub fn step_checking(lang: Language) -> String {
    phrase!(BOOK, lang, "step-checking")
}

pub fn step_correcting(lang: Language) -> String {
    phrase!(BOOK, lang, "step-correcting")
}

pub fn step_summary(lang: Language) -> String {
    phrase!(BOOK, lang, "step-summary")
}

/// The passages a turn drew on; nothing when there were none.
pub fn sources(lang: Language, titles: &[String]) -> String {
    if titles.is_empty() {
        return String::new();
    }
    phrase!(BOOK, lang, "sources", titles = titles.join(" · "))
}

pub fn disqualified(lang: Language, player: &str, reason: &str) -> String {
    phrase!(BOOK, lang, "disqualified", player = player, reason = reason)
}

pub fn corrected(lang: Language, player: &str, reason: &str) -> String {
    phrase!(BOOK, lang, "corrected", player = player, reason = reason)
}

pub fn suggestions(lang: Language, list: &[String]) -> String {
    phrase!(BOOK, lang, "suggestions", list = list.join(" / "))
}

pub fn stock_disqualify(lang: Language, reason: &str) -> String {
    phrase!(BOOK, lang, "stock-disqualify", reason = reason)
}

/// A correction quoting the first sentence (240 characters at most) of
/// the passage the reply broke.
pub fn stock_correction(lang: Language, title: &str, text: &str) -> String {
    let first: String = text.split_inclusive(['.', '。']).next().unwrap_or(text).chars().take(240).collect();
    phrase!(BOOK, lang, "stock-correction", title = title, first = first)
}

pub fn quiet_scene(lang: Language) -> String {
    phrase!(BOOK, lang, "quiet-scene")
}

pub fn npc_silent(lang: Language, name: &str) -> String {
    phrase!(BOOK, lang, "npc-silent", name = name)
}

pub fn withheld(lang: Language) -> String {
    phrase!(BOOK, lang, "withheld")
}

pub fn model_down(lang: Language) -> String {
    phrase!(BOOK, lang, "model-down")
}

pub fn empty(lang: Language) -> String {
    phrase!(BOOK, lang, "empty")
}

pub fn too_long(lang: Language, max: usize) -> String {
    phrase!(BOOK, lang, "too-long", max = max)
}

pub fn no_such_npc(lang: Language, name: &str, npcs: &str) -> String {
    phrase!(BOOK, lang, "no-such-npc", name = name, npcs = npcs)
}

pub fn over(lang: Language) -> String {
    phrase!(BOOK, lang, "over")
}

pub fn only_host_ends(lang: Language) -> String {
    phrase!(BOOK, lang, "only-host-ends")
}

pub fn everyone_plays(lang: Language) -> String {
    phrase!(BOOK, lang, "everyone-plays")
}

pub fn not_a_verb(lang: Language) -> String {
    phrase!(BOOK, lang, "not-a-verb")
}

pub fn tally_line(lang: Language, t: &Tally) -> String {
    phrase!(BOOK, lang, "tally-line", name = t.name.as_str(), wins = t.wins, losses = t.losses, turns = t.turns)
}

pub fn scores_heading(lang: Language) -> &'static str {
    BOOK.fixed(lang, "scores-heading")
}

pub fn no_scores(lang: Language) -> &'static str {
    BOOK.fixed(lang, "no-scores")
}

pub fn status(lang: Language, world: &str, turn: u32, scene: &str, met: &str, npcs: &str) -> String {
    phrase!(BOOK, lang, "status", world = world, turn = turn, scene = scene, met = met, npcs = npcs)
}

pub fn nobody(lang: Language) -> &'static str {
    BOOK.fixed(lang, "nobody")
}

pub fn recap_heading(lang: Language) -> &'static str {
    BOOK.fixed(lang, "recap-heading")
}

pub fn recap_recent(lang: Language) -> &'static str {
    BOOK.fixed(lang, "recap-recent")
}

pub fn nothing_yet(lang: Language) -> &'static str {
    BOOK.fixed(lang, "nothing-yet")
}

pub fn ended(lang: Language, world: &str) -> String {
    phrase!(BOOK, lang, "ended", world = world)
}

pub fn ended_idle(lang: Language) -> &'static str {
    BOOK.fixed(lang, "ended-idle")
}

pub fn world_taken(lang: Language, id: &str) -> String {
    phrase!(BOOK, lang, "world-taken", id = id)
}

/// Why a world was refused: its first eight problems, one a line.
pub fn world_refused(lang: Language, problems: &[String]) -> String {
    let list: Vec<String> = problems.iter().take(8).map(|p| format!("• {p}")).collect();
    phrase!(BOOK, lang, "world-refused", problems = list.join("\n"))
}

pub fn secrets_heading(lang: Language) -> &'static str {
    BOOK.fixed(lang, "secrets-heading")
}

/// The frozen layer's lines (seed 004): the party, whom it met, the world
/// (for the referee, whose rules carry no premise) and the opening hook.
pub fn frozen(lang: Language, party: &str, met: &str, premise: Option<&str>, opening: &str) -> String {
    let mut lines = vec![phrase!(BOOK, lang, "frozen-party", names = party)];
    if !met.is_empty() {
        lines.push(phrase!(BOOK, lang, "frozen-met", names = met));
    }
    if let Some(premise) = premise {
        lines.push(phrase!(BOOK, lang, "frozen-world", premise = premise));
    }
    lines.push(phrase!(BOOK, lang, "frozen-hook", opening = opening));
    lines.join("\n")
}
