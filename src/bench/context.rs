//! `echoes bench context`: a scripted long Lore RPG session through the
//! real table (real LanceDB for the lore and the searchable older turns;
//! the sentence embedder when its files are present, else the hashing
//! one), measuring what a player feels:
//!
//! - **short range**: before every turn, how many of the last 6 turns
//!   (the action and its reply, verbatim) are in the referee's and the
//!   speaker's (narrator or NPC) prompts;
//! - **long range**: facts planted early (names, numbers, a flag, a
//!   promise an NPC made, an item's place), probed at turns 50, 150 and
//!   the last by questions that share no content word with the planting
//!   turn; a fact is reachable when its key is in the referee's or the
//!   speaker's prompt for the question (the probes are played and not
//!   kept, so they do not change the story);
//! - prompt tokens per role at turns 10, 50, 150 and the last, against
//!   the role's budget (its window less its reply) and its turn-10 size;
//! - model calls per turn.
//!
//! Then the same figures for the short games (`records.rs`).

use crate::core::rpg::verbs::LoreVerb;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;

use crate::core::actor::Inbound;
use crate::core::context::estimate_tokens;
use crate::core::embed::Embedder;
use crate::core::game::{Table, TurnContext, TurnInput};
use crate::core::knowledge::Knowledge;
use crate::core::llm::{ChatRequest, ChatResponse, LlmClient, LlmError, RoleModels};
use crate::core::rpg::{LoreGame, LoreTable, World};
use crate::core::services::{Pipeline, PipelineSettings, Progress};
use crate::core::vocab::Language;
use crate::core::vocab::Player;
use crate::knowledge::{HashingEmbedder, LanceKnowledge, LanceMemory, open_db};

