//! Who is the Undercover on Slack, a whole game through the fake: three
//! humans and three AI seats, each word by `chat.postEphemeral` to its
//! seat only, a refused description, a tie and its run-off with Block Kit
//! buttons, a restart during the run-off with a command Slack delivers
//! twice, and the end with every word and role shown.

use std::path::Path;
use std::sync::Arc;

use echoes::bot::BotParts;
use echoes::slack::SlackSettings;
use echoes::slack::bench::Rig;
use echoes::slack::fake::{Call, FakeSlack, payloads};

use super::{CHANNEL, WAIT};
use crate::engine::ManualClock;

/// The offline bot's parts with `model`, on `clock`.
pub(super) async fn parts_with(
    db: &Path,
    clock: Arc<ManualClock>,
    model: echoes::bot::instant::InstantModel,
) -> BotParts {
    let model = Arc::new(model);
    let mut parts = echoes::bot::instant::offline_parts(db, model).await.unwrap();
    let base = &parts.engine;
    parts.engine = Arc::new(echoes::core::actor::Engine::new(base.pipeline.clone(), base.store.clone(), clock, 0));
    parts
}

async fn parts(db: &Path, clock: Arc<ManualClock>) -> BotParts {
    parts_with(db, clock, crate::discord::undercover::seat_model()).await
}

async fn undercover(rig: &Rig, trigger: &str, user: &str, text: &str) {
    let command = payloads::command_named("/undercover", CHANNEL, user, text, trigger);
    rig.deliver("slash_commands", trigger, command).await.unwrap();
}

pub(super) async fn told(fake: &FakeSlack, user: &str, needle: &str) -> Call {
    let told = |c: &Call| c.method == "chat.postEphemeral" && c.body["user"] == user && c.text().contains(needle);
    let calls = fake.wait_for_count(needle, 1, WAIT, told).await.unwrap();
    calls.into_iter().find(told).unwrap()
}

pub(super) async fn posted(rig: &Rig, needle: &str) -> Call {
    let matches = |c: &Call| c.method == "chat.postMessage" && c.text().contains(needle);
    let calls = rig.fake.wait_for_count(needle, 1, WAIT, matches).await.unwrap();
    calls.into_iter().find(matches).unwrap()
}

/// Waits until `n` posts contain `needle` (the same count appears once per ballot).
pub(super) async fn posted_n(rig: &Rig, needle: &str, n: usize) {
    let count =
        |calls: &[Call]| calls.iter().filter(|c| c.method == "chat.postMessage" && c.text().contains(needle)).count();
    rig.fake.wait_until(needle, WAIT, move |calls| count(calls) >= n).await.unwrap();
}

fn word_in(text: &str) -> Option<String> {
    let start = text.find("Your word: *")? + "Your word: *".len();
    let rest = text[start..].trim_start_matches('*');
    Some(rest[..rest.find('*')?].to_string())
}

pub(super) fn public(rig: &Rig) -> String {
    rig.fake.calls_to("chat.postMessage").iter().map(Call::text).collect::<Vec<_>>().join("\n")
}

#[tokio::test]
async fn undercover_plays_on_slack_with_ai_seats_a_runoff_and_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("echoes.db");
    let clock = ManualClock::starting_at(7_000_000);
    let fake = FakeSlack::start().await.unwrap();
    let rig = Rig::start_from(fake, parts(&db, clock.clone()).await, SlackSettings::default(), true).await.unwrap();

    undercover(&rig, "u-start", "UHOST", "start ai_seats:3").await;
    posted(&rig, "lobby · 4/12 seats").await;
    undercover(&rig, "u-bob", "UBOB", "join").await;
    posted(&rig, "5/12 seats").await;
    undercover(&rig, "u-carol", "UCAROL", "join").await;
    posted(&rig, "6/12 seats").await;

    undercover(&rig, "u-begin", "UHOST", "begin").await;
    let mut words = Vec::new();
    for user in ["UHOST", "UBOB", "UCAROL"] {
        let call = told(&rig.fake, user, "Your word").await;
        words.push(word_in(&call.text()).unwrap_or_else(|| panic!("a word in {}", call.text())));
    }
    posted(&rig, "Round 1").await;
    let shown = public(&rig);
    assert!(words.iter().all(|w| !shown.contains(w.as_str())), "no word in public: {shown}");

    undercover(&rig, "u-cheat", "UHOST", &format!("describe my word is {}", words[0])).await;
    told(&rig.fake, "UHOST", "too close to a secret word").await;
    undercover(&rig, "u-d1", "UHOST", "describe I have an opinion about it.").await;
    posted(&rig, "Next: #5 UBOB").await;
    undercover(&rig, "u-d2", "UBOB", "describe Many people like it.").await;
    posted(&rig, "Next: #6 UCAROL").await;
    undercover(&rig, "u-d3", "UCAROL", "describe Many people like it.").await;
    let ballot = posted(&rig, "Vote now").await;
    let buttons = ballot.body["blocks"][1]["elements"].as_array().cloned().unwrap_or_default();
    assert_eq!(buttons.len(), 6, "one vote button per seat: {}", ballot.body);
    posted(&rig, "3/6 have voted").await;

    undercover(&rig, "u-v1", "UHOST", "vote 2").await;
    told(&rig.fake, "UHOST", "Your vote for #2").await;
    posted(&rig, "4/6 have voted").await;
    undercover(&rig, "u-v2", "UBOB", "vote 2").await;
    told(&rig.fake, "UBOB", "Your vote for #2").await;
    posted(&rig, "5/6 have voted").await;
    let press = payloads::button(CHANNEL, "UCAROL", "table:vote:2", ballot.ts.as_deref().unwrap(), "u-press");
    rig.deliver("interactive", "u-press", press).await.unwrap();
    let runoff = posted(&rig, "Deciding vote").await;
    assert!(runoff.text().contains("Equal votes for #1 UHOST, #2 AI 1 🤖"), "{}", runoff.text());
    let buttons = runoff.body["blocks"][1]["elements"].as_array().cloned().unwrap_or_default();
    assert_eq!(buttons.len(), 2, "the run-off is between the tied seats");
    posted_n(&rig, "3/6 have voted", 2).await;
    undercover(&rig, "u-r1", "UHOST", "vote 2").await;
    posted_n(&rig, "4/6 have voted", 2).await;
    undercover(&rig, "u-r2", "UBOB", "vote 1").await;
    posted_n(&rig, "5/6 have voted", 2).await;

    // Restart during the run-off; Slack then delivers Bob's vote again.
    let fake = rig.halt().await;
    let rig = Rig::start_from(fake, parts(&db, clock.clone()).await, SlackSettings::default(), true).await.unwrap();
    let before = rig.fake.calls_to("chat.postMessage").len();
    undercover(&rig, "u-r2", "UBOB", "vote 1").await;
    told(&rig.fake, "UBOB", "have voted").await;
    assert_eq!(rig.fake.calls_to("chat.postMessage").len(), before, "a repeated vote posts nothing new");

    undercover(&rig, "u-r3", "UCAROL", "vote 1").await;
    let out = posted(&rig, "#1 UHOST is out").await;
    if !out.text().contains("win") {
        undercover(&rig, "u-end-bob", "UBOB", "end").await;
        told(&rig.fake, "UBOB", "Only the host").await;
        undercover(&rig, "u-end", "UHOST", "end").await;
    }
    let end = posted(&rig, "Words: civilians").await.text();
    assert!(words.iter().all(|w| end.contains(w.as_str())), "{end}");
    assert!(end.contains("Round 1, deciding vote:") && end.contains("#6 UCAROL ·"), "{end}");
}

