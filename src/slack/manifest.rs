//! What a Slack app must be granted for this bot, read from the code: the
//! bot token scopes of the Web API methods it calls (`web::METHODS`) and of
//! the events it reads (`ingress::EVENTS`), `commands` for its slash
//! commands (`command::slash_commands`). The app manifest,
//! `deploy/slack-manifest.json`, asks for exactly these; the tests here
//! hold the two together. Nothing here talks to Slack.

use std::collections::BTreeSet;

use super::ingress::EVENTS;
use super::web::METHODS;

/// The scope a slash command needs.
pub const COMMANDS_SCOPE: &str = "commands";

/// Every bot token scope the app needs.
pub fn bot_scopes() -> BTreeSet<&'static str> {
    let methods = METHODS.iter().flat_map(|(_, scopes)| scopes.iter().copied());
    let events = EVENTS.iter().map(|(_, scope)| *scope);
    methods.chain(events).chain([COMMANDS_SCOPE]).collect()
}

/// Every bot event the app subscribes to.
pub fn bot_events() -> BTreeSet<&'static str> {
    EVENTS.iter().map(|(event, _)| *event).collect()
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;
    use crate::slack::Mode;
    use crate::slack::command::slash_commands;

    const MANIFEST: &str = include_str!("../../deploy/slack-manifest.json");

    fn manifest() -> Value {
        serde_json::from_str(MANIFEST).expect("deploy/slack-manifest.json is not JSON")
    }

    /// The JSON array at `pointer`, which must be there.
    fn array<'a>(manifest: &'a Value, pointer: &str) -> &'a Vec<Value> {
        manifest.pointer(pointer).and_then(Value::as_array).unwrap_or_else(|| panic!("the manifest has no {pointer}"))
    }

    /// The strings of the JSON array at `pointer`.
    fn strings<'a>(manifest: &'a Value, pointer: &str) -> BTreeSet<&'a str> {
        let values = array(manifest, pointer).iter().map(Value::as_str);
        values.map(|s| s.unwrap_or_else(|| panic!("{pointer} holds a value that is no string"))).collect()
    }

    #[test]
    fn the_manifest_asks_for_exactly_the_scopes_the_code_needs() {
        let manifest = manifest();
        assert_eq!(strings(&manifest, "/oauth_config/scopes/bot"), bot_scopes());
        assert!(manifest.pointer("/oauth_config/scopes/user").is_none(), "the bot calls Slack with its bot token only");
    }

    #[test]
    fn the_manifest_subscribes_to_exactly_the_events_the_code_reads() {
        assert_eq!(strings(&manifest(), "/settings/event_subscriptions/bot_events"), bot_events());
    }

    #[test]
    fn the_manifest_registers_exactly_the_slash_commands_of_the_catalogue() {
        let manifest = manifest();
        let commands = array(&manifest, "/features/slash_commands");
        let names: BTreeSet<String> =
            commands.iter().map(|c| c["command"].as_str().expect("a slash command's name").to_string()).collect();
        assert_eq!(names, slash_commands(&crate::assets::catalogue()));
        // Mentions, channels and user groups (`/soup stats <@U…>`, `config
        // channel <#C…|…>`, `config mod-role <!subteam^S…>`) arrive as ids
        // only when Slack escapes the text.
        for command in commands {
            assert_eq!(command["should_escape"], true, "{}: should_escape", command["command"]);
        }
    }

    #[test]
    fn every_slash_command_but_soup_reaches_a_hosted_game() {
        let hosted: BTreeSet<String> =
            crate::assets::hosted_games().iter().map(|g| format!("/{}", g.group())).collect();
        for command in slash_commands(&crate::assets::catalogue()) {
            assert!(command == "/soup" || hosted.contains(&command), "{command} names no hosted game");
        }
    }

    #[test]
    fn the_manifest_turns_on_socket_mode_and_interactivity() {
        let manifest = manifest();
        // Socket Mode is the bot's default; the Events API needs the
        // request URLs added (docs/setup-helpers.md).
        assert_eq!(Mode::default(), Mode::Socket);
        assert_eq!(manifest["settings"]["socket_mode_enabled"], true);
        // Buttons (hint, votes, lobbies) arrive as interactions.
        assert_eq!(manifest["settings"]["interactivity"]["is_enabled"], true);
    }
}