/// How a fact is planted.
#[derive(Clone, Copy)]
enum Plant {
    /// An action.
    Act(&'static str),
    /// Words to the world's first NPC, who answers with `.1` (a promise).
    Npc(&'static str, &'static str),
}

/// (how it is planted, the later question, what must be in the prompt
/// to answer it). The question shares no content word with the planting
/// turn (checked at start).
const FACTS: [(Plant, &str, &str); 21] = [
    (
        Plant::Act("I tie my mule Pepper Quill to the well by the chapel."),
        "Is the animal I left earlier still waiting for me?",
        "pepper quill",
    ),
    (
        Plant::Act("I hide my silver ring inside a cracked herring barrel."),
        "Where did I stash that piece of jewellery?",
        "herring barrel",
    ),
    (Plant::Act("My sister is called Wenna Cray."), "Has anybody heard from my sibling lately?", "wenna cray"),
    (
        Plant::Act("I promise the ferryman three copper pennies if he keeps quiet."),
        "What did I pledge to pay the boatman?",
        "three copper pennies",
    ),
    (
        Plant::Act("I carve a hooked star into the door of the saltworks shed."),
        "Can you see the sign I scratched somewhere?",
        "hooked star",
    ),
    (
        Plant::Act("I buy a mustard velvet coat from the chandler for two crowns."),
        "How much did my new garment cost?",
        "mustard velvet",
    ),
    (Plant::Act("I choose Marrowbone as our code word."), "What password did we agree on?", "marrowbone"),
    (
        Plant::Act("I leave my lantern-pass with the cooper for safekeeping."),
        "Who is holding my permit for the night?",
        "cooper",
    ),
    (
        Plant::Act("I unbolt the old sea gate and leave it open."),
        "Is the barrier by the water still shut?",
        "gate_opened",
    ),
    (
        Plant::Npc(
            "Swear you will meet me later.",
            "*nods* I swear I will meet you at the lighthouse steps at moonrise.",
        ),
        "Where did that person agree to see me?",
        "lighthouse steps",
    ),
    (
        Plant::Act("I bury a tin box of letters under the third olive tree."),
        "Where did I put the correspondence I concealed?",
        "olive tree",
    ),
    (Plant::Act("I count forty-two gulls on the tannery."), "How many birds did I tally up there?", "forty-two"),
    (
        Plant::Act("I pawn my grandfather's compass to the moneylender Osric Vane."),
        "Who has the navigation instrument I handed over?",
        "osric vane",
    ),
    (Plant::Act("I rent room seven, the one with blue shutters."), "Which lodging number is mine?", "room seven"),
    (Plant::Act("I feed the stray dog I named Biscuit."), "What is my hound called?", "biscuit"),
    (Plant::Act("I lose my left glove near the rope walk."), "Where might I find the missing mitten?", "rope walk"),
    (
        Plant::Act("I agree to duel Captain Hesk at dawn on Saturday."),
        "When is my fight with that officer?",
        "saturday",
    ),
    (Plant::Act("I owe the baker Mabry eleven shillings."), "How big is my debt, and to whom?", "eleven shillings"),
    (
        Plant::Act("I tuck the smuggler's map inside my boot."),
        "Where is the chart I took from the contrabandist?",
        "inside my boot",
    ),
    (Plant::Act("I tell the children my name is Corvin."), "What alias did I give the youngsters?", "corvin"),
    (
        Plant::Act("I note the eclipse falls on the ninth of Frostmonth."),
        "When does the sun go dark?",
        "ninth of frostmonth",
    ),
];
/// The first fact's turn.
const FIRST_FACT: u32 = 3;
/// Turns after which the facts are probed (the last turn too).
const PROBES_AT: [u32; 3] = [50, 150, 300];
/// Turns whose prompt sizes are shown (the last turn too).
const SIZES_AT: [u32; 4] = [10, 50, 150, 300];
/// The short range: the last turns that must be verbatim.
const SHORT: u32 = 6;
/// The bench model's context window and replies, as the table sizes them.
const WINDOW: usize = 4_096;
const ROLES: [&str; 6] =
    ["LORE-REFEREE", "LORE-NARRATOR", "LORE-NPC", "LORE-REFEREE-REPLY", "LORE-SUMMARY", "LORE-PERSONA"];
/// Probe turns are numbered from here (they are not kept).
const PROBE_TURN: u32 = 100_000;

/// One request the model saw.
struct Seen {
    turn: u32,
    role: &'static str,
    tokens: usize,
    prompt: String,
}

/// The scripted model: approves every action (setting a flag for the
/// sea gate, noting the facts a turn establishes, and writing the
/// summary's chapter when asked for one),
/// narrates briefly, an NPC answers (with a promise when asked
/// to swear), and the summary is the new turns' actions (a model that
/// summarises faithfully); records every prompt.
#[derive(Default)]
struct BenchModel {
    turn: Mutex<u32>,
    seen: Mutex<Vec<Seen>>,
}

fn role_of(system: &str) -> &'static str {
    // The longest marker first: LORE-REFEREE-REPLY contains LORE-REFEREE.
    let mut roles = ROLES;
    roles.sort_by_key(|r| std::cmp::Reverse(r.len()));
    roles.into_iter().find(|r| system.contains(r)).unwrap_or("other")
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl BenchModel {
    /// "Ada went on: " and her actions in `lines` whose turn `keep` takes.
    fn actions<'a>(lines: impl Iterator<Item = &'a str>, keep: impl Fn(u32) -> bool) -> String {
        let acts: Vec<&str> = lines
            .filter_map(|l| {
                let (turn, act) = l.strip_prefix('[')?.split_once("] Ada: ")?;
                keep(turn.parse().ok()?).then_some(act)
            })
            .collect();
        format!("Ada went on: {}", acts.join(" "))
    }

    /// The chapter the referee is asked for (`Also give "chapter": what
    /// happened in turns A–B`), written from the prompt's lines of those
    /// turns.
    fn chapter(user: &str) -> Option<String> {
        let asked = user.split("what happened in turns ").nth(1)?;
        let (from, rest) = asked.split_once('–')?;
        let upto: String = rest.chars().take_while(char::is_ascii_digit).collect();
        let (from, upto): (u32, u32) = (from.trim().parse().ok()?, upto.parse().ok()?);
        Some(Self::actions(user.lines(), |t| (from..=upto).contains(&t)))
    }

