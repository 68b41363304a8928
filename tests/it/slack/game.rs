//! Whole games through both connection modes: start, three users asking
//! in one thread, a button, a guess, the reveal, the transcript snippet and
//! `/soup transcript`'s file.

use std::sync::Arc;
use std::time::Duration;

use echoes::slack::SlackSettings;
use echoes::slack::fake::Call;

use super::{CHANNEL, WAIT, game};

/// The buttons Turtle Soup's declaration puts under its intro.
const BUTTON_HINT: &str = "soup:hint";
const BUTTON_STATUS: &str = "soup:status";
const BUTTON_GIVEUP: &str = "soup:giveup";

async fn whole_game(socket: bool) {
    let g = game(socket).await;
    let intro = g.rig.fake.calls_to("chat.update");
    let blocks = intro[0].body["blocks"].to_string();
    for id in [BUTTON_HINT, BUTTON_STATUS, BUTTON_GIVEUP] {
        assert!(blocks.contains(id), "intro without {id}: {blocks}");
    }
    g.say("Ev1", "UALICE", "Was he alone?").await;
    g.say("Ev2", "UBOB", "Was there a watch?").await;
    g.say("Ev3", "UCAROL", "Did the weather matter?").await;
    let answers = g.answers(3).await;
    assert!(answers.iter().any(|a| a.contains("🔴")), "a NO verdict: {answers:?}");
    assert!(answers.iter().any(|a| a.contains("🟢")), "a YES verdict: {answers:?}");
    assert_eq!(g.thinking_posts(), 3, "each turn posts one thinking message, updated in place");
    g.press("trig-hint", "UBOB", BUTTON_HINT).await;
    g.answers(4).await;
    // No transcript while the game is on (it holds the story).
    g.command("trig-transcript-early", "UBOB", "transcript").await;
    g.told("UBOB", "is still on: its transcript is here once it ends").await;
    g.command("trig-guess", "UCAROL", "guess FULL the whole story").await;
    let over = |c: &Call| c.method == "chat.postMessage" && c.text().contains("Game over");
    let calls = g.rig.fake.wait_for_count("the reveal", 1, WAIT, over).await.unwrap();
    let summary = calls.iter().find(|c| over(c)).unwrap();
    assert_eq!(summary.thread_ts(), Some(g.thread.as_str()), "the wrap-up is in the thread");
    let text = summary.text();
    assert!(text.contains("```") && text.contains("UALICE"), "a transcript snippet: {text}");
    assert!(
        g.rig
            .fake
            .calls_to("chat.update")
            .iter()
            .any(|c| c.text().contains("🎉") || c.text().to_lowercase().contains("solved"))
    );
    // A player's record in this workspace (by mention), and everyone's board.
    g.command("trig-stats", "UBOB", "stats <@UCAROL|carol>").await;
    let stats = |c: &Call| c.method == "chat.postMessage" && c.text().contains("finished in this workspace");
    let calls = g.rig.fake.wait_for_count("the stats", 1, WAIT, stats).await.unwrap();
    let text = calls.iter().find(|c| stats(c)).unwrap().text();
    assert!(text.contains("UCAROL") && text.contains("1 game finished in this workspace, 1 solved (100%)"), "{text}");
    g.command("trig-board", "UBOB", "leaderboard global").await;
    let board = |c: &Call| c.method == "chat.postMessage" && c.text().contains("Leaderboard · everywhere");
    g.rig.fake.wait_for_count("the board", 1, WAIT, board).await.unwrap();
    // The whole game as a Markdown file, shared in the channel.
    g.command("trig-transcript", "UBOB", "transcript").await;
    let shared = |c: &Call| c.method == "files.completeUploadExternal";
    let calls = g.rig.fake.wait_for_count("the transcript", 1, WAIT, shared).await.unwrap();
    let comment = calls.iter().find(|c| shared(c)).unwrap().body["initial_comment"].to_string();
    assert!(comment.contains("The transcript of *Seven Minutes Late*"), "{comment}");
    let files = g.rig.fake.shared_files();
    let [(_, file)] = files.as_slice() else { panic!("one file shared: {files:?}") };
    assert!(file.name.starts_with("transcript-en-noon-gun-") && file.name.ends_with(".md"), "{}", file.name);
    assert_eq!(file.shared, Some((CHANNEL.to_string(), None)));
    let text = String::from_utf8(file.bytes.clone().unwrap()).unwrap();
    for expected in ["# Seven Minutes Late", "## Surface", "Was he alone?", "/hint", "## The story", "- [x]"] {
        assert!(text.contains(expected), "{expected:?} missing from:\n{text}");
    }
    // Carol has the bot forget her, confirming with the button.
    g.command("trig-forget", "UCAROL", "forget-me").await;
    let asked = |c: &Call| c.method == "chat.postEphemeral" && c.text().contains("Press the button to confirm");
    g.rig.fake.wait_for_count("the question", 1, WAIT, asked).await.unwrap();
    g.press("trig-forget-yes", "UCAROL", "soup_forget_me").await;
    let done = |c: &Call| c.method == "chat.postEphemeral" && c.text().contains("your record starts afresh");
    g.rig.fake.wait_for_count("the erase", 1, WAIT, done).await.unwrap();
    g.command("trig-stats-2", "UBOB", "stats <@UCAROL>").await;
    let none = |c: &Call| c.method == "chat.postMessage" && c.text().contains("has not finished a Turtle Soup game");
    g.rig.fake.wait_for_count("no record", 1, WAIT, none).await.unwrap();
    // The thread plays nothing once the game is over.
    g.say("Ev9", "UALICE", "Is it over?").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(g.thinking_posts(), 5);
    g.rig.stop().await;
}

