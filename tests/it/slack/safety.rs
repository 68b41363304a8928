//! The Events API's guards (signatures, stale timestamps, retries, the URL
//! challenge), bots ignored, mentions neutralised, admins checked.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use echoes::bot::instant::InstantModel;
use echoes::core::llm::{ChatRequest, ChatResponse, LlmClient, LlmError};
use echoes::slack::SlackSettings;
use echoes::slack::bench::now_secs;
use echoes::slack::fake::{BOT_ID, BOT_USER, SIGNING_SECRET, payloads};

use super::{CHANNEL, WAIT, game, game_with};

#[tokio::test]
async fn a_retried_event_plays_once() {
    let g = game(false).await;
    let event =
        payloads::message_event(CHANNEL, "EvRetry", "UALICE", "Was he alone?", Some(&g.thread), "1700000600.000001");
    let body = event.to_string();
    let first = g.rig.post_signed("/slack/events", &body, SIGNING_SECRET, now_secs(), None).await.unwrap();
    for n in 1..=3 {
        let retry = g.rig.post_signed("/slack/events", &body, SIGNING_SECRET, now_secs(), Some(n)).await.unwrap();
        assert_eq!(retry.0, 200, "retries are acknowledged");
    }
    assert_eq!(first.0, 200);
    g.answers(1).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(g.thinking_posts(), 1, "one turn for four deliveries");
    g.rig.stop().await;
}

#[tokio::test]
async fn forged_and_stale_requests_are_refused_and_play_nothing() {
    let g = game(false).await;
    let event =
        payloads::message_event(CHANNEL, "EvForged", "UALICE", "Was he alone?", Some(&g.thread), "1700000600.000002");
    let body = event.to_string();
    let forged = g.rig.post_signed("/slack/events", &body, "not-the-secret", now_secs(), None).await.unwrap();
    assert_eq!(forged.0, 401);
    let stale = g.rig.post_signed("/slack/events", &body, SIGNING_SECRET, now_secs() - 6 * 60, None).await.unwrap();
    assert_eq!(stale.0, 401, "a timestamp older than 5 minutes is refused");
    let command = payloads::command_form(&payloads::command(CHANNEL, "UALICE", "hint", "trig-forged"));
    assert_eq!(g.rig.post_signed("/slack/commands", &command, "nope", now_secs(), None).await.unwrap().0, 401);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(g.thinking_posts(), 0, "nothing was played");
    g.rig.stop().await;
}

#[tokio::test]
async fn the_url_verification_challenge_is_answered() {
    let g = game(false).await;
    let body =
        r#"{"token":"t","challenge":"3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P","type":"url_verification"}"#;
    let (status, text) = g.rig.post_signed("/slack/events", body, SIGNING_SECRET, now_secs(), None).await.unwrap();
    assert_eq!((status, text.as_str()), (200, "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P"));
    g.rig.stop().await;
}

#[tokio::test]
async fn messages_from_bots_and_from_itself_are_ignored() {
    let g = game(true).await;
    for (id, bot, user) in [("EvBot1", BOT_ID, BOT_USER), ("EvBot2", "B0OTHER", "U0OTHER")] {
        let event =
            payloads::bot_message_event(CHANNEL, id, bot, user, "Was he alone?", &g.thread, "1700000700.000001");
        g.rig.deliver("events_api", id, event).await.unwrap();
        g.rig.fake.wait_ack(id, WAIT).await.unwrap();
    }
    g.say("EvHuman", "UALICE", "Was he alone?").await;
    g.answers(1).await;
    assert_eq!(g.thinking_posts(), 1, "only the human's message was a turn");
    g.rig.stop().await;
}

/// Judges like `InstantModel`; narrates with pings and Slack tokens.
struct Pinger(InstantModel);

#[async_trait]
impl LlmClient for Pinger {
    fn describe(&self) -> String {
        "pinger".into()
    }

    async fn chat(&self, request: ChatRequest) -> Result<ChatResponse, LlmError> {
        let reply = self.0.chat(request.clone()).await?;
        if request.messages.first().is_some_and(|m| m.content.contains("You are the JUDGE")) {
            return Ok(reply);
        }
        Ok(ChatResponse { text: "<!channel> <!here> <@U0BOSS> <!subteam^S1|all> @everyone look".into(), ..reply })
    }

