//! The Discord section of the catalogue agreement: the slash command tree
//! offers exactly the catalogue's Discord verbs, with its options, and
//! takes its descriptions from it.

use super::*;
use crate::core::catalogue::Who;

fn tree() -> (Catalogue, Vec<poise::Command<Data, Error>>) {
    let catalogue = crate::assets::catalogue();
    let commands = commands(&catalogue);
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
    assert_eq!(offered, wanted, "the Discord command tree and commands/catalogue.toml disagree");
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
    for verb in catalogue.for_frontend(Frontend::Discord) {
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
