//! `echoes bench context`, the short games: a Who is the Undercover game
//! of 8 rounds (12 AI seats) and an Arena game of 40 turns (4 AI
//! contestants), on the real tables with a scripted model that records
//! every prompt. Each figure reads the game's public record as it stood
//! when the prompt was written (a snapshot per played input):
//!
//! - **short range**: how many of the record's last 6 entries are verbatim
//!   in each role's prompt, every call;
//! - **long range**: the first entries (Undercover: rounds 1 and 2, every
//!   description and ballot; the Arena: its first 5 contributions, each
//!   holding a key no other line has) in each role's prompts of the last
//!   round;
//! - prompt tokens per role, first, middle and last call, against the
//!   record's budget;
//! - model calls per turn.
//!
//! The scripted seats make the game last: Undercover's voters put out the
//! lowest-numbered civilian until round 8, then the undercover; the
//! Arena's scorer gives every contribution 6 and nobody falls below a
//! threshold of 0.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;

use crate::core::arena::{ArenaHost, ArenaTable};
use crate::core::context::estimate_tokens;
use crate::core::game::{Played, TableOptions};
use crate::core::llm::{ChatRequest, ChatResponse, LlmClient, LlmError, RoleModels};
use crate::core::services::{Pipeline, PipelineSettings};
use crate::core::undercover::{Role, UndercoverGame, UndercoverHost};
use crate::core::vocab::{Language, Player};

/// The recent entries a prompt must hold whole.
const SHORT: usize = 6;
/// Undercover: rounds played, seats.
const ROUNDS: u32 = 8;
const SEATS: usize = 12;
/// The Arena: turns, contestants, and the contributions planted early.
const TURNS: u32 = 40;
const CONTESTANTS: usize = 4;
const PLANTED: usize = 5;
/// The scripted model's context window (as the Lore bench's).
const WINDOW: usize = 4_096;

/// One request the model saw, and how many inputs had been played when it
/// was written (its index into the record's snapshots).
struct Call {
    role: &'static str,
    epoch: usize,
    prompt: String,
    user: String,
    tokens: usize,
}

/// The record as each played input found it, and every call.
#[derive(Default)]
struct Log {
    calls: Vec<Call>,
    snapshots: Vec<Vec<String>>,
    /// Seat numbers the scripted Undercover voters spare until the last round.
    spared: BTreeSet<u32>,
    /// Lines written, for unique keys.
    written: usize,
}

