//! Discord's rate limits (issue 21): the fake answers 429 with
//! `Retry-After` past a route's limit or the global one, and tallies calls
//! that came before a wait it had announced; the bot (serenity's route
//! state, kept in front of the fake by `discord/limiter.rs`) waits them
//! out. A short game under tight limits: every reply arrives, once, in
//! order, and no call jumps a wait.

use std::time::Duration;

use echoes::discord::fake::{Call, Limit, RateLimits, Who};

use super::Rig;

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
    asked.push(rig.fake.say(thread, &alice, "FULL: he set the chronometer by the late gun").unwrap());
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
