//! The Arena on Slack, a whole game through the fake with a scripted
//! model: two AI characters and a human, a spectator's reaction by a Block
//! Kit button, the round's score table and the narrator, a restart while
//! the human's turn is pending, the turn skipped at the deadline and the
//! elimination for it, and the end with the narrator's summary.

use echoes::slack::SlackSettings;
use echoes::slack::bench::Rig;
use echoes::slack::fake::{FakeSlack, payloads};

use super::CHANNEL;
use super::undercover::{parts_with, posted, posted_n, public, told};
use crate::discord::arena::arena_model;
use crate::engine::ManualClock;

async fn arena(rig: &Rig, trigger: &str, user: &str, text: &str) {
    let command = payloads::command_named("/arena", CHANNEL, user, text, trigger);
    rig.deliver("slash_commands", trigger, command).await.unwrap();
}

#[tokio::test]
async fn the_arena_plays_on_slack_with_a_skipped_turn_an_elimination_and_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("echoes.db");
    let clock = ManualClock::starting_at(3_000_000);
    let fake = FakeSlack::start().await.unwrap();
    let parts = parts_with(&db, clock.clone(), arena_model()).await;
    let rig = Rig::start_from(fake, parts, SlackSettings::default(), true).await.unwrap();

    arena(&rig, "a-start", "UHOST", "start characters:2 max_turns:9 topic: Keep the flooded library open").await;
    let lobby = posted(&rig, "topic: Keep the flooded library open").await;
    let buttons = lobby.body["blocks"][1]["elements"].as_array().cloned().unwrap_or_default();
    assert_eq!(buttons.len(), 3, "Join / Leave / Start under the lobby: {}", lobby.body);
    let ts = lobby.ts.clone().unwrap();
    for (verb, trigger, seats) in [("join", "a-join", "4/8 contestants"), ("leave", "a-leave", "3/8 contestants")] {
        let press = payloads::button(CHANNEL, "UCAROL", &format!("table:{verb}"), &ts, trigger);
        rig.deliver("interactive", trigger, press).await.unwrap();
        posted_n(&rig, seats, if verb == "leave" { 2 } else { 1 }).await;
    }
    arena(&rig, "a-begin", "UHOST", "begin").await;
    let opening = posted(&rig, "The Arena opens").await;
    assert!(opening.text().contains("#1 UHOST, your turn"), "{}", opening.text());
    let buttons = opening.body["blocks"][1]["elements"].as_array().cloned().unwrap_or_default();
    assert_eq!(buttons.len(), 3, "a reaction button per contestant: {}", opening.body);

    let press = payloads::button(CHANNEL, "UFAN", "table:vote:2", opening.ts.as_deref().unwrap(), "a-press");
    rig.deliver("interactive", "a-press", press).await.unwrap();
    told(&rig.fake, "UFAN", "Your reaction for #2").await;
    arena(&rig, "a-say", "UHOST", "say Put the reading room on stilts and lend umbrellas.").await;
    let round = posted(&rig, "📊 Round 1").await.text();
    assert!(round.contains("+1 👏") && round.contains("A tidy round"), "{round}");
    posted(&rig, "Turn 6 · middle · #1 UHOST, your turn").await;

    // Restart while the human's turn is pending; the deadline still passes.
    let fake = rig.halt().await;
    let parts = parts_with(&db, clock.clone(), arena_model()).await;
    let rig = Rig::start_from(fake, parts, SlackSettings::default(), true).await.unwrap();
    clock.advance_to(3_000_000 + 200_000);
    let out = posted(&rig, "did not speak in time").await.text();
    assert!(out.contains("❌ #1 UHOST is eliminated"), "{out}");
    let end = posted(&rig, "The Arena closes").await.text();
    assert!(end.contains("Final standings:") && end.contains("The rowing club carried the day."), "{end}");
    assert!(!public(&rig).contains("ARENA-RUBRIC"), "the rubric never shows");
}

#[tokio::test]
async fn the_hosts_arena_rules_reach_the_game_on_slack_and_bad_ones_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let clock = ManualClock::starting_at(3_000_000);
    let fake = FakeSlack::start().await.unwrap();
    let parts = parts_with(&dir.path().join("echoes.db"), clock.clone(), arena_model()).await;
    let rig = Rig::start_from(fake, parts, SlackSettings::default(), true).await.unwrap();
    arena(&rig, "r-bad", "UHOST", "start early_until:5 middle_until:4").await;
    told(&rig.fake, "UHOST", "early_until must come before middle_until").await;
    arena(&rig, "r-bad2", "UHOST", "start turn_seconds:2").await;
    told(&rig.fake, "UHOST", "a number of seconds from 5 to 600").await;

    let start = "start characters:2 max_turns:6 threshold:3.5 elimination:lowest early_until:2 middle_until:4 \
                 turn_seconds:30 topic: Keep the flooded library open";
    arena(&rig, "r-start", "UHOST", start).await;
    posted(&rig, "topic: Keep the flooded library open").await;
    arena(&rig, "r-begin", "UHOST", "begin").await;
    let opening = posted(&rig, "The Arena opens").await.text();
    let rules = "Rules: eliminations from turn 3, the lowest goes out every round; the late stage from turn 5.";
    assert!(opening.contains(rules), "{opening}");
    assert!(opening.contains("#1 UHOST, your turn") && opening.contains("(30 s)"), "{opening}");
}