    /// The facts the scripted referee notes, as a faithful model would:
    /// the action, unless it establishes nothing (the ordinary turns:
    /// walking, asking, watching, sketching; a question; words to a
    /// character), and the latest reply, unless it is one of this
    /// model's stock lines or the opening. Compact, as the prompt asks:
    /// the action's verb is the subject (the script's planted actions
    /// each have their own), the rest of it the text.
    fn noted(user: &str, action_line: &str) -> serde_json::Map<String, serde_json::Value> {
        const ORDINARY: [&str; 5] = ["I walk to ", "I ask a passer-by ", "I wait near ", "I sketch ", "("];
        let mut facts = serde_json::Map::new();
        let action = action_line.split_once(": ").map_or("", |(_, a)| a.trim());
        if !action.is_empty() && !action.ends_with('?') && !ORDINARY.iter().any(|o| action.starts_with(o)) {
            let words: Vec<&str> = action.trim_start_matches("I ").trim_end_matches('.').split_whitespace().collect();
            let (subject, text) = words.split_at(words.len().min(1));
            facts.insert(subject.join(" "), text.join(" ").into());
        }
        let history = user.split("\n\nCharacters players can address").next().unwrap_or_default();
        let latest = history.lines().last().unwrap_or_default();
        let reply = latest.strip_prefix('[').and_then(|l| l.split_once("] ")).and_then(|(turn, rest)| {
            let (speaker, text) = rest.split_once(": ")?;
            let stock = ["*looks you over*", "You go on:"].iter().any(|s| text.starts_with(s));
            (turn != "0" && speaker != "Ada" && !stock).then(|| (format!("{speaker}'s word"), text.to_string()))
        });
        if let Some((subject, text)) = reply {
            facts.insert(subject, text.into());
        }
        facts
    }

    fn answer(role: &str, user: &str) -> String {
        match role {
            "LORE-REFEREE" => {
                let last = user.lines().rev().find(|l| l.contains("The action of")).unwrap_or_default();
                let mut ruling = serde_json::json!({
                    "approved": true, "reason": "Nothing in the lore forbids it.", "confidence": 0.9,
                    "next_action": "narrator_scene", "target": null,
                });
                if last.contains("sea gate") {
                    ruling["flags"] = serde_json::json!({"gate_opened": true});
                }
                // Asked for the summary's next chapter, it writes it as the
                // summary role does: the turns' actions.
                if let Some(chapter) = Self::chapter(user) {
                    ruling["chapter"] = chapter.into();
                }
                ruling["facts"] = Self::noted(user, last).into();
                ruling.to_string()
            }
            "LORE-REFEREE-REPLY" => r#"{"approved": true, "reason": "Consistent.", "confidence": 0.9}"#.to_string(),
            "LORE-SUMMARY" => {
                let turns = user.split("New turns:").nth(1).unwrap_or_default();
                Self::actions(turns.lines(), |_| true)
            }
            "LORE-NPC" if user.contains("Swear you will meet me") => FACTS
                .iter()
                .find_map(|(p, _, _)| if let Plant::Npc(_, said) = p { Some(*said) } else { None })
                .unwrap_or_default()
                .to_string(),
            "LORE-NPC" => "*looks you over* Ask your questions quickly; the tide does not wait.".to_string(),
            "LORE-PERSONA" => {
                r#"{"speaking_style": "curt", "traits": ["wary"], "background": "a local", "wants": "quiet"}"#
                    .to_string()
            }
            _ => {
                let acted = user.lines().rev().find(|l| l.contains(" acts: ")).unwrap_or_default();
                let action: String = acted.split(" acts: ").nth(1).unwrap_or_default().chars().take(60).collect();
                format!("You go on: {action} The wind off the harbour smells of salt and tar.")
            }
        }
    }
}

#[async_trait]
impl LlmClient for BenchModel {
    fn describe(&self) -> String {
        "bench:scripted".into()
    }

    async fn chat(&self, request: ChatRequest) -> Result<ChatResponse, LlmError> {
        let system = request.messages.first().map(|m| m.content.clone()).unwrap_or_default();
        let prompt: String = request.messages.iter().map(|m| m.content.as_str()).collect::<Vec<_>>().join("\n");
        let role = role_of(&system);
        let turn = *lock(&self.turn);
        let tokens = estimate_tokens(&prompt);
        let user = request.messages.last().map(|m| m.content.clone()).unwrap_or_default();
        let text = Self::answer(role, &user);
        lock(&self.seen).push(Seen { turn, role, tokens, prompt });
        Ok(ChatResponse { text, prompt_tokens: tokens as u32, completion_tokens: 20 })
    }

    fn context_window(&self) -> Option<usize> {
        Some(WINDOW)
    }

    async fn health(&self) -> Result<(), LlmError> {
        Ok(())
    }
}

