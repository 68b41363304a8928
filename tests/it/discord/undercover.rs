//! Who is the Undercover on Discord, a whole game through the fake: three
//! humans and three AI seats, the words delivered privately (an ephemeral
//! follow-up to the host, a DM to Bob, a pointer to `/undercover word` for
//! Carol whose DMs are closed), a description that says the word refused,
//! a tie and its run-off, a restart during the run-off with a vote Discord
//! delivers twice, and the end with every word and role shown.

use echoes::bot::instant::InstantModel;
use echoes::discord::fake::{CHANNEL, Call, Opt, Who};

use super::{Rig, WAIT, is_private, rules};
use crate::engine::ManualClock;

/// AI seats vote for seat 1 and describe with a harmless line.
pub fn seat_model() -> InstantModel {
    let base = rules();
    base.with_others(&[
        ("seat number only", "1"),
        ("只回答座位号", "1"),
        ("describes", "People have opinions about it."),
        ("Write ONE short line", "People have opinions about it."),
    ])
}

fn texts(calls: &[Call]) -> String {
    calls.iter().map(Call::text).collect::<Vec<_>>().join("\n---\n")
}

/// The word in a "Your word: **…**" message.
fn word_in(text: &str) -> Option<String> {
    let start = text.find("Your word: **")? + "Your word: **".len();
    let rest = &text[start..];
    Some(rest[..rest.find("**")?].to_string())
}

