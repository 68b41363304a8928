//! The Arena on Discord, a whole game through the fake with a scripted
//! model: two AI characters and Alice, a spectator's reaction by button,
//! the round's score table and the narrator, a restart while Alice's turn
//! is pending, her turn skipped when the deadline passes and her
//! elimination for it, and the end with the standings, the hidden
//! strategies and the narrator's summary.

use echoes::bot::instant::InstantModel;
use echoes::discord::fake::{CHANNEL, Call, Opt, Who};

use super::{Rig, WAIT, is_private, rules};
use crate::engine::ManualClock;

/// The scorer rates every contribution alike (5.95 in the middle stage:
/// above the threshold); AI characters say one line; the narrator comments.
pub fn arena_model() -> InstantModel {
    rules().with_others(&[
        (
            "ARENA-RUBRIC-7",
            r#"{"novelty": 6, "builds_on_others": 6, "solves_problem": 7, "radical_thinking": 5, "manipulation": 4}"#,
        ),
        ("Write your contribution", "Move the rare books upstairs and rent the basement to a rowing club."),
        ("用你的口吻发言", "把珍本搬到楼上，把地下室租给划船俱乐部。"),
        ("Comment on the round", "A tidy round; the ring tightens."),
        ("Sum the game up", "The rowing club carried the day."),
    ])
}

fn texts(calls: &[Call]) -> String {
    calls.iter().map(Call::text).collect::<Vec<_>>().join("\n---\n")
}

#[tokio::test]
async fn the_arena_plays_on_discord_with_a_skipped_turn_an_elimination_and_a_restart() {
    let clock = ManualClock::starting_at(9_000_000);
    let mut rig = Rig::with_tables(arena_model(), clock.clone()).await;
    let (alice, bob, carol) = (Who::player(401, "Alice"), Who::player(402, "Bob"), Who::player(403, "Carol"));

    let before = rig.fake.threads().len();
    let options = [
        Opt::Text("topic", "Keep the flooded library open".into()),
        Opt::Int("characters", 2),
        Opt::Int("max_turns", 9),
    ];
    let id = rig.fake.slash(CHANNEL, &alice, "arena", &["start"], &options).unwrap();
    assert!(rig.reply_to(id).await.text().contains("lobby is open"));
    let thread = rig.fake.threads()[before];
    let status = rig.fake.slash(thread, &bob, "arena", &["status"], &[]).unwrap();
    let lobby = rig.reply_to(status).await.text();
    assert!(lobby.contains("topic: Keep the flooded library open") && lobby.contains("3/8 contestants"), "{lobby}");
    assert!(lobby.contains("#2 ") && lobby.contains("🤖"), "AI characters are named as AI: {lobby}");

    // Carol takes a seat with the lobby's Join button, then leaves with its
    // Leave button; each press is acknowledged privately.
    rig.fake
        .wait_for(|c| c.path == format!("/channels/{thread}/messages") && c.text().contains("Join with `join`"), WAIT)
        .await
        .unwrap();
    let lobby = rig.posts_in(thread, 0).into_iter().find(|c| c.text().contains("Join with `join`")).unwrap();
    let labels: Vec<String> = lobby.body["components"][0]["components"]
        .as_array()
        .map(|b| b.iter().map(|b| b["label"].as_str().unwrap_or_default().to_string()).collect())
        .unwrap_or_default();
    assert_eq!(labels, ["Join", "Leave", "Start"], "{:?}", lobby.body);
    let from = rig.fake.call_count();
    let join = rig.fake.press(thread, &carol, "table:join").unwrap();
    assert!(rig.replies_to(join, 1).await.iter().all(is_private));
    assert!(texts(&rig.wait_posts(thread, from, 1).await).contains("4/8 contestants"));
    let from = rig.fake.call_count();
    let leave = rig.fake.press(thread, &carol, "table:leave").unwrap();
    rig.replies_to(leave, 1).await;
    assert!(texts(&rig.wait_posts(thread, from, 1).await).contains("3/8 contestants"));

    // Alice begins: the opening, her turn with a live countdown, and the
    // spectators' reaction buttons.
    let from = rig.fake.call_count();
    let id = rig.fake.slash(thread, &alice, "arena", &["begin"], &[]).unwrap();
    rig.reply_to(id).await;
    let opening = rig.fake.wait_for(|c| c.text().contains("The Arena opens"), WAIT).await.unwrap();
    let text = opening.text();
    assert!(text.contains("Turn 1 · early · #1 Alice, your turn") && text.contains("⏳ <t:9120:R>"), "{text}");
    let buttons = opening.body["components"][0]["components"].as_array().map_or(0, Vec::len);
    assert_eq!(buttons, 3, "a reaction button per contestant: {:?}", opening.body);

    // Bob is no contestant: he may not speak, but he reacts (by button).
    let id = rig.fake.slash(thread, &bob, "arena", &["say"], &[Opt::Text("text", "me too".into())]).unwrap();
    assert!(rig.reply_to(id).await.text().contains("You are not a contestant"));
    let press = rig.fake.press(thread, &bob, "table:vote:2").unwrap();
    let acks = rig.replies_to(press, 2).await;
    assert!(acks.iter().any(|c| is_private(c) && c.text().contains("Your reaction for #2")), "{}", texts(&acks));
    let again = rig.fake.press(thread, &bob, "table:vote:3").unwrap();
    assert!(rig.reply_to(again).await.text().contains("reacted this round already"));
    // A contestant does not react.
    let id = rig.fake.slash(thread, &alice, "arena", &["react"], &[Opt::Text("choice", "2".into())]).unwrap();
    assert!(rig.reply_to(id).await.text().contains("Contestants don't react"));

    // Alice speaks; the two AI characters follow on their own; the round
    // closes with the scores (Bob's reaction adds to #2) and the narrator.
    let line = Opt::Text("text", "Put the reading room on stilts and lend umbrellas.".into());
    let id = rig.fake.slash(thread, &alice, "arena", &["say"], &[line]).unwrap();
    assert!(rig.reply_to(id).await.text().contains("#1 Alice: Put the reading room on stilts"));
    let round = rig.fake.wait_for(|c| c.text().contains("📊 Round 1"), WAIT).await.unwrap().text();
    assert!(round.contains("+1 👏") && round.contains("A tidy round"), "{round}");
    assert!(round.contains("Turn 4 · middle"), "round 2 opens in the middle stage: {round}");
    rig.fake.wait_for(|c| c.text().contains("Turn 6 · middle · #1 Alice, your turn"), WAIT).await.unwrap();
    let public = texts(&rig.posts_in(thread, from));
    assert!(!public.contains("ARENA-RUBRIC"), "the rubric never shows");

    // The bot restarts while Alice's turn is pending; the deadline still
    // passes: her turn is skipped, and her round score of 0 puts her out.
    rig.restart().await;
    let from = rig.fake.call_count();
    clock.advance_to(9_000_000 + 200_000);
    let out = rig.fake.wait_for(|c| c.text().contains("did not speak in time"), WAIT).await.unwrap().text();
    assert!(out.contains("#1 Alice did not speak in time") && out.contains("❌ #1 Alice is eliminated"), "{out}");

    // The AI characters play to the turn limit: the end shows the winner,
    // the standings, the hidden strategies and the narrator's summary.
    let end = rig.fake.wait_for(|c| c.text().contains("The Arena closes"), WAIT).await.unwrap().text();
    assert!(end.contains("🏆 #") && end.contains("Final standings:"), "{end}");
    assert!(end.contains("#1 Alice · 0.0") || end.contains("#1 Alice · 5.8"), "{end}");
    assert!(end.contains("The hidden strategies:") && end.contains("The rowing club carried the day."), "{end}");
    let all = texts(&rig.posts_in(thread, from));
    assert!(all.contains("out in round 2"), "{all}");
    let stats = rig.fake.slash(thread, &carol, "arena", &["stats"], &[]).unwrap();
    let stats = rig.reply_to(stats).await.text();
    assert!(stats.contains("Alice"), "Alice's game is counted: {stats}");
}