#[tokio::test]
async fn a_whole_game_over_socket_mode() {
    whole_game(true).await;
}

#[tokio::test]
async fn a_whole_game_over_the_events_api() {
    whole_game(false).await;
}

#[tokio::test]
async fn socket_mode_acks_every_envelope_before_the_turn_is_played() {
    let g = game(true).await;
    g.say("EvAck", "UALICE", "Was he alone?").await;
    let latency = g.rig.fake.wait_ack("EvAck", WAIT).await.unwrap();
    assert!(latency < Duration::from_secs(1), "{latency:?}");
    assert!(g.rig.fake.ack_latency("trig-start").is_some(), "the slash command was acknowledged");
    g.answers(1).await;
    g.rig.stop().await;
}

#[tokio::test]
async fn a_disconnect_envelope_mid_game_reconnects_and_the_game_goes_on() {
    let g = game(true).await;
    g.say("EvD1", "UALICE", "Was he alone?").await;
    g.answers(1).await;
    let before = g.rig.fake.connections_opened();
    g.rig.fake.send_frame(&echoes::slack::fake::payloads::disconnect("refresh_requested")).unwrap();
    g.rig.fake.wait_connections(before + 1, WAIT).await.unwrap();
    let opens = g.rig.fake.calls_to("apps.connections.open").len();
    assert!(opens >= 2, "the bot asked for a new URL: {opens}");
    g.say("EvD2", "UBOB", "Was there a watch?").await;
    g.answers(2).await;
    g.rig.stop().await;
}

#[tokio::test]
async fn help_lists_every_slack_verb_and_unknown_verbs_get_a_help_line() {
    let g = game(true).await;
    g.command("trig-help", "UALICE", "help").await;
    let help = g.told("UALICE", "/soup ask").await;
    for verb in ["start", "guess", "hint", "giveup", "leaderboard", "admin reveal", "admin config model"] {
        assert!(help.contains(verb), "{verb} missing: {help}");
    }
    g.command("trig-dance", "UALICE", "dance").await;
    g.told("UALICE", "/soup help").await;
    g.rig.stop().await;
}

#[tokio::test]
async fn people_are_shown_by_their_display_names_looked_up_once() {
    let (rig, _dir) = super::rig(Arc::new(crate::discord::rules()), SlackSettings::default(), true).await;
    rig.fake.set_user("UANN", "Ann Lee");
    let ann = rig.bot.player("UANN").await;
    assert_eq!((ann.id.as_str(), ann.name.as_str()), ("slack:UANN", "Ann Lee"));
    rig.bot.player("UANN").await;
    assert_eq!(rig.fake.calls_to("users.info").len(), 1, "the name is kept, not looked up again");
    let stranger = rig.bot.player("UNOBODY").await;
    assert_eq!(stranger.name, "UNOBODY", "without a name (or the users:read scope) the id is shown");
}
