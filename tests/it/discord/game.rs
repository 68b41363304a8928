//! A whole game in a thread: start, questions from three players at once
//! (messages and `/soup ask`), the Hint button, a partial then a full
//! guess, the reveal, who found what, scores and the transcript file.

use echoes::core::guild::GuildStore;
use echoes::discord::fake::{Opt, Who};
use echoes::store::SqlStore;

use super::{CHANNEL, Rig, colour, is_private};

/// Whether a posted message replies to message `id`.
fn answers(post: &echoes::discord::fake::Call, id: u64) -> bool {
    post.body["message_reference"]["message_id"].as_str().and_then(|s| s.parse::<u64>().ok()) == Some(id)
}

#[tokio::test]
async fn a_whole_game_with_three_players_in_one_thread() {
    let rig = Rig::start().await;
    let (alice, bob, carol) = (Who::player(101, "Alice"), Who::player(102, "Bob"), Who::player(103, "Carol"));
    let thread = rig.start_game(&alice).await;

    // The intro: the surface as an embed with Hint / Status / Give up.
    let intro = &rig.posts_in(thread, 0)[0];
    assert!(intro.text().contains("seven minutes late"), "{}", intro.text());
    let buttons: Vec<&str> = intro.body["components"][0]["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["custom_id"].as_str().unwrap())
        .collect();
    assert_eq!(buttons, ["soup:hint", "soup:status", "soup:giveup"]);

    // Three players at once: two messages and a slash command.
    let from = rig.fake.call_count();
    let a = rig.fake.say(thread, &alice, "Was the gunner alone?").unwrap();
    let c = rig.fake.say(thread, &carol, "Did the watch matter?").unwrap();
    let b = rig
        .fake
        .slash(thread, &bob, "soup", &["ask"], &[Opt::Text("question", "Was it about a watch?".into())])
        .unwrap();
    let posts = rig.wait_posts(thread, from, 2).await;
    let answer_to = |id: u64| posts.iter().find(|p| answers(p, id)).unwrap();
    assert!(answer_to(a).text().starts_with("NO"), "{}", answer_to(a).text());
    assert_eq!(colour(answer_to(a)), Some(0xE74C3C), "NO is red");
    assert!(answer_to(c).text().starts_with("YES"));
    assert_eq!(colour(answer_to(c)), Some(0x2ECC71), "YES is green");
    let slash = rig.reply_to(b).await;
    assert!(slash.text().starts_with("YES") && !is_private(&slash), "{}", slash.text());
    // A message turn shows the typing indicator while it runs.
    assert!(rig.fake.calls_since(from).iter().any(|c| c.is("POST", &format!("/channels/{thread}/typing"))));

    // The Hint button.
    let press = rig.fake.press(thread, &bob, "soup:hint").unwrap();
    let hint = rig.reply_to(press).await;
    assert!(hint.text().contains("Hint 1/3"), "{}", hint.text());

    // A partial guess, then the full story.
    let from = rig.fake.call_count();
    let g = rig
        .fake
        .slash(thread, &carol, "soup", &["guess"], &[Opt::Text("story", "PARTIAL chronometer".into())])
        .unwrap();
    assert!(rig.reply_to(g).await.text().contains("1 of 4 key facts"));
    let win = rig.fake.say(thread, &alice, "My guess: FULL, he set the chronometer by the late gun").unwrap();
    let posts = rig.wait_posts(thread, from, 2).await;
    let solved = posts.iter().find(|p| answers(p, win)).unwrap();
    assert!(solved.text().contains("Solved by Alice"), "{}", solved.text());
    assert!(solved.text().contains("chronometer"), "the reveal shows the story");

    // The wrap-up: who found which fact, scores, the transcript file.
    let summary = posts.iter().find(|p| !p.files.is_empty()).expect("a summary with the transcript");
    let text = summary.text();
    assert!(text.contains("found by Carol") && text.contains("found by Alice"), "{text}");
    assert!(text.contains("Scores") && text.contains("Alice:"), "{text}");
    let (name, bytes) = &summary.files[0];
    assert_eq!(name, "transcript-en-noon-gun.md");
    let transcript = String::from_utf8(bytes.clone()).unwrap();
    for expected in ["# Seven Minutes Late", "**Bob**: Was it about a watch?", "/hint", "## The story", "- [x]"] {
        assert!(transcript.contains(expected), "{expected:?} missing from:\n{transcript}");
    }

    // The thread is unbound; more messages there are ignored.
    let store = SqlStore::open(rig.database()).await.unwrap();
    let binding = store.thread_binding(&format!("discord:{thread}")).await.unwrap().unwrap();
    assert!(!binding.is_active());
    let from = rig.fake.call_count();
    let late = rig.fake.slash(thread, &bob, "soup", &["status"], &[]).unwrap();
    let refused = rig.reply_to(late).await;
    assert!(is_private(&refused) && refused.text().contains("no game in this thread"), "{}", refused.text());
    assert!(rig.posts_in(thread, from).is_empty());

    // The transcript, any time after the game: asked in its thread, a file.
    let asked = rig.fake.slash(thread, &carol, "soup", &["transcript"], &[]).unwrap();
    let reply = rig.reply_to(asked).await;
    assert!(reply.text().contains("The transcript of **Seven Minutes Late**"), "{}", reply.text());
    let (name, bytes) = reply.files.first().expect("the transcript file");
    assert!(name.starts_with("transcript-en-noon-gun-") && name.ends_with(".md"), "{name}");
    assert_eq!(String::from_utf8(bytes.clone()).unwrap(), transcript, "the same file as at the end");
    // Where no game has ended, it says so, privately.
    let none = rig.fake.slash(CHANNEL, &carol, "soup", &["transcript"], &[]).unwrap();
    let none = rig.reply_to(none).await;
    assert!(is_private(&none) && none.text().contains("No game has ended in this thread yet"), "{}", none.text());

    // This server's board, everyone's, and a player's record here.
    let board = rig.fake.slash(CHANNEL, &bob, "soup", &["leaderboard"], &[]).unwrap();
    let board = rig.reply_to(board).await.text();
    assert!(board.contains("Leaderboard · on this server") && board.contains("Alice"), "{board}");
    let global = rig.fake.slash(CHANNEL, &bob, "soup", &["leaderboard"], &[Opt::Int("scope", 1)]).unwrap();
    assert!(rig.reply_to(global).await.text().contains("Leaderboard · everywhere"));
    let stats = rig.fake.slash(CHANNEL, &alice, "soup", &["stats"], &[]).unwrap();
    let stats = rig.reply_to(stats).await.text();
    assert!(stats.contains("1 game finished on this server, 1 solved (100%)"), "{stats}");
    assert!(
        stats.contains("most played: medium")
            || stats.contains("most played: easy")
            || stats.contains("most played: hard"),
        "{stats}"
    );

    // Alice has the bot forget her: asked first, privately, with a button.
    let ask = rig.fake.slash(CHANNEL, &alice, "soup", &["forget-me"], &[]).unwrap();
    let ask = rig.reply_to(ask).await;
    assert!(is_private(&ask) && ask.text().contains("Press the button to confirm"), "{}", ask.text());
    let press = rig.fake.press(CHANNEL, &alice, "soup:forget-me").unwrap();
    let done = rig.reply_to(press).await;
    assert!(is_private(&done) && done.text().contains("your record starts afresh"), "{}", done.text());
    let stats = rig.fake.slash(CHANNEL, &alice, "soup", &["stats"], &[]).unwrap();
    assert!(rig.reply_to(stats).await.text().contains("has not finished a Turtle Soup game"));
    let board = rig.fake.slash(CHANNEL, &bob, "soup", &["leaderboard"], &[]).unwrap();
    let board = rig.reply_to(board).await.text();
    assert!(!board.contains("Alice") && board.contains("Carol"), "{board}");
}

#[tokio::test]
async fn a_second_start_in_a_game_thread_says_so_and_channel_starts_open_threads() {
    let rig = Rig::start().await;
    let alice = Who::player(101, "Alice");
    let thread = rig.start_game(&alice).await;
    let again = rig.fake.slash(thread, &alice, "soup", &["start"], &[]).unwrap();
    let reply = rig.reply_to(again).await;
    assert!(is_private(&reply), "refusals are private");
    assert!(reply.text().contains("already has a game"), "{}", reply.text());
    let second = rig.start_game(&alice).await;
    assert_ne!(second, thread);
    let created = rig.fake.calls().into_iter().find(|c| c.is("POST", &format!("/channels/{CHANNEL}/threads"))).unwrap();
    assert_eq!(created.body["name"], "🐢 Seven Minutes Late");
    assert_eq!(created.body["type"], 11, "a public thread");
}

#[tokio::test]
async fn giving_up_by_button_reveals_and_help_lists_the_catalogue() {
    let rig = Rig::start().await;
    let alice = Who::player(101, "Alice");
    let thread = rig.start_game(&alice).await;
    let help = rig.fake.slash(thread, &alice, "soup", &["help"], &[]).unwrap();
    let text = rig.reply_to(help).await.text();
    assert!(text.contains("/soup ask <question>") && text.contains("/soup-admin puzzle add <file>"), "{text}");
    let from = rig.fake.call_count();
    let press = rig.fake.press(thread, &alice, "soup:giveup").unwrap();
    let reply = rig.reply_to(press).await;
    assert!(reply.text().contains("You gave up") && reply.text().contains("chronometer"), "{}", reply.text());
    let posts = rig.wait_posts(thread, from, 1).await;
    assert!(posts[0].text().contains("No points this time"), "{}", posts[0].text());
}

#[tokio::test]
async fn ai_players_ask_in_the_thread_a_few_seconds_after_a_human_never_flooding() {
    let clock = crate::engine::ManualClock::starting_at(1_000_000);
    let model = super::rules().with_others(&[("You are a player", "Was the watch broken?")]);
    let rig = Rig::with_tables(model, clock.clone()).await;
    let alice = Who::player(301, "Alice");
    let before = rig.fake.threads().len();
    let options = [Opt::Text("puzzle", super::PUZZLE.into()), Opt::Int("ai_players", 1)];
    let id = rig.fake.slash(CHANNEL, &alice, "soup", &["start"], &options).unwrap();
    rig.reply_to(id).await;
    let thread = rig.fake.threads()[before];
    let asked = rig.fake.say(thread, &alice, "Was the gunner alone?").unwrap();
    rig.fake
        .wait_for(
            |c| c.path.contains(&thread.to_string()) && c.body.to_string().contains(&asked.to_string()),
            super::WAIT,
        )
        .await
        .unwrap();
    let from = rig.fake.call_count();
    // Nothing before the delay; then one AI question with its verdict.
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    assert!(rig.posts_in(thread, from).is_empty(), "the AI player waits");
    clock.advance_to(1_000_000 + 10_000);
    rig.fake.wait_for(|c| c.text().contains("Ada 🤖: Was the watch broken?"), super::WAIT).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let ai_posts = rig.posts_in(thread, from).iter().filter(|c| c.text().contains("🤖")).count();
    assert_eq!(ai_posts, 1, "one AI player asks once until a human speaks again");
}