#[tokio::test]
async fn undercover_plays_on_discord_with_ai_seats_a_runoff_and_a_restart() {
    let clock = ManualClock::starting_at(5_000_000);
    let mut rig = Rig::with_tables(seat_model(), clock.clone()).await;
    let (alice, bob, carol) = (Who::player(201, "Alice"), Who::player(202, "Bob"), Who::player(203, "Carol"));
    rig.fake.close_dms(carol.id);

    let before = rig.fake.threads().len();
    let id = rig.fake.slash(CHANNEL, &alice, "undercover", &["start"], &[Opt::Int("ai_seats", 3)]).unwrap();
    assert!(rig.reply_to(id).await.text().contains("lobby is open"));
    let thread = rig.fake.threads()[before];
    for who in [&bob, &carol] {
        let id = rig.fake.slash(thread, who, "undercover", &["join"], &[]).unwrap();
        let text = rig.reply_to(id).await.text();
        assert!(text.contains("lobby"), "{text}");
    }
    let status = rig.fake.slash(thread, &bob, "undercover", &["status"], &[]).unwrap();
    let lobby = rig.reply_to(status).await.text();
    assert!(lobby.contains("6/12 seats") && lobby.contains("#1 Alice") && lobby.contains("#6 Carol"), "{lobby}");
    assert!(lobby.contains("#2 AI 1 🤖"), "AI seats are named as AI: {lobby}");

    // Bob may not start; Alice (the host) does.
    let id = rig.fake.slash(thread, &bob, "undercover", &["begin"], &[]).unwrap();
    assert!(rig.reply_to(id).await.text().contains("Only the host"));
    let from = rig.fake.call_count();
    let id = rig.fake.slash(thread, &alice, "undercover", &["begin"], &[]).unwrap();
    let replies = rig.replies_to(id, 2).await;
    let hers = replies
        .iter()
        .find(|c| word_in(&c.text()).is_some())
        .unwrap_or_else(|| panic!("alice's word: {}", texts(&replies)));
    assert!(is_private(hers), "the host's word is ephemeral: {:?}", hers.body);
    let alice_word = word_in(&hers.text()).unwrap();
    rig.fake.wait_for(|c| c.path.contains("/channels/") && word_in(&c.text()).is_some(), WAIT).await.unwrap();
    let to_bob = rig.fake.dms_to(bob.id, from);
    assert_eq!(to_bob.len(), 1, "one DM to Bob");
    let bob_word = word_in(&to_bob[0].text()).unwrap();
    let posts = rig.wait_posts(thread, from, 1).await;
    let shown: Vec<Call> = replies.iter().filter(|c| !is_private(c)).cloned().chain(posts).collect();
    let public = texts(&shown);
    assert!(public.contains("/undercover word"), "Carol is told how to see her word: {public}");
    assert!(public.contains("Round 1") && public.contains("#1 Alice, describe"), "{public}");
    assert!(public.contains("⏳ <t:5090:R>"), "the describe deadline counts down live: {public}");
    assert!(!public.contains(&alice_word) && !public.contains(&bob_word), "no word in the thread: {public}");

    // Carol asks for her word: it comes back only to her.
    let id = rig.fake.slash(thread, &carol, "undercover", &["word"], &[]).unwrap();
    let got = rig.replies_to(id, 2).await;
    assert!(got.iter().all(is_private), "{}", texts(&got));
    assert!(got.iter().any(|c| word_in(&c.text()).is_some()));

    // Saying your own word is refused and posts nothing.
    let from = rig.fake.call_count();
    let cheat = format!("It is {alice_word}, obviously");
    let id = rig.fake.slash(thread, &alice, "undercover", &["describe"], &[Opt::Text("text", cheat)]).unwrap();
    let refusal = rig.reply_to(id).await;
    assert!(is_private(&refusal) && refusal.text().contains("too close to a secret word"), "{}", refusal.text());
    assert!(rig.posts_in(thread, from).is_empty());
    let said = Opt::Text("text", "I have an opinion about it.".into());
    let id = rig.fake.slash(thread, &alice, "undercover", &["describe"], &[said]).unwrap();
    assert!(rig.reply_to(id).await.text().contains("#1 Alice: “I have an opinion about it.”"));
    // The three AI seats describe on their own, then it is Bob's turn.
    rig.fake.wait_for(|c| c.text().contains("Next: #5 Bob"), WAIT).await.unwrap();
    let early = rig.fake.slash(thread, &carol, "undercover", &["describe"], &[Opt::Text("text", "hm".into())]).unwrap();
    assert!(rig.reply_to(early).await.text().contains("#5 Bob's turn"));
    for who in [&bob, &carol] {
        let line = Opt::Text("text", "Many people like it.".into());
        let id = rig.fake.slash(thread, who, "undercover", &["describe"], &[line]).unwrap();
        rig.reply_to(id).await;
    }
    let ballot = rig.fake.wait_for(|c| c.text().contains("Vote now"), WAIT).await.unwrap();
    let buttons = ballot.body["components"]
        .as_array()
        .map_or(0, |rows| rows.iter().map(|r| r["components"].as_array().map_or(0, Vec::len)).sum::<usize>());
    assert_eq!(buttons, 6, "one vote button per living seat: {:?}", ballot.body);
    // The AI seats all vote for seat 1; the humans all vote for seat 2: a tie.
    rig.fake.wait_for(|c| c.text().contains("3/6 have voted"), WAIT).await.unwrap();
    let own = rig.fake.slash(thread, &alice, "undercover", &["vote"], &[Opt::Text("choice", "1".into())]).unwrap();
    assert!(rig.reply_to(own).await.text().contains("can't vote for yourself"));
    for who in [&alice, &bob] {
        let id = rig.fake.slash(thread, who, "undercover", &["vote"], &[Opt::Text("choice", "2".into())]).unwrap();
        let acks = rig.replies_to(id, 2).await;
        assert!(acks.iter().all(is_private), "a vote is acknowledged privately: {}", texts(&acks));
    }
    let from = rig.fake.call_count();
    let press = rig.fake.press(thread, &carol, "table:vote:2").unwrap();
    rig.replies_to(press, 2).await;
    let runoff = rig.fake.wait_for(|c| c.text().contains("Deciding vote"), WAIT).await.unwrap();
    let text = texts(&rig.posts_in(thread, from));
    assert!(text.contains("Equal votes for #1 Alice, #2 AI 1 🤖"), "{text}");
    assert!(text.contains("#5 Bob → #2 AI 1 🤖") && text.contains("#3 AI 2 🤖 → #1 Alice"), "{text}");
    let runoff_buttons = runoff.body["components"][0]["components"].as_array().map_or(0, Vec::len);
    assert_eq!(runoff_buttons, 2, "the run-off is between the tied seats");

    // The AI seats vote in the run-off (for seat 1 again); Alice for seat 2.
    rig.fake.wait_for_count(|c| c.text().contains("3/6 have voted"), 2, WAIT).await.unwrap();
    let id = rig.fake.slash(thread, &alice, "undercover", &["vote"], &[Opt::Text("choice", "2".into())]).unwrap();
    rig.replies_to(id, 2).await;
    // Bob votes in the run-off; the bot restarts; Discord delivers Bob's vote again.
    let bob_votes =
        rig.fake.prepare_slash(thread, &bob, "undercover", &["vote"], &[Opt::Text("choice", "1".into())]).unwrap();
    let first = rig.fake.send_prepared(bob_votes.clone());
    rig.replies_to(first, 2).await;
    rig.restart().await;
    let from = rig.fake.call_count();
    let again = rig.fake.send_prepared(bob_votes);
    assert!(is_private(&rig.reply_to(again).await), "the repeat is answered privately");
    assert!(texts(&rig.posts_in(thread, from)).is_empty(), "and counts once");

    // Carol's vote closes the run-off: seat 1 (Alice) is out, her role shown.
    let from = rig.fake.call_count();
    let id = rig.fake.slash(thread, &carol, "undercover", &["vote"], &[Opt::Text("choice", "Alice".into())]).unwrap();
    rig.replies_to(id, 2).await;
    let posts = rig.wait_posts(thread, from, 1).await;
    let text = texts(&posts);
    assert!(text.contains("#1 Alice is out"), "{text}");
    assert!(text.contains("Alice was a **civilian**") || text.contains("Alice was a **undercover**"), "{text}");

    // The host ends the game: every word and role is shown.
    let game_over = text.contains("win");
    if !game_over {
        let id = rig.fake.slash(thread, &bob, "undercover", &["end"], &[]).unwrap();
        assert!(rig.reply_to(id).await.text().contains("Only the host"));
        let from = rig.fake.call_count();
        let id = rig.fake.slash(thread, &alice, "undercover", &["end"], &[]).unwrap();
        let end = rig.reply_to(id).await.text();
        let end = if end.contains("Words:") { end } else { texts(&rig.wait_posts(thread, from, 1).await) };
        assert!(end.contains("Words: civilians"), "{end}");
        assert!(end.contains(&alice_word) && end.contains(&bob_word), "{end}");
        assert!(end.contains("#6 Carol ·") && end.contains("Round 1, deciding vote:"), "{end}");
    }
    let stats = rig.fake.slash(thread, &bob, "undercover", &["stats"], &[]).unwrap();
    let stats = rig.reply_to(stats).await.text();
    assert!(stats.contains("No finished games") || stats.contains("Bob"), "{stats}");
}

