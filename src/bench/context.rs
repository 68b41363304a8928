//! `echoes bench context`: a scripted long Lore RPG session through the
//! real table (real LanceDB for the lore and the searchable older turns,
//! the hashing embedder), printing the prompt tokens each role is sent at
//! turns 1, 50, 100 and 300, the model calls per turn, and a recall probe:
//! facts established in the first turns, asked about after the last one,
//! counted as remembered when the fact is in the prompt the model sees.

use crate::core::lore::verbs::LoreVerb;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;

use crate::core::actor::Inbound;
use crate::core::context::estimate_tokens;
use crate::core::embed::Embedder;
use crate::core::game::{Table, TurnContext, TurnInput};
use crate::core::knowledge::Knowledge;
use crate::core::llm::{ChatRequest, ChatResponse, LlmClient, LlmError, RoleModels};
use crate::core::lore::{LoreGame, LoreTable, World};
use crate::core::soup::pipeline::{Pipeline, PipelineSettings, Progress};
use crate::core::vocab::Language;
use crate::core::vocab::Player;
use crate::knowledge::{HashingEmbedder, LanceKnowledge, LanceMemory, open_db};

/// (the action that establishes a fact, the later question, what must
/// still be in the prompt to answer it: words the world's own text lacks).
const FACTS: [(&str, &str, &str); 8] = [
    (
        "I name my mule Pepper Quill and tie her at the Landgate.",
        "Is Pepper Quill still tied up where I left her?",
        "my mule",
    ),
    (
        "I hide my silver ring inside a cracked herring barrel behind the Drowned Bell.",
        "I go back for the silver ring I hid.",
        "cracked herring barrel",
    ),
    (
        "I tell everyone my sister is called Wenna Cray and she sails the Blue Gannet.",
        "Has anyone here heard news of Wenna Cray?",
        "Blue Gannet",
    ),
    (
        "I promise the ferryman three copper pennies if he keeps quiet.",
        "I pay the ferryman what I promised him.",
        "three copper pennies",
    ),
    (
        "I carve the mark of a hooked star into the door of the saltworks shed.",
        "I look for the mark I carved on the saltworks shed door.",
        "hooked star",
    ),
    (
        "I buy a green oilskin coat from the chandler for two crowns.",
        "I put on the coat I bought from the chandler.",
        "green oilskin",
    ),
    (
        "I write the code word Marrowbone on a slip of paper and burn it in the hearth.",
        "I whisper the code word Marrowbone to the innkeeper.",
        "burn it in the hearth",
    ),
    ("I leave my lantern-pass with the cooper for safekeeping.", "I go to fetch my lantern-pass back.", "the cooper"),
];
/// The first fact's turn.
const FIRST_FACT: u32 = 3;
const MILESTONES: [u32; 4] = [1, 50, 100, 300];
const ROLES: [&str; 5] = ["LORE-REFEREE", "LORE-NARRATOR", "LORE-NPC", "LORE-REFEREE-REPLY", "LORE-SUMMARY"];

/// One request the model saw.
struct Seen {
    turn: u32,
    role: &'static str,
    tokens: usize,
    prompt: String,
}

/// The scripted model: approves every action, narrates briefly, and
/// answers the summary with a fixed line (it cannot summarise); records
/// every prompt.
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

#[async_trait]
impl LlmClient for BenchModel {
    fn describe(&self) -> String {
        "bench:scripted".into()
    }

    async fn chat(&self, request: ChatRequest) -> Result<ChatResponse, LlmError> {
        let system = request.messages.first().map(|m| m.content.clone()).unwrap_or_default();
        let prompt: String = request.messages.iter().map(|m| m.content.as_str()).collect::<Vec<_>>().join("\n");
        let role = role_of(&system);
        let turn = *self.turn.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let tokens = estimate_tokens(&prompt);
        let user = request.messages.last().map(|m| m.content.clone()).unwrap_or_default();
        let text = match role {
            "LORE-REFEREE" => {
                r#"{"approved": true, "reason": "Nothing in the lore forbids it.", "confidence": 0.9, "next_action": "narrator_scene", "target": null}"#.to_string()
            }
            "LORE-REFEREE-REPLY" => r#"{"approved": true, "reason": "Consistent.", "confidence": 0.9}"#.to_string(),
            "LORE-SUMMARY" => "The newcomers wander Hollowtide, asking questions of everyone they meet.".to_string(),
            "LORE-NPC" => "*looks you over* Ask your questions quickly; the tide does not wait.".to_string(),
            _ => {
                let acted = user.lines().rev().find(|l| l.contains(" acts: ")).unwrap_or_default();
                let action: String = acted.split(" acts: ").nth(1).unwrap_or_default().chars().take(60).collect();
                format!("You go on: {action} The wind off the harbour smells of salt and tar.")
            }
        };
        self.seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(Seen { turn, role, tokens, prompt });
        Ok(ChatResponse { text, prompt_tokens: tokens as u32, completion_tokens: 20 })
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
        _ => format!("I sketch {place} in my notebook."),
    })
}

