//! The Lore RPG's turn pipeline on a small world, with a model that
//! answers by role (the prompts' LORE-… markers): every branch of seed
//! 001, the persona cache, the gate, a model that fails or babbles.

use crate::core::rpg::verbs::LoreVerb;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;

use super::*;
use crate::core::actor::Inbound;
use crate::core::game::{Table, TurnContext, TurnInput};
use crate::core::llm::{ChatRequest, ChatResponse, LlmClient, LlmError, RoleModels};
use crate::core::services::{Pipeline, PipelineSettings, Progress};

const WORLD: &str = r#"
id = "gullrock"
language = "en"
title = "Gullrock"
premise = "A fishing rock with one lamp and a keeper called Mira Vell."
opening = "Fog over Gullrock. The lamp turns. Where do you go?"
rules = ["Nobody can fly.", "There is no gunpowder."]

[[passage]]
id = "lamp"
title = "The Lamp"
kind = "place"
visibility = "public"
text = "The lamp on Gullrock is a tall stone tower with a brass lens that turns all night, tended by one keeper who climbs ninety steps every dusk to light it, and who keeps the logbook of every ship that passes the rock."

[[passage]]
id = "mira"
title = "Mira Vell"
kind = "person"
visibility = "public"
text = "Mira Vell is the keeper of the lamp, a wiry woman of fifty with tar under her nails who speaks in short sentences, trusts nobody from the mainland and keeps the logbook locked in an iron box under her bed at the foot of the tower."

[[passage]]
id = "no-flight"
title = "No Flight"
kind = "rule"
visibility = "public"
text = "Nobody on Gullrock or anywhere else can fly: no spell, no beast and no machine lifts a person from the ground, and anyone who claims otherwise is lying or mad, as every child on the rock is taught from the cradle onwards."

[[passage]]
id = "gm-wreck"
title = "The Drowned Captain"
kind = "history"
visibility = "gm"
text = "GM ONLY. Mira Vell darkened the lamp on purpose the night the Saltmoth struck the rock, because the captain owed her brother the Ninefold Debt of crowns, and she hid his strongbox in the tower's cistern."

[[npc]]
id = "mira"
name = "Mira Vell"
passages = ["mira", "lamp"]
gm_passages = ["gm-wreck"]
"#;

/// Answers by the prompt's role marker; records the roles called.
struct ByRole {
    answers: Mutex<Vec<(&'static str, Result<String, LlmError>)>>,
    calls: Mutex<Vec<&'static str>>,
    prompts: Mutex<Vec<String>>,
}

impl ByRole {
    fn new() -> Arc<ByRole> {
        Arc::new(ByRole {
            answers: Mutex::new(Vec::new()),
            calls: Mutex::new(Vec::new()),
            prompts: Mutex::new(Vec::new()),
        })
    }

    /// The next answer for `role` (each is used once; a role without one
    /// gets its default).
    fn will(&self, role: &'static str, text: &str) {
        self.answers.lock().unwrap().push((role, Ok(text.to_string())));
    }

    fn fails(&self, role: &'static str) {
        self.answers.lock().unwrap().push((role, Err(LlmError::Timeout)));
    }

    fn calls(&self) -> Vec<&'static str> {
        std::mem::take(&mut *self.calls.lock().unwrap())
    }
}

fn role(system: &str) -> &'static str {
    for r in ["LORE-REFEREE-REPLY", "LORE-REFEREE", "LORE-NARRATOR", "LORE-NPC", "LORE-PERSONA", "LORE-SUMMARY"] {
        if system.contains(r) {
            return r;
        }
    }
    "other"
}

#[async_trait]
impl LlmClient for ByRole {
    fn describe(&self) -> String {
        "by-role".into()
    }