/// A verb's reply, asserted private.
async fn privately(rig: &Rig, who: &Who, path: &[&str], options: Vec<Opt>) -> String {
    let id = rig.fake.slash(CHANNEL, who, "undercover", path, &options).unwrap();
    let reply = rig.reply_to(id).await;
    assert!(is_private(&reply), "{path:?} is answered privately: {:?}", reply.body);
    reply.text()
}

#[tokio::test]
async fn moderators_add_list_and_remove_the_servers_own_pairs() {
    let rig = Rig::with_tables(seat_model(), ManualClock::starting_at(5_000_000)).await;
    let (moderator, mallory) = (Who::moderator(301, "Mod"), Who::player(302, "Mallory"));
    let pair = |text: &str| vec![Opt::Text("pair", text.into())];
    let refused = privately(&rig, &mallory, &["pairs", "add"], pair("lighthouse / windmill")).await;
    assert!(refused.contains("Only moderators"), "{refused}");
    let refused = privately(&rig, &mallory, &["pairs", "list"], vec![]).await;
    assert!(refused.contains("Only moderators"), "a player may not read the server's words: {refused}");

    let added =
        privately(&rig, &moderator, &["pairs", "add"], pair("lighthouse, lighthouses / windmill, windmills")).await;
    assert!(added.contains("Added `en-server-") && added.contains("lighthouse (lighthouses) / windmill"), "{added}");
    let again = privately(&rig, &moderator, &["pairs", "add"], pair("Lighthouse / Windmill")).await;
    assert!(again.contains("here already"), "the same pair twice: {again}");
    let bundled = privately(&rig, &moderator, &["pairs", "add"], pair("teapot / kettle")).await;
    assert!(bundled.contains("not added") && bundled.contains("en-home-"), "a bundled pair: {bundled}");
    let malformed = privately(&rig, &moderator, &["pairs", "add"], pair("just one word")).await;
    assert!(malformed.contains("civilian word / undercover word"), "{malformed}");
    let zh = privately(&rig, &moderator, &["pairs", "add"], pair("灯塔 / 风车")).await;
    assert!(zh.contains("zh-server-"), "Chinese characters make a Chinese pair: {zh}");

    let list = privately(&rig, &moderator, &["pairs", "list"], vec![]).await;
    assert!(list.contains("lighthouse (lighthouses) / windmill (windmills)") && list.contains("灯塔 / 风车"), "{list}");
    let id = list.split('`').nth(1).unwrap().to_string();
    let removed = privately(&rig, &moderator, &["pairs", "remove"], vec![Opt::Text("id", id.clone())]).await;
    assert!(removed.contains(&format!("Removed `{id}`")), "{removed}");
    let gone = privately(&rig, &moderator, &["pairs", "remove"], vec![Opt::Text("id", id.clone())]).await;
    assert!(gone.contains("There is no"), "{gone}");
    let list = privately(&rig, &moderator, &["pairs", "list"], vec![]).await;
    assert!(!list.contains(&id) && list.contains("灯塔"), "{list}");
}