    async fn health(&self) -> Result<(), LlmError> {
        Ok(())
    }
}

#[tokio::test]
async fn mentions_and_special_tokens_from_the_model_are_neutralised() {
    let g = game_with(Arc::new(Pinger(super::super::discord::rules())), SlackSettings::default(), true).await;
    g.say("EvPing", "UALICE", "Was he alone? <!channel>").await;
    let answers = g.answers(1).await;
    assert!(answers[0].contains("&lt;!channel&gt;") || !answers[0].contains("channel"), "{answers:?}");
    for shown in g.shown() {
        for token in ["<!channel>", "<!here>", "<@U0BOSS>", "<!subteam", "@everyone"] {
            assert!(!shown.contains(token), "{token} reached Slack: {shown}");
        }
    }
    g.rig.stop().await;
}

#[tokio::test]
async fn admin_verbs_are_refused_to_others_and_checked_on_every_call() {
    let settings =
        SlackSettings { admins: vec!["UMOD".into()], admin_group: Some("S0MODS".into()), ..SlackSettings::default() };
    let g = game_with(Arc::new(super::super::discord::rules()), settings, true).await;
    g.rig.fake.set_group("S0MODS", &["UGRP"]);
    g.command("trig-a1", "UALICE", "admin reveal").await;
    g.told("UALICE", "Only the workspace's Turtle Soup admins").await;
    g.command("trig-a2", "UMOD", "admin config hint-limit 5").await;
    g.told("UMOD", "hint-limit is now 5").await;
    g.command("trig-a3", "UGRP", "admin puzzle disable en-odd-bouquet").await;
    g.told("UGRP", "disabled").await;
    // Membership is asked again on every call: leaving the group revokes it.
    g.rig.fake.set_group("S0MODS", &[]);
    g.command("trig-a4", "UGRP", "admin reveal").await;
    g.told("UGRP", "Only the workspace's Turtle Soup admins").await;
    assert_eq!(g.thinking_posts(), 0, "no refused verb played a turn");
    g.command("trig-a5", "UMOD", "admin reveal").await;
    let over = |c: &echoes::slack::fake::Call| c.text().contains("Game over");
    g.rig.fake.wait_for_count("the reveal", 1, WAIT, over).await.unwrap();
    g.rig.stop().await;
}

#[tokio::test]
async fn an_admin_corrects_a_known_answer_for_the_workspace_only() {
    let settings = SlackSettings { admins: vec!["UMOD".into()], ..SlackSettings::default() };
    let g = game_with(Arc::new(super::super::discord::rules()), settings, true).await;
    g.say("EvQ", "UALICE", "Was he alone?").await;
    g.answers(1).await;
    // Naming neither puzzle nor question: the channel's game, its last question.
    g.command("trig-k1", "UALICE", "admin known add yes and no").await;
    g.told("UALICE", "Only the workspace's Turtle Soup admins").await;
    g.command("trig-k2", "UMOD", "admin known add yes and no").await;
    let added = g.told("UMOD", "YES AND NO · Was he alone?").await;
    assert!(added.contains("in this workspace"), "{added}");
    let id = added.split('`').nth(1).expect("the correction's id").to_string();
    g.command("trig-k3", "UMOD", "admin known add en-noon-gun maybe was the gunner alone").await;
    g.told("UMOD", "The verdict must be YES, NO, YES AND NO or IRRELEVANT").await;
    g.command("trig-k4", "UMOD", "admin known list en-noon-gun").await;
    let list = g.told("UMOD", "Corrected answers in this workspace").await;
    assert!(list.contains(&id), "{list}");
    let scope = "slack:T0FAKE";
    assert_eq!(g.rig.bot.corrections(scope).await.unwrap().len(), 1);
    assert!(g.rig.bot.corrections("slack:T0OTHER").await.unwrap().is_empty());
    g.command("trig-k5", "UMOD", &format!("admin known remove {id}")).await;
    g.told("UMOD", &format!("Removed `{id}`")).await;
    assert!(g.rig.bot.corrections(scope).await.unwrap().is_empty());
    g.rig.stop().await;
}