    async fn chat(&self, request: ChatRequest) -> Result<ChatResponse, LlmError> {
        let system = request.messages.first().map(|m| m.content.clone()).unwrap_or_default();
        let r = role(&system);
        self.calls.lock().unwrap().push(r);
        self.prompts
            .lock()
            .unwrap()
            .push(request.messages.iter().map(|m| m.content.clone()).collect::<Vec<_>>().join("\n"));
        let mut answers = self.answers.lock().unwrap();
        let text = match answers.iter().position(|(role, _)| *role == r) {
            Some(i) => answers.remove(i).1?,
            None => match r {
                // Not sure enough to let a reply go unchecked (`SURE`).
                "LORE-REFEREE" => r#"{"approved": true, "reason": "fine", "confidence": 0.7, "next_action": "narrator_scene", "cites": ["lamp"]}"#.into(),
                "LORE-REFEREE-REPLY" => r#"{"approved": true, "reason": "consistent", "confidence": 0.9}"#.into(),
                "LORE-PERSONA" => r#"{"speaking_style": "short and dry", "traits": ["wary"], "background": "keeper of the lamp", "wants": "to be left alone"}"#.into(),
                "LORE-NPC" => "*wipes her hands* State your business.".into(),
                "LORE-SUMMARY" => "Ada came to Gullrock and climbed the tower.".into(),
                _ => "The fog parts; the lamp's beam sweeps the water.".into(),
            },
        };
        Ok(ChatResponse { text, prompt_tokens: 0, completion_tokens: 0 })
    }

    async fn health(&self) -> Result<(), LlmError> {
        Ok(())
    }
}

fn world() -> Arc<World> {
    Arc::new(World::from_one(WORLD).expect("the test world is valid"))
}

fn ada() -> crate::core::vocab::Player {
    crate::core::vocab::Player { id: "t:ada".into(), name: "Ada".into() }
}

struct Rig {
    model: Arc<ByRole>,
    pipeline: Pipeline,
    table: LoreTable,
    steps: Arc<Mutex<Vec<String>>>,
}

fn rig() -> Rig {
    let model = ByRole::new();
    let models = RoleModels { judge: model.clone(), narrator: model.clone() };
    let pipeline =
        Pipeline::new(models, Arc::new(crate::assets::load_prompts(None).unwrap()), PipelineSettings::default());
    let w = world();
    let table = LoreTable::new(LoreGame::new(&w, &ada()), w, "s1", &crate::core::actor::new_canary());
    Rig { model, pipeline, table, steps: Arc::default() }
}

impl Rig {
    async fn play(&mut self, input: TurnInput) -> crate::core::game::Played {
        let steps = self.steps.clone();
        let progress = move |p: Progress| {
            if let Progress::Step(s) = p {
                steps.lock().unwrap().push(s);
            }
        };
        let ctx = TurnContext { pipeline: &self.pipeline, now_ms: 1_000, progress: &progress };
        self.table.play(&ctx, &Inbound::new(ada(), input)).await
    }

    async fn turn(&mut self, input: TurnInput) -> String {
        let played = self.play(input).await;
        assert!(played.commit, "{}", played.reply.text);
        let text = played.reply.text.clone();
        self.table.adopt(played);
        text
    }
}

#[tokio::test]
async fn an_approved_action_is_narrated_checked_and_shows_its_sources() {
    let mut r = rig();
    let text = r.turn(TurnInput::Say("I climb the tower to the lamp.".into())).await;
    assert!(text.contains("**Game master**: The fog parts"), "{text}");
    assert!(text.contains("Sources: The Lamp"), "{text}");
    assert_eq!(r.model.calls(), ["LORE-REFEREE", "LORE-NARRATOR", "LORE-REFEREE-REPLY"]);
    let steps = r.steps.lock().unwrap().clone();
    assert_eq!(
        steps[..3],
        ["Searching the lore for your action", "Validating your action against the lore", "Planning the scene"]
    );
    assert!(steps.contains(&"Checking the reply against the lore".to_string()));
    let g = &r.table.game;
    assert_eq!((g.turn, g.outcomes, g.calls), (1, [1, 0, 0], 3));
}