#[tokio::test]
async fn admins_add_list_and_remove_the_workspaces_own_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let clock = ManualClock::starting_at(7_000_000);
    let fake = FakeSlack::start().await.unwrap();
    let settings = SlackSettings { admins: vec!["UMOD".into()], ..SlackSettings::default() };
    let rig = Rig::start_from(fake, parts(&dir.path().join("echoes.db"), clock).await, settings, true).await.unwrap();

    undercover(&rig, "p-1", "UMALLORY", "pairs add lighthouse / windmill").await;
    told(&rig.fake, "UMALLORY", "Only").await;
    undercover(&rig, "p-2", "UMOD", "pairs add lighthouse, lighthouses / windmill").await;
    let added = told(&rig.fake, "UMOD", "Added").await.text();
    assert!(added.contains("en-server-") && added.contains("lighthouse (lighthouses) / windmill"), "{added}");
    undercover(&rig, "p-3", "UMOD", "pairs add language:zh lighthouse / windmill").await;
    told(&rig.fake, "UMOD", "这个词对没有加入").await;
    undercover(&rig, "p-4", "UMOD", "pairs list").await;
    let list = told(&rig.fake, "UMOD", "added in this workspace").await.text();
    let id = list.split('`').nth(1).unwrap().to_string();
    undercover(&rig, "p-5", "UMOD", &format!("pairs remove {id}")).await;
    told(&rig.fake, "UMOD", &format!("Removed `{id}`")).await;
    undercover(&rig, "p-6", "UMOD", "pairs list").await;
    told(&rig.fake, "UMOD", "Nothing added").await;
    assert!(public(&rig).is_empty(), "nothing about the pairs is posted: {}", public(&rig));
}

#[tokio::test]
async fn the_hosts_difficulty_and_undercover_count_reach_the_game_on_slack() {
    let dir = tempfile::tempdir().unwrap();
    let clock = ManualClock::starting_at(7_000_000);
    let fake = FakeSlack::start().await.unwrap();
    let rig = Rig::start_from(fake, parts(&dir.path().join("echoes.db"), clock).await, SlackSettings::default(), true)
        .await
        .unwrap();
    undercover(&rig, "o-bad", "UHOST", "start difficulty:extreme").await;
    told(&rig.fake, "UHOST", "is not a difficulty: choose easy, medium or hard").await;
    undercover(&rig, "o-many", "UHOST", "start seats:4 undercovers:2").await;
    told(&rig.fake, "UHOST", "2 undercovers need 5 seats at least").await;

    undercover(&rig, "o-start", "UHOST", "start difficulty:hard undercovers:2 ai_seats:5").await;
    posted(&rig, "lobby · 6/12 seats").await;
    undercover(&rig, "o-begin", "UHOST", "begin").await;
    posted(&rig, "6 seats, 2 undercovers").await;
    undercover(&rig, "o-end", "UHOST", "end").await;
    let end = posted(&rig, "Words: civilians").await.text();
    let hard = Some(echoes::core::soup::puzzle::Difficulty::Hard);
    assert_eq!(crate::undercover::shown_difficulty(&end), hard, "{end}");
}
