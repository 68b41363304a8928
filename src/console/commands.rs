//! Parsing one terminal line into a console command. Lines starting with
//! `/` are verbs from the command catalogue; anything else is free text for
//! the Judge to classify.

use crate::core::pipeline::TurnInput;

/// What a terminal line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConsoleCommand {
    Turn(TurnInput),
    Help,
    Leaderboard,
    Puzzles,
    Transcript,
    Quit,
    /// A verb that needs an argument was given none.
    Usage(&'static str),
    Unknown(String),
    Empty,
}

/// Every verb the terminal offers, with its parser. A test checks this
/// list against the command catalogue's terminal verbs.
pub const VERBS: &[&str] = &[
    "ask",
    "guess",
    "hint",
    "status",
    "history",
    "giveup",
    "leaderboard",
    "puzzles",
    "help",
    "quit",
    "reveal",
    "transcript",
];

pub fn parse_line(line: &str) -> ConsoleCommand {
    let line = line.trim();
    if line.is_empty() {
        return ConsoleCommand::Empty;
    }
    let Some(rest) = line.strip_prefix('/') else {
        return ConsoleCommand::Turn(TurnInput::Say(line.to_string()));
    };
    let (verb, arg) = match rest.split_once(char::is_whitespace) {
        Some((verb, arg)) => (verb, arg.trim()),
        None => (rest, ""),
    };
    let verb = verb.to_ascii_lowercase();
    match verb.as_str() {
        "ask" | "a" if arg.is_empty() => ConsoleCommand::Usage("/ask <question>"),
        "ask" | "a" => ConsoleCommand::Turn(TurnInput::Ask(arg.to_string())),
        "guess" | "g" if arg.is_empty() => ConsoleCommand::Usage("/guess <what really happened>"),
        "guess" | "g" => ConsoleCommand::Turn(TurnInput::Guess(arg.to_string())),
        "hint" => ConsoleCommand::Turn(TurnInput::Hint),
        "status" => ConsoleCommand::Turn(TurnInput::Status),
        "history" => ConsoleCommand::Turn(TurnInput::History),
        "giveup" | "give-up" => ConsoleCommand::Turn(TurnInput::GiveUp),
        "reveal" => ConsoleCommand::Turn(TurnInput::Reveal),
        "leaderboard" | "scores" => ConsoleCommand::Leaderboard,
        "puzzles" => ConsoleCommand::Puzzles,
        "transcript" => ConsoleCommand::Transcript,
        "help" | "?" => ConsoleCommand::Help,
        "quit" | "exit" | "q" => ConsoleCommand::Quit,
        _ => ConsoleCommand::Unknown(verb),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::catalogue::Frontend;

    #[test]
    fn terminal_verbs_match_the_catalogue_exactly() {
        let catalogue = crate::assets::catalogue();
        let mut offered: Vec<&str> = catalogue.for_frontend(Frontend::Terminal).map(|v| v.name.as_str()).collect();
        let mut ours = VERBS.to_vec();
        offered.sort_unstable();
        ours.sort_unstable();
        assert_eq!(ours, offered, "terminal verbs and commands/catalogue.toml disagree");
    }

    #[test]
    fn every_terminal_verb_parses_to_a_known_command() {
        for verb in VERBS {
            let parsed = parse_line(&format!("/{verb} something"));
            assert!(!matches!(parsed, ConsoleCommand::Unknown(_)), "/{verb} is not handled");
        }
    }

    #[test]
    fn lines_parse() {
        let check = |line: &str, expect: ConsoleCommand| assert_eq!(parse_line(line), expect, "{line:?}");
        check("Was he alone?", ConsoleCommand::Turn(TurnInput::Say("Was he alone?".into())));
        check("/ask  Was he alone? ", ConsoleCommand::Turn(TurnInput::Ask("Was he alone?".into())));
        check("/GUESS he was a ghost", ConsoleCommand::Turn(TurnInput::Guess("he was a ghost".into())));
        check("/ask", ConsoleCommand::Usage("/ask <question>"));
        check("/hint", ConsoleCommand::Turn(TurnInput::Hint));
        check("/dance", ConsoleCommand::Unknown("dance".into()));
        check("   ", ConsoleCommand::Empty);
        check("/quit", ConsoleCommand::Quit);
    }
}
