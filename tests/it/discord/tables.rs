//! The test game (`crate::engine::game`, "Secret Ballot") on Discord: a
//! lobby in a thread, each seat's phrase privately (an ephemeral follow-up
//! to whoever started it, DMs to the others, a public pointer to
//! `/ballot whisper` when DMs are closed), vote buttons, an AI seat that
//! votes on its own, a restart between the votes and the deadline, a vote
//! Discord delivers twice, and the reveal when the deadline passes.

use std::path::Path;
use std::sync::Arc;

use echoes::core::guild::GuildStore;
use echoes::core::llm::LlmClient;
use echoes::discord::fake::{CHANNEL, Call, Opt, Who};
use echoes::discord::{Data, DiscordSettings};

use super::{Rig, WAIT, is_private, rules};
use crate::engine::ManualClock;
use crate::engine::game::{PHRASES, VOTE_SECONDS};

/// The offline bot's parts with Secret Ballot hosted on `clock`.
pub async fn data_with_ballot(
    db: &Path,
    model: Arc<dyn LlmClient>,
    settings: DiscordSettings,
    clock: Arc<ManualClock>,
) -> Data {
    let mut parts = echoes::bot::instant::offline_parts(db, model).await.unwrap();
    let base = &parts.engine;
    let engine = echoes::core::actor::Engine::new(base.pipeline.clone(), base.store.clone(), clock, 0);
    parts.engine = Arc::new(engine);
    Data::from_bot(parts, settings)
}

impl Rig {
    pub async fn with_ballot(clock: Arc<ManualClock>) -> Rig {
        Rig::with_tables(rules(), clock).await
    }

    /// A rig hosting the seated games (Undercover and the test game) on `clock`.
    pub async fn with_tables(model: echoes::bot::instant::InstantModel, clock: Arc<ManualClock>) -> Rig {
        let mut rig = Rig::with(model, DiscordSettings::default()).await;
        rig.tables = Some(clock);
        rig.restart().await;
        rig
    }
}

fn texts(calls: &[Call]) -> String {
    calls.iter().map(Call::text).collect::<Vec<_>>().join("\n---\n")
}

#[tokio::test]
async fn a_secret_ballot_plays_on_discord_across_a_restart() {
    let clock = ManualClock::starting_at(1_000_000);
    let mut rig = Rig::with_ballot(clock.clone()).await;
    let (alice, bob, carol) = (Who::player(101, "Alice"), Who::player(102, "Bob"), Who::player(103, "Carol"));
    rig.fake.close_dms(carol.id);

    let before = rig.fake.threads().len();
    let id = rig.fake.slash(CHANNEL, &alice, "ballot", &["start"], &[]).unwrap();
    assert!(rig.reply_to(id).await.text().contains("lobby is open"));
    let thread = rig.fake.threads()[before];
    for who in [&bob, &carol] {
        let id = rig.fake.slash(thread, who, "ballot", &["join"], &[]).unwrap();
        assert!(rig.reply_to(id).await.text().contains("seats taken"));
    }
    let id = rig.fake.slash(thread, &bob, "ballot", &["add-ai"], &[]).unwrap();
    assert!(rig.reply_to(id).await.text().contains("4 seats taken"));

    let from = rig.fake.call_count();
    let id = rig.fake.slash(thread, &alice, "ballot", &["begin"], &[]).unwrap();
    // Alice asked: her phrase comes back to her alone, as an ephemeral follow-up.
    let replies = rig.replies_to(id, 2).await;
    let hers = replies.iter().find(|c| c.text().contains(PHRASES[0])).expect("alice's phrase");
    assert!(is_private(hers), "a seat's secret is ephemeral: {:?}", hers.body);
    // Bob gets his by DM; Carol's DMs are closed, so the thread says how to get it.
    rig.fake.wait_for(|c| c.text().contains(PHRASES[1]), WAIT).await.unwrap();
    let to_bob = rig.fake.dms_to(bob.id, from);
    assert_eq!(to_bob.len(), 1, "one DM to Bob");
    assert!(to_bob[0].text().contains(PHRASES[1]) && !to_bob[0].text().contains(PHRASES[0]));
    let posts = rig.wait_posts(thread, from, 3).await;
    let public = texts(&posts);
    assert!(public.contains("/ballot whisper"), "{public}");
    assert!(public.contains("Voting is open"));
    assert!(PHRASES.iter().all(|p| !public.contains(p)), "no phrase in the thread: {public}");
    let ballot = posts.iter().find(|c| c.text().contains("Voting is open")).unwrap();
    let buttons = ballot.body["components"][0]["components"].as_array().cloned().unwrap_or_default();
    assert_eq!(buttons.len(), 4, "one vote button per seat: {:?}", ballot.body);

    // The AI seat votes by itself; its count shows in the thread.
    rig.fake
        .wait_for(|c| c.path.ends_with(&format!("/{thread}/messages")) && c.text().contains("1/4"), WAIT)
        .await
        .unwrap();

    let whisper = rig.fake.slash(thread, &carol, "ballot", &["whisper"], &[]).unwrap();
    let got = rig.replies_to(whisper, 2).await;
    assert!(got.iter().all(is_private) && texts(&got).contains(PHRASES[2]), "{}", texts(&got));

    let from = rig.fake.call_count();
    let press = rig.fake.press(thread, &bob, "table:vote:discord:101").unwrap();
    let got = rig.replies_to(press, 2).await;
    assert!(got.iter().all(is_private), "a vote is acknowledged privately");
    rig.wait_posts(thread, from, 1).await;
    assert!(texts(&rig.posts_in(thread, from)).contains("2/4"));
    assert!(!texts(&rig.posts_in(thread, from)).contains("Alice"), "the choice stays secret");

    let carol_votes = rig
        .fake
        .prepare_slash(thread, &carol, "ballot", &["vote"], &[Opt::Text("choice", "discord:102".into())])
        .unwrap();
    let first = rig.fake.send_prepared(carol_votes.clone());
    rig.replies_to(first, 2).await;

    // The bot restarts between the votes and the deadline; Discord then
    // delivers Carol's vote again.
    rig.restart().await;
    let from = rig.fake.call_count();
    let again = rig.fake.send_prepared(carol_votes);
    let answer = rig.reply_to(again).await;
    assert!(is_private(&answer), "the repeat is answered privately");
    assert!(texts(&rig.posts_in(thread, from)).is_empty(), "and counts once: nothing new in the thread");

    let from = rig.fake.call_count();
    clock.advance_to(1_000_000 + i64::from(VOTE_SECONDS) * 1000);
    let reveal = rig.wait_posts(thread, from, 1).await;
    let text = texts(&reveal);
    assert!(text.contains("Alice did not vote"), "{text}");
    assert!(text.contains("Bob → Alice") && text.contains("Carol → Bob"), "{text}");
    // The reveal ends the game: the thread is unbound (right after the post).
    let store = echoes::store::SqlStore::open(rig.database()).await.unwrap();
    let key = format!("discord:{thread}");
    let deadline = tokio::time::Instant::now() + WAIT;
    while store.thread_binding(&key).await.unwrap().is_some_and(|b| b.is_active()) {
        assert!(tokio::time::Instant::now() < deadline, "the thread is unbound after the reveal");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let late = rig.fake.slash(thread, &alice, "ballot", &["status"], &[]).unwrap();
    assert!(rig.reply_to(late).await.text().contains("no /ballot game"));
}
