//! Discord's rate limits: the fake answers 429 with
//! `Retry-After` past a route's limit or the global one, and tallies calls
//! that came before a wait it had announced; the bot (serenity's route
//! state, kept in front of the fake by `discord/limiter.rs`) waits them
//! out. A short game under tight limits: every reply arrives, once, in
//! order, and no call jumps a wait.

use std::time::Duration;

use echoes::discord::fake::{Call, FakeDiscord, Limit, RateLimits, Who};
use serde_json::json;

use super::{CHANNEL, Rig};

const SECOND: Duration = Duration::from_secs(1);

/// The message a post replies to.
fn replied_to(post: &Call) -> Option<u64> {
    post.body["message_reference"]["message_id"].as_str()?.parse().ok()
}

/// A game in one thread, a message at a time: four questions and the
/// winning guess, faster than the limits allow. Checks that each reply
/// arrived once, in order, and the wrap-up after the reveal.
async fn short_game(rig: &Rig) {
    let (alice, bob) = (Who::player(101, "Alice"), Who::player(102, "Bob"));
    let thread = rig.start_game(&alice).await;
    let from = rig.fake.call_count();
    let questions = [
        (&alice, "Was the gunner alone?", "NO"),
        (&bob, "Did the watch matter?", "YES"),
        (&alice, "Was it raining?", "YES"),
        (&bob, "Did the ship leave port?", "YES"),
    ];
    let mut asked = Vec::new();
    for (who, question, _) in questions {
        asked.push(rig.fake.say(thread, who, question).unwrap());
        rig.wait_posts(thread, from, asked.len()).await;
    }
    asked.push(rig.fake.say(thread, &alice, "My guess: FULL, he set the chronometer by the late gun").unwrap());
    let posts = rig.wait_posts(thread, from, asked.len() + 1).await;
    let replies: Vec<u64> = posts.iter().filter_map(replied_to).collect();
    assert_eq!(replies, asked, "one reply per message, in the order asked");
    for ((_, question, verdict), post) in questions.iter().zip(&posts) {
        assert!(post.text().starts_with(verdict), "{question} → {}", post.text());
    }
    let solved = posts.iter().position(|p| replied_to(p) == asked.last().copied()).unwrap();
    assert!(posts[solved].text().contains("Solved by Alice"), "{}", posts[solved].text());
    let wrap_up = posts.iter().position(|p| !p.files.is_empty()).expect("the wrap-up with the transcript");
    assert!(solved < wrap_up, "the wrap-up follows the reveal");
}

#[tokio::test]
async fn a_route_limit_is_waited_out_before_discord_has_to_refuse() {
    let rig = Rig::limited(RateLimits { per_route: Some(Limit::new(2, SECOND)), global: None }).await;
    short_game(&rig).await;
    let tally = rig.fake.rate_limits();
    // Every response says what is left, so the bot waits for the reset
    // instead of drawing 429s (one can still meet calls sent together
    // into a route it has not heard from yet).
    assert!(tally.exhausted > 0, "the limit was never reached: {tally:?}");
    assert_eq!(tally.violations, 0, "a call came before an announced reset: {tally:?}");
}

#[tokio::test]
async fn a_global_429_holds_every_call_until_its_retry_after() {
    let rig = Rig::limited(RateLimits { per_route: None, global: Some(Limit::new(3, SECOND)) }).await;
    short_game(&rig).await;
    let tally = rig.fake.rate_limits();
    // No header announces the global limit: the bot meets it as a 429.
    assert!(tally.refused > 0, "the global limit never refused a call: {tally:?}");
    assert_eq!(tally.violations, 0, "a call came before a global Retry-After ended: {tally:?}");
}

/// The fake's side, with a client that ignores every wait: the numbers
/// Discord sends, its 429s, and the tally that catches such a client.
#[tokio::test]
async fn a_client_that_ignores_the_limits_gets_discords_429s_and_is_caught() {
    let limits = RateLimits { per_route: Some(Limit::new(1, Duration::from_secs(5))), global: None };
    let fake = FakeDiscord::start_limited(limits).await.unwrap();
    let http = reqwest::Client::new();
    let post = |channel: u64| {
        let url = format!("{}/api/v10/channels/{channel}/messages", fake.base_url());
        http.post(url).json(&json!({"content": "hello"})).send()
    };
    let first = post(CHANNEL).await.unwrap();
    let header = |r: &reqwest::Response, name: &str| r.headers()[name].to_str().unwrap().to_string();
    assert_eq!(
        (header(&first, "x-ratelimit-limit"), header(&first, "x-ratelimit-remaining")),
        ("1".into(), "0".into())
    );
    let reset_after: f64 = header(&first, "x-ratelimit-reset-after").parse().unwrap();
    assert!(reset_after > 0.0 && reset_after <= 5.0, "{reset_after}");
    assert!(!header(&first, "x-ratelimit-bucket").is_empty());
    // Told nothing is left, it sends again at once (in flight: refused,
    // not counted), then again later (a violation).
    for _ in 0..2 {
        let refused = post(CHANNEL).await.unwrap();
        assert_eq!(refused.status(), 429);
        assert_eq!(header(&refused, "x-ratelimit-scope"), "user");
        let retry_after: u64 = header(&refused, "retry-after").parse().unwrap();
        assert!((1..=5).contains(&retry_after), "{retry_after}");
        let body: serde_json::Value = refused.json().await.unwrap();
        assert_eq!(
            (body["global"].as_bool(), body["message"].as_str()),
            (Some(false), Some("You are being rate limited."))
        );
        tokio::time::sleep(echoes::bot::quota::IN_FLIGHT * 2).await;
    }
    assert_eq!(post(CHANNEL + 1).await.unwrap().status(), 200, "another channel is another bucket");
    let tally = fake.rate_limits();
    assert_eq!((tally.refused, tally.violations), (2, 1), "{tally:?}");
    assert_eq!(fake.calls().len(), 2, "refused calls are not recorded");

    let limits = RateLimits { per_route: None, global: Some(Limit::new(1, Duration::from_secs(5))) };
    let fake = FakeDiscord::start_limited(limits).await.unwrap();
    let url = format!("{}/api/v10/channels/{CHANNEL}/messages", fake.base_url());
    assert_eq!(http.post(&url).json(&json!({})).send().await.unwrap().status(), 200);
    let refused = http.post(&url).json(&json!({})).send().await.unwrap();
    assert_eq!(refused.status(), 429);
    assert_eq!(header(&refused, "x-ratelimit-global"), "true");
    assert_eq!(refused.json::<serde_json::Value>().await.unwrap()["global"], true);
}
