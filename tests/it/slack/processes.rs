//! Slack's Events API behind two bot processes on one PostgreSQL database
//! (Slack posts each event to whichever the load balancer picks): the
//! process holding the game plays what reaches the other, which shows
//! nothing of it, and a retry reaching either is neither played nor shown
//! again.

use std::sync::Arc;
use std::time::Duration;

use echoes::bot::ModelFactory;
use echoes::bot::instant::{InstantModel, offline_parts_on};
use echoes::core::guild::GuildConfig;
use echoes::core::guild::GuildStore;
use echoes::core::llm::LlmClient;
use echoes::core::llm::RoleModels;
use echoes::slack::SlackSettings;
use echoes::slack::bench::Rig;
use echoes::slack::fake::{Call, FakeSlack, payloads};
use echoes::store::SqlStore;
use echoes::store::scratch::ScratchDb;

use super::{CHANNEL, PUZZLE, WAIT};

async fn process(server: &ScratchDb, fake: &FakeSlack, owner: &str) -> Rig {
    process_with(server, fake, owner, None).await
}

/// A process whose workspaces may choose a model of their own (`models`).
async fn process_with(server: &ScratchDb, fake: &FakeSlack, owner: &str, models: Option<ModelFactory>) -> Rig {
    let model: Arc<dyn LlmClient> = Arc::new(crate::discord::rules());
    let mut parts = offline_parts_on(&server.database(), model, Some(owner)).await.unwrap();
    parts.models = models;
    parts.engine.poll_handoffs(Duration::from_millis(20));
    Rig::start_from(fake.clone(), parts, SlackSettings::default(), false).await.unwrap()
}

async fn say(rig: &Rig, thread: &str, event_id: &str, text: &str) {
    let ts = format!("1700000600.{:06}", rig.fake.calls().len());
    let event = payloads::message_event(CHANNEL, event_id, "UALICE", text, Some(thread), &ts);
    rig.deliver("events_api", event_id, event).await.unwrap();
}

/// A reply in the thread: "thinking…" updated with it, or posted by the
/// holder's courier.
fn reply_in(thread: &str) -> impl Fn(&Call) -> bool + '_ {
    move |c: &Call| {
        let posted = c.method == "chat.postMessage" && c.thread_ts() == Some(thread);
        let updated = c.method == "chat.update" && c.body.get("blocks").is_none();
        (posted || updated) && !c.text().contains("thinking")
    }
}

#[tokio::test]
async fn events_reaching_either_process_are_played_and_shown_once() {
    let server = ScratchDb::create().await.unwrap_or_else(|e| panic!("{e}"));
    let fake = FakeSlack::start().await.unwrap();
    let a = process(&server, &fake, "slack-a").await;
    let b = process(&server, &fake, "slack-b").await;
    let thread = a.start_game(CHANNEL, "UHOST", PUZZLE, "trig-start").await.unwrap();

    // To b, which does not hold the game: a plays it and shows the reply.
    say(&b, &thread, "Ev1", "Was the gunner alone?").await;
    let calls = fake.wait_for_count("a reply", 1, WAIT, reply_in(&thread)).await.unwrap();
    let first = calls.iter().find(|c| reply_in(&thread)(c)).unwrap();
    assert_eq!(first.method, "chat.postMessage", "posted by the holder");
    say(&a, &thread, "Ev2", "Did the watch matter?").await;
    fake.wait_for_count("two replies", 2, WAIT, reply_in(&thread)).await.unwrap();

    // Slack's retries, each reaching the other process.
    say(&a, &thread, "Ev1", "Was the gunner alone?").await;
    say(&b, &thread, "Ev2", "Did the watch matter?").await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    let calls = fake.calls();
    assert_eq!(calls.iter().filter(|c| reply_in(&thread)(c)).count(), 2, "each question answered once");
    // Every "thinking…" was replaced by its reply or taken away.
    let thinking: Vec<&str> = calls
        .iter()
        .filter(|c| {
            c.method == "chat.postMessage" && c.thread_ts() == Some(thread.as_str()) && c.text().contains("thinking")
        })
        .filter_map(|c| c.ts.as_deref())
        .collect();
    assert_eq!(thinking.len(), 4, "one per delivery");
    for ts in thinking {
        let settled =
            calls.iter().any(|c| (c.method == "chat.update" || c.method == "chat.delete") && c.body["ts"] == ts);
        assert!(settled, "a thinking message was left: {ts}");
    }

    let store = SqlStore::connect(&server.database()).await.unwrap();
    let binding = store.thread_binding(&format!("slack:{CHANNEL}:{thread}")).await.unwrap().unwrap();
    let turns =
        echoes::core::store::SessionRecord::load_session(&store, &binding.session_id).await.unwrap().unwrap().turns;
    let events: Vec<Option<&str>> = turns.iter().skip(1).map(|t| t.event_id.as_deref()).collect();
    assert_eq!(events, [Some("Ev1"), Some("Ev2")], "each played once, in order");
}

