//! What users expect of a bot in a busy server: answers never ping, other
//! bots are ignored, turns are rate limited with a friendly note, errors
//! are one friendly private line, long replies are split.

use echoes::discord::DiscordSettings;
use echoes::discord::fake::{Call, Opt, Who};
use serde_json::json;

use super::{CHANNEL, Rig, is_private, rules};

/// Every call that can put text in front of people.
fn speaking(calls: &[Call]) -> Vec<&Call> {
    calls
        .iter()
        .filter(|c| matches!(c.method.as_str(), "POST" | "PATCH"))
        .filter(|c| c.path.contains("/messages") || c.path.starts_with("/webhooks/") || c.path.ends_with("/callback"))
        .filter(|c| !c.text().is_empty())
        .collect()
}

#[tokio::test]
async fn mention_injection_never_pings_anyone() {
    let rig = Rig::start().await;
    let mallory = Who::player(666, "@everyone <@&5>");
    let thread = rig.start_game(&mallory).await;
    let from = rig.fake.call_count();
    let sneaky = "Was the watch @everyone @here <@&55> <@66> <@!67> slow?";
    rig.fake.say(thread, &mallory, sneaky).unwrap();
    rig.wait_posts(thread, from, 1).await;
    let history = rig.fake.slash(thread, &mallory, "soup", &["history"], &[]).unwrap();
    let shown = rig.reply_to(history).await.text();
    assert!(shown.contains("@\u{200B}everyone @\u{200B}here <@\u{200B}&55> <@\u{200B}66>"), "{shown}");
    let give_up = rig.fake.slash(thread, &mallory, "soup", &["giveup"], &[]).unwrap();
    rig.reply_to(give_up).await;
    rig.wait_posts(thread, from, 2).await;

    let calls = rig.fake.calls();
    let spoken = speaking(&calls);
    assert!(spoken.len() >= 5, "{}", spoken.len());
    for call in spoken {
        let text = call.text();
        for raw in ["@everyone", "@here", "<@&", "<@6", "<@!"] {
            assert!(!text.contains(raw), "{} {} says {raw:?}: {text}", call.method, call.path);
        }
        let body = if call.path.ends_with("/callback") { &call.body["data"] } else { &call.body };
        if call.path.ends_with("/callback") && body.is_null() {
            continue;
        }
        assert_eq!(body["allowed_mentions"]["parse"], json!([]), "{} {}: {body}", call.method, call.path);
        assert!(body["allowed_mentions"]["users"].as_array().is_none_or(Vec::is_empty));
        assert!(body["allowed_mentions"]["roles"].as_array().is_none_or(Vec::is_empty));
    }
}

#[tokio::test]
async fn other_bots_and_non_game_threads_are_ignored() {
    let rig = Rig::start().await;
    let alice = Who::player(101, "Alice");
    let thread = rig.start_game(&alice).await;
    let from = rig.fake.call_count();
    let other_bot = Who { bot: true, ..Who::player(300, "OtherBot") };
    rig.fake.say(thread, &other_bot, "Was the gunner alone?").unwrap();
    rig.fake.say(CHANNEL, &alice, "Was the gunner alone?").unwrap();
    // A later human message is answered, and it is the only answer.
    rig.fake.say(thread, &alice, "Did the watch matter?").unwrap();
    let posts = rig.wait_posts(thread, from, 1).await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(rig.posts_in(thread, from).len(), 1, "{posts:?}");
    assert!(rig.posts_in(CHANNEL, from).is_empty());
}

#[tokio::test]
async fn turns_are_rate_limited_per_user_with_a_friendly_note() {
    let settings = DiscordSettings { turns_per_window: 2, window_secs: 60, ..DiscordSettings::default() };
    let rig = Rig::with(rules(), settings).await;
    let (alice, bob) = (Who::player(101, "Alice"), Who::player(102, "Bob"));
    let thread = rig.start_game(&alice).await;
    let from = rig.fake.call_count();
    rig.fake.say(thread, &alice, "Was the gunner alone?").unwrap();
    rig.wait_posts(thread, from, 1).await;
    rig.fake.say(thread, &alice, "Did the watch matter?").unwrap();
    rig.wait_posts(thread, from, 2).await;
    let third = rig.fake.say(thread, &alice, "Was it raining?").unwrap();
    let reaction = format!("/channels/{thread}/messages/{third}/reactions/");
    rig.fake.wait_for(|c| c.is("PUT", &reaction), super::WAIT).await.unwrap();
    let ask =
        rig.fake.slash(thread, &alice, "soup", &["ask"], &[Opt::Text("question", "Was it night?".into())]).unwrap();
    let note = rig.reply_to(ask).await;
    assert!(is_private(&note) && note.text().contains("another turn in"), "{}", note.text());
    // Bob is not limited by Alice's turns; status is not a limited turn.
    let from = rig.fake.call_count();
    rig.fake.say(thread, &bob, "Was it raining?").unwrap();
    rig.wait_posts(thread, from, 1).await;
    let status = rig.fake.slash(thread, &alice, "soup", &["status"], &[]).unwrap();
    assert!(!is_private(&rig.reply_to(status).await));
}

#[tokio::test]
async fn errors_reach_the_user_as_one_friendly_private_line() {
    let rig = Rig::start().await;
    let moderator = Who::moderator(201, "Mod");
    // An option of the wrong type (a client out of date): the framework's
    // parse error becomes one friendly line, not a stack of details.
    let id = rig
        .fake
        .slash(CHANNEL, &moderator, "soup-admin", &["config", "hint-limit"], &[Opt::Text("limit", "many".into())])
        .unwrap();
    let reply = rig.reply_to(id).await;
    assert!(is_private(&reply), "{:?}", reply.body);
    assert_eq!(reply.text(), "I couldn't read that option; please check it and try again.");
    let ask = rig.fake.slash(CHANNEL, &moderator, "soup", &["ask"], &[Opt::Text("question", "Hello?".into())]).unwrap();
    let reply = rig.reply_to(ask).await;
    assert!(is_private(&reply) && reply.text().contains("Start one with `/soup start`"), "{}", reply.text());
}

#[tokio::test]
async fn long_replies_are_split_below_two_thousand_characters() {
    let rig = Rig::with(rules(), DiscordSettings { turns_per_window: 0, ..DiscordSettings::default() }).await;
    let alice = Who::player(101, "Alice");
    let thread = rig.start_game(&alice).await;
    for i in 0..40 {
        let q = format!("Question number {i}: was there something important about the long winding harbour road?");
        let id = rig.fake.slash(thread, &alice, "soup", &["ask"], &[Opt::Text("question", q)]).unwrap();
        rig.reply_to(id).await;
    }
    let history = rig.fake.slash(thread, &alice, "soup", &["history"], &[]).unwrap();
    let pieces = rig.replies_to(history, 2).await;
    for piece in &pieces {
        assert!(piece.text().chars().count() <= 2_000, "{}", piece.text().chars().count());
    }
}
