//! A finished game as a Markdown file: the surface, every turn with its
//! reply, the story and the key facts (with who found each). Written only
//! for a game that is over, since it holds the story; each front end
//! delivers it its own way (an attachment, a file upload, a file path).

use super::SoupGame;
use crate::core::game::SnapshotError;
use crate::core::soup::puzzle::Puzzle;
use crate::core::store::LoadedSession;

/// The file's name: the puzzle and the session, so two games of one
/// puzzle do not overwrite each other.
pub fn file_name(puzzle: &Puzzle, session: &LoadedSession) -> String {
    let short: String = session.id.chars().take(8).collect();
    let safe: String =
        puzzle.id.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '-' }).collect();
    format!("transcript-{safe}-{short}.md")
}

/// A stored session's file: its name and its Markdown; an error when the
/// record is not a readable Turtle Soup game.
pub fn file(puzzle: &Puzzle, session: &LoadedSession) -> Result<(String, String), SnapshotError> {
    let game: SoupGame = session.game()?;
    Ok((file_name(puzzle, session), markdown(puzzle, session, &game)))
}

/// The whole game as Markdown.
pub fn markdown(puzzle: &Puzzle, session: &LoadedSession, game: &SoupGame) -> String {
    let mut out = format!("# {} · transcript\n\n", puzzle.title);
    out.push_str(&format!(
        "- puzzle: `{}` ({}, {})\n- session: `{}`\n- result: {} · {} questions · {} hints · {} guesses\n\n",
        puzzle.id,
        puzzle.language.code(),
        puzzle.difficulty,
        session.id,
        game.phase.as_str(),
        game.questions,
        game.hints_used,
        game.guesses
    ));
    out.push_str(&format!("## Surface\n\n{}\n\n## Turns\n\n", puzzle.surface.trim()));
    for turn in session.turns.iter().filter(|t| t.kind != "start") {
        let said = if turn.input.is_empty() { format!("/{}", turn.kind) } else { one_line(&turn.input) };
        out.push_str(&format!("{}. **{}**: {}\n", turn.seq, turn.player.name, said));
        for line in turn.reply.text.lines().filter(|l| !l.trim().is_empty()) {
            out.push_str(&format!("   > {line}\n"));
        }
    }
    out.push_str(&format!("\n## The story\n\n{}\n\n## Key facts\n\n", puzzle.bottom.trim()));
    for fact in &puzzle.facts {
        let mark = if game.found.contains_key(&fact.id) { "x" } else { " " };
        let who = game.found.get(&fact.id).and_then(|id| game.players.get(id)).map(|t| format!(" ({})", t.name));
        out.push_str(&format!("- [{mark}] {}{}\n", fact.text, who.unwrap_or_default()));
    }
    out
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
