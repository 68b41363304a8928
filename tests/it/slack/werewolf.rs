//! Werewolf on Slack, a whole game through the fake: three humans (the
//! werewolf, the Doctor, the Seer) and three AI villagers; each role and
//! every night move's answer by `chat.postEphemeral` to its seat only; a
//! night kill, the Seer's check, the AI seats' debate, a tied vote and its
//! run-off with Block Kit buttons, a restart in the middle of the second
//! night with a command Slack delivers twice, the Doctor's save, and the
//! end with every role, night action and vote.

use echoes::core::werewolf::Role;
use echoes::slack::SlackSettings;
use echoes::slack::bench::Rig;
use echoes::slack::fake::{FakeSlack, payloads};

use super::CHANNEL;
use super::undercover::{parts_with, posted, posted_n, public, told};
use crate::engine::ManualClock;
use crate::werewolf::seed_for;

async fn werewolf(rig: &Rig, trigger: &str, user: &str, text: &str) {
    let command = payloads::command_named("/werewolf", CHANNEL, user, text, trigger);
    rig.deliver("slash_commands", trigger, command).await.unwrap();
}

#[tokio::test]
async fn werewolf_plays_on_slack_with_ai_seats_a_runoff_a_save_and_a_restart_at_night() {
    use Role::*;
    let seed = seed_for(&[Werewolf, Villager, Villager, Villager, Doctor, Seer]);
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("echoes.db");
    let clock = ManualClock::starting_at(7_000_000);
    let model = || crate::discord::werewolf::seat_model();
    let fake = FakeSlack::start().await.unwrap();
    let rig = Rig::start_from(fake, parts_with(&db, clock.clone(), model()).await, SlackSettings::default(), true)
        .await
        .unwrap();

    werewolf(&rig, "w-start", "UHOST", &format!("start ai_seats:3 seed:{seed}")).await;
    posted(&rig, "lobby · 4/12 seats").await;
    werewolf(&rig, "w-bob", "UBOB", "join").await;
    posted(&rig, "5/12 seats").await;
    werewolf(&rig, "w-carol", "UCAROL", "join").await;
    posted(&rig, "6/12 seats").await;

    werewolf(&rig, "w-begin", "UHOST", "begin").await;
    told(&rig.fake, "UHOST", "Your role: **Werewolf**").await;
    told(&rig.fake, "UHOST", "The werewolves: #1 UHOST").await;
    told(&rig.fake, "UBOB", "Your role: **Doctor**").await;
    told(&rig.fake, "UCAROL", "Your role: **Seer**").await;
    let opening = posted(&rig, "Night 1").await.text();
    assert!(opening.contains("Werewolf ×1") && !opening.contains("**Seer**"), "{opening}");

    // Night 1: the werewolf kills AI 1, the Seer checks the werewolf, the Doctor protects the Seer.
    werewolf(&rig, "w-k1", "UHOST", "kill 2").await;
    told(&rig.fake, "UHOST", "The pack's choice: #2 AI 1 🤖").await;
    werewolf(&rig, "w-c1", "UCAROL", "check UHOST").await;
    told(&rig.fake, "UCAROL", "#1 UHOST is **a werewolf**").await;
    werewolf(&rig, "w-p1", "UBOB", "protect 6").await;
    told(&rig.fake, "UBOB", "you protect #6 UCAROL").await;
    let dawn = posted(&rig, "Day 1.").await.text();
    assert!(dawn.contains("#2 AI 1 🤖 died in the night"), "the night kill: {dawn}");
    let shown = public(&rig);
    for secret in ["**a werewolf**", "wants #2", "you protect", "Your role: "] {
        assert!(!shown.contains(secret), "{secret:?} stays private: {shown}");
    }

    // The debate: the AI seats speak, the humans pass; then the vote.
    posted(&rig, "#3 AI 2 🤖: “I keep my eyes open.”").await;
    for (trigger, user) in [("w-d1", "UHOST"), ("w-d2", "UBOB"), ("w-d3", "UCAROL")] {
        werewolf(&rig, trigger, user, "pass").await;
    }
    let ballot = posted(&rig, "Vote now").await;
    let buttons = ballot.body["blocks"][1]["elements"].as_array().cloned().unwrap_or_default();
    assert_eq!(buttons.len(), 5, "one vote button per living seat: {}", ballot.body);
    posted(&rig, "2/5 have voted").await;
    werewolf(&rig, "w-v1", "UBOB", "vote 1").await;
    told(&rig.fake, "UBOB", "Your vote for #1 UHOST").await;
    werewolf(&rig, "w-v2", "UCAROL", "vote UHOST").await;
    posted(&rig, "4/5 have voted").await;
    let press = payloads::button(CHANNEL, "UHOST", "table:vote:5", ballot.ts.as_deref().unwrap(), "w-press");
    rig.deliver("interactive", "w-press", press).await.unwrap();
    let runoff = posted(&rig, "Run-off between").await;
    assert!(runoff.text().contains("Equal votes for #1 UHOST, #6 UCAROL"), "{}", runoff.text());
    let buttons = runoff.body["blocks"][1]["elements"].as_array().cloned().unwrap_or_default();
    assert_eq!(buttons.len(), 2, "the run-off is between the tied seats");
    posted_n(&rig, "2/5 have voted", 2).await;
    werewolf(&rig, "w-r1", "UHOST", "vote 6").await;
    werewolf(&rig, "w-r2", "UBOB", "vote 1").await;
    posted_n(&rig, "4/5 have voted", 2).await;
    werewolf(&rig, "w-r3", "UCAROL", "vote 1").await;
    let exiled = posted(&rig, "#6 UCAROL is exiled").await.text();
    assert!(exiled.contains("They were the **Seer**") && exiled.contains("Night 2"), "{exiled}");

    // Night 2, half a minute later (commands are rate-limited per 30 s): the
    // werewolf goes for the Doctor; restart; Slack delivers the kill again.
    clock.advance_to(7_031_000);
    werewolf(&rig, "w-k2", "UHOST", "kill UBOB").await;
    told(&rig.fake, "UHOST", "The pack's choice: #5 UBOB").await;
    let fake = rig.halt().await;
    let rig = Rig::start_from(fake, parts_with(&db, clock.clone(), model()).await, SlackSettings::default(), true)
        .await
        .unwrap();
    let before = rig.fake.calls_to("chat.postMessage").len();
    werewolf(&rig, "w-k2", "UHOST", "kill UBOB").await;
    told(&rig.fake, "UHOST", "The night goes on").await;
    assert_eq!(rig.fake.calls_to("chat.postMessage").len(), before, "a repeated command posts nothing new");
    werewolf(&rig, "w-p2", "UBOB", "protect 5").await;
    told(&rig.fake, "UBOB", "you protect #5 UBOB").await;
    let dawn = posted(&rig, "Day 2.").await.text();
    assert!(dawn.contains("No one died in the night"), "the Doctor's save: {dawn}");

    // Day 2: the AI seats and the Doctor exile the werewolf; the end shows everything.
    werewolf(&rig, "w-e1", "UHOST", "pass").await;
    werewolf(&rig, "w-e2", "UBOB", "pass").await;
    posted_n(&rig, "Vote now", 2).await;
    werewolf(&rig, "w-f1", "UBOB", "vote 1").await;
    werewolf(&rig, "w-f2", "UHOST", "vote 5").await;
    posted(&rig, "The villagers win").await;
    posted(&rig, "Day 2 votes:").await;
    let end = public(&rig);
    for line in [
        "#1 UHOST · Werewolf · out",
        "#5 UBOB · Doctor",
        "#6 UCAROL · Seer · out",
        "the werewolves (#1 UHOST → #2 AI 1 🤖) chose #2 AI 1 🤖",
        "the Seer checked #1 UHOST: a werewolf",
        "the Doctor protected #5 UBOB",
        "Day 1, run-off:",
    ] {
        assert!(end.contains(line), "{line:?} in {end}");
    }
}