#[tokio::test]
async fn the_hosts_difficulty_and_undercover_count_reach_the_game_on_discord() {
    let clock = ManualClock::starting_at(5_000_000);
    let rig = Rig::with_tables(seat_model(), clock.clone()).await;
    let alice = Who::player(211, "Alice");
    let bad = [Opt::Text("difficulty", "extreme".into())];
    let id = rig.fake.slash(CHANNEL, &alice, "undercover", &["start"], &bad).unwrap();
    let text = rig.reply_to(id).await.text();
    assert!(text.contains("is not a difficulty: choose easy, medium or hard"), "{text}");
    let crowded = [Opt::Int("seats", 4), Opt::Int("undercovers", 2)];
    let id = rig.fake.slash(CHANNEL, &alice, "undercover", &["start"], &crowded).unwrap();
    assert!(rig.reply_to(id).await.text().contains("2 undercovers need 5 seats at least"));

    let before = rig.fake.threads().len();
    let options = [Opt::Text("difficulty", "hard".into()), Opt::Int("undercovers", 2), Opt::Int("ai_seats", 5)];
    let id = rig.fake.slash(CHANNEL, &alice, "undercover", &["start"], &options).unwrap();
    assert!(rig.reply_to(id).await.text().contains("lobby is open"));
    let thread = rig.fake.threads()[before];
    let from = rig.fake.call_count();
    let id = rig.fake.slash(thread, &alice, "undercover", &["begin"], &[]).unwrap();
    // The table's size is told in the begin's follow-ups or, when the
    // round's announcement goes to the thread, in a post there.
    let mut shown = texts(&rig.replies_to(id, 2).await);
    if !shown.contains("6 seats, 2 undercovers") {
        shown = texts(&rig.wait_posts(thread, from, 1).await);
    }
    assert!(shown.contains("6 seats, 2 undercovers"), "{shown}");
    let from = rig.fake.call_count();
    let id = rig.fake.slash(thread, &alice, "undercover", &["end"], &[]).unwrap();
    let mut end = texts(&rig.replies_to(id, 1).await);
    if !end.contains("Words: civilians") {
        end = texts(&rig.wait_posts(thread, from, 1).await);
    }
    let hard = Some(echoes::core::soup::puzzle::Difficulty::Hard);
    assert_eq!(crate::undercover::shown_difficulty(&end), hard, "{end}");
}
