//! `echoes selfplay soup`: AI players against the AI host on the real
//! table (the same Judge prompt, parser, fallbacks, ledger and gate as a
//! live game), driven without a store or timers. The report is how a user
//! judges a model or a puzzle before putting it in front of people:
//! solved or not, questions and hints used, model calls and the Judge's
//! parse rate per puzzle, and the solve rate over all.

use crate::core::soup::verbs::SoupVerb;
use std::sync::Arc;
use std::time::Instant;

use crate::core::actor::Inbound;
use crate::core::game::drive::drive;
use crate::core::game::{Table, TurnContext, TurnInput};
use crate::core::soup::pipeline::{Pipeline, Progress};
use crate::core::soup::puzzle::Puzzle;

use super::table::{SoupTable, ai_player};
use super::{Phase, SoupGame};

/// One self-played game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameResult {
    pub puzzle: String,
    pub solved: bool,
    pub questions: u32,
    pub guesses: u32,
    pub hints: u32,
    pub facts_found: usize,
    pub facts: usize,
    pub model_calls: u32,
    /// Judge answers: clean, salvaged, unusable (a fallback verdict).
    pub judge: [u32; 3],
    pub millis: u128,
}

/// Plays `puzzle` with `ai_players` AI players until it is solved or
/// `max_turns` turns were played (then they give up).
pub async fn play(pipeline: &Pipeline, puzzle: Arc<Puzzle>, ai_players: u32, max_turns: usize) -> GameResult {
    let started = Instant::now();
    let lang = puzzle.language;
    let mut game = SoupGame::new(&puzzle, puzzle.hints.len() as u32);
    game.ai_players = ai_players.max(1);
    let mut table = SoupTable::new(puzzle.clone(), game, Vec::new(), "CANARY-soup-selfplay".into()).autoplay();
    let first = ai_player(0, lang);
    let noop = |_: Progress| {};
    let ctx = TurnContext { pipeline, now_ms: 0, progress: &noop };
    let played = table.play(&ctx, &Inbound::new(first.clone(), TurnInput::Start)).await;
    table.adopt(played);
    let (mut calls, mut judge) = (0_u32, [0_u32; 3]);
    let mut count = |played: &crate::core::game::Played| {
        calls += played.record.usage.model_calls;
        match played.record.usage.judge_parse {
            "clean" => judge[0] += 1,
            "salvaged" => judge[1] += 1,
            "fallback" => judge[2] += 1,
            _ => {}
        }
    };
    drive(pipeline, &mut table, first.clone(), max_turns, &mut |_, played| count(played)).await;
    if !table.is_over() {
        let played = table.play(&ctx, &Inbound::new(first, TurnInput::from(SoupVerb::GiveUp))).await;
        count(&played);
        table.adopt(played);
    }
    let g = table.game();
    GameResult {
        puzzle: puzzle.id.clone(),
        solved: g.phase == Phase::Solved,
        questions: g.questions,
        guesses: g.guesses,
        hints: g.hints_used,
        facts_found: g.found.len(),
        facts: puzzle.facts.len(),
        model_calls: calls,
        judge,
        millis: started.elapsed().as_millis(),
    }
}

