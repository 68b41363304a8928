//! Parsing one terminal line into a console command. Lines starting with
//! `/` are verbs from the command catalogue; anything else is free text for
//! the Judge to classify.

use crate::core::catalogue::{Catalogue, Frontend, Parsed, ReadError};
use crate::core::game::TurnInput;

/// What a terminal line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConsoleCommand {
    Turn(TurnInput),
    Help,
    Leaderboard,
    Puzzles,
    Transcript,
    Quit,
    /// A verb that needs an argument was given none: its usage line.
    Usage(String),
    Unknown(String),
    Empty,
}

/// The catalogue's verbs the terminal answers itself (`move = "bot"`),
/// beside the game's moves, which go to the session.
pub const VERBS: &[&str] = &["leaderboard", "puzzles", "help", "quit", "transcript"];

/// A line of Turtle Soup in the terminal: `/verb …` is read by the
/// catalogue (the `soup` group, then the moderators' `soup-admin`), like
/// every front end's; anything else is free text for the Judge.
pub fn parse_line(catalogue: &Catalogue, line: &str) -> ConsoleCommand {
    let line = line.trim();
    if line.is_empty() {
        return ConsoleCommand::Empty;
    }
    let Some(typed) = line.strip_prefix('/') else {
        // A command said plainly ("hint", "提示", "give up") is that command.
        return match catalogue.said(Frontend::Terminal, "soup", line) {
            Some(parsed) => command(Ok(parsed)),
            None => ConsoleCommand::Turn(TurnInput::Say(line.to_string())),
        };
    };
    let read = |group| catalogue.read_line(Frontend::Terminal, group, typed, "/");
    let parsed = match read("soup") {
        Err(ReadError::Unknown(_)) => read("soup-admin"),
        other => other,
    };
    command(parsed)
}

/// What the catalogue read, as the terminal's command.
fn command(parsed: Result<Parsed<'_>, ReadError>) -> ConsoleCommand {
    match parsed {
        Ok(Parsed::Input { input, .. }) => ConsoleCommand::Turn(input),
        Ok(Parsed::Bot { verb, .. }) => match verb.name.as_str() {
            "leaderboard" => ConsoleCommand::Leaderboard,
            "puzzles" => ConsoleCommand::Puzzles,
            "transcript" => ConsoleCommand::Transcript,
            "quit" => ConsoleCommand::Quit,
            _ => ConsoleCommand::Help,
        },
        Err(ReadError::Usage(usage)) => ConsoleCommand::Usage(usage),
        Err(ReadError::Unknown(verb)) => ConsoleCommand::Unknown(verb),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::catalogue::Move;
    use crate::core::soup::verbs::SoupVerb;

    #[test]
    fn terminal_verbs_match_the_catalogue_exactly() {
        let catalogue = crate::assets::catalogue();
        let soup = |v: &&crate::core::catalogue::Verb| v.group.starts_with("soup");
        let mut offered: Vec<&str> = catalogue
            .for_frontend(Frontend::Terminal)
            .filter(soup)
            .filter(|v| v.action == Some(Move::Bot))
            .map(|v| v.name.as_str())
            .collect();
        let mut ours = VERBS.to_vec();
        offered.sort_unstable();
        ours.sort_unstable();
        assert_eq!(ours, offered, "terminal verbs and the soup group's declaration disagree");
    }

    #[test]
    fn every_terminal_verb_parses_to_a_known_command() {
        let catalogue = crate::assets::catalogue();
        let soup = catalogue.for_frontend(Frontend::Terminal).filter(|v| v.group.starts_with("soup"));
        for verb in soup.map(|v| v.name.as_str()) {
            let parsed = parse_line(&catalogue, &format!("/{verb} something"));
            assert!(!matches!(parsed, ConsoleCommand::Unknown(_)), "/{verb} is not handled");
        }
    }

    #[test]
    fn lines_parse() {
        let catalogue = crate::assets::catalogue();
        let check = |line: &str, expect: ConsoleCommand| assert_eq!(parse_line(&catalogue, line), expect, "{line:?}");
        check("Was he alone?", ConsoleCommand::Turn(TurnInput::Say("Was he alone?".into())));
        check("/ask  Was he alone? ", ConsoleCommand::Turn(TurnInput::from(SoupVerb::Ask("Was he alone?".into()))));
        check("/GUESS he was a ghost", ConsoleCommand::Turn(TurnInput::from(SoupVerb::Guess("he was a ghost".into()))));
        check("/ask", ConsoleCommand::Usage("/ask <question>".into()));
        check("/hint", ConsoleCommand::Turn(TurnInput::from(SoupVerb::Hint)));
        check("/dance", ConsoleCommand::Unknown("dance".into()));
        check("   ", ConsoleCommand::Empty);
        check("/quit", ConsoleCommand::Quit);
    }
}