/// An ordinary turn: walking, asking, watching around the world's places,
/// every fifth one words to a character.
fn filler(turn: u32, places: &[String], npcs: &[String]) -> TurnInput {
    let place = &places[turn as usize % places.len()];
    if turn.is_multiple_of(5) {
        let npc = npcs[(turn as usize / 5) % npcs.len()].clone();
        return TurnInput::from(LoreVerb::Say(format!("What do you know about {place}?"), npc));
    }
    TurnInput::Say(match turn % 4 {
        0 => format!("I walk to {place} and look around."),
        1 => format!("I ask a passer-by what happened lately at {place}."),
        2 => format!("I wait near {place} and watch who comes and goes."),
        _ => format!("I sketch {place} in my notebook, turn {turn}."),
    })
}

/// The input the script plays at `turn`: a fact to plant, or an ordinary
/// turn.
fn scripted_input(turn: u32, places: &[String], npcs: &[String]) -> TurnInput {
    let fact = turn.checked_sub(FIRST_FACT).map(|i| i as usize).filter(|i| *i < FACTS.len());
    match fact.map(|i| FACTS[i].0) {
        Some(Plant::Act(text)) => TurnInput::Say(text.to_string()),
        Some(Plant::Npc(text, _)) => TurnInput::from(LoreVerb::Say(text.to_string(), npcs[0].clone())),
        None => filler(turn, places, npcs),
    }
}

/// Content words (three letters or more, not common) of `text`.
fn content(text: &str) -> HashSet<String> {
    const COMMON: [&str; 24] = [
        "the", "and", "for", "that", "this", "with", "from", "into", "you", "your", "was", "are", "did", "has", "have",
        "him", "her", "she", "our", "its", "who", "what", "where", "when",
    ];
    crate::core::text::words(text)
        .into_iter()
        .filter(|w| w.chars().count() >= 3 && !COMMON.contains(&w.as_str()))
        .collect()
}

