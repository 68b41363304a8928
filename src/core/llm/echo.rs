//! The engine's guard against a model role showing its own instructions.
//!
//! A small or broken model may answer with its prompt ("You are the game
//! master of Hollowtide (LORE-NARRATOR)…"). Every role of every game whose
//! words reach players passes its reply through `Instructions::echoed_by`
//! (or `unless_echo`): the prompt is treated like a secret of its own
//! output. A reply holding a run of words (English: 6, Chinese: 10
//! characters) that the prompt has and the public text lacks is an echo,
//! and the caller shows its fallback line instead. Public text (the story
//! so far, the world's lore, what the player typed) is left out, so a
//! reply may quote what players already read.
//!
//! It owns no fallback wording (each game has its own) and does no I/O.

use std::collections::HashSet;

use super::ChatMessage;
use crate::core::text::{distinct_runs, shares_run};
use crate::core::vocab::Language;

/// Words in a run that counts as an echo.
pub const RUN_WORDS: usize = 6;
/// Chinese characters in a run that counts as an echo.
pub const RUN_CHARS: usize = 10;

/// The runs of words a prompt has that its public text lacks.
#[derive(Debug, Clone)]
pub struct Instructions {
    runs: HashSet<String>,
    lang: Language,
}

fn run(lang: Language) -> usize {
    match lang {
        Language::En => RUN_WORDS,
        Language::Zh => RUN_CHARS,
    }
}

impl Instructions {
    /// The instructions of `messages` (every message: a role's task is
    /// often in its user message), less every run of `public`.
    pub fn of(messages: &[ChatMessage], public: &str, lang: Language) -> Instructions {
        let prompt: Vec<&str> = messages.iter().map(|m| m.content.as_str()).collect();
        Instructions::of_text(&prompt.join("\n"), public, lang)
    }

    /// The same for a prompt that is one text.
    pub fn of_text(prompt: &str, public: &str, lang: Language) -> Instructions {
        let n = run(lang);
        let shown = distinct_runs(public, lang, n);
        let runs = distinct_runs(prompt, lang, n).difference(&shown).cloned().collect();
        Instructions { runs, lang }
    }

    /// Whether `reply` repeats the instructions.
    pub fn echoed_by(&self, reply: &str) -> bool {
        let hit = shares_run(reply, self.lang, run(self.lang), &self.runs);
        if hit {
            tracing::info!("a model repeated its own instructions; its fallback is shown instead");
        }
        hit
    }
}

/// `reply` unless it repeats `messages`' instructions (`None`: the caller
/// shows its fallback).
pub fn unless_echo(reply: String, messages: &[ChatMessage], public: &str, lang: Language) -> Option<String> {
    (!Instructions::of(messages, public, lang).echoed_by(&reply)).then_some(reply)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prompt() -> Vec<ChatMessage> {
        vec![
            ChatMessage::system(
                "You are the game master of Hollowtide (LORE-NARRATOR), a role-playing game. Speak to the players \
                 in the second person, vividly and briefly.",
            ),
            ChatMessage::user(
                "The latest turns:\n[1] Ada: I walk along the Long Stones towards the harbour.\nDescribe what happens next in two to four sentences.",
            ),
        ]
    }

    #[test]
    fn a_reply_that_repeats_its_instructions_is_an_echo() {
        let public = "[1] Ada: I walk along the Long Stones towards the harbour.";
        let i = Instructions::of(&prompt(), public, Language::En);
        assert!(i.echoed_by("You are the game master of Hollowtide (LORE-NARRATOR), a role-playing game."));
        assert!(i.echoed_by("Sure! describe what happens next in two to four sentences: the tide."));
        // Quoting what players read is not an echo, nor is a fresh reply
        // sharing a few words.
        assert!(!i.echoed_by("You walk along the Long Stones towards the harbour; gulls wheel overhead."));
        assert!(!i.echoed_by("The game master smiles: the tide is turning, Ada."));
        assert_eq!(
            unless_echo("Fog rolls in.".into(), &prompt(), public, Language::En).as_deref(),
            Some("Fog rolls in.")
        );
        assert!(unless_echo(prompt()[0].content.clone(), &prompt(), public, Language::En).is_none());
    }

    #[test]
    fn chinese_is_read_by_characters() {
        let messages = vec![ChatMessage::system(
            "你是角色扮演游戏《纸渡》的主持人（LORE-NARRATOR）。用第二人称对玩家说话，生动而简短。",
        )];
        let i = Instructions::of(&messages, "", Language::Zh);
        assert!(i.echoed_by("好的。你是角色扮演游戏《纸渡》的主持人。"));
        assert!(!i.echoed_by("雾从澜溪上升起，渡船靠岸了。"));
    }
}
