//! The attack corpus (`tests/data/attacks.toml`) through the whole engine
//! on several puzzles, with the parrot (returns its whole prompt) and the
//! traitor (knows the answer and tries to say it, encoded as asked): no
//! player-visible text may leak, and no attack may end the game. Normal
//! play (`tests/data/normal_play.toml`) stays playable: at most 1% of it is
//! answered META or withheld.

use std::sync::Arc;

use echoes::bench::secrecy::{TraitorLlm, attacks, normal_play, run_attacks, run_normal_play};
use echoes::core::llm::RoleModels;
use echoes::core::soup::puzzle::Puzzle;
use echoes::core::vocab::Language;
use echoes::llm::{ParrotLlm, ScriptedLlm};
use echoes::puzzles::PuzzleLibrary;

use crate::support::question;

/// Three puzzles of each language.
fn puzzles() -> Vec<Arc<Puzzle>> {
    let (library, _) = PuzzleLibrary::load(None);
    [Language::En, Language::Zh]
        .into_iter()
        .flat_map(|lang| library.all().iter().filter(move |p| p.language == lang).take(3).cloned().collect::<Vec<_>>())
        .collect()
}

fn parrot(_: &Puzzle) -> RoleModels {
    RoleModels { judge: Arc::new(ParrotLlm), narrator: Arc::new(ParrotLlm) }
}

fn traitor(p: &Puzzle) -> RoleModels {
    let traitor = Arc::new(TraitorLlm::for_puzzle(p));
    RoleModels { judge: traitor.clone(), narrator: traitor }
}

/// A truthful Judge that says YES, and the traitor narrating.
fn yes_and_traitor(p: &Puzzle) -> RoleModels {
    RoleModels {
        judge: Arc::new(ScriptedLlm::from_texts([question("YES")]).cycling()),
        narrator: Arc::new(TraitorLlm::for_puzzle(p)),
    }
}

#[tokio::test]
async fn no_attack_leaks_through_the_parrot_or_the_traitor() {
    let attacks = attacks().unwrap();
    assert!(attacks.len() >= 300);
    for (label, models) in
        [("parrot", parrot as fn(&Puzzle) -> RoleModels), ("traitor", traitor), ("yes+traitor", yes_and_traitor)]
    {
        let report = run_attacks(&puzzles(), &attacks, models).await.unwrap();
        assert!(report.tried >= attacks.len() * 3, "{label}: {} tried", report.tried);
        assert!(report.leaks.is_empty(), "{label}: {} leaks: {:#?}", report.leaks.len(), report.leaks);
        assert!(report.hijacks.is_empty(), "{label}: attacks ended games: {:#?}", report.hijacks);
        if label == "yes+traitor" {
            assert!(report.withheld > 0, "the traitor narrator was exercised and stopped by the gate");
        }
    }
}

#[tokio::test]
async fn normal_play_is_rarely_blocked() {
    let entries = normal_play().unwrap();
    let (library, _) = PuzzleLibrary::load(None);
    // A Judge that says YES and a narrator that echoes the question back, as
    // hosts do ("So you ask whether ...").
    let models = |_: &Puzzle| RoleModels {
        judge: Arc::new(ScriptedLlm::from_texts([question("YES")]).cycling()),
        narrator: Arc::new(EchoNarrator),
    };
    let report = run_normal_play(library.all(), &entries, models).await.unwrap();
    assert!(report.played >= 200, "{}", report.played);
    assert!(
        report.false_block_rate() <= 0.01,
        "false blocks {:.2}%: {:#?} {:#?}",
        report.false_block_rate() * 100.0,
        report.false_meta,
        report.false_withheld
    );
}

/// Replies with the question it was asked about.
struct EchoNarrator;

#[async_trait::async_trait]
impl echoes::core::llm::LlmClient for EchoNarrator {
    fn describe(&self) -> String {
        "echo".into()
    }

    async fn chat(
        &self,
        request: echoes::core::llm::ChatRequest,
    ) -> Result<echoes::core::llm::ChatResponse, echoes::core::llm::LlmError> {
        let user = request.messages.last().map(|m| m.content.clone()).unwrap_or_default();
        let asked = user.lines().next().unwrap_or_default().trim_start_matches("Question:").trim().to_string();
        Ok(echoes::core::llm::ChatResponse { text: format!("So you ask: {asked}"), ..Default::default() })
    }

    async fn health(&self) -> Result<(), echoes::core::llm::LlmError> {
        Ok(())
    }
}
