//! The Lore RPG on Slack through the fake with a rule-based model:
//! `/rpg start hollowtide`, thread replies as actions (the steps shown in
//! one message updated as the turn goes), `/rpg say Tamsin: …`, a
//! disqualified action, a restart, a corrected reply, scores and the end.

use echoes::slack::SlackSettings;
use echoes::slack::bench::Rig;
use echoes::slack::fake::{FakeSlack, payloads};

use super::CHANNEL;
use super::undercover::{parts_with, posted};
use crate::engine::ManualClock;
use crate::lore::{lore_rules, rule_refs};

fn lore_model() -> echoes::bot::instant::InstantModel {
    echoes::bot::instant::InstantModel::new(&[]).with_others(&rule_refs(&lore_rules("UANA")))
}

async fn rpg(rig: &Rig, trigger: &str, user: &str, text: &str) {
    let command = payloads::command_named("/rpg", CHANNEL, user, text, trigger);
    rig.deliver("slash_commands", trigger, command).await.unwrap();
}

async fn act(rig: &Rig, thread: &str, event: &str, user: &str, text: &str) {
    let ts = format!("1700000600.{:06}", rig.fake.calls().len());
    let message = payloads::message_event(CHANNEL, event, user, text, Some(thread), &ts);
    rig.deliver("events_api", event, message).await.unwrap();
}

#[tokio::test]
async fn a_lore_rpg_session_plays_on_slack_by_replies_and_verbs_across_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("echoes.db");
    let clock = ManualClock::starting_at(5_000_000);
    let fake = FakeSlack::start().await.unwrap();
    let parts = parts_with(&db, clock.clone(), lore_model()).await;
    let rig = Rig::start_from(fake, parts, SlackSettings::default(), true).await.unwrap();

    rpg(&rig, "r-start", "UANA", "start hollowtide").await;
    let opening = posted(&rig, "a Lore RPG").await;
    let thread = opening.body["thread_ts"].as_str().map(str::to_string).unwrap_or_else(|| opening.ts.clone().unwrap());

    act(&rig, &thread, "e-walk", "UANA", "I walk down to the Crescent Harbour.").await;
    posted(&rig, "Salt wind and gull cries").await;
    let steps = rig.fake.calls().into_iter().filter(|c| c.text().starts_with("⏳ ")).count();
    assert!(steps > 0, "the turn's steps were shown");
    rig.fake
        .wait_until("steps closed", super::WAIT, |calls| {
            calls.iter().any(|c| c.method == "chat.update" && c.text().starts_with("✓ ") && c.text().contains("→"))
        })
        .await
        .unwrap();

    rpg(&rig, "r-say", "UANA", "say Tamsin: Who lit the lamp tonight?").await;
    posted(&rig, "trims the wick").await;
    act(&rig, &thread, "e-fly", "UANA", "I fly over the Landgate to Gull Head.").await;
    posted(&rig, "UANA loses this turn").await;

    let fake = rig.halt().await;
    let parts = parts_with(&db, clock.clone(), lore_model()).await;
    let rig = Rig::start_from(fake, parts, SlackSettings::default(), true).await.unwrap();
    act(&rig, &thread, "e-look", "UBO", "I look up at the Gull Lamp.").await;
    let won = posted(&rig, "UBO wins this turn").await;
    assert!(won.text().contains("No dragon: only gulls"), "{}", won.text());
    rpg(&rig, "r-scores", "UBO", "scores").await;
    posted(&rig, "UBO · 1 won · 0 lost").await;
    rpg(&rig, "r-end", "UANA", "end").await;
    let end = posted(&rig, "What the game master knew:").await;
    assert!(end.text().contains("has ended"), "{}", end.text());
}

/// Turtle Soup's AI players on Slack: `ai_players:1` at the start, a
/// human's reply in the thread, and the AI's question posted by the
/// courier once its delay passed, once.
#[tokio::test]
async fn soup_ai_players_ask_in_the_thread_after_a_human() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("echoes.db");
    let clock = ManualClock::starting_at(2_000_000);
    let fake = FakeSlack::start().await.unwrap();
    let model = crate::discord::rules().with_others(&[("You are a player", "Was the watch broken?")]);
    let parts = parts_with(&db, clock.clone(), model).await;
    let rig = Rig::start_from(fake, parts, SlackSettings::default(), true).await.unwrap();
    let thread = rig.start_game(CHANNEL, "UANN", "en-noon-gun ai_players:1", "s-start").await.unwrap();
    act(&rig, &thread, "e-q1", "UANN", "Was the gunner alone?").await;
    rig.fake.wait_until("the human's answer", super::WAIT, |calls| calls.iter().any(super::answered)).await.unwrap();
    clock.advance_to(2_000_000 + 10_000);
    posted(&rig, "Ada 🤖: Was the watch broken?").await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let asked = rig.fake.calls().iter().filter(|c| c.method == "chat.postMessage" && c.text().contains("🤖")).count();
    assert_eq!(asked, 1, "one AI player asks once until a human speaks again");
}
