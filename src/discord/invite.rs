//! The link that adds the bot to a server (`echoes discord invite`):
//! Discord's OAuth2 authorize URL with the `bot` and
//! `applications.commands` scopes and exactly the permissions the bot uses
//! (`super::PERMISSIONS`), and what to switch on in the developer portal
//! for the gateway intents it asks for (`super::intents`). Nothing here
//! talks to Discord.

use poise::serenity_prelude as serenity;

use super::DiscordSettings;

/// Discord's OAuth2 authorize endpoint.
const AUTHORIZE: &str = "https://discord.com/oauth2/authorize";

/// The scopes the bot is added with: its bot user, and its slash commands.
pub const SCOPES: &[&str] = &["bot", "applications.commands"];

/// The invite link for the application `application` (developer portal →
/// General Information → Application ID).
pub fn url(application: u64) -> String {
    let scopes = SCOPES.join("%20");
    let permissions = super::permissions().bits();
    format!("{AUTHORIZE}?client_id={application}&scope={scopes}&permissions={permissions}")
}

/// What `echoes discord invite` prints: the link, the permissions it asks
/// for by name, and the privileged intent to enable when the bot reads
/// thread messages (`[discord] message_content`).
pub fn text(application: u64, settings: &DiscordSettings) -> String {
    let names = super::permissions().get_permission_names().join(", ");
    let mut text = format!("{}\n\nPermissions: {names}.\n", url(application));
    if super::intents(settings).contains(serenity::GatewayIntents::MESSAGE_CONTENT) {
        text.push_str(
            "\nThe bot reads plain messages in game threads, which needs the privileged Message Content \
             intent: developer portal → your app → Bot → Privileged Gateway Intents → Message Content \
             Intent (a bot in 100 or more servers needs Discord's approval). Without it, set \
             `[discord] message_content = false`: slash commands still work.\n",
        );
    } else {
        text.push_str("\nNo privileged intent is needed (`[discord] message_content = false`).\n");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The permissions' integer, pinned: a change to `PERMISSIONS` shows here.
    const PERMISSIONS_BITS: u64 = 309_237_761_088;

    #[test]
    fn the_permissions_are_the_flags_the_bot_uses() {
        let all = super::super::permissions();
        let each = super::super::PERMISSIONS.iter().fold(0, |bits, p| bits | p.bits());
        assert_eq!(all.bits(), each);
        assert_eq!(all.bits(), PERMISSIONS_BITS);
        let names = [
            "Add Reactions",
            "View Channel",
            "Embed Links",
            "Attach Files",
            "Read Message History",
            "Create Public Threads",
            "Send Messages in Threads",
        ];
        assert_eq!(all.get_permission_names(), names);
        // Moderators are told by their own permissions; the bot manages nothing.
        assert!(!all.intersects(serenity::Permissions::ADMINISTRATOR | serenity::Permissions::MANAGE_THREADS));
    }

    #[test]
    fn the_link_asks_for_the_bot_its_commands_and_those_permissions() {
        let link = reqwest::Url::parse(&url(123_456_789_012_345_678)).expect("the invite link is a URL");
        assert_eq!((link.scheme(), link.host_str(), link.path()), ("https", Some("discord.com"), "/oauth2/authorize"));
        let query: Vec<(String, String)> = link.query_pairs().map(|(k, v)| (k.into_owned(), v.into_owned())).collect();
        let bits = PERMISSIONS_BITS.to_string();
        let wanted = [
            ("client_id", "123456789012345678"),
            ("scope", "bot applications.commands"),
            ("permissions", bits.as_str()),
        ];
        let wanted: Vec<(String, String)> = wanted.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        assert_eq!(query, wanted);
    }

    #[test]
    fn the_text_names_the_privileged_intent_only_when_the_bot_uses_it() {
        let reads = DiscordSettings::default();
        assert!(reads.message_content && text(1, &reads).contains("Message Content intent"));
        let no_content = DiscordSettings { message_content: false, ..DiscordSettings::default() };
        assert!(!text(1, &no_content).contains("Message Content intent"));
    }
}