type Answer = fn(&str, &str, &mut Log) -> (&'static str, String);

/// A scripted model: `answer` plays the role the prompt is for.
struct Scripted {
    log: Mutex<Log>,
    answer: Answer,
}

impl Scripted {
    fn new(answer: Answer) -> Arc<Scripted> {
        Arc::new(Scripted { log: Mutex::new(Log::default()), answer })
    }

    fn log(&self) -> std::sync::MutexGuard<'_, Log> {
        self.log.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[async_trait]
impl LlmClient for Scripted {
    fn describe(&self) -> String {
        "bench:scripted".into()
    }

    async fn chat(&self, request: ChatRequest) -> Result<ChatResponse, LlmError> {
        let system = request.messages.first().map(|m| m.content.clone()).unwrap_or_default();
        let user = request.messages.last().map(|m| m.content.clone()).unwrap_or_default();
        let prompt: String = request.messages.iter().map(|m| m.content.as_str()).collect::<Vec<_>>().join("\n");
        let tokens = estimate_tokens(&prompt);
        let mut log = self.log();
        let (role, text) = (self.answer)(&system, &user, &mut log);
        let epoch = log.snapshots.len();
        log.calls.push(Call { role, epoch, prompt, user, tokens });
        Ok(ChatResponse { text, prompt_tokens: tokens as u32, completion_tokens: 20 })
    }

    fn context_window(&self) -> Option<usize> {
        Some(WINDOW)
    }

    async fn health(&self) -> Result<(), LlmError> {
        Ok(())
    }
}

fn pipeline(model: Arc<Scripted>) -> anyhow::Result<Pipeline> {
    let models = RoleModels { judge: model.clone(), narrator: model };
    let prompts = Arc::new(crate::assets::load_prompts(None)?);
    Ok(Pipeline::new(models, prompts, PipelineSettings::default()))
}

/// A fresh key for a scripted line: no other line of the game holds it.
fn key(log: &mut Log, stem: &str) -> String {
    log.written += 1;
    format!("{stem}{}", log.written)
}

/// The seat numbers in a `#3 Name, #5 Name` list after `marker`.
fn seat_numbers(user: &str, marker: &str) -> Vec<u32> {
    let Some(list) = user.split(marker).nth(1).and_then(|rest| rest.lines().next()) else { return Vec::new() };
    list.split('#').skip(1).filter_map(|s| s.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()).collect()
}

/// The Undercover seats: a description with a fresh key; a vote for the
/// lowest-numbered seat not spared, or in the last round a spared one.
fn undercover_answer(_system: &str, user: &str, log: &mut Log) -> (&'static str, String) {
    if user.contains("Answer with JSON only") {
        let choices = seat_numbers(user, "You may vote for: ");
        let last = round_of(user, "vote") >= ROUNDS;
        let pick = choices.iter().find(|&&n| log.spared.contains(&n) == last).or(choices.first()).copied().unwrap_or(1);
        let reads: Vec<serde_json::Value> =
            choices.iter().map(|n| serde_json::json!({"seat": n, "read": "plain so far"})).collect();
        let ballot =
            serde_json::json!({"my_role": "civilian", "why": "the most generic line", "reads": reads, "vote": pick});
        return ("vote", ballot.to_string());
    }
    if user.contains("You were the blank") {
        return ("guess", "nothing".into());
    }
    ("describe", format!("Somewhat like {}, I would say.", key(log, "glimmer")))
}

/// The Arena: contributions and replies with fresh keys (every fourth one
/// addresses the latest other speaker), the scorer's 6s, the narrator's
/// remarks.
fn arena_answer(system: &str, user: &str, log: &mut Log) -> (&'static str, String) {
    if system.contains("ARENA-RUBRIC-7") {
        let dims = crate::core::arena::DIMENSIONS.map(|d| format!("{d} 6"));
        return ("scorer", dims.join(", "));
    }
    if system.contains("the Arena's narrator") {
        return ("narrator", format!("The floor stays open; remark {}.", key(log, "cadence")));
    }
    if user.contains("Your right of reply") {
        return ("contestant", format!("I stand by it: {}.", key(log, "ledger")));
    }
    let line = format!("We should stake the plan on the {} ledger.", key(log, "kelp"));
    let me = system.split("\nYou are ").nth(1).and_then(|s| s.split(':').next()).unwrap_or_default().to_string();
    let heard = user.split("Recent messages:\n").nth(1).unwrap_or_default();
    let other = heard.lines().rev().filter_map(|l| l.strip_prefix('#')?.split_once(' ')).find(|(_, rest)| {
        let speaker = rest.split(": ").next().unwrap_or_default();
        !speaker.is_empty() && speaker != me && rest.contains(": ")
    });
    match other.filter(|_| log.written.is_multiple_of(4)) {
        Some((seat, _)) => ("contestant", format!("#{seat}, that will not hold. {line}")),
        None => ("contestant", line),
    }
}

/// The round an Undercover seat's prompt was written in: the seat's own
/// descriptions in it (`#3 AI 3 🤖: “…”`), one more for a description.
fn round_of(user: &str, role: &str) -> u32 {
    let name = user.lines().find_map(|l| l.strip_prefix("You are ")?.strip_suffix('.')).unwrap_or_default();
    let said = user.matches(&format!(" {name}: “")).count() as u32;
    said + u32::from(role == "describe")
}

/// One role's figures.
#[derive(Debug, Clone, PartialEq)]
struct RoleFigures {
    role: &'static str,
    /// Prompts that held the record's last `SHORT` entries whole, of those counted.
    short_whole: usize,
    short_counted: usize,
    /// The fewest of the last `SHORT` in any prompt.
    short_fewest: usize,
    /// The early entries found in the late prompts, of those looked for.
    long_found: usize,
    long_asked: usize,
    late_prompts: usize,
    /// Prompt tokens: first, middle, last call, largest.
    tokens: [usize; 4],
}

/// One short game's figures.
struct GameFigures {
    heading: String,
    planted: String,
    when: String,
    budget: usize,
    roles: Vec<RoleFigures>,
    calls: String,
}

impl GameFigures {
    fn print(&self) {
        println!("{}", self.heading);
        for r in &self.roles {
            println!(
                "short range · {}: the last {SHORT} entries verbatim in {} of {} prompts; fewest {} of {SHORT}",
                r.role, r.short_whole, r.short_counted, r.short_fewest
            );
        }
        for r in &self.roles {
            println!(
                "long range · {}, {}: {} of {} ({:.0}%) early entries ({}) found in its {} prompts",
                r.role,
                self.when,
                r.long_found,
                r.long_asked,
                100.0 * r.long_found as f64 / r.long_asked.max(1) as f64,
                self.planted,
                r.late_prompts
            );
        }
        println!(
            "prompt tokens (estimated): first / middle / last call, largest; the record's budget {}:",
            self.budget
        );
        for r in &self.roles {
            let [first, middle, last, most] = r.tokens;
            let within = if most + 200 <= WINDOW { "within" } else { "OVER" };
            println!(
                "  {:<12}{first:>7}{middle:>7}{last:>7}  largest {most}, {within} the {WINDOW}-token window",
                r.role
            );
        }
        println!("{}", self.calls);
    }
}

/// Each role's figures: `early` looked for in the prompts `late` picks
/// (a call, and its place from the role's last call).
fn figures(
    log: &Log,
    roles: &[&'static str],
    early: &[String],
    late: &dyn Fn(&Call, usize) -> bool,
) -> Vec<RoleFigures> {
    roles
        .iter()
        .map(|role| {
            let calls: Vec<&Call> = log.calls.iter().filter(|c| c.role == *role).collect();
            let (mut short_whole, mut short_counted, mut short_fewest) = (0, 0, SHORT);
            for c in &calls {
                let Some(record) = log.snapshots.get(c.epoch) else { continue };
                let last = &record[record.len().saturating_sub(SHORT)..];
                if last.is_empty() {
                    continue;
                }
                let here = last.iter().filter(|t| c.prompt.contains(t.as_str())).count();
                short_counted += 1;
                short_whole += usize::from(here == last.len());
                short_fewest = short_fewest.min(here * SHORT / last.len());
            }
            let n = calls.len();
            let lates: Vec<&Call> =
                calls.iter().enumerate().filter(|&(i, c)| late(c, n - 1 - i)).map(|(_, c)| *c).collect();
            let long_found: usize =
                lates.iter().map(|c| early.iter().filter(|t| c.prompt.contains(t.as_str())).count()).sum();
            let sizes: Vec<usize> = calls.iter().map(|c| c.tokens).collect();
            let at = |i: usize| sizes.get(i).copied().unwrap_or(0);
            RoleFigures {
                role,
                short_whole,
                short_counted,
                short_fewest,
                long_found,
                long_asked: lates.len() * early.len(),
                late_prompts: lates.len(),
                tokens: [at(0), at(n / 2), at(n.saturating_sub(1)), sizes.iter().max().copied().unwrap_or(0)],
            }
        })
        .collect()
}

/// Both short games, printed after the Lore session.
pub async fn run() -> anyhow::Result<()> {
    undercover().await?.print();
    println!();
    arena().await?.print();
    Ok(())
}

async fn undercover() -> anyhow::Result<GameFigures> {
    let model = Scripted::new(undercover_answer);
    let pipeline = pipeline(model.clone())?;
    let host = UndercoverHost::new(Arc::new(crate::assets::words()));
    let first = Player { id: "ai:0".into(), name: crate::core::game::seats::ai_name(0) };
    let mut options = TableOptions { seats: Some(SEATS), ai_seats: Some(SEATS - 1), ..TableOptions::default() };
    options.set("undercovers", "1");
    let game = host.lobby(&first, Language::En, &options, 7).map_err(anyhow::Error::msg)?;
    let started = std::time::Instant::now();
    let mut watch = |g: &UndercoverGame, _: &Played| {
        let mut log = model.log();
        if log.spared.is_empty() {
            let odd = |id: &str| g.role(id).is_some_and(|r| r != Role::Civilian);
            log.spared = g
                .seats
                .seats
                .iter()
                .filter(|s| odd(&s.player.id))
                .filter_map(|s| g.number(&s.player.id).map(|n| n as u32))
                .collect();
        }
        log.snapshots.push(crate::core::undercover::memory::record(g).into_iter().map(|t| t.text).collect());
    };
    let result = crate::core::undercover::selfplay::play_game(&pipeline, game, &mut watch).await;
    let elapsed = started.elapsed();
    let log = model.log();
    anyhow::ensure!(result.rounds == ROUNDS, "the game lasted {} rounds, not {ROUNDS}", result.rounds);
    // Rounds 1 and 2: the record as round 3's first description found it.
    let early = log
        .calls
        .iter()
        .find(|c| c.role == "describe" && round_of(&c.user, c.role) == 3)
        .and_then(|c| log.snapshots.get(c.epoch))
        .cloned()
        .unwrap_or_default();
    let record = log.snapshots.last().map_or(0, Vec::len);
    let roles = figures(&log, &["describe", "vote"], &early, &|c, _| round_of(&c.user, c.role) == ROUNDS);
    let calls = format!(
        "model calls: {:.2} per AI move ({} calls, {} moves, {} fell back to a safe move)",
        log.calls.len() as f64 / result.agent_moves.max(1) as f64,
        log.calls.len(),
        result.agent_moves,
        result.fallbacks
    );
    Ok(GameFigures {
        heading: format!(
            "Who is the Undercover · {SEATS} AI seats · {} rounds ({:?}) · {record} entries in the record · {:.1} s",
            result.rounds,
            result.outcome,
            elapsed.as_secs_f64()
        ),
        planted: "rounds 1–2: every description and ballot".into(),
        when: format!("round {ROUNDS}"),
        budget: crate::core::undercover::memory::RECORD_TOKENS,
        roles,
        calls,
    })
}

async fn arena() -> anyhow::Result<GameFigures> {
    let model = Scripted::new(arena_answer);
    let pipeline = pipeline(model.clone())?;
    let host = ArenaHost::new(Arc::new(crate::assets::roster()));
    let opener = Player { id: "bench:host".into(), name: "host".into() };
    let options = TableOptions { ai_seats: Some(CONTESTANTS), ..TableOptions::default() }
        .with("spectate", "yes")
        .with("max_turns", TURNS.to_string())
        .with("threshold", "0")
        .with("elimination", "below");
    let (game, cast) = host.lobby(&opener, Language::En, &options, 11).map_err(anyhow::Error::msg)?;
    let narrator = cast.narrator.name.clone();
    let table = ArenaTable::new(game, cast, "bench-records");
    let started = std::time::Instant::now();
    let mut watch = |g: &crate::core::arena::ArenaGame, _: &Played| {
        model.log().snapshots.push(ArenaTable::record(g, &narrator).into_iter().map(|t| t.text).collect());
    };
    let result = crate::core::arena::selfplay::play_game(&pipeline, table, &opener, &mut watch).await;
    let elapsed = started.elapsed();
    let log = model.log();
    anyhow::ensure!(result.turns >= TURNS, "the game lasted {} turns, not {TURNS}", result.turns);
    let record = log.snapshots.last().cloned().unwrap_or_default();
    let early: Vec<String> = record.iter().filter(|t| t.contains(" kelp")).take(PLANTED).cloned().collect();
    let replies = record.iter().filter(|t| t.starts_with("I stand by it")).count();
    // Each role's last calls: a round's worth.
    let roles = figures(&log, &["contestant", "scorer", "narrator"], &early, &|_, from_end| from_end < CONTESTANTS);
    let calls = format!(
        "model calls: {:.2} per turn ({} calls in {} turns)\n  (a contestant reads the last {} lines of the record: seed 003's recent messages)",
        log.calls.len() as f64 / f64::from(result.turns.max(1)),
        log.calls.len(),
        result.turns,
        crate::core::arena::agents::WINDOW
    );
    Ok(GameFigures {
        heading: format!(
            "Arena · {CONTESTANTS} AI contestants · {} turns, {} rounds, {replies} rights of reply ({:?}) · {:.1} s",
            result.turns,
            result.rounds,
            result.outcome,
            elapsed.as_secs_f64()
        ),
        planted: format!("its first {PLANTED} contributions"),
        when: format!("last {CONTESTANTS} calls"),
        budget: crate::core::arena::memory::NARRATOR_TOKENS,
        roles,
        calls,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_numbers_are_read_from_the_vote_prompts_list() {
        let user = "…\nYou may vote for: #2 AI 2 🤖, #11 AI 11 🤖.\nWhich player…";
        assert_eq!(seat_numbers(user, "You may vote for: "), vec![2, 11]);
        let vote = "Your word: x\nYou are AI 3 🤖.\nWhat happened so far:\n#3 AI 3 🤖: “a”\n#3 AI 3 🤖: “b”\n";
        assert_eq!(round_of(vote, "vote"), 2);
        assert_eq!(round_of(vote, "describe"), 3);
    }

    fn role<'a>(g: &'a GameFigures, name: &str) -> &'a RoleFigures {
        g.roles.iter().find(|r| r.role == name).expect("the role made calls")
    }

    /// The bench's figures, asserted: every role of both games reads the
    /// record's last entries whole, and the roles that read the whole
    /// game (Undercover's seats, the Arena's scorer and narrator) still
    /// hold its first entries at the end. Cutting a record to its last
    /// lines, as before the context service, fails here.
    #[tokio::test]
    async fn the_short_games_keep_the_recent_entries_and_the_whole_game_in_their_prompts() {
        let u = undercover().await.expect("the Undercover game is played");
        assert!(u.roles.iter().all(|r| r.short_counted > 0 && r.short_whole == r.short_counted), "{:?}", u.roles);
        for name in ["describe", "vote"] {
            let r = role(&u, name);
            assert!(r.late_prompts > 0 && r.long_asked > 20 && r.long_found == r.long_asked, "{r:?}");
        }
        let a = arena().await.expect("the Arena game is played");
        assert!(a.roles.iter().all(|r| r.short_counted > 0 && r.short_whole == r.short_counted), "{:?}", a.roles);
        for name in ["scorer", "narrator"] {
            let r = role(&a, name);
            assert!(r.late_prompts > 0 && r.long_asked >= PLANTED && r.long_found == r.long_asked, "{r:?}");
        }
        // A contestant reads the recent messages only (seed 003).
        assert!(role(&a, "contestant").long_found < role(&a, "contestant").long_asked);
    }
}
