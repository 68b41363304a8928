//! Restarts and thread life: a bound thread keeps working after the bot
//! restarts (the binding is in SQL), a redelivered event is answered once,
//! and archived or deleted threads end their games cleanly.

use echoes::core::guild::GuildStore;
use echoes::core::soup::SoupGame;
use echoes::core::store::SessionRecord;
use echoes::discord::fake::{Opt, Who};
use echoes::store::SqlStore;

use super::{Rig, WAIT};

#[tokio::test]
async fn a_bound_thread_keeps_working_after_a_restart() {
    let mut rig = Rig::start().await;
    let (alice, bob) = (Who::player(101, "Alice"), Who::player(102, "Bob"));
    let thread = rig.start_game(&alice).await;
    let from = rig.fake.call_count();
    rig.fake.say(thread, &alice, "Was the gunner alone?").unwrap();
    rig.wait_posts(thread, from, 1).await;

    rig.restart().await;

    let from = rig.fake.call_count();
    let asked = rig
        .fake
        .slash(thread, &bob, "soup", &["ask"], &[Opt::Text("question", "Did the watch matter?".into())])
        .unwrap();
    assert!(rig.reply_to(asked).await.text().starts_with("YES"));
    let status = rig.fake.slash(thread, &bob, "soup", &["status"], &[]).unwrap();
    let text = rig.reply_to(status).await.text();
    assert!(text.contains("2 questions"), "the resumed game kept its state: {text}");
    rig.fake.say(thread, &alice, "My guess: FULL, the chronometer was set by the late gun").unwrap();
    let posts = rig.wait_posts(thread, from, 2).await;
    assert!(posts.iter().any(|p| p.text().contains("Solved by Alice")));
}

#[tokio::test]
async fn a_redelivered_message_is_answered_once() {
    let rig = Rig::start().await;
    let alice = Who::player(101, "Alice");
    let thread = rig.start_game(&alice).await;
    let from = rig.fake.call_count();
    let id = rig.fake.say(thread, &alice, "Was the gunner alone?").unwrap();
    rig.wait_posts(thread, from, 1).await;
    rig.fake.redeliver_message(id, thread, &alice, "Was the gunner alone?").unwrap();
    rig.fake.say(thread, &alice, "Did the watch matter?").unwrap();
    rig.wait_posts(thread, from, 2).await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(rig.posts_in(thread, from).len(), 2, "the repeat was not answered again");
    let store = SqlStore::open(rig.database()).await.unwrap();
    let binding = store.thread_binding(&format!("discord:{thread}")).await.unwrap().unwrap();
    let loaded = store.load_session(&binding.session_id).await.unwrap().unwrap();
    assert_eq!(loaded.game::<SoupGame>().unwrap().questions, 2);
}

#[tokio::test]
async fn archived_and_deleted_threads_end_their_games() {
    let mut rig = Rig::start().await;
    let alice = Who::player(101, "Alice");
    let archived = rig.start_game(&alice).await;
    let deleted = rig.start_game(&alice).await;
    let store = SqlStore::open(rig.database()).await.unwrap();
    let key = |t: u64| format!("discord:{t}");
    let session = store.thread_binding(&key(deleted)).await.unwrap().unwrap().session_id;

    rig.fake.archive_thread(archived).unwrap();
    wait_unbound(&store, &key(archived)).await;
    // After a restart too: the deleted thread's game is not in memory.
    rig.restart().await;
    rig.fake.delete_thread(deleted).unwrap();
    wait_unbound(&store, &key(deleted)).await;
    let loaded = store.load_session(&session).await.unwrap().unwrap();
    let game: SoupGame = loaded.game().unwrap();
    assert!(game.phase.is_over(), "the record shows the game ended: {:?}", game.phase);
    // Nothing was posted to the closed threads.
    let posted = rig.fake.calls().iter().filter(|c| c.path == format!("/channels/{deleted}/messages")).count();
    assert_eq!(posted, 1, "only the intro");
}

async fn wait_unbound(store: &SqlStore, thread: &str) {
    let deadline = tokio::time::Instant::now() + WAIT;
    while store.thread_binding(thread).await.unwrap().unwrap().is_active() {
        assert!(tokio::time::Instant::now() < deadline, "{thread} is still bound");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// A process that died after posting a reply but before marking it sent
/// leaves it in the outbox; the next process posts it again with the same
/// enforced nonce, and Discord hands back the first message.
#[tokio::test]
async fn a_reply_posted_again_after_a_crash_is_not_shown_twice() {
    let mut rig = Rig::start().await;
    let alice = Who::player(101, "Alice");
    let thread = rig.start_game(&alice).await;
    let from = rig.fake.call_count();
    rig.fake.say(thread, &alice, "Was the gunner alone?").unwrap();
    let first = rig.wait_posts(thread, from, 1).await;
    let nonce = first[0].body["nonce"].as_str().expect("a reply from the outbox carries a nonce").to_string();
    assert_eq!(first[0].body["enforce_nonce"], true);

    rig.restart().await;
    // As if the process had died between posting and marking it sent.
    let db = sqlx::SqlitePool::connect(&format!("sqlite:{}", rig.database().display())).await.unwrap();
    sqlx::query("UPDATE outbox SET sent_ms = NULL WHERE id = (SELECT MAX(id) FROM outbox)").execute(&db).await.unwrap();
    db.close().await;

    rig.fake.say(thread, &alice, "Did the watch matter?").unwrap();
    let posts = rig.wait_posts(thread, from, 3).await;
    let again: Vec<_> = posts.iter().filter(|p| p.body["nonce"] == nonce.as_str()).collect();
    assert_eq!(again.len(), 2, "the unsent reply was posted again: {posts:?}");
    let created: Vec<_> = posts.iter().filter(|p| p.created.is_some()).collect();
    assert_eq!(created.len(), 2, "two messages in the thread, not three");
    assert!(created[1].text().starts_with("YES"), "then the new reply: {}", created[1].text());
}
