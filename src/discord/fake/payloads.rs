//! Gateway payloads for the fake, built as JSON and then passed through
//! serenity's own model types (`Ready`, `Guild`, `Message`, `Interaction`,
//! `GuildChannel`): what goes over the wire is what serenity serialises,
//! so a payload serenity could not read fails here, not in the bot.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use poise::serenity_prelude as serenity;

pub const TIMESTAMP: &str = "2026-01-01T00:00:00.000000+00:00";

/// Round-trips a payload through a serenity model type. Fields serenity
/// reads but does not write back (an interaction's `type`) are restored,
/// and the result must parse again.
pub fn typed<T: DeserializeOwned + Serialize>(value: Value) -> anyhow::Result<Value> {
    let what = std::any::type_name::<T>();
    let model: T = serde_json::from_value(value.clone())
        .map_err(|e| anyhow::anyhow!("{what} rejects the fake's payload: {e}\n{value:#}"))?;
    let mut out = serde_json::to_value(&model)?;
    if let (Some(out), Value::Object(original)) = (out.as_object_mut(), value) {
        for (key, field) in original {
            out.entry(key).or_insert(field);
        }
    }
    serde_json::from_value::<T>(out.clone())
        .map_err(|e| anyhow::anyhow!("{what} cannot read back its own JSON: {e}"))?;
    Ok(out)
}

/// Someone in the fake guild.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Who {
    pub id: u64,
    pub name: String,
    /// Guild permission bits (e.g. `MANAGE_THREADS`).
    pub permissions: u64,
    pub roles: Vec<u64>,
    pub bot: bool,
}

impl Who {
    pub fn player(id: u64, name: &str) -> Who {
        let perms = serenity::Permissions::SEND_MESSAGES | serenity::Permissions::SEND_MESSAGES_IN_THREADS;
        Who { id, name: name.into(), permissions: perms.bits(), roles: Vec::new(), bot: false }
    }

    pub fn moderator(id: u64, name: &str) -> Who {
        let mut who = Who::player(id, name);
        who.permissions |= serenity::Permissions::MANAGE_THREADS.bits();
        who
    }

    pub fn with_role(mut self, role: u64) -> Who {
        self.roles.push(role);
        self
    }

    pub fn user(&self) -> Value {
        json!({
            "id": self.id.to_string(), "username": self.name, "global_name": self.name,
            "discriminator": "0", "avatar": null, "bot": self.bot,
        })
    }

    pub fn member(&self, with_user: bool) -> Value {
        let mut member = json!({
            "roles": self.roles.iter().map(u64::to_string).collect::<Vec<_>>(),
            "joined_at": TIMESTAMP, "deaf": false, "mute": false, "flags": 0,
            "permissions": self.permissions.to_string(),
        });
        if with_user {
            member["user"] = self.user();
        }
        member
    }
}

pub fn ready(bot: &Who, app_id: u64, guilds: &[u64], shard: (u64, u64), gateway_url: &str) -> anyhow::Result<Value> {
    let guilds: Vec<Value> = guilds.iter().map(|g| json!({"id": g.to_string(), "unavailable": true})).collect();
    typed::<serenity::Ready>(json!({
        "v": 10,
        "user": {"id": bot.id.to_string(), "username": bot.name, "discriminator": "0", "avatar": null,
                 "bot": true, "verified": true, "mfa_enabled": false, "flags": 0},
        "guilds": guilds,
        "session_id": "fake-session",
        "resume_gateway_url": gateway_url,
        "shard": [shard.0, shard.1],
        "application": {"id": app_id.to_string(), "flags": 0},
    }))
}

/// A text channel or thread as Discord describes it.
pub fn channel(id: u64, guild_id: u64, kind: u8, name: &str, parent: Option<u64>, archived: bool) -> Value {
    let mut c = json!({
        "id": id.to_string(), "guild_id": guild_id.to_string(), "type": kind, "name": name,
        "position": 0, "permission_overwrites": [], "nsfw": false,
        "parent_id": parent.map(|p| p.to_string()),
    });
    if kind == 11 || kind == 12 {
        c["thread_metadata"] = json!({
            "archived": archived, "auto_archive_duration": 1440, "archive_timestamp": TIMESTAMP,
            "locked": false, "create_timestamp": TIMESTAMP,
        });
        c["owner_id"] = json!("1");
        c["member_count"] = json!(1);
        c["message_count"] = json!(0);
    }
    c
}

fn role(id: u64, guild: u64, name: &str) -> Value {
    json!({
        "id": id.to_string(), "guild_id": guild.to_string(), "name": name, "color": 0,
        "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null},
        "hoist": false, "position": 0, "permissions": "0", "managed": false, "mentionable": true,
        "icon": null, "unicode_emoji": null, "flags": 0,
    })
}