/// The input the script plays at `turn`: a fact to establish, a recall
/// question after turn `total`, or an ordinary turn.
fn scripted_input(turn: u32, total: u32, places: &[String], npcs: &[String]) -> TurnInput {
    let fact = turn.checked_sub(FIRST_FACT).map(|i| i as usize).filter(|i| *i < FACTS.len());
    let question = turn.checked_sub(total + 1).map(|i| i as usize);
    match (fact, question) {
        (Some(i), _) => TurnInput::Say(FACTS[i].0.to_string()),
        (_, Some(i)) => TurnInput::Say(FACTS[i].1.to_string()),
        _ => filler(turn, places, npcs),
    }
}

pub async fn run(turns: u32) -> anyhow::Result<()> {
    let worlds = crate::assets::worlds();
    let world = worlds.first(Language::En).cloned().ok_or_else(|| anyhow::anyhow!("no English world is bundled"))?;
    let dir = std::env::temp_dir().join(format!("echoes-bench-context-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let model = Arc::new(BenchModel::default());
    let pipeline = bench_pipeline(&dir, &world, model.clone()).await?;
    let total = turns.max(FIRST_FACT + FACTS.len() as u32 + 1);
    let started = std::time::Instant::now();
    play_script(&pipeline, &model, &world, total).await?;
    let elapsed = started.elapsed();
    let seen = model.seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    println!(
        "Lore RPG long session · {} · {} turns + {} recall questions · {:.1} s",
        world.title,
        total,
        FACTS.len(),
        elapsed.as_secs_f64()
    );
    print_prompt_tokens(&seen, total);
    print_model_calls(&seen, total);
    probe_recall(&world, &seen, total)?;
    drop(seen);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// The real pipeline over the scripted model, with the world's lore and
/// the searchable older turns in LanceDB under `dir` (hashing embedder).
async fn bench_pipeline(dir: &std::path::Path, world: &World, model: Arc<BenchModel>) -> anyhow::Result<Pipeline> {
    let db = open_db(dir).await?;
    let embedder: Arc<dyn Embedder> = Arc::new(HashingEmbedder::new(384));
    let knowledge = LanceKnowledge::open(&db, embedder.clone()).await?;
    knowledge.sync(&world.docs()).await?;
    let memory = LanceMemory::open(&db, embedder).await?;
    let models = RoleModels { judge: model.clone(), narrator: model };
    let prompts = Arc::new(crate::assets::load_prompts(None)?);
    let mut pipeline = Pipeline::new(models, prompts, PipelineSettings::default());
    pipeline.knowledge = Some(Arc::new(knowledge));
    pipeline.memory = Some(Arc::new(memory));
    Ok(pipeline)
}

/// Plays the whole script through a Lore table, `total` turns and then
/// the recall questions; every turn must be played.
async fn play_script(pipeline: &Pipeline, model: &BenchModel, world: &Arc<World>, total: u32) -> anyhow::Result<()> {
    let player = Player { id: "bench:ada".into(), name: "Ada".into() };
    let game = LoreGame::new(world, &player);
    let mut table = LoreTable::new(game, world.clone(), "bench-context", &crate::core::actor::new_canary());
    let places: Vec<String> = world.public().filter(|p| p.kind == "place").map(|p| p.title.clone()).collect();
    let npcs: Vec<String> = world.npcs.iter().map(|n| n.name.clone()).collect();
    let noop = |_: Progress| {};
    for turn in 1..=total + FACTS.len() as u32 {
        let input = scripted_input(turn, total, &places, &npcs);
        *model.turn.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = turn;
        let inbound = Inbound::new(player.clone(), input);
        let ctx = TurnContext { pipeline, now_ms: i64::from(turn) * 60_000, progress: &noop };
        let played = table.play(&ctx, &inbound).await;
        anyhow::ensure!(played.commit, "turn {turn} was not played: {}", played.reply.text);
        table.adopt(played);
    }
    Ok(())
}

/// The prompt tokens of each role's latest call at or before each
/// milestone, and how far its prompt grew from its first call.
fn print_prompt_tokens(seen: &[Seen], total: u32) {
    println!(
        "prompt tokens per call (estimated: the scripted model has no tokenizer), latest call of each role at or before the turn:"
    );
    let mut columns: Vec<u32> = MILESTONES.iter().copied().filter(|m| *m <= total).collect();
    if columns.last() != Some(&total) {
        columns.push(total);
    }
    let head: Vec<String> = columns.iter().map(|m| format!("{:>9}", format!("turn {m}"))).collect();
    println!("  {:<20}{}  {:>8}", "role", head.join(""), "last/1st");
    for role in ROLES {
        let at = |m: u32| seen.iter().rev().find(|s| s.role == role && s.turn <= m).map(|s| (s.turn, s.tokens));
        let cells: Vec<Option<(u32, usize)>> = columns.iter().map(|m| at(*m)).collect();
        if cells.iter().all(Option::is_none) {
            continue;
        }
        let shown: Vec<String> =
            cells.iter().map(|c| format!("{:>9}", c.map_or("-".to_string(), |(_, n)| n.to_string()))).collect();
        let first = seen.iter().find(|s| s.role == role).map(|s| s.tokens).unwrap_or(1).max(1);
        let last = cells.iter().rev().flatten().next().map_or(0, |(_, n)| *n);
        println!("  {:<20}{}  {:>8.2}", role.to_lowercase(), shown.join(""), last as f64 / first as f64);
    }
}

/// Model calls per turn over the `total` scripted turns, and how many were
/// summary rewrites.
fn print_model_calls(seen: &[Seen], total: u32) {
    let calls = seen.iter().filter(|s| s.turn >= 1 && s.turn <= total).count();
    let summaries = seen.iter().filter(|s| s.role == "LORE-SUMMARY" && s.turn <= total).count();
    println!(
        "model calls: {:.2} per turn ({} in {} turns; {} of them summary rewrites)",
        calls as f64 / f64::from(total),
        calls,
        total,
        summaries
    );
}

/// The recall probe: for each fact, whether its key is in the narrator's
/// prompt for the question asked after turn `total`, and in which layer.
fn probe_recall(world: &World, seen: &[Seen], total: u32) -> anyhow::Result<()> {
    // A fact the world's own text holds would be in every prompt anyway.
    let secrets: Vec<&str> = world.secrets().map(|p| p.text.as_str()).collect();
    let corpus = format!("{}\n{}", world.public_text(), secrets.join("\n")).to_lowercase();
    for (_, _, key) in FACTS {
        anyhow::ensure!(!corpus.contains(&key.to_lowercase()), "the probe key {key:?} is in the world's own text");
    }
    let mut remembered = 0;
    for (i, (_, question, key)) in FACTS.iter().enumerate() {
        let turn = total + 1 + i as u32;
        let prompt = seen.iter().find(|s| s.turn == turn && s.role == "LORE-NARRATOR").map(|s| s.prompt.as_str());
        // The layer that carried it: the block of the prompt holding the key.
        let layer = prompt.and_then(|p| {
            p.split("\n\n")
                .find(|block| block.to_lowercase().contains(&key.to_lowercase()))
                .map(|block| block.lines().next().unwrap_or_default().trim_end_matches(':').to_string())
        });
        remembered += usize::from(layer.is_some());
        let found = layer.map_or_else(|| "lost".to_string(), |l| format!("in the prompt ({l})"));
        println!("  recall · turn {} · {question:?} needs {key:?}: {found}", FIRST_FACT + i as u32);
    }
    println!(
        "recall probe: {remembered} of {} facts from turns {FIRST_FACT}-{} still in the narrator's prompt after turn {total}",
        FACTS.len(),
        FIRST_FACT + FACTS.len() as u32 - 1
    );
    Ok(())
}
