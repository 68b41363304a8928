//! Slack's rate limits: the fake answers HTTP 429 with
//! `Retry-After` and `ratelimited` past a method's limit (per channel, or
//! across the workspace), and tallies calls that came before a wait it had
//! announced; the bot (`slack/web.rs`) waits them out. A short game under
//! tight limits: every message shows its final text, in order, and no
//! call jumps a wait.

use std::sync::Arc;
use std::time::Duration;

use echoes::slack::SlackSettings;
use echoes::slack::fake::{Call, FakeSlack, Limit, RateLimits};

use super::{CHANNEL, Game, WAIT, game_on};

const SECOND: Duration = Duration::from_secs(1);

async fn limited_game(limits: RateLimits, socket: bool) -> Game {
    let fake = FakeSlack::start_limited(limits).await.unwrap();
    game_on(fake, Arc::new(crate::discord::rules()), SlackSettings::default(), socket).await
}

/// What the thread shows: each message the bot posted there, in order,
/// with its last text.
fn thread_shows(g: &Game) -> Vec<String> {
    let calls = g.rig.fake.calls();
    let last_text = |ts: &str| {
        let updated = |c: &&Call| c.method == "chat.update" && c.ts.as_deref() == Some(ts);
        calls.iter().rev().find(updated).map(Call::text)
    };
    calls
        .iter()
        .filter(|c| c.method == "chat.postMessage" && c.body["channel"] == CHANNEL)
        .filter(|c| c.thread_ts() == Some(g.thread.as_str()))
        .map(|c| c.ts.as_deref().and_then(last_text).unwrap_or_else(|| c.text()))
        .collect()
}

/// Three questions, a message at a time, then the winning guess, faster
/// than the limits allow; every reply replaced its "thinking…" message
/// (once), in order, and the wrap-up came last.
async fn short_game(g: &Game) {
    let questions =
        [("UALICE", "Was he alone?", "🔴"), ("UBOB", "Was there a watch?", "🟢"), ("UALICE", "Was it raining?", "🟢")];
    for (i, (user, question, _)) in questions.iter().enumerate() {
        g.say(&format!("Ev{i}"), user, question).await;
        g.answers(i + 1).await;
    }
    g.say("Ev-win", "UBOB", "My guess: FULL, he set the chronometer by the late gun").await;
    let over = |c: &Call| c.method == "chat.postMessage" && c.text().contains("Game over");
    g.rig.fake.wait_for_count("the wrap-up", 1, WAIT, over).await.unwrap();
    let shown = thread_shows(g);
    assert!(shown.iter().all(|s| !s.contains("thinking")), "a reply never replaced its thinking message: {shown:#?}");
    for ((_, question, verdict), text) in questions.iter().zip(&shown) {
        assert!(text.contains(verdict), "{question} → {text}");
    }
    let solved = shown.iter().position(|s| s.contains("🎉") || s.to_lowercase().contains("solved"));
    let wrap_up = shown.iter().position(|s| s.contains("Game over"));
    assert!(solved.is_some_and(|s| s == questions.len()), "the reveal answers the guess: {shown:#?}");
    assert!(wrap_up > solved, "the wrap-up follows the reveal: {shown:#?}");
    let updates = g.rig.fake.calls_to("chat.update");
    let mut updated: Vec<&str> = updates.iter().filter_map(|c| c.ts.as_deref()).collect();
    let before = updated.len();
    updated.sort_unstable();
    updated.dedup();
    assert_eq!(updated.len(), before, "a message was updated twice: a retry repeated a call Slack had done");
}

#[tokio::test]
async fn one_post_a_second_per_channel_is_waited_out_after_each_429() {
    let g = limited_game(RateLimits::per_channel("chat.postMessage", Limit::new(1, SECOND)), true).await;
    short_game(&g).await;
    let tally = g.rig.fake.rate_limits();
    assert!(tally.refused > 0, "the limit never refused a post: {tally:?}");
    assert_eq!(tally.violations, 0, "a post came before a Retry-After ended: {tally:?}");
}

#[tokio::test]
async fn a_workspace_limit_on_updates_is_waited_out_over_the_events_api() {
    let g = limited_game(RateLimits::per_method("chat.update", Limit::new(1, SECOND)), false).await;
    short_game(&g).await;
    let tally = g.rig.fake.rate_limits();
    assert!(tally.refused > 0, "the limit never refused an update: {tally:?}");
    assert_eq!(tally.violations, 0, "an update came before a Retry-After ended: {tally:?}");
}

/// The fake's side, with a client that ignores every wait: Slack's 429,
/// and the tally that catches such a client.
#[tokio::test]
async fn a_client_that_ignores_retry_after_gets_slacks_429s_and_is_caught() {
    let fake =
        FakeSlack::start_limited(RateLimits::per_channel("chat.postMessage", Limit::new(1, 5 * SECOND))).await.unwrap();
    let http = reqwest::Client::new();
    let url = format!("{}/chat.postMessage", fake.api_url);
    let post = |channel: &str| http.post(&url).json(&serde_json::json!({"channel": channel, "text": "hi"})).send();
    assert_eq!(post(CHANNEL).await.unwrap().status(), 200);
    // Slack's successes say nothing of the limit: the first 429 tells,
    // a call right after it was in flight, the one after that ignored it.
    for _ in 0..3 {
        let refused = post(CHANNEL).await.unwrap();
        assert_eq!(refused.status(), 429);
        let retry_after: u64 = refused.headers()["retry-after"].to_str().unwrap().parse().unwrap();
        assert!((1..=5).contains(&retry_after), "{retry_after}");
        let body: serde_json::Value = refused.json().await.unwrap();
        assert_eq!((body["ok"].as_bool(), body["error"].as_str()), (Some(false), Some("ratelimited")));
        tokio::time::sleep(echoes::bot::quota::IN_FLIGHT * 2).await;
    }
    assert_eq!(post("C0OTHER").await.unwrap().status(), 200, "another channel has its own limit");
    let tally = fake.rate_limits();
    assert_eq!((tally.refused, tally.violations), (3, 2), "{tally:?}");
    assert_eq!(fake.calls_to("chat.postMessage").len(), 2, "refused calls are not recorded");
}
