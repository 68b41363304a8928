//! The Interactions Endpoint URL: Discord POSTs signed interactions and the
//! bot's first response can be the HTTP response. A whole game through it,
//! private refusals in the response, commands that answer through REST,
//! and requests that are unsigned, forged or not interactions at all.

use echoes::discord::endpoint::{SIGNATURE_HEADER, TIMESTAMP_HEADER};
use echoes::discord::fake::{Call, Opt, Who};

use super::{CHANNEL, Rig, is_private};

/// The callbacks (inline or REST) answering interaction `id`.
fn acks_of(rig: &Rig, id: u64) -> Vec<Call> {
    let prefix = format!("/interactions/{id}/");
    rig.fake.calls().into_iter().filter(|c| c.is("POST", &prefix) && c.path.ends_with("/callback")).collect()
}

#[tokio::test]
async fn a_whole_game_through_the_interactions_endpoint() {
    let rig = Rig::via_endpoint().await;
    let (alice, bob, carol) = (Who::player(101, "Alice"), Who::player(102, "Bob"), Who::player(103, "Carol"));
    let thread = rig.start_game(&alice).await;

    // Three players ask at once; each is acknowledged in its HTTP response.
    let ask =
        |who: &Who, q: &str| rig.fake.slash(thread, who, "soup", &["ask"], &[Opt::Text("question", q.into())]).unwrap();
    let ids =
        [ask(&alice, "Was the gunner alone?"), ask(&bob, "Was it about a watch?"), ask(&carol, "Is it the watch?")];
    for (id, expected) in ids.iter().zip(["NO", "YES", "YES"]) {
        let reply = rig.reply_to(*id).await;
        assert!(reply.text().starts_with(expected), "{}", reply.text());
        let acks = acks_of(&rig, *id);
        assert_eq!(acks.len(), 1, "one first response: {acks:?}");
        assert!(acks[0].inline && acks[0].body["type"] == 5, "a deferral in the HTTP response: {:?}", acks[0]);
    }

    // The Hint button, then the full story.
    let press = rig.fake.press(thread, &bob, "soup:hint").unwrap();
    assert!(rig.reply_to(press).await.text().contains("Hint 1/3"));
    assert!(acks_of(&rig, press).iter().all(|c| c.inline), "the button is acknowledged inline too");
    let win = rig
        .fake
        .slash(thread, &carol, "soup", &["guess"], &[Opt::Text("story", "FULL: the chronometer".into())])
        .unwrap();
    let solved = rig.reply_to(win).await;
    assert!(solved.text().contains("Solved by Carol"), "{}", solved.text());
    let transcript = rig.wait_posts(thread, 0, 2).await;
    assert!(transcript.iter().any(|p| !p.files.is_empty()), "the wrap-up with its transcript");
    // Nothing went through the REST callback route.
    assert!(rig.fake.calls().iter().filter(|c| c.path.ends_with("/callback")).all(|c| c.inline));
}

#[tokio::test]
async fn a_refusal_is_private_in_the_http_response() {
    let rig = Rig::via_endpoint().await;
    let id = rig
        .fake
        .slash(CHANNEL, &Who::player(101, "Alice"), "soup", &["ask"], &[Opt::Text("question", "Anyone?".into())])
        .unwrap();
    let reply = rig.reply_to(id).await;
    assert!(reply.inline && is_private(&reply), "{reply:?}");
    assert!(reply.text().contains("no game in this thread"), "{}", reply.text());
}

#[tokio::test]
async fn commands_that_answer_through_rest_still_work() {
    let rig = Rig::via_endpoint().await;
    // `/soup help` answers with poise's own reply (the callback route); the
    // POST was answered 202 and nothing is lost.
    let id = rig.fake.slash(CHANNEL, &Who::player(101, "Alice"), "soup", &["help"], &[]).unwrap();
    let reply = rig.reply_to(id).await;
    assert!(!reply.inline && is_private(&reply), "{reply:?}");
    assert!(reply.text().contains("/soup ask"), "{}", reply.text());
    // And a non-moderator is refused an admin verb the same way.
    let thread = rig.start_game(&Who::player(101, "Alice")).await;
    let id = rig.fake.slash(thread, &Who::player(666, "Mallory"), "soup-admin", &["end"], &[]).unwrap();
    let reply = rig.reply_to(id).await;
    assert!(is_private(&reply) && reply.text().contains("Only moderators"), "{}", reply.text());
}

#[tokio::test]
async fn unsigned_forged_and_malformed_requests_are_refused() {
    let rig = Rig::via_endpoint().await;
    let url = rig.interactions_url();
    let client = reqwest::Client::new();
    let prepared = rig.fake.prepare_slash(CHANNEL, &Who::player(101, "Alice"), "soup", &["help"], &[]).unwrap();
    let body = prepared.json().to_string();
    let before = rig.fake.call_count();
    let now = echoes::discord::endpoint::unix_now().to_string();
    let post = |body: String, signature: Option<String>| {
        let mut request = client.post(&url).header(TIMESTAMP_HEADER, now.clone()).body(body);
        if let Some(signature) = signature {
            request = request.header(SIGNATURE_HEADER, signature);
        }
        request.send()
    };

    let unsigned = post(body.clone(), None).await.unwrap();
    assert_eq!(unsigned.status(), 401);
    let forged = rig.fake.sign(&now, b"something else");
    assert_eq!(post(body.clone(), Some(forged)).await.unwrap().status(), 401);
    assert_eq!(post(body.clone(), Some("zz".into())).await.unwrap().status(), 401, "not hex");
    // Correctly signed long ago: a replay.
    let stale = (now.parse::<u64>().unwrap() - 3_600).to_string();
    let replayed = client
        .post(&url)
        .header(TIMESTAMP_HEADER, stale.clone())
        .header(SIGNATURE_HEADER, rig.fake.sign(&stale, body.as_bytes()))
        .body(body.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(replayed.status(), 401);

    // Signed, but not an interaction: 400, and the bot carries on.
    let junk = "{\"type\": 99, \"nonsense\": true}".to_string();
    let signed = rig.fake.sign(&now, junk.as_bytes());
    assert_eq!(post(junk, Some(signed)).await.unwrap().status(), 400);

    // Discord's PING when the URL is saved in the portal: PONG.
    let ping = r#"{"id":"1","application_id":"2","type":1,"token":"t","version":1}"#.to_string();
    let signed = rig.fake.sign(&now, ping.as_bytes());
    let pong = post(ping, Some(signed)).await.unwrap();
    assert_eq!(pong.status(), 200);
    assert_eq!(pong.json::<serde_json::Value>().await.unwrap(), serde_json::json!({"type": 1}));

    // None of those reached a command.
    assert_eq!(rig.fake.call_count(), before, "{:#?}", rig.fake.calls_since(before));
}