#[tokio::test]
async fn an_action_that_breaks_the_lore_loses_the_turn() {
    let mut r = rig();
    r.model.will(
        "LORE-REFEREE",
        r#"{"approved": false, "reason": "Nobody can fly.", "confidence": 0.95, "suggestions": ["Climb the stairs"], "next_action": "disqualify"}"#,
    );
    r.model.will("LORE-NARRATOR", "Your arms flap; the fog laughs. You stay on the rock.");
    let text = r.turn(TurnInput::Say("I fly to the top of the tower.".into())).await;
    assert!(text.contains("Ada loses this turn") && text.contains("Nobody can fly."), "{text}");
    assert!(text.contains("Try instead: Climb the stairs"), "{text}");
    assert_eq!(r.model.calls(), ["LORE-REFEREE", "LORE-NARRATOR"], "no reply check after a disqualification");
    assert_eq!(r.table.game.tally["t:ada"].losses, 1);
}

#[tokio::test]
async fn a_reply_that_breaks_the_lore_is_corrected_and_the_player_wins() {
    let mut r = rig();
    r.model.will("LORE-NARRATOR", "A dragon circles the tower.");
    r.model.will("LORE-REFEREE-REPLY", r#"{"approved": false, "reason": "There are no dragons.", "confidence": 0.9}"#);
    r.model.will("LORE-NARRATOR", "No — only gulls circle the tower.");
    let text = r.turn(TurnInput::Say("I look up at the tower.".into())).await;
    assert!(text.contains("only gulls") && !text.contains("dragon circles"), "{text}");
    assert!(text.contains("Ada wins this turn"), "{text}");
    assert_eq!(r.model.calls(), ["LORE-REFEREE", "LORE-NARRATOR", "LORE-REFEREE-REPLY", "LORE-NARRATOR"]);
    assert_eq!(r.table.game.tally["t:ada"].wins, 1);
}

#[tokio::test]
async fn a_corrected_npc_reply_is_shown_and_kept_as_the_narrators() {
    let mut r = rig();
    r.model.will("LORE-NPC", "*points up* My dragon nests on the lamp.");
    r.model.will("LORE-REFEREE-REPLY", r#"{"approved": false, "reason": "There are no dragons.", "confidence": 0.9}"#);
    r.model.will("LORE-NARRATOR", "Only gulls nest on the lamp.");
    let text = r.turn(TurnInput::from(LoreVerb::Say("What nests up there?".into(), "Mira".into()))).await;
    assert!(text.contains("**Game master**: Only gulls"), "{text}");
    assert!(!text.contains("**Mira Vell**"), "the correction is not put in Mira's mouth: {text}");
    let last = r.table.game.book.recent.last().unwrap();
    assert_eq!((last.speaker.as_str(), last.text.as_str()), ("Game master", "Only gulls nest on the lamp."));
}

#[tokio::test]
async fn retrieval_reads_the_action_with_the_turn_before_it() {
    let mut r = rig();
    r.model.will("LORE-NARRATOR", "High above you the brass lens turns in its stone tower.");
    r.turn(TurnInput::Say("I look at the sea.".into())).await;
    // "there" is the tower only through the turn before.
    r.turn(TurnInput::Say("I go up there.".into())).await;
    let prompts = r.model.prompts.lock().unwrap().clone();
    let referee = prompts.iter().rev().find(|p| p.contains("LORE-REFEREE") && p.contains("I go up there")).unwrap();
    assert!(referee.contains("[lamp] The Lamp:"), "{referee}");
}

#[tokio::test]
async fn a_sure_ruling_lets_a_reply_that_states_nothing_new_go_unchecked() {
    let mut r = rig();
    let sure = r#"{"approved": true, "reason": "fine", "confidence": 0.95, "next_action": "narrator_scene"}"#;
    r.model.will("LORE-REFEREE", sure);
    r.model.will("LORE-NARRATOR", "The lamp turns all night over the rock.");
    r.turn(TurnInput::Say("I climb the tower to the lamp.".into())).await;
    assert_eq!(r.model.calls(), ["LORE-REFEREE", "LORE-NARRATOR"]);
    // A reply with a word the lore and the story lack is checked.
    r.model.will("LORE-REFEREE", sure);
    r.model.will("LORE-NARRATOR", "A dragon circles the lamp.");
    r.turn(TurnInput::Say("I look at the lamp.".into())).await;
    assert_eq!(r.model.calls(), ["LORE-REFEREE", "LORE-NARRATOR", "LORE-REFEREE-REPLY"]);
    // A reply that names something the lore does not is checked.
    r.model.will("LORE-REFEREE", sure);
    r.model.will("LORE-NARRATOR", "Captain Orrin Blackwater waves from a boat with 12 oars.");
    r.turn(TurnInput::Say("I look down at the sea.".into())).await;
    assert_eq!(r.model.calls(), ["LORE-REFEREE", "LORE-NARRATOR", "LORE-REFEREE-REPLY"]);
    // So is any reply after a ruling that is not sure.
    r.turn(TurnInput::Say("I look up.".into())).await;
    assert_eq!(r.model.calls(), ["LORE-REFEREE", "LORE-NARRATOR", "LORE-REFEREE-REPLY"]);
}

#[tokio::test]
async fn a_due_chapter_rides_on_the_referees_call() {
    let mut r = rig();
    let rules = r.table.game.rules();
    // The opening is turn 0: the window is full after this many turns.
    let before = (rules.hot_turns + rules.summary_every - 2) as u32;
    for i in 0..before {
        r.turn(TurnInput::Say(format!("I count the steps, {i}."))).await;
    }
    r.model.calls();
    r.model.will(
        "LORE-REFEREE",
        r#"{"approved": true, "reason": "fine", "confidence": 0.95, "next_action": "narrator_scene", "chapter": "Ada arrived and counted the tower's steps."}"#,
    );
    r.turn(TurnInput::Say("I count them once more.".into())).await;
    let prompts = r.model.prompts.lock().unwrap().clone();
    let referee = prompts.iter().rev().find(|p| p.contains("I count them once more") && p.contains("LORE-REFEREE")).unwrap();
    assert!(referee.contains("Also give \"chapter\": what happened in turns 0–3"), "{referee}");
    assert_eq!(r.model.calls(), ["LORE-REFEREE", "LORE-NARRATOR"], "no summary call of its own");
    let book = &r.table.game.book;
    assert_eq!((book.summary.as_str(), book.summary_upto), ("Ada arrived and counted the tower's steps.", 3));
    assert_eq!(book.tier(0), Some(crate::core::context::Tier::Summary), "the opening is summarised too");
    assert_eq!(r.table.game.calls, u64::from(3 * before + 2));
}

#[tokio::test]
async fn a_flag_the_referee_sets_is_kept_apart_and_every_prompt_holds_the_frozen_layer() {
    let mut r = rig();
    r.model.will("LORE-REFEREE", r#"{"approved": true, "confidence": 0.7, "flags": {"lamp_lit": true}}"#);
    r.turn(TurnInput::Say("I light the lamp.".into())).await;
    assert_eq!(r.table.game.book.flags.get("lamp_lit"), Some(&true));
    assert!(!r.table.game.book.summary.contains("lamp_lit"));
    r.turn(TurnInput::Say("I rest.".into())).await;
    let prompts = r.model.prompts.lock().unwrap().clone();
    for role in ["(LORE-REFEREE)", "(LORE-NARRATOR)"] {
        let p = prompts.iter().rev().find(|p| p.contains(role) && p.contains("I rest.")).unwrap();
        assert!(p.contains("lamp_lit = true"), "{role}: {p}");
        assert!(p.contains("The party: Ada") && p.contains("The story began: Fog over Gullrock."), "{role}: {p}");
    }
}

#[tokio::test]
async fn the_facts_the_referee_notes_reach_every_later_prompt_and_a_secret_or_a_disqualified_action_keeps_none() {
    let mut r = rig();
    r.model.will(
        "LORE-REFEREE",
        r#"{"approved": true, "confidence": 0.7, "facts": {"Ada's mule": "Pepper Quill, tied at the lamp", "Cistern": "holds the Saltmoth captain's strongbox, for the Ninefold Debt", "odd": {"nested": 1}}}"#,
    );
    r.turn(TurnInput::Say("I tie my mule Pepper Quill at the lamp.".into())).await;
    let facts = &r.table.game.book.facts;
    assert_eq!(facts.len(), 1, "the secret one is dropped, the malformed one skipped: {facts:?}");
    assert_eq!((facts[0].subject.as_str(), facts[0].text.as_str()), ("Ada's mule", "Pepper Quill, tied at the lamp"));
    // A disqualified action did not happen: it establishes nothing.
    r.model.will(
        "LORE-REFEREE",
        r#"{"approved": false, "confidence": 0.95, "next_action": "disqualify", "facts": {"Ada's wings": "grown"}}"#,
    );
    r.turn(TurnInput::Say("I grow wings.".into())).await;
    assert_eq!(r.table.game.book.facts.len(), 1);
    // Many turns later (the planting turn long out of the hot window and
    // the summary): both roles still see it, under its own heading.
    for i in 0..14 {
        r.turn(TurnInput::Say(format!("I count the waves, round {i}."))).await;
    }
    // The subject changes: the new text replaces the old.
    r.model.will("LORE-REFEREE", r#"{"approved": true, "confidence": 0.7, "facts": {"ada's mule": "sold to Mira"}}"#);
    r.turn(TurnInput::Say("I sell the mule to Mira.".into())).await;
    r.turn(TurnInput::Say("Where is my animal?".into())).await;
    let prompts = r.model.prompts.lock().unwrap().clone();
    for role in ["(LORE-REFEREE)", "(LORE-NARRATOR)"] {
        let p = prompts.iter().rev().find(|p| p.contains(role) && p.contains("Where is my animal?")).unwrap();
        assert!(p.contains("What this table has established:\nada's mule: sold to Mira"), "{role}: {p}");
        assert!(!p.contains("Pepper Quill, tied") && !p.contains("Ninefold"), "{role}: {p}");
    }
    assert_eq!(r.table.game.book.facts.len(), 1);
}

#[tokio::test]
async fn an_npc_persona_is_extracted_once_then_cached_with_the_session() {
    let mut r = rig();
    let to = |text: &str| TurnInput::from(LoreVerb::Say(text.into(), "Mira".into()));
    let text = r.turn(to("Good evening, keeper.")).await;
    assert!(text.contains("**Mira Vell**: *wipes her hands*"), "{text}");
    assert_eq!(r.model.calls(), ["LORE-REFEREE", "LORE-PERSONA", "LORE-NPC", "LORE-REFEREE-REPLY"]);
    assert!(r.steps.lock().unwrap().contains(&"Extracting persona for Mira Vell".to_string()));
    assert!(r.table.game.personas["mira"].extracted);
    r.turn(to("May I see the logbook?")).await;
    assert_eq!(r.model.calls(), ["LORE-REFEREE", "LORE-NPC", "LORE-REFEREE-REPLY"], "the cached persona is reused");
    // The persona survives the snapshot (a restart).
    let snapshot = crate::core::game::Game::snapshot(&r.table.game).unwrap();
    let back: LoreGame = crate::core::game::Game::restore(&snapshot).unwrap();
    assert_eq!(back.personas["mira"].style, "short and dry");
    assert_eq!(back.scene.as_deref(), Some("mira"));
    // The referee's plan routes a named NPC too; an unknown name is refused.
    r.model.will("LORE-REFEREE", r#"{"approved": true, "confidence": 0.5, "next_action": "engage_npc", "target": "Mira Vell"}"#);
    r.turn(TurnInput::Say("I wave at the keeper.".into())).await;
    assert_eq!(r.model.calls(), ["LORE-REFEREE", "LORE-NPC", "LORE-REFEREE-REPLY"]);
    let played = r.play(TurnInput::from(LoreVerb::Say("hi".into(), "Bob".into()))).await;
    assert!(played.reply.text.contains("Mira Vell"), "{}", played.reply.text);
}

#[tokio::test]
async fn an_npc_persona_the_world_writes_is_played_as_written_without_an_extraction_call() {
    let authored = WORLD.replace(
        "gm_passages = [\"gm-wreck\"]",
        "gm_passages = [\"gm-wreck\"]\nstyle = \"Clipped, salty, never more than ten words.\"\n\
         traits = [\"wary of mainlanders\", \"proud of the lamp\"]\n\
         background = \"Keeper of the Gullrock lamp for thirty years.\"\nwants = \"To be left alone with her logbook.\"",
    );
    let w = Arc::new(World::from_one(&authored).expect("the authored persona is valid"));
    let mut r = rig();
    r.table = LoreTable::new(LoreGame::new(&w, &ada()), w, "s1", &crate::core::actor::new_canary());
    r.turn(TurnInput::from(LoreVerb::Say("Good evening, keeper.".into(), "Mira".into()))).await;
    assert_eq!(r.model.calls(), ["LORE-REFEREE", "LORE-NPC", "LORE-REFEREE-REPLY"], "no LORE-PERSONA call");
    let p = &r.table.game.personas["mira"];
    assert!(!p.extracted && p.style == "Clipped, salty, never more than ten words.", "{p:?}");
    let prompts = r.model.prompts.lock().unwrap().clone();
    let npc = prompts.iter().find(|p| p.contains("(LORE-NPC)")).unwrap();
    assert!(npc.contains("Clipped, salty") && npc.contains("wary of mainlanders"), "{npc}");
}

#[test]
fn an_authored_persona_is_checked_for_halves_lengths_and_secrets() {
    let with = |fields: &str| {
        let text = WORLD.replace("gm_passages = [\"gm-wreck\"]", &format!("gm_passages = [\"gm-wreck\"]\n{fields}"));
        World::from_one(&text).err().unwrap_or_default().join("\n")
    };
    assert!(with("style = \"Dry.\"").contains("needs both style and background"));
    assert!(with(&format!("style = \"Dry.\"\nbackground = \"{}\"", "x".repeat(401))).contains("background is over 400"));
    let leak = "style = \"Dry.\"\nbackground = \"She darkened the lamp because the captain owed her brother the Ninefold Debt.\"";
    assert!(with(leak).contains("gives a GM-only passage away"), "{}", with(leak));
    assert_eq!(with("style = \"Dry.\"\nbackground = \"Keeper of the lamp.\""), "");
}

#[tokio::test]
async fn an_unreadable_persona_falls_back_to_the_passages() {
    let mut r = rig();
    r.model.will("LORE-PERSONA", "She is nice.");
    r.turn(TurnInput::from(LoreVerb::Say("Hello.".into(), "mira".into()))).await;
    let p = &r.table.game.personas["mira"];
    assert!(!p.extracted && p.background.starts_with("Mira Vell is the keeper"));
}

#[tokio::test]
async fn an_npc_that_states_its_secret_is_withheld_and_nothing_secret_is_kept() {
    let mut r = rig();
    r.model.will(
        "LORE-NPC",
        "Fine: I darkened the lamp on purpose the night the Saltmoth struck, for the Ninefold Debt, and hid his strongbox in the cistern.",
    );
    let played = r.play(TurnInput::from(LoreVerb::Say("What happened to the Saltmoth?".into(), "Mira".into()))).await;
    assert!(played.withheld.is_some());
    assert!(!played.reply.text.contains("Ninefold") && !played.reply.text.contains("cistern"), "{}", played.reply.text);
    r.table.adopt(played);
    let book = serde_json::to_string(&r.table.game.book).unwrap();
    assert!(!book.contains("Ninefold"), "the story keeps only what players saw");
    // The NPC's prompt held its secret; the narrator's never does.
    r.turn(TurnInput::Say("I look at the sea.".into())).await;
    let prompts = r.model.prompts.lock().unwrap().clone();
    let narrator: Vec<&String> = prompts.iter().filter(|p| p.contains("LORE-NARRATOR")).collect();
    assert!(!narrator.is_empty() && narrator.iter().all(|p| !p.contains("Ninefold")));
    assert!(prompts.iter().any(|p| p.contains("LORE-NPC") && p.contains("Ninefold")));
}

#[tokio::test]
async fn garbage_from_the_referee_approves_and_a_failing_model_plays_nothing() {
    let mut r = rig();
    r.model.will("LORE-REFEREE", "I like turtles.");
    r.model.will("LORE-REFEREE-REPLY", "lorem ipsum");
    let text = r.turn(TurnInput::Say("I knock on the tower door.".into())).await;
    assert!(text.contains("The fog parts"), "{text}");
    r.model.calls();
    r.model.fails("LORE-NARRATOR");
    let played = r.play(TurnInput::Say("I knock again.".into())).await;
    assert!(!played.commit && played.snapshot.is_none(), "{}", played.reply.text);
    assert!(played.reply.text.contains("nothing happened"), "{}", played.reply.text);
    assert_eq!(r.table.game.turn, 1);
    // Empty and over-long actions are refused before any model call.
    r.model.calls();
    for bad in ["   ", &"x".repeat(MAX_ACTION + 1)] {
        let played = r.play(TurnInput::Say(bad.to_string())).await;
        assert!(played.snapshot.is_none(), "{}", played.reply.text);
    }
    assert!(r.model.calls().is_empty());
}

#[tokio::test]
async fn the_summary_is_rewritten_every_few_turns_and_scores_status_recap_answer() {
    let mut r = rig();
    let rules = r.table.game.rules();
    let needed = (rules.hot_turns + rules.summary_every) as u32;
    for i in 0..needed {
        r.turn(TurnInput::Say(format!("I count the steps, {i}."))).await;
    }
    assert!(r.model.calls().contains(&"LORE-SUMMARY"));
    assert_eq!(r.table.game.book.summary, "Ada came to Gullrock and climbed the tower.");
    assert!(r.table.game.book.summary_upto > 0);
    let scores = r.turn(TurnInput::from(LoreVerb::Scores)).await;
    assert!(scores.contains("Ada · 0 won · 0 lost"), "{scores}");
    let recap = r.turn(TurnInput::from(LoreVerb::Recap)).await;
    assert!(recap.contains("Ada came to Gullrock") && recap.contains("I count the steps"), "{recap}");
    let status = r.turn(TurnInput::Status).await;
    assert!(status.contains(&format!("turn {needed}")), "{status}");
    // The end shows the scores and what the game master knew.
    let end = r.turn(TurnInput::End).await;
    assert!(end.contains("The Drowned Captain") && end.contains("Ninefold"), "{end}");
    assert!(r.table.game.is_over());
}

#[test]
fn a_server_world_is_checked() {
    assert!(World::from_one("id = 1").is_err());
    let broken = WORLD.replace("passages = [\"mira\", \"lamp\"]", "passages = [\"nowhere\"]");
    let problems = World::from_one(&broken).unwrap_err();
    assert!(problems.iter().any(|p| p.contains("\"nowhere\" does not exist")), "{problems:?}");
    let w = world();
    assert_eq!(w.npc_named("keeper Mira").map(|n| n.id.as_str()), Some("mira"));
    assert_eq!(w.npcs_in("I greet Vell warmly").len(), 1);
    assert!(w.lexical("brass lens tower", 2).iter().any(|p| p.id == "lamp"));
    assert!(w.docs().iter().any(|d| d.visibility == crate::core::knowledge::Visibility::Judge));
}

#[tokio::test]
async fn a_fragment_of_a_secret_too_short_for_the_span_gate_is_withheld_too() {
    let mut r = rig();
    r.model.will("LORE-NARRATOR", "The captain of the Saltmoth is a tale for children now.");
    r.model.will("LORE-NPC", "Ask about the Ninefold Debt of crowns, if you dare.");
    let played = r.play(TurnInput::from(LoreVerb::Say("What did the captain owe?".into(), "Mira".into()))).await;
    assert!(played.withheld.is_some() && played.reply.text.contains("falls silent"), "{}", played.reply.text);
    assert_eq!(
        r.model.calls(),
        ["LORE-REFEREE", "LORE-PERSONA", "LORE-NPC"],
        "the referee never reads a withheld reply"
    );
    r.table.adopt(played);
    // Ordinary words shared with a secret are not a leak.
    let text = r.turn(TurnInput::Say("I climb the ninety steps.".into())).await;
    assert!(text.contains("a tale for children"), "{text}");
}

#[test]
fn a_server_world_is_read_checked_kept_with_its_session_and_resumed() {
    use crate::core::game::{HostedGame, TableOptions};
    let worlds = crate::assets::worlds();
    let host = LoreHost::new(worlds.clone());
    let lang = crate::core::vocab::Language::En;
    let item = host.custom(lang, WORLD).unwrap().unwrap();
    assert_eq!(item.id, "gullrock");
    assert!(item.shown.contains("Gullrock (en) · 4 passages, 1 NPCs"), "{}", item.shown);
    let taken = WORLD.replace("id = \"gullrock\"", "id = \"hollowtide\"");
    assert!(host.custom(lang, &taken).unwrap().unwrap_err().contains("bundled world"));
    assert!(host.custom(lang, "title = 3").unwrap().unwrap_err().contains("can't be added"));
    let custom = crate::core::guild::CustomContent {
        scope: "discord:1".into(),
        game: "rpg".into(),
        id: item.id.clone(),
        language: lang,
        source: item.source.clone(),
        added_by: "t:mod".into(),
        created_ms: 0,
    };
    let options = TableOptions { custom: vec![custom], ..TableOptions::default() }.with("world", "Gullrock");
    let template = crate::core::store::NewSession::for_game("rpg", lang, "test", 0);
    let (new, _) = host.open(&ada(), lang, &options, template).unwrap();
    let game: LoreGame = crate::core::game::Game::restore(&new.snapshot).unwrap();
    assert_eq!((game.world.as_str(), game.source.is_some()), ("gullrock", true));
    let loaded = crate::core::store::LoadedSession {
        id: new.id.clone(),
        puzzle_id: new.puzzle_id.clone(),
        channel: "test".into(),
        canary: new.canary.clone(),
        snapshot: new.snapshot.clone(),
        turns: Vec::new(),
        last_activity_ms: 0,
    };
    assert!(host.resume(&loaded).is_ok(), "the session's own copy of the world resumes it");
    // A bundled world is not copied into the session.
    let template = crate::core::store::NewSession::for_game("rpg", lang, "test", 0);
    let (new, _) = host.open(&ada(), lang, &TableOptions::default(), template).unwrap();
    let game: LoreGame = crate::core::game::Game::restore(&new.snapshot).unwrap();
    assert_eq!((game.world.as_str(), game.source), ("hollowtide", None));
}

#[test]
fn the_summary_interval_is_a_start_option() {
    use crate::core::game::{HostedGame, TableOptions};
    let host = LoreHost::new(crate::assets::worlds());
    let lang = crate::core::vocab::Language::En;
    let options = TableOptions::default().with("memory_interval", "2");
    let template = crate::core::store::NewSession::for_game("rpg", lang, "test", 0);
    let (new, _) = host.open(&ada(), lang, &options, template).unwrap();
    let game: LoreGame = crate::core::game::Game::restore(&new.snapshot).unwrap();
    assert_eq!((game.memory_interval, game.rules().summary_every), (2, 2));
    let template = crate::core::store::NewSession::for_game("rpg", lang, "test", 0);
    let (new, _) = host.open(&ada(), lang, &TableOptions::default(), template).unwrap();
    let game: LoreGame = crate::core::game::Game::restore(&new.snapshot).unwrap();
    assert_eq!(game.memory_interval, super::MEMORY_INTERVAL, "seed 004's default");
}
