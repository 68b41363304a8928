//! A finished game as Markdown, for any game: every turn as the record
//! holds it (who moved, what they typed), each followed by the messages it
//! sent with their audiences, so a moderator reads the whole game, private
//! lines included. Written only for a game that is over.

use std::collections::HashMap;

use super::Audience;
use crate::core::store::{LoadedSession, OutboxItem};

/// A turn's typed text is cut to this many characters (an AI seat's move
/// carries its notes).
const INPUT_CHARS: usize = 300;

/// The file's name: the game's group and the session's first characters,
/// so two games do not overwrite each other.
pub fn file_name(group: &str, session_id: &str) -> String {
    let short: String = session_id.chars().filter(char::is_ascii_alphanumeric).take(8).collect();
    format!("transcript-{group}-{short}.md")
}

/// Every turn of `loaded` with the messages it sent (`outbox`, matched by
/// the turn's number).
pub fn markdown(group: &str, loaded: &LoadedSession, outbox: &[OutboxItem]) -> String {
    let names: HashMap<&str, &str> =
        loaded.turns.iter().map(|t| (t.player.id.as_str(), t.player.name.as_str())).collect();
    let mut out = format!(
        "# {group} · transcript\n\n- session: `{}`\n- turns: {}\n\n## Turns\n\n",
        loaded.id,
        loaded.turns.len()
    );
    for turn in &loaded.turns {
        let said = if turn.input.trim().is_empty() { format!("/{}", turn.kind) } else { one_line(&turn.input) };
        out.push_str(&format!("{}. **{}**: {}\n", turn.seq, turn.player.name, said));
        for item in outbox.iter().filter(|o| o.seq == turn.seq) {
            let to = match &item.audience {
                Audience::Everyone => String::new(),
                Audience::Seat(id) => format!("(to {}) ", names.get(id.as_str()).copied().unwrap_or(id)),
                Audience::Moderators => "(moderators) ".to_string(),
            };
            for line in item.body.lines().filter(|l| !l.trim().is_empty()) {
                out.push_str(&format!("   > {to}{line}\n"));
            }
        }
    }
    out
}

fn one_line(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(INPUT_CHARS) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::game::{Reply, ReplyKind, Snapshot};
    use crate::core::store::StoredTurn;
    use crate::core::vocab::Player;

    fn turn(seq: i64, who: &str, input: &str) -> StoredTurn {
        StoredTurn {
            seq,
            event_id: None,
            player: Player { id: format!("console:{who}"), name: who.to_string() },
            kind: "say".into(),
            input: input.into(),
            intent: None,
            verdict: None,
            reply: Reply::new(ReplyKind::Notice, ""),
            public: None,
            model_calls: 0,
            prompt_tokens: 0,
            judge_parse: String::new(),
            created_ms: 0,
        }
    }

    fn row(id: i64, seq: i64, audience: Audience, body: &str) -> OutboxItem {
        OutboxItem { id, session_id: "s1".into(), seq, kind: ReplyKind::Notice, body: body.into(), audience }
    }

    #[test]
    fn every_turn_is_followed_by_its_messages_with_their_audience() {
        let loaded = LoadedSession {
            id: "s1".into(),
            puzzle_id: "pair".into(),
            channel: "console".into(),
            canary: String::new(),
            snapshot: Snapshot {
                kind: "party".into(),
                version: 1,
                phase: "over".into(),
                progress: 0,
                deadline_ms: None,
                body: String::new(),
            },
            turns: vec![turn(1, "kim", "/join"), turn(2, "ana", &"long ".repeat(100))],
            last_activity_ms: 0,
        };
        let outbox = [
            row(1, 1, Audience::Everyone, "Kim sits down."),
            row(2, 1, Audience::Seat("console:kim".into()), "Your word is pear."),
            row(3, 2, Audience::Moderators, "Ana spoke at length."),
        ];
        let text = markdown("party", &loaded, &outbox);
        let kim = text.find("1. **kim**: /join").expect("the first turn");
        let public = text.find("   > Kim sits down.").expect("its public message");
        let private = text.find("   > (to kim) Your word is pear.").expect("its private one, named");
        let ana = text.find("2. **ana**: long long").expect("the second turn");
        assert!(kim < public && public < private && private < ana, "{text}");
        assert!(text.contains("   > (moderators) Ana spoke at length."), "{text}");
        assert!(text.contains("…"), "a long input is cut: {text}");
        assert_eq!(file_name("party", "ab-cd/ef0123456"), "transcript-party-abcdef01.md");
    }
}
