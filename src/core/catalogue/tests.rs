use super::*;
use crate::core::game::input::Verb as GameVerb;

fn catalogue() -> Catalogue {
    crate::assets::catalogue()
}

fn input(group: &str, line: &str) -> TurnInput {
    match catalogue().read_line(Frontend::Slack, group, line, "/") {
        Ok(Parsed::Input { input, .. }) => input,
        other => panic!("{line:?}: {other:?}"),
    }
}

fn verb(name: &str, args: &[&str]) -> TurnInput {
    TurnInput::Verb(GameVerb::new(name, args.iter().map(|a| a.to_string())))
}

#[test]
fn every_games_declaration_is_valid_and_each_name_is_taken_once() {
    let c = catalogue();
    for group in ["soup", "soup-admin", "undercover", "arena", "rpg"] {
        assert!(c.verbs.iter().any(|v| v.group == group), "{group} declares its verbs");
    }
    let twice =
        "[[verb]]\ngroup = \"g\"\nname = \"x\"\nwho = \"player\"\nfrontends = []\nhelp.en = \"\"\nhelp.zh = \"\"\n";
    assert!(Catalogue::collect([twice, twice]).unwrap_err().contains("listed twice"));
}

#[test]
fn a_typed_line_becomes_the_games_verb_or_the_engines_move() {
    assert_eq!(input("soup", "ask  was it night? "), verb("ask", &["was it night?"]));
    assert_eq!(input("soup", "A was it night?"), verb("ask", &["was it night?"]), "an alias");
    assert_eq!(input("soup", "hint"), verb("hint", &[]));
    assert_eq!(input("soup", "status"), TurnInput::Status);
    assert_eq!(input("undercover", "describe it is warm"), TurnInput::Say("it is warm".into()));
    assert_eq!(input("undercover", "whisper"), TurnInput::Whisper, "`word`'s alias");
    assert_eq!(input("undercover", "vote 3"), TurnInput::Vote("3".into()));
    assert_eq!(input("undercover", "end"), TurnInput::End);
    assert_eq!(input("arena", "topic tides and moons"), verb("topic", &["tides and moons"]));
    assert_eq!(input("arena", "react 2"), TurnInput::Vote("2".into()));
}

#[test]
fn a_lead_option_is_typed_first_and_may_be_left_out() {
    assert_eq!(input("rpg", "say Mira: where is the ship?"), verb("say", &["where is the ship?", "Mira"]));
    assert_eq!(input("rpg", "say Mira hello there"), verb("say", &["hello there", "Mira"]));
    assert_eq!(input("rpg", "say hello"), verb("say", &["hello"]));
}

#[test]
fn a_missing_argument_is_the_usage_line_and_an_unknown_verb_is_named() {
    let c = catalogue();
    assert_eq!(c.read_line(Frontend::Terminal, "soup", "ask", "/"), Err(ReadError::Usage("/ask <question>".into())));
    assert_eq!(c.read_line(Frontend::Slack, "soup", "dance now", "/soup "), Err(ReadError::Unknown("dance".into())));
    assert_eq!(
        c.read_line(Frontend::Slack, "soup", "quit", "/soup "),
        Err(ReadError::Unknown("quit".into())),
        "terminal only"
    );
}

#[test]
fn named_options_read_as_the_typed_line_does() {
    let c = catalogue();
    let named = [("npc".to_string(), "Mira".to_string()), ("text".to_string(), "hello".to_string())];
    let Ok(Parsed::Input { input, verb: declared }) = c.read_named(Frontend::Discord, "rpg", "say", &named, "/rpg ")
    else {
        panic!("say reads")
    };
    assert_eq!(input, verb("say", &["hello", "Mira"]));
    assert!(!declared.answers_privately());
    let Ok(Parsed::Input { verb: guess, .. }) =
        c.read_named(Frontend::Discord, "undercover", "guess", &[("word".into(), "tea".into())], "/")
    else {
        panic!("guess reads")
    };
    assert!(guess.answers_privately(), "a last guess is answered privately");
}

#[test]
fn sub_verbs_and_bot_verbs_are_the_bots() {
    let c = catalogue();
    let Ok(Parsed::Bot { verb, args }) = c.read_line(Frontend::Slack, "undercover", "pairs remove abc", "/") else {
        panic!("a content verb")
    };
    assert_eq!((verb.name.as_str(), verb.action, args), ("pairs remove", Some(Move::Content), vec!["abc".to_string()]));
    let Ok(Parsed::Bot { verb, .. }) = c.read_line(Frontend::Slack, "undercover", "start 5", "/") else { panic!() };
    assert_eq!(verb.action, Some(Move::Start));
}

#[test]
fn start_options_fill_the_common_fields_and_the_games_own() {
    let c = catalogue();
    let o = c.start_options(Frontend::Slack, "undercover", "seats:6 ai:2 lang:zh anonymous blank:no");
    assert_eq!((o.seats, o.ai_seats, o.language), (Some(6), Some(2), Some(Language::Zh)));
    assert_eq!((o.flag("anonymous"), o.flag("blank")), (Some(true), Some(false)));
    let o = c.start_options(Frontend::Terminal, "rpg", "zh Salt Marsh");
    assert_eq!((o.language, o.get("world")), (Some(Language::Zh), Some("Salt Marsh")), "loose words are the world");
    let o = c.start_options(Frontend::Terminal, "arena", "Should cities ban cars?");
    assert_eq!(o.get("topic"), Some("Should cities ban cars?"), "or the topic");
    let named = [("characters".to_string(), "3".to_string()), ("max_turns".to_string(), "9".to_string())];
    let o = c.start_named(Frontend::Discord, "arena", &named);
    assert_eq!((o.ai_seats, o.number::<u32>("max_turns")), (Some(3), Some(9)));
}

