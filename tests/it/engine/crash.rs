//! Bot processes killed with SIGKILL at random points while they play, on
//! one PostgreSQL database: the real binary's `bench worker` processes,
//! driven by `bench crash` (which runs the same 100 times). Every input
//! gets exactly one turn, on the survivor for what the killed process did
//! not take, and every committed reply is shown, once, on both platform
//! shapes (Discord's nonces, Slack's message metadata).

use echoes::bench::crash::{CrashOptions, Shape, run};

#[tokio::test]
async fn killed_processes_lose_no_turn_and_play_none_twice_on_discord() {
    killed_processes_lose_no_turn_and_play_none_twice(Shape::Discord).await;
}

#[tokio::test]
async fn killed_processes_lose_no_turn_and_play_none_twice_on_slack() {
    killed_processes_lose_no_turn_and_play_none_twice(Shape::Slack).await;
}

async fn killed_processes_lose_no_turn_and_play_none_twice(platform: Shape) {
    let opts = CrashOptions {
        runs: 3,
        binary: env!("CARGO_BIN_EXE_echoes").into(),
        seed: std::process::id().into(),
        platform,
        ..CrashOptions::default()
    };
    let figures = run(&opts).await.unwrap_or_else(|e| panic!("{e:#}"));
    println!("{figures}");
    assert_eq!(figures.inputs, 3 * opts.sessions * opts.inputs, "{figures}");
    assert_eq!(figures.without_turn, 0, "a turn was lost: {figures}");
    assert_eq!(figures.more_than_one_turn, 0, "an input was played twice: {figures}");
    assert_eq!(figures.never_shown, 0, "a committed reply was never shown: {figures}");
    assert!(figures.replies >= figures.inputs, "each turn has its reply: {figures}");
    assert_eq!(figures.shown_twice, 0, "the platform showed a reply twice: {figures}");
}
