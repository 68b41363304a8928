//! The test game ("Secret Ballot", `crate::engine::game`) on Slack: the
//! lobby thread, each seat's phrase with `chat.postEphemeral` to that user
//! only, Block Kit vote buttons, the AI seat's vote, a restart between the
//! votes and the deadline, a command Slack delivers twice, and the reveal
//! when the deadline passes.

use std::path::Path;
use std::sync::Arc;

use echoes::bot::BotParts;
use echoes::slack::SlackSettings;
use echoes::slack::bench::Rig;
use echoes::slack::fake::{Call, FakeSlack, payloads};

use super::{CHANNEL, WAIT};
use crate::engine::ManualClock;
use crate::engine::game::{BallotHost, PHRASES, VOTE_SECONDS};

async fn parts(db: &Path, clock: Arc<ManualClock>) -> BotParts {
    let model = Arc::new(crate::discord::rules());
    let mut parts = echoes::bot::instant::offline_parts(db, model).await.unwrap();
    let base = &parts.engine;
    parts.engine = Arc::new(echoes::core::actor::Engine::new(base.pipeline.clone(), base.store.clone(), clock, 0));
    parts.hosted = vec![Arc::new(BallotHost)];
    parts
}

async fn ballot(rig: &Rig, trigger: &str, user: &str, text: &str) {
    let command = payloads::command_named("/ballot", CHANNEL, user, text, trigger);
    rig.deliver("slash_commands", trigger, command).await.unwrap();
}

fn in_thread(thread: &str) -> impl Fn(&Call) -> bool + '_ {
    move |c: &Call| c.method == "chat.postMessage" && c.thread_ts() == Some(thread)
}

async fn told(fake: &FakeSlack, user: &str, needle: &str) -> Call {
    let told = |c: &Call| c.method == "chat.postEphemeral" && c.body["user"] == user && c.text().contains(needle);
    let calls = fake.wait_for_count(needle, 1, WAIT, told).await.unwrap();
    calls.into_iter().find(told).unwrap()
}

#[tokio::test]
async fn a_secret_ballot_plays_on_slack_across_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("echoes.db");
    let clock = ManualClock::starting_at(1_000_000);
    let fake = FakeSlack::start().await.unwrap();
    let rig = Rig::start_from(fake, parts(&db, clock.clone()).await, SlackSettings::default(), true).await.unwrap();

    ballot(&rig, "t-start", "UHOST", "start").await;
    let parent = |c: &Call| c.method == "chat.postMessage" && c.thread_ts().is_none() && c.text().contains("ballot");
    let opened = rig.fake.wait_for_count("the lobby", 1, WAIT, parent).await.unwrap();
    let thread = opened.iter().find(|c| parent(c)).and_then(|c| c.ts.clone()).expect("the lobby's ts");
    // Slack plays each event in a task of its own: wait for each answer,
    // as people in a channel would.
    let seen = |text: &'static str| move |calls: &[Call]| calls.iter().any(|c| c.text().contains(text));
    rig.fake.wait_until("the lobby", WAIT, seen("Secret Ballot · lobby")).await.unwrap();
    for (trigger, user, verb, count) in [
        ("t-bob", "UBOB", "join", "2 seats taken"),
        ("t-carol", "UCAROL", "join", "3 seats taken"),
        ("t-ai", "UBOB", "add-ai", "4 seats taken"),
    ] {
        ballot(&rig, trigger, user, verb).await;
        rig.fake.wait_until(count, WAIT, seen(count)).await.unwrap();
    }

    ballot(&rig, "t-begin", "UHOST", "begin").await;
    for (user, phrase) in [("UHOST", PHRASES[0]), ("UBOB", PHRASES[1]), ("UCAROL", PHRASES[2])] {
        let call = told(&rig.fake, user, phrase).await;
        assert!(PHRASES.iter().filter(|p| **p != phrase).all(|p| !call.text().contains(p)));
    }
    let ballot_post = |c: &Call| in_thread(&thread)(c) && c.text().contains("Voting is open");
    let posts = rig.fake.wait_for_count("the ballot", 1, WAIT, ballot_post).await.unwrap();
    let post = posts.iter().find(|c| ballot_post(c)).unwrap();
    let buttons = post.body["blocks"][1]["elements"].as_array().cloned().unwrap_or_default();
    assert_eq!(buttons.len(), 4, "one vote button per seat: {}", post.body);
    rig.fake.wait_until("the AI's vote", WAIT, |calls| calls.iter().any(|c| c.text().contains("1/4"))).await.unwrap();

    let press = payloads::button(CHANNEL, "UBOB", "table:vote:slack:UHOST", post.ts.as_deref().unwrap(), "t-press");
    rig.deliver("interactive", "t-press", press).await.unwrap();
    told(&rig.fake, "UBOB", "Your vote is in").await;
    rig.fake.wait_until("2/4", WAIT, |calls| calls.iter().any(|c| c.text().contains("2/4"))).await.unwrap();
    ballot(&rig, "t-carol-vote", "UCAROL", "vote slack:UBOB").await;
    rig.fake.wait_until("3/4", WAIT, |calls| calls.iter().any(|c| c.text().contains("3/4"))).await.unwrap();

    let public: Vec<String> = rig.fake.calls_to("chat.postMessage").iter().map(Call::text).collect();
    assert!(PHRASES.iter().all(|p| public.iter().all(|t| !t.contains(p))), "no phrase in public: {public:#?}");

    // Restart between the votes and the deadline; then Slack delivers
    // Carol's vote command again.
    let fake = rig.halt().await;
    let rig = Rig::start_from(fake, parts(&db, clock.clone()).await, SlackSettings::default(), true).await.unwrap();
    let before = rig.fake.calls_to("chat.postMessage").len();
    ballot(&rig, "t-carol-vote", "UCAROL", "vote slack:UBOB").await;
    told(&rig.fake, "UCAROL", "have voted").await;
    assert_eq!(rig.fake.calls_to("chat.postMessage").len(), before, "a repeated vote posts nothing new");

    clock.advance_to(1_000_000 + i64::from(VOTE_SECONDS) * 1000);
    let reveal = |c: &Call| in_thread(&thread)(c) && c.text().contains("did not vote");
    let calls = rig.fake.wait_for_count("the reveal", 1, WAIT, reveal).await.unwrap();
    let text = calls.iter().find(|c| reveal(c)).map(Call::text).unwrap();
    assert!(text.contains("UHOST did not vote"), "{text}");
    assert!(text.contains("UBOB → UHOST") && text.contains("UCAROL → UBOB"), "{text}");
}