#[test]
fn a_button_names_its_group_and_verb() {
    let c = catalogue();
    assert_eq!(c.button(Frontend::Discord, "soup:hint"), Some(verb("hint", &[])));
    assert_eq!(c.button(Frontend::Slack, "soup:status"), Some(TurnInput::Status));
    assert_eq!(c.button(Frontend::Slack, "soup_forget_me"), None);
}

#[test]
fn a_games_buttons_come_from_its_declaration_and_read_back_as_its_verbs() {
    let c = catalogue();
    let shown = c.buttons(Frontend::Discord, "soup", Language::En);
    let ids: Vec<&str> = shown.iter().map(|b| b.id.as_str()).collect();
    assert_eq!(ids, ["soup:hint", "soup:status", "soup:giveup"], "in declaration order");
    let labels: Vec<&str> = shown.iter().map(|b| b.label.as_str()).collect();
    assert_eq!(labels, ["Hint", "Status", "Give up"]);
    let styles: Vec<ButtonStyle> = shown.iter().map(|b| b.style).collect();
    assert_eq!(styles, [ButtonStyle::Primary, ButtonStyle::Secondary, ButtonStyle::Danger]);
    let zh: Vec<String> = c.buttons(Frontend::Slack, "soup", Language::Zh).into_iter().map(|b| b.label).collect();
    assert_eq!(zh, ["提示", "状态", "放弃"]);
    for b in &shown {
        assert!(c.button(Frontend::Discord, &b.id).is_some(), "{} reads back as a move", b.id);
    }
    assert!(c.buttons(Frontend::Terminal, "undercover", Language::En).is_empty());
    let bad = r#"
[[verb]]
group = "g"
name = "ask"
who = "player"
frontends = ["discord"]
options = [{ name = "question", kind = "text", required = true }]
button = { en = "Ask", zh = "问" }
help.en = "x"
help.zh = "x"
"#;
    assert!(Catalogue::parse(bad).unwrap_err().contains("button"), "a button cannot give a required option");
}

#[test]
fn a_command_said_plainly_is_that_command_in_either_language() {
    let c = catalogue();
    let said = |text: &str| match c.said(Frontend::Discord, "soup", text) {
        Some(Parsed::Input { input, .. }) => Some(input),
        Some(Parsed::Bot { verb, .. }) => Some(TurnInput::Say(format!("bot:{}", verb.name))),
        None => None,
    };
    assert_eq!(said("hint"), Some(verb("hint", &[])));
    assert_eq!(said("Hint please!"), Some(verb("hint", &[])));
    assert_eq!(said("给个提示吧"), Some(verb("hint", &[])));
    assert_eq!(said("I give up."), Some(verb("giveup", &[])));
    assert_eq!(said("放弃"), Some(verb("giveup", &[])));
    assert_eq!(said("状态"), Some(TurnInput::Status));
    assert_eq!(said("help"), Some(TurnInput::Say("bot:help".into())));
    assert_eq!(said("Was it a hint?"), None, "a question is a question");
    assert_eq!(said("ask"), None, "a verb that needs words is not said plainly");
    assert!(c.said(Frontend::Discord, "soup", "quit").is_none(), "quit is the terminal's");
    assert!(c.said(Frontend::Terminal, "soup", "退出").is_some());
}

#[test]
fn self_play_options_are_read_as_the_games_selfplay_verb_declares_them() {
    let c = catalogue();
    let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let o = c.selfplay_options("undercover", &words(&["--seats", "5", "--blank"])).unwrap();
    assert_eq!((o.seats, o.flag("blank")), (Some(5), Some(true)));
    let o = c.selfplay_options("arena", &words(&["--characters", "3", "--max-turns=6"])).unwrap();
    assert_eq!((o.ai_seats, o.number::<u32>("max_turns")), (Some(3), Some(6)), "`characters` fills ai_seats");
    let o = c.selfplay_options("soup", &words(&["--puzzles", "a,b", "--ai-players", "1", "max_turns:6"])).unwrap();
    assert_eq!(o.get("puzzles"), Some("a,b"));
    assert_eq!((o.number::<u32>("ai_players"), o.number::<u32>("max_turns")), (Some(1), Some(6)));
    let refused = |group: &str, w: &[&str]| c.selfplay_options(group, &words(w)).unwrap_err();
    assert_eq!(refused("undercover", &["--seats", "2"]), "--seats must be between 3 and 12");
    assert_eq!(refused("arena", &["--characters", "9"]), "--characters must be between 2 and 8");
    assert!(refused("undercover", &["--seat", "5"]).contains("no option --seat"), "a misspelt option");
    assert!(refused("undercover", &["--seats", "many"]).contains("takes a number"));
    assert!(refused("rpg", &[]).contains("offers no self-play"));
    assert!(c.selfplay_help("undercover", Language::En).unwrap().starts_with("undercover [--seats N] [--blank]"));
}
