use super::*;
use crate::core::soup::verbs::SoupVerb;

fn check(text: &str, expected: SoupCommand) {
    assert_eq!(parse(text, &crate::assets::catalogue()), expected, "{text:?}");
}

#[test]
fn player_verbs_parse_from_the_catalogue() {
    let start = WantedArgs {
        id: Some("en-noon-gun".into()),
        difficulty: Some(Difficulty::Hard),
        language: None,
        ai_players: 0,
    };
    check("start en-noon-gun hard", SoupCommand::Start(start));
    let with_ai = WantedArgs { language: Some(Language::Zh), ai_players: 2, ..WantedArgs::default() };
    check("start zh ai_players:2", SoupCommand::Start(with_ai));
    check(
        "  ask Was he alone? ",
        SoupCommand::Turn { input: TurnInput::from(SoupVerb::Ask("Was he alone?".into())), limited: true },
    );
    check(
        "guess he drowned",
        SoupCommand::Turn { input: TurnInput::from(SoupVerb::Guess("he drowned".into())), limited: true },
    );
    check("HINT", SoupCommand::Turn { input: TurnInput::from(SoupVerb::Hint), limited: false });
    check("giveup", SoupCommand::Turn { input: TurnInput::from(SoupVerb::GiveUp), limited: false });
    check("puzzles zh", SoupCommand::Puzzles(Some(Language::Zh)));
    check("help", SoupCommand::Help);
    check("", SoupCommand::Unknown(String::new()));
}

#[test]
fn unknown_verbs_and_missing_text_are_unknown() {
    check("quit", SoupCommand::Unknown("quit".into()));
    check("dance now", SoupCommand::Unknown("dance".into()));
    check("ask", SoupCommand::Unknown("ask".into()));
    check("admin fly", SoupCommand::Unknown("admin fly".into()));
    check("admin config hint-limit 99", SoupCommand::Unknown("admin config hint-limit".into()));
}

#[test]
fn admin_verbs_take_their_arguments() {
    check("admin reveal", SoupCommand::Admin(AdminCommand::Reveal));
    check("admin puzzle next en-noon-gun", SoupCommand::Admin(AdminCommand::PuzzleNext("en-noon-gun".into())));
    check("admin config channel <#C42|games>", SoupCommand::Admin(AdminCommand::Channel("C42".into())));
    check("admin config mod-role <!subteam^S9|mods>", SoupCommand::Admin(AdminCommand::ModRole("S9".into())));
    check("admin config language zh", SoupCommand::Admin(AdminCommand::Language(Language::Zh)));
    check("admin puzzle add ```toml\nid = 'x'\n```", SoupCommand::Admin(AdminCommand::PuzzleAdd("id = 'x'".into())));
}

#[test]
fn a_correction_reads_its_puzzle_verdict_and_question() {
    let add = |puzzle: Option<&str>, verdict: &str, question: Option<&str>| {
        SoupCommand::Admin(AdminCommand::KnownAdd {
            puzzle: puzzle.map(str::to_string),
            verdict: verdict.into(),
            question: question.map(str::to_string),
        })
    };
    let gun = Some("en-noon-gun");
    check("admin known add en-noon-gun NO was he alone?", add(gun, "NO", Some("was he alone?")));
    check(
        "admin known add en-noon-gun Yes and No  was the gunner to blame",
        add(gun, "Yes and No", Some("was the gunner to blame")),
    );
    check(
        "admin known add zh-salt-stone 是也不是 牛会自己回来吗",
        add(Some("zh-salt-stone"), "是也不是", Some("牛会自己回来吗")),
    );
    // Without a puzzle or a question: the channel's game and its last question.
    check("admin known add en-noon-gun NO", add(gun, "NO", None));
    check("admin known add NO", add(None, "NO", None));
    check("admin known add yes and no", add(None, "yes and no", None));
    check("admin known add irrelevant was it raining", add(None, "irrelevant", Some("was it raining")));
    // Not a verdict: still read, so the answer can say which verdicts there are.
    check("admin known add en-noon-gun maybe was he alone", add(gun, "maybe", Some("was he alone")));
    check("admin known add en-noon-gun", SoupCommand::Unknown("admin known add".into()));
    check("admin known add", SoupCommand::Unknown("admin known add".into()));
    check("admin known list", SoupCommand::Admin(AdminCommand::KnownList(None)));
    check("admin known list en-noon-gun", SoupCommand::Admin(AdminCommand::KnownList(Some("en-noon-gun".into()))));
    check(
        "admin known remove en-noon-gun#0a1b2c",
        SoupCommand::Admin(AdminCommand::KnownRemove("en-noon-gun#0a1b2c".into())),
    );
    check("admin known remove", SoupCommand::Unknown("admin known remove".into()));
}