pub fn guild(id: u64, owner: u64, channels: &[Value], members: &[&Who]) -> anyhow::Result<Value> {
    let mut guild = json!({
        "id": id.to_string(), "name": "Fake Guild", "icon": null, "icon_hash": null, "splash": null,
        "discovery_splash": null, "owner_id": owner.to_string(), "afk_channel_id": null, "afk_timeout": 300,
        "widget_enabled": false, "widget_channel_id": null, "verification_level": 0,
        "default_message_notifications": 0, "explicit_content_filter": 0,
        "roles": [role(id, id, "@everyone")],
        "emojis": [], "features": [], "mfa_level": 0, "application_id": null, "system_channel_id": null,
    });
    let more = json!({
        "system_channel_flags": 0, "rules_channel_id": null, "max_presences": null, "max_members": 1000,
        "vanity_url_code": null, "description": null, "banner": null, "premium_tier": 0,
        "premium_subscription_count": 0, "preferred_locale": "en-US", "public_updates_channel_id": null,
        "max_video_channel_users": 25, "nsfw_level": 0, "stickers": [], "premium_progress_bar_enabled": false,
        "joined_at": TIMESTAMP, "large": false, "unavailable": false, "member_count": members.len(),
    });
    let state = json!({
        "voice_states": [], "members": members.iter().map(|m| m.member(true)).collect::<Vec<_>>(),
        "channels": channels, "threads": [], "presences": [], "stage_instances": [],
        "guild_scheduled_events": [],
    });
    for part in [more, state] {
        if let (Some(into), Value::Object(from)) = (guild.as_object_mut(), part) {
            into.extend(from);
        }
    }
    typed::<serenity::Guild>(guild)
}

pub fn message(id: u64, channel: u64, guild: u64, author: &Who, content: &str) -> anyhow::Result<Value> {
    typed::<serenity::Message>(json!({
        "id": id.to_string(), "channel_id": channel.to_string(), "guild_id": guild.to_string(),
        "author": author.user(), "member": author.member(false), "content": content,
        "timestamp": TIMESTAMP, "edited_timestamp": null, "tts": false, "mention_everyone": false,
        "mentions": [], "mention_roles": [], "attachments": [], "embeds": [], "pinned": false, "type": 0,
    }))
}