#[tokio::test]
async fn the_hosts_arena_rules_reach_the_game_on_discord_and_bad_ones_are_refused() {
    let clock = ManualClock::starting_at(9_000_000);
    let rig = Rig::with_tables(arena_model(), clock.clone()).await;
    let alice = Who::player(411, "Alice");
    let id = rig.fake.slash(CHANNEL, &alice, "arena", &["start"], &[Opt::Text("threshold", "11".into())]).unwrap();
    let text = rig.reply_to(id).await.text();
    assert!(text.contains("is not a valid threshold: a number from 0 to 10"), "{text}");
    let bad = [Opt::Text("elimination", "random".into())];
    let id = rig.fake.slash(CHANNEL, &alice, "arena", &["start"], &bad).unwrap();
    assert!(rig.reply_to(id).await.text().contains("is not a valid elimination"));

    let before = rig.fake.threads().len();
    let options = [
        Opt::Text("topic", "Keep the flooded library open".into()),
        Opt::Int("characters", 2),
        Opt::Int("max_turns", 6),
        Opt::Text("threshold", "3.5".into()),
        Opt::Text("elimination", "lowest".into()),
        Opt::Int("early_until", 2),
        Opt::Int("middle_until", 4),
        Opt::Int("turn_seconds", 30),
    ];
    let id = rig.fake.slash(CHANNEL, &alice, "arena", &["start"], &options).unwrap();
    assert!(rig.reply_to(id).await.text().contains("lobby is open"));
    let thread = rig.fake.threads()[before];
    let id = rig.fake.slash(thread, &alice, "arena", &["begin"], &[]).unwrap();
    rig.reply_to(id).await;
    let opening = rig.fake.wait_for(|c| c.text().contains("The Arena opens"), WAIT).await.unwrap().text();
    let rules = "Rules: eliminations from turn 3, the lowest goes out every round; the late stage from turn 5.";
    assert!(opening.contains(rules), "{opening}");
    assert!(opening.contains("#1 Alice, your turn") && opening.contains("(30 s)"), "{opening}");
}