/// The report's text: a line per game, then the totals.
pub fn render(results: &[GameResult]) -> String {
    let mut out = String::from(
        "puzzle                         solved  questions  guesses  hints  facts  host calls  judge clean/salvaged/fallback  seconds\n",
    );
    for r in results {
        out.push_str(&format!(
            "{:<30} {:>6}  {:>9}  {:>7}  {:>5}  {:>2}/{:<2}  {:>10}  {:>11}/{}/{}  {:>15.1}\n",
            r.puzzle,
            if r.solved { "yes" } else { "no" },
            r.questions,
            r.guesses,
            r.hints,
            r.facts_found,
            r.facts,
            r.model_calls,
            r.judge[0],
            r.judge[1],
            r.judge[2],
            r.millis as f64 / 1000.0
        ));
    }
    let n = results.len().max(1) as f64;
    let solved = results.iter().filter(|r| r.solved).count();
    let judged: u32 = results.iter().map(|r| r.judge.iter().sum::<u32>()).sum();
    let clean: u32 = results.iter().map(|r| r.judge[0] + r.judge[1]).sum();
    let calls: u32 = results.iter().map(|r| r.model_calls).sum();
    let turns: u32 = results.iter().map(|r| r.questions + r.guesses).sum();
    out.push_str(&format!(
        "solve rate {:.0}% ({solved}/{}) · {:.1} questions and guesses per game · {:.1} host model calls per game (Judge and Narrator) · Judge parse rate {:.0}% ({clean}/{judged} readable)\n",
        100.0 * solved as f64 / n,
        results.len(),
        f64::from(turns) / n,
        f64::from(calls) / n,
        if judged == 0 { 0.0 } else { 100.0 * f64::from(clean) / f64::from(judged) }
    ));
    out
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use async_trait::async_trait;

    use super::*;
    use crate::core::fixtures::puzzle;
    use crate::core::game::Table;
    use crate::core::llm::{ChatRequest, ChatResponse, LlmClient, LlmError, RoleModels};
    use crate::core::soup::pipeline::PipelineSettings;
    use crate::core::vocab::Player;

    /// The Judge says NO to questions and finds every fact in a guess
    /// naming the keeper; AI players ask, then guess from the third turn.
    struct Host;

    #[async_trait]
    impl LlmClient for Host {
        fn describe(&self) -> String {
            "host".into()
        }

        async fn chat(&self, request: ChatRequest) -> Result<ChatResponse, LlmError> {
            let system = request.messages[0].content.clone();
            let all: String = request.messages.iter().map(|m| m.content.as_str()).collect();
            let text = if system.contains("You are a player") {
                let asked = all.matches("→").count() + all.matches("NO").count();
                if asked >= 4 {
                    "The keeper switched off the lamp and ships were wrecked, so he died of guilt.".to_string()
                } else {
                    "Was the man alone?".to_string()
                }
            } else if system.contains("You are the JUDGE") {
                if all.contains("The keeper switched off the lamp") {
                    r#"{"kind": "guess", "verdict": "IRRELEVANT", "facts": ["f1", "f2", "f3"]}"#.to_string()
                } else {
                    r#"{"kind": "question", "verdict": "NO", "facts": []}"#.to_string()
                }
            } else {
                "Hm.".to_string()
            };
            Ok(ChatResponse { text, prompt_tokens: 1, completion_tokens: 1 })
        }

        async fn health(&self) -> Result<(), LlmError> {
            Ok(())
        }
    }

    fn pipeline() -> Pipeline {
        let models = RoleModels { judge: Arc::new(Host), narrator: Arc::new(Host) };
        let settings = PipelineSettings { narrator: false, ..PipelineSettings::default() };
        Pipeline::new(models, Arc::new(crate::assets::load_prompts(None).unwrap()), settings)
    }

    #[tokio::test]
    async fn ai_players_play_a_whole_game_and_the_report_counts_it() {
        let pipeline = pipeline();
        let result = play(&pipeline, Arc::new(puzzle()), 2, 40).await;
        assert!(result.questions > 0, "{result:?}");
        assert_eq!(result.judge[2], 0, "{result:?}");
        assert!(result.model_calls >= result.questions, "{result:?}");
        let text = render(std::slice::from_ref(&result));
        assert!(text.contains(&result.puzzle) && text.contains("solve rate"), "{text}");
    }

    #[tokio::test]
    async fn an_ai_player_waits_for_a_human_and_never_floods() {
        let pipeline = pipeline();
        let noop = |_: Progress| {};
        let p = Arc::new(puzzle());
        let mut game = SoupGame::new(&p, 3);
        game.ai_players = 1;
        let mut table = SoupTable::new(p.clone(), game, Vec::new(), "CANARY-x".into());
        let human = Player { id: "t:ann".into(), name: "Ann".into() };
        let ctx = TurnContext { pipeline: &pipeline, now_ms: 1_000, progress: &noop };
        let played = table.play(&ctx, &Inbound::new(human.clone(), TurnInput::Start)).await;
        table.adopt(played);
        let played =
            table.play(&ctx, &Inbound::new(human, TurnInput::from(SoupVerb::Ask("Was it night?".into())))).await;
        table.adopt(played);
        let moves = table.agent_moves(&ctx, 2).await;
        assert_eq!(moves.len(), 1);
        let m = &moves[0];
        assert!(m.seat.name.ends_with('🤖') && m.seat.id.starts_with("ai:soup:"), "{:?}", m.seat);
        assert_eq!(m.not_before_ms, Some(1_000 + crate::core::soup::AI_DELAY_MS), "a human's question comes first");
        let played = table.play(&ctx, &Inbound::new(m.seat.clone(), m.input.clone())).await;
        table.adopt(played);
        // One AI player, one AI turn since the human spoke: it waits.
        assert!(table.agent_moves(&ctx, 3).await.is_empty());
    }
}
