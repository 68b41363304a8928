use super::*;
use crate::core::game::{Audience, Message, Reply, ReplyKind};

fn me() -> Player {
    Player { id: "console:ann".into(), name: "Ann".into() }
}

#[test]
fn lines_become_lobby_and_ballot_moves() {
    let verbs = TableVerbs::new(crate::assets::catalogue(), "undercover", Language::En);
    let parse_table_line = |line: &str| verbs.read(line);
    assert_eq!(parse_table_line("/join"), TableLine::Move(TurnInput::Join));
    assert_eq!(parse_table_line("/vote ai:1 "), TableLine::Move(TurnInput::Vote("ai:1".into())));
    assert_eq!(parse_table_line("/vote"), TableLine::Unknown("/vote".into()));
    assert_eq!(parse_table_line("/ADD-AI"), TableLine::Move(TurnInput::AddAi));
    assert_eq!(parse_table_line("hello"), TableLine::Move(TurnInput::Say("hello".into())));
    assert_eq!(parse_table_line("/describe  warm "), TableLine::Move(TurnInput::Say("warm".into())));
    assert_eq!(parse_table_line("/end"), TableLine::Move(TurnInput::End));
    assert_eq!(parse_table_line("/dance"), TableLine::Unknown("/dance".into()));
    assert_eq!(parse_table_line("   "), TableLine::Empty);
    assert_eq!(parse_table_line("/quit"), TableLine::Quit);
}

#[test]
fn the_human_reads_public_and_their_own_messages_only() {
    let delivery = Delivery {
        reply: Reply::new(ReplyKind::Ballot, "Voting is open."),
        outbox_id: None,
        messages: vec![
            Message::to(Audience::Seat("console:ann".into()), ReplyKind::Private, "Your phrase: blue lantern"),
            Message::to(Audience::Seat("ai:1".into()), ReplyKind::Private, "Your phrase: copper kettle"),
            Message::to(Audience::Everyone, ReplyKind::Notice, "45 s to vote."),
        ],
        choices: vec![("ai:1".into(), "AI 1".into())],
        duplicate: false,
        over: false,
        deadline_ms: None,
        handed_off: false,
    };
    let shown = visible(&delivery, &me()).join("\n");
    assert!(shown.contains("blue lantern") && shown.contains("45 s") && shown.contains("/vote <id>: ai:1"));
    assert!(!shown.contains("copper kettle"), "another seat's secret is never printed: {shown}");
}
