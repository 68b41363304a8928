//! Two bot processes, each running one shard of two (`[discord] shards`),
//! on one database: the gateway sends each process only its servers'
//! events, so each server's games are played by the process whose shard
//! it is on, and nothing is answered twice.

use std::sync::Arc;

use echoes::discord::DiscordSettings;
use echoes::discord::bench::offline_data;
use echoes::discord::fake::{APP, CHANNEL_B, Call, FakeDiscord, Opt, Who};

use super::{CHANNEL, PUZZLE, WAIT, rules};

/// The answers to interaction `id` so far.
fn answers(fake: &FakeDiscord, id: u64) -> Vec<Call> {
    let (followup, callback) = (format!("/webhooks/{APP}/tok{id}"), format!("/interactions/{id}/"));
    let answer =
        |c: &Call| (c.method == "POST" && c.path == followup) || (c.is("POST", &callback) && c.body["type"] == 4);
    fake.calls().into_iter().filter(answer).collect()
}

/// Waits for the first answer to interaction `id`, then a moment for any
/// second one; all answers.
async fn answered(fake: &FakeDiscord, id: u64) -> Vec<Call> {
    let deadline = tokio::time::Instant::now() + WAIT;
    while answers(fake, id).is_empty() && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    answers(fake, id)
}

#[tokio::test]
async fn two_processes_split_the_servers_by_shard() {
    let fake = FakeDiscord::start().await.unwrap();
    fake.add_second_guild();
    fake.set_shards(2);
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("echoes.db");
    let mut processes = Vec::new();
    for shards in ["0-0/2", "1-1/2"] {
        let settings = DiscordSettings { shards: Some(shards.parse().unwrap()), ..DiscordSettings::default() };
        let data = offline_data(&db, Arc::new(rules()), settings).await.unwrap();
        processes.push(echoes::discord::spawn(data, &fake.endpoint()).await.unwrap());
        fake.wait_ready(processes.len() as u64, WAIT).await.unwrap();
    }
    assert_eq!(fake.identified(), [(0, 2), (1, 2)], "each process identifies as its own shard");

    // A game in each server: started, asked, answered once each.
    let alice = Who::player(101, "Alice");
    for (n, channel) in [CHANNEL, CHANNEL_B].into_iter().enumerate() {
        let start = fake.slash(channel, &alice, "soup", &["start"], &[Opt::Text("puzzle", PUZZLE.into())]).unwrap();
        let started = answered(&fake, start).await;
        assert_eq!(started.len(), 1, "server {n}: one process started it: {started:#?}");
        assert!(started[0].text().contains("is on: join the game"), "{}", started[0].text());
        let thread = *fake.threads().last().expect("a thread for the game");
        let ask =
            fake.slash(thread, &alice, "soup", &["ask"], &[Opt::Text("question", "Was he alone?".into())]).unwrap();
        let reply = answered(&fake, ask).await;
        assert_eq!(reply.len(), 1, "server {n}: answered once: {reply:#?}");
        assert!(reply[0].text().starts_with("NO"), "{}", reply[0].text());
    }
    // Each process plays only its own server's game.
    let live: Vec<usize> = processes.iter().map(|p| p.live_games()).collect();
    assert_eq!(live, [1, 1], "one game per process");
    for process in processes {
        process.stop().await;
    }
}