/// One slash-command option, as a test wants to give it.
#[derive(Debug, Clone)]
pub enum Opt {
    Text(&'static str, String),
    Int(&'static str, i64),
    Channel(&'static str, u64),
    Role(&'static str, u64),
    /// An attachment: option name, file name, and where the fake serves it.
    File(&'static str, String, u64, String),
}

impl Opt {
    fn name(&self) -> &'static str {
        match self {
            Opt::Text(n, _) | Opt::Int(n, _) | Opt::Channel(n, _) | Opt::Role(n, _) | Opt::File(n, ..) => n,
        }
    }

    fn wire(&self) -> Value {
        let (kind, value) = match self {
            Opt::Text(_, v) => (3, json!(v)),
            Opt::Int(_, v) => (4, json!(v)),
            Opt::Channel(_, id) => (7, json!(id.to_string())),
            Opt::Role(_, id) => (8, json!(id.to_string())),
            Opt::File(_, _, id, _) => (11, json!(id.to_string())),
        };
        json!({"name": self.name(), "type": kind, "value": value})
    }

    fn resolve(&self, resolved: &mut Value, guild: u64) {
        match self {
            Opt::Channel(_, id) => {
                resolved["channels"][id.to_string()] =
                    json!({"id": id.to_string(), "name": "channel", "type": 0, "permissions": "0"});
            }
            Opt::Role(_, id) => {
                resolved["roles"][id.to_string()] = role(*id, guild, "role");
            }
            Opt::File(_, name, id, url) => {
                resolved["attachments"][id.to_string()] = json!({"id": id.to_string(), "filename": name,
                    "size": 100, "url": url, "proxy_url": url, "content_type": "application/toml"});
            }
            Opt::Text(..) | Opt::Int(..) => {}
        }
    }
}

/// Where an interaction happens.
pub struct Place<'a> {
    pub guild: u64,
    pub channel: &'a Value,
}

/// An APPLICATION_COMMAND interaction for `/command path… options…`.
pub fn command(
    id: u64,
    app_id: u64,
    place: &Place<'_>,
    who: &Who,
    (name, path): (&str, &[&str]),
    options: &[Opt],
) -> anyhow::Result<Value> {
    let mut resolved = json!({});
    for o in options {
        o.resolve(&mut resolved, place.guild);
    }
    let mut nested: Vec<Value> = options.iter().map(Opt::wire).collect();
    for (depth, sub) in path.iter().enumerate().rev() {
        let kind = if depth + 1 == path.len() { 1 } else { 2 };
        nested = vec![json!({"name": sub, "type": kind, "options": nested})];
    }
    let mut data = json!({"id": "900", "name": name, "type": 1, "options": nested});
    if resolved.as_object().is_some_and(|r| !r.is_empty()) {
        data["resolved"] = resolved;
    }
    interaction(id, app_id, place, who, 2, data)
}

/// A MESSAGE_COMPONENT interaction: a button press under `message`.
pub fn button(
    id: u64,
    app_id: u64,
    place: &Place<'_>,
    who: &Who,
    custom_id: &str,
    message: Value,
) -> anyhow::Result<Value> {
    let mut v = interaction(id, app_id, place, who, 3, json!({"custom_id": custom_id, "component_type": 2}))?;
    v["message"] = message;
    typed::<serenity::Interaction>(v)
}

fn interaction(id: u64, app_id: u64, place: &Place<'_>, who: &Who, kind: u8, data: Value) -> anyhow::Result<Value> {
    let value = json!({
        "id": id.to_string(), "application_id": app_id.to_string(), "type": kind, "token": token(id),
        "version": 1, "guild_id": place.guild.to_string(), "channel_id": place.channel["id"],
        "channel": place.channel, "member": who.member(true), "data": data,
        "app_permissions": serenity::Permissions::all().bits().to_string(),
        "locale": "en-US", "guild_locale": "en-US", "entitlements": [],
        "authorizing_integration_owners": {}, "context": 0, "attachment_size_limit": 26_214_400u32,
    });
    if kind == 3 {
        // The message is added by `button` before the round trip.
        return Ok(value);
    }
    typed::<serenity::Interaction>(value)
}

/// The interaction token the fake hands out (and reads back from paths).
pub fn token(interaction: u64) -> String {
    format!("tok{interaction}")
}

/// A message as the fake's REST API returns it, from a request body.
pub fn sent_message(id: u64, channel: u64, author: &Who, body: &Value, files: &[(String, Vec<u8>)]) -> Value {
    let attachments: Vec<Value> = files
        .iter()
        .enumerate()
        .map(|(i, (name, bytes))| {
            json!({"id": (id * 10 + i as u64).to_string(), "filename": name, "size": bytes.len(),
                   "url": format!("https://cdn.invalid/{name}"), "proxy_url": format!("https://cdn.invalid/{name}")})
        })
        .collect();
    json!({
        "id": id.to_string(), "channel_id": channel.to_string(), "author": author.user(),
        "content": body.get("content").cloned().unwrap_or(json!("")),
        "timestamp": TIMESTAMP, "edited_timestamp": null, "tts": false, "mention_everyone": false,
        "mentions": [], "mention_roles": [], "attachments": attachments,
        "embeds": body.get("embeds").cloned().unwrap_or(json!([])), "pinned": false, "type": 0,
        "flags": body.get("flags").cloned().unwrap_or(json!(0)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_channel() -> Value {
        channel(20, 10, 0, "games", None, false)
    }

    #[test]
    fn every_payload_is_one_serenity_reads() {
        let bot = Who { bot: true, ..Who::player(1, "Echoes") };
        let alice = Who::player(100, "Alice");
        ready(&bot, 2, &[10], (0, 1), "ws://127.0.0.1:1").unwrap();
        guild(10, 100, &[text_channel()], &[&alice, &bot]).unwrap();
        let msg = message(5, 20, 10, &alice, "Was he alone?").unwrap();
        let place = Place { guild: 10, channel: &text_channel() };
        let options = [
            Opt::Text("question", "Was he alone?".into()),
            Opt::Role("role", 7),
            Opt::Channel("channel", 20),
            Opt::File("file", "p.toml".into(), 77, "http://127.0.0.1:1/files/p.toml".into()),
        ];
        command(6, 2, &place, &alice, ("soup", &["ask"]), &options).unwrap();
        command(6, 2, &place, &alice, ("soup-admin", &["puzzle", "add"]), &options[3..]).unwrap();
        button(7, 2, &place, &alice, "soup:hint", msg).unwrap();
        typed::<serenity::GuildChannel>(channel(30, 10, 11, "🐢 t", Some(20), true)).unwrap();
        let body = json!({"content": "hi", "embeds": [{"description": "YES", "color": 3066993, "type": "rich"}]});
        typed::<serenity::Message>(sent_message(8, 20, &bot, &body, &[("t.md".into(), b"x".to_vec())])).unwrap();
    }
}
