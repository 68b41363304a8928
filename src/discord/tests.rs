//! The Discord section of the catalogue agreement: the slash command tree
//! offers exactly the catalogue's Discord verbs, with its options, and
//! takes its descriptions from it.

use super::*;
use crate::core::catalogue::Who;

fn tree() -> (Catalogue, Vec<poise::Command<Data, Error>>) {
    let catalogue = crate::assets::catalogue();
    let groups: Vec<&str> = crate::assets::hosted_games().iter().map(|g| g.group()).collect();
    let commands = commands(&catalogue, &groups);
    (catalogue, commands)
}

#[test]
fn discord_verbs_match_the_catalogue_exactly() {
    let (catalogue, commands) = tree();
    let mut offered: Vec<(String, String)> = offered_verbs(&commands).into_iter().map(|v| (v.group, v.name)).collect();
    let mut wanted: Vec<(String, String)> =
        catalogue.for_frontend(Frontend::Discord).map(|v| (v.group.clone(), v.name.clone())).collect();
    offered.sort();
    wanted.sort();
    assert_eq!(offered, wanted, "the Discord command tree and the games' declarations disagree");
}

#[test]
fn discord_options_match_the_catalogue() {
    let (catalogue, commands) = tree();
    for OfferedVerb { group, name, options } in offered_verbs(&commands) {
        let verb = catalogue.verbs.iter().find(|v| v.group == group && v.name == name).expect("verb");
        let wanted: Vec<(String, bool)> = verb.options.iter().map(|o| (o.name.clone(), o.required)).collect();
        assert_eq!(options, wanted, "/{group} {name}: options differ from the catalogue");
    }
}

#[test]
fn every_verb_is_described_from_the_catalogue_in_both_languages() {
    let (catalogue, commands) = tree();
    fn leaves<'a>(c: &'a [poise::Command<Data, Error>], out: &mut Vec<&'a poise::Command<Data, Error>>) {
        for c in c {
            if c.subcommands.is_empty() { out.push(c) } else { leaves(&c.subcommands, out) }
        }
    }
    let mut all = Vec::new();
    leaves(&commands, &mut all);
    for command in all {
        let name = command.qualified_name.to_string();
        let description = command.description.as_deref().unwrap_or_default();
        assert!(
            catalogue.verbs.iter().any(|v| v.help.en.starts_with(description) && !description.is_empty()),
            "{name}: {description:?} is not catalogue text"
        );
        assert!(description.chars().count() <= 100, "{name}: description too long for Discord");
        assert!(command.description_localizations.iter().any(|(k, _)| k == "zh-CN"), "{name}: no Chinese description");
    }
}

#[test]
fn every_moderator_verb_sits_under_the_checked_group() {
    let (catalogue, commands) = tree();
    let admin = commands.iter().find(|c| c.name == "soup-admin").expect("admin group");
    assert!(!admin.checks.is_empty(), "the admin group must check moderators");
    let soup = commands.iter().find(|c| c.name == "soup").expect("player group");
    assert!(soup.checks.is_empty());
    for verb in catalogue.for_frontend(Frontend::Discord).filter(|v| v.group.starts_with("soup")) {
        let expected = if verb.who == Who::Moderator { "soup-admin" } else { "soup" };
        assert_eq!(verb.group, expected, "{} is in the wrong group for its users", verb.name);
    }
}

#[test]
fn intents_follow_the_message_content_setting() {
    let on = intents(&DiscordSettings::default());
    assert!(on.contains(serenity::GatewayIntents::MESSAGE_CONTENT));
    let off = intents(&DiscordSettings { message_content: false, ..DiscordSettings::default() });
    assert!(!off.contains(serenity::GatewayIntents::MESSAGE_CONTENT));
    assert!(off.contains(serenity::GatewayIntents::GUILD_MESSAGES | serenity::GatewayIntents::GUILDS));
}

/// A seated game's group as the catalogue would list it.
fn seated(group: &str) -> Vec<crate::core::catalogue::Verb> {
    let source: String = ["start", "join", "leave", "begin", "add-ai", "vote", "whisper", "status"]
        .iter()
        .map(|name| {
            let options =
                if *name == "vote" { r#"[{ name = "choice", kind = "text", required = true }]"# } else { "[]" };
            format!(
                "[[verb]]\ngroup = \"{group}\"\nname = \"{name}\"\nwho = \"player\"\nmove = \"{name}\"\n\
                 frontends = [\"discord\"]\noptions = {options}\nhelp.en = \"{name} in {group}\"\n\
                 help.zh = \"{group}：{name}\"\n\n"
            )
        })
        .collect();
    Catalogue::parse(&source).expect("a valid declaration").verbs
}

#[test]
fn a_hosted_seated_game_gets_a_command_group_matching_the_catalogue() {
    let mut catalogue = crate::assets::catalogue();
    catalogue.verbs.extend(seated("party"));
    let commands = commands(&catalogue, &["party", "not-in-the-catalogue"]);
    let mut offered: Vec<OfferedVerb> = offered_verbs(&commands).into_iter().filter(|v| v.group == "party").collect();
    offered.sort_by(|a, b| a.name.cmp(&b.name));
    let mut wanted: Vec<OfferedVerb> = seated("party")
        .into_iter()
        .map(|v| OfferedVerb {
            options: v.options.iter().map(|o| (o.name.clone(), o.required)).collect(),
            group: v.group,
            name: v.name,
        })
        .collect();
    wanted.sort_by(|a, b| a.name.cmp(&b.name));
    assert_eq!(offered, wanted);
    assert!(!commands.iter().any(|c| c.name == "not-in-the-catalogue"), "only groups the catalogue lists");
    let party = commands.iter().find(|c| c.name == "party").unwrap();
    let join = party.subcommands.iter().find(|c| c.name == "join").unwrap();
    assert_eq!(join.qualified_name, "party join");
    assert_eq!(join.description.as_deref(), Some("join in party"));
}