pub async fn run(turns: u32) -> anyhow::Result<()> {
    let worlds = crate::assets::worlds();
    let world = worlds.first(Language::En).cloned().ok_or_else(|| anyhow::anyhow!("no English world is bundled"))?;
    check_facts(&world)?;
    let dir = std::env::temp_dir().join(format!("echoes-bench-context-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let model = Arc::new(BenchModel::default());
    let (pipeline, embedder) = bench_pipeline(&dir, &world, model.clone()).await?;
    let total = turns.max(FIRST_FACT + FACTS.len() as u32 + 1);
    let started = std::time::Instant::now();
    let played = play_script(&pipeline, &model, &world, total).await?;
    let elapsed = started.elapsed();
    {
        let seen = lock(&model.seen);
        println!(
            "Lore RPG long session · {} · {total} turns · {} planted facts · embedder: {embedder} · {:.1} s",
            world.title,
            FACTS.len(),
            elapsed.as_secs_f64()
        );
        print_short_range(&seen, &played, total);
        print_long_range(&seen, total);
        print_prompt_tokens(&seen, total);
        print_model_calls(&seen, total);
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!();
    super::records::run().await
}

/// The probes share no content word with their planting turn, and their
/// keys are not in the world's own text (which every prompt may hold).
fn check_facts(world: &World) -> anyhow::Result<()> {
    let secrets: Vec<&str> = world.secrets().map(|p| p.text.as_str()).collect();
    let corpus = format!("{}\n{}", world.public_text(), secrets.join("\n")).to_lowercase();
    for (plant, question, key) in FACTS {
        let planted = match plant {
            Plant::Act(t) => t.to_string(),
            Plant::Npc(t, said) => format!("{t} {said}"),
        };
        let shared: Vec<String> = content(&planted).intersection(&content(question)).cloned().collect();
        anyhow::ensure!(shared.is_empty(), "the probe {question:?} shares {shared:?} with its planting turn");
        anyhow::ensure!(!corpus.contains(key), "the probe key {key:?} is in the world's own text");
    }
    // The scripted referee keys a planted action's fact by its verb: no
    // two may share one, or one fact would replace another.
    let verbs: HashSet<&str> = FACTS
        .iter()
        .filter_map(
            |(p, _, _)| if let Plant::Act(t) = p { t.trim_start_matches("I ").split_whitespace().next() } else { None },
        )
        .collect();
    let acts = FACTS.iter().filter(|(p, _, _)| matches!(p, Plant::Act(_))).count();
    anyhow::ensure!(verbs.len() == acts, "two planted actions share a verb");
    Ok(())
}

/// The real pipeline over the scripted model, with the world's lore and
/// the searchable older turns in LanceDB under `dir`: the sentence
/// embedder when its files are present, else the hashing one.
async fn bench_pipeline(
    dir: &std::path::Path,
    world: &World,
    model: Arc<BenchModel>,
) -> anyhow::Result<(Pipeline, String)> {
    let db = open_db(dir).await?;
    let local = crate::embed::sentence_model("auto", &crate::llm::settings::LocalSettings::default()).await;
    let (embedder, label, semantic): (Arc<dyn Embedder>, String, bool) = match local {
        Ok(e) => (e, "all-MiniLM-L6-v2 (in process)".into(), true),
        Err(_) => (Arc::new(HashingEmbedder::new(384)), "hashing (no sentence embedder fetched)".into(), false),
    };
    let knowledge = LanceKnowledge::open(&db, embedder.clone()).await?;
    knowledge.sync(&world.docs()).await?;
    let memory = LanceMemory::open(&db, embedder.clone()).await?;
    let models = RoleModels { judge: model.clone(), narrator: model };
    let prompts = Arc::new(crate::assets::load_prompts(None)?);
    let mut pipeline = Pipeline::new(models, prompts, PipelineSettings::default());
    pipeline.knowledge = Some(Arc::new(knowledge));
    pipeline.memory = Some(Arc::new(memory));
    // Recall's similarity threshold reads a sentence embedder only.
    pipeline.embedder = semantic.then_some(embedder);
    Ok((pipeline, label))
}

/// The lines of one played turn, as the story keeps them.
struct Played {
    turn: u32,
    lines: Vec<String>,
}

/// Plays the script through a Lore table, `total` turns; after the
/// probe turns, each fact's question is played and not kept. Every turn
/// must be played.
async fn play_script(
    pipeline: &Pipeline,
    model: &BenchModel,
    world: &Arc<World>,
    total: u32,
) -> anyhow::Result<Vec<Played>> {
    let player = Player { id: "bench:ada".into(), name: "Ada".into() };
    let game = LoreGame::new(world, &player);
    let mut table = LoreTable::new(game, world.clone(), "bench-context", &crate::core::actor::new_canary());
    let places: Vec<String> = world.public().filter(|p| p.kind == "place").map(|p| p.title.clone()).collect();
    let npcs: Vec<String> = world.npcs.iter().map(|n| n.name.clone()).collect();
    let noop = |_: Progress| {};
    let mut played_turns = Vec::new();
    for turn in 1..=total {
        let input = scripted_input(turn, &places, &npcs);
        *lock(&model.turn) = turn;
        let inbound = Inbound::new(player.clone(), input);
        let ctx = TurnContext { pipeline, now_ms: i64::from(turn) * 60_000, progress: &noop };
        let played = table.play(&ctx, &inbound).await;
        anyhow::ensure!(played.commit, "turn {turn} was not played: {}", played.reply.text);
        table.adopt(played);
        let lines = table.game.book.recent.iter().filter(|e| e.turn == turn).map(|e| e.line()).collect();
        played_turns.push(Played { turn, lines });
        if PROBES_AT.contains(&turn) || turn == total {
            for (i, (_, question, _)) in FACTS.iter().enumerate() {
                *lock(&model.turn) = PROBE_TURN + turn * 100 + i as u32;
                let inbound = Inbound::new(player.clone(), TurnInput::Say(question.to_string()));
                let ctx = TurnContext { pipeline, now_ms: i64::from(turn) * 60_000 + 1, progress: &noop };
                let probe = table.play(&ctx, &inbound).await;
                anyhow::ensure!(probe.commit, "the probe {question:?} was not played");
            }
        }
    }
    Ok(played_turns)
}

/// Short range: before each turn, how many of the last `SHORT` turns are
/// verbatim (every line) in the referee's and in the speaker's prompt.
fn print_short_range(seen: &[Seen], played: &[Played], total: u32) {
    for (label, roles) in [("referee", &["LORE-REFEREE"][..]), ("speaker", &["LORE-NARRATOR", "LORE-NPC"][..])] {
        let (mut full, mut counted, mut worst) = (0, 0, usize::MAX);
        for turn in 2..=total {
            let Some(prompt) = seen.iter().find(|s| s.turn == turn && roles.contains(&s.role)) else { continue };
            let from = turn.saturating_sub(SHORT);
            let last: Vec<&Played> = played.iter().filter(|p| p.turn >= from.max(1) && p.turn < turn).collect();
            let here = last.iter().filter(|p| p.lines.iter().all(|l| prompt.prompt.contains(l.as_str()))).count();
            counted += 1;
            full += usize::from(here == last.len());
            worst = worst.min(here * SHORT as usize / last.len().max(1));
        }
        println!(
            "short range · {label}: all of the last {SHORT} turns verbatim before {full} of {counted} turns; fewest {} of {SHORT}",
            if worst == usize::MAX { 0 } else { worst }
        );
    }
}

/// Long range: for each probe turn, how many facts' keys were in the
/// referee's or the speaker's prompt for their question.
fn print_long_range(seen: &[Seen], total: u32) {
    let mut at: Vec<u32> = PROBES_AT.iter().copied().filter(|m| *m < total).collect();
    at.push(total);
    for m in at {
        let mut reached = 0;
        let mut lost = Vec::new();
        for (i, (_, question, key)) in FACTS.iter().enumerate() {
            let tag = PROBE_TURN + m * 100 + i as u32;
            let found = seen.iter().filter(|s| s.turn == tag).any(|s| s.prompt.to_lowercase().contains(key));
            if found {
                reached += 1;
            } else {
                lost.push(format!("{key:?} ({question:?})"));
            }
        }
        println!(
            "long range · after turn {m}: {reached} of {} planted facts reachable in the prompt ({:.0}%){}",
            FACTS.len(),
            100.0 * reached as f64 / FACTS.len() as f64,
            if lost.is_empty() { String::new() } else { format!("; lost: {}", lost.join(", ")) }
        );
    }
}

/// Prompt tokens of each role's latest call at or before each turn, its
/// budget and its growth from turn 10.
fn print_prompt_tokens(seen: &[Seen], total: u32) {
    println!(
        "prompt tokens (estimated), latest call of each role at or before the turn; budget {WINDOW} less the reply:"
    );
    let mut columns: Vec<u32> = SIZES_AT.iter().copied().filter(|m| *m < total).collect();
    columns.push(total);
    let head: Vec<String> = columns.iter().map(|m| format!("{:>9}", format!("turn {m}"))).collect();
    println!("  {:<20}{}  {:>9}  {:>6}", "role", head.join(""), "last/t10", "budget");
    for role in ROLES {
        let at = |m: u32| seen.iter().rev().find(|s| s.role == role && s.turn <= m).map(|s| s.tokens);
        let cells: Vec<Option<usize>> = columns.iter().map(|m| at(*m)).collect();
        if cells.iter().all(Option::is_none) {
            continue;
        }
        let shown: Vec<String> =
            cells.iter().map(|c| format!("{:>9}", c.map_or("-".to_string(), |n| n.to_string()))).collect();
        let first = at(10).or_else(|| seen.iter().find(|s| s.role == role).map(|s| s.tokens)).unwrap_or(1).max(1);
        let last = cells.iter().rev().flatten().next().copied().unwrap_or(0);
        let most = seen.iter().filter(|s| s.role == role && s.turn <= total).map(|s| s.tokens).max().unwrap_or(0);
        let within = if most + 200 <= WINDOW { "within" } else { "OVER" };
        println!(
            "  {:<20}{}  {:>9.2}  {within} (largest {most})",
            role.to_lowercase(),
            shown.join(""),
            last as f64 / first as f64
        );
    }
}

/// Model calls per turn over the `total` scripted turns (probes not
/// counted), by role.
fn print_model_calls(seen: &[Seen], total: u32) {
    let played: Vec<&Seen> = seen.iter().filter(|s| s.turn >= 1 && s.turn <= total).collect();
    let by_role: Vec<String> = ROLES
        .iter()
        .map(|r| (r, played.iter().filter(|s| s.role == *r).count()))
        .filter(|(_, n)| *n > 0)
        .map(|(r, n)| format!("{} {n}", r.to_lowercase()))
        .collect();
    println!(
        "model calls: {:.2} per turn ({} in {total} turns: {})",
        played.len() as f64 / f64::from(total),
        played.len(),
        by_role.join(", ")
    );
}