/// A process killed between posting a reply and marking it sent leaves a
/// row that is unsent but already in the thread. Every reply carries its
/// row in Slack's message metadata, so the next process reads the thread
/// (`conversations.replies`) and does not post it again.
#[tokio::test]
async fn a_reply_shown_before_a_crash_is_not_shown_again() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("echoes.db");
    let model = || -> Arc<dyn LlmClient> { Arc::new(crate::discord::rules()) };
    let a = Rig::start_with(FakeSlack::start().await.unwrap(), &db, model(), SlackSettings::default(), false)
        .await
        .unwrap();
    let thread = a.start_game(CHANNEL, "UHOST", PUZZLE, "trig-start").await.unwrap();
    say(&a, &thread, "Ev1", "Was the gunner alone?").await;
    let calls = a.fake.wait_for_count("the answer", 1, WAIT, super::answered).await.unwrap();
    let answer = calls.iter().find(|c| super::answered(c)).unwrap().clone();
    assert_eq!(answer.body["metadata"]["event_type"], "echoes_outbox", "{}", answer.body);
    let row: i64 = answer.body["metadata"]["event_payload"]["row"].as_str().unwrap().parse().unwrap();
    let url = format!("sqlite://{}", db.display());
    let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
    let sent = || sqlx::query_scalar::<_, Option<i64>>("SELECT sent_ms FROM outbox WHERE id = ?").bind(row);
    let deadline = std::time::Instant::now() + WAIT;
    while sent().fetch_one(&pool).await.unwrap().is_none() {
        assert!(std::time::Instant::now() < deadline, "a never marked its reply sent");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let fake = a.halt().await;

    // The kill came after the post and before `mark_sent`.
    let unmarked = sqlx::query("UPDATE outbox SET sent_ms = NULL WHERE id = ?").bind(row).execute(&pool).await.unwrap();
    assert_eq!(unmarked.rows_affected(), 1);

    let b = Rig::start_with(fake.clone(), &db, model(), SlackSettings::default(), false).await.unwrap();
    let before = fake.calls().len();
    say(&b, &thread, "Ev2", "Did the watch matter?").await;
    fake.wait_for_count("the second answer", 2, WAIT, super::answered).await.unwrap();
    let after = fake.calls()[before..].to_vec();
    assert!(after.iter().any(|c| c.method == "conversations.replies"), "b read the thread before showing");
    let row_text = row.to_string();
    let again: Vec<&Call> =
        after.iter().filter(|c| c.body["metadata"]["event_payload"]["row"] == row_text.as_str()).collect();
    assert!(again.is_empty(), "the reply was shown again: {again:?}");
    assert!(sent().fetch_one(&pool).await.unwrap().is_some(), "the row shown before is marked sent");
    pool.close().await;
}

/// A workspace that chose a model of its own (`/soup config model`): an
/// input reaching the process that does not hold its game is handed over
/// and played through the workspace's model, by the holder's engine for
/// it, and again after the holder restarted and reopens the game from the
/// record. The default model says NO where the workspace's says YES.
#[tokio::test]
async fn a_workspace_with_its_own_model_is_handed_over_through_it() {
    let server = ScratchDb::create().await.unwrap_or_else(|e| panic!("{e}"));
    let fake = FakeSlack::start().await.unwrap();
    let house = || -> ModelFactory {
        Arc::new(|name: &str| {
            anyhow::ensure!(name == "house", "no model {name}");
            let m: Arc<dyn LlmClient> = Arc::new(InstantModel::new(&[("alone", InstantModel::question("YES"))]));
            Ok(RoleModels { judge: m.clone(), narrator: m })
        })
    };
    let store = SqlStore::connect(&server.database()).await.unwrap();
    let own = GuildConfig { model: Some("house".into()), ..GuildConfig::default() };
    store.set_guild_config(&echoes::slack::scope_of(echoes::slack::fake::TEAM), &own, 0).await.unwrap();
    let a = process_with(&server, &fake, "slack-a", Some(house())).await;
    let b = process_with(&server, &fake, "slack-b", Some(house())).await;
    let thread = a.start_game(CHANNEL, "UHOST", PUZZLE, "trig-start").await.unwrap();

    // Questions no known answer covers, so the model decides.
    say(&b, &thread, "Ev1", "Was the gunner alone with seven purple walruses?").await;
    let calls = fake.wait_for_count("a reply", 1, WAIT, reply_in(&thread)).await.unwrap();
    let first = calls.iter().find(|c| reply_in(&thread)(c)).unwrap();
    assert!(first.text().contains("🟢"), "the workspace's model answered, not the default: {}", first.text());

    // The holder restarts (same name: it takes its games back at once) and
    // reopens the game from the record when the next input is handed to it.
    let fake = a.halt().await;
    let _a = process_with(&server, &fake, "slack-a", Some(house())).await;
    say(&b, &thread, "Ev2", "Were the purple walruses alone on the moon?").await;
    let calls = fake.wait_for_count("two replies", 2, WAIT, reply_in(&thread)).await.unwrap();
    let replies: Vec<String> = calls.iter().filter(|c| reply_in(&thread)(c)).map(|c| c.text()).collect();
    assert!(replies[1].contains("🟢"), "reopened through the workspace's model: {replies:?}");
    assert!(replies.iter().all(|r| !r.contains("🔴")), "the default model never answered: {replies:?}");
}
