//! Fixed-text views of a session: the status line and the public history.

use super::*;

pub(super) fn status_text(session: &SessionView<'_>) -> String {
    let g = session.game;
    let p = session.puzzle;
    let phase = crate::core::soup::i18n::phase_label(p.language, g.phase);
    match p.language {
        Language::En => format!(
            "📋 {} · {phase} · {} questions · hints {}/{} · key facts found {}/{} · guesses {}",
            p.title,
            g.questions,
            g.hints_used,
            g.hint_limit,
            g.found.len(),
            p.facts.len(),
            g.guesses
        ),
        Language::Zh => format!(
            "📋 {} · {phase} · 提问 {} 次 · 提示 {}/{} · 已找到关键事实 {}/{} · 推测 {} 次",
            p.title,
            g.questions,
            g.hints_used,
            g.hint_limit,
            g.found.len(),
            p.facts.len(),
            g.guesses
        ),
    }
}

pub(super) fn history_text(lang: Language, history: &[PublicTurn]) -> String {
    let moves: Vec<String> = history
        .iter()
        .filter(|t| t.outcome != "hint")
        .enumerate()
        .map(|(i, t)| format!("{}. {}: {} → {}", i + 1, t.player, t.text, outcome_label(lang, &t.outcome)))
        .collect();
    if moves.is_empty() {
        return match lang {
            Language::En => "No questions yet.".into(),
            Language::Zh => "还没有人提问。".into(),
        };
    }
    moves.join("\n")
}

fn outcome_label(lang: Language, outcome: &str) -> String {
    match Verdict::parse(outcome) {
        Some(v) => verdict_label(lang, v).to_string(),
        None if lang == Language::Zh && outcome == "guess" => "推测".into(),
        None => outcome.to_string(),
    }
}
