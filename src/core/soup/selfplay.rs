//! `echoes selfplay soup`: AI players against the AI host on the real
//! table (the same Judge prompt, parser, fallbacks, ledger and gate as a
//! live game), driven without a store or timers. The report (one engine
//! `SelfplayReport`) is how a user judges a model or a puzzle before
//! putting it in front of people: solved or not, questions and hints used,
//! model calls and the Judge's parse rate per puzzle, and the solve rate
//! over all.

use crate::core::soup::verbs::SoupVerb;
use std::sync::Arc;

use async_trait::async_trait;

use crate::core::actor::Inbound;
use crate::core::game::drive::drive;
use crate::core::game::selfplay::{Figure, GameRow, Lobby, Row, SelfPlay, SelfplayRun, per_game, percent};
use crate::core::game::{Table, TurnContext, TurnInput};
use crate::core::soup::pipeline::{Pipeline, Progress};
use crate::core::soup::puzzle::Puzzle;

use super::table::{SoupTable, ai_player};
use super::{Phase, SoupGame};

/// AI players per game unless the run names a number.
const AI_PLAYERS: u32 = 2;
/// Turns before the AI players give up, unless the run names a number.
const MAX_TURNS: usize = 30;

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
}

/// Turtle Soup's self-play over a set of puzzles (the app's library).
#[derive(Default)]
pub struct SoupSelfplay {
    pub puzzles: Vec<Arc<Puzzle>>,
}

impl SoupSelfplay {
    /// The puzzles the run names (`puzzles: a,b,c`), or the first
    /// `games` in its language.
    fn chosen(&self, run: &SelfplayRun<'_>) -> Result<Vec<Arc<Puzzle>>, String> {
        let Some(ids) = run.options.get("puzzles") else {
            return Ok(self.puzzles.iter().filter(|p| p.language == run.language).take(run.games).cloned().collect());
        };
        let ids = ids.split(',').map(str::trim).filter(|id| !id.is_empty());
        ids.map(|id| self.puzzle(id).ok_or_else(|| format!("There is no puzzle {id:?}."))).collect()
    }

    fn puzzle(&self, id: &str) -> Option<Arc<Puzzle>> {
        self.puzzles.iter().find(|p| p.id == id).cloned()
    }
}

#[async_trait]
impl SelfPlay for SoupSelfplay {
    type Result = GameResult;
    const GAMES: usize = 5;
    const COLUMNS: &'static [&'static str] =
        &["puzzle", "questions", "guesses", "hints", "facts", "host calls", "judge clean/salvaged/fallback"];

    /// A lobby per chosen puzzle, named by its `puzzle` option.
    fn plan(&self, run: &SelfplayRun<'_>) -> Result<Vec<Lobby>, String> {
        let lobby = |(i, p): (usize, Arc<Puzzle>)| {
            let Lobby { language, seed, options } = run.lobby(i);
            Lobby { language, seed, options: options.with("puzzle", p.id.as_str()) }
        };
        Ok(self.chosen(run)?.into_iter().enumerate().map(lobby).collect())
    }

    async fn play(&self, pipeline: &Pipeline, lobby: Lobby) -> Result<GameResult, String> {
        let id = lobby.options.get("puzzle").unwrap_or_default();
        let puzzle = self.puzzle(id).ok_or_else(|| format!("There is no puzzle {id:?}."))?;
        let ai_players = lobby.options.number("ai_players").unwrap_or(AI_PLAYERS);
        let max_turns = lobby.options.number("max_turns").unwrap_or(MAX_TURNS);
        Ok(play(pipeline, puzzle, ai_players, max_turns).await)
    }

    fn row(&self, r: &GameResult) -> GameRow {
        let figures = vec![
            r.questions.to_string(),
            r.guesses.to_string(),
            r.hints.to_string(),
            format!("{}/{}", r.facts_found, r.facts),
            r.model_calls.to_string(),
            format!("{}/{}/{}", r.judge[0], r.judge[1], r.judge[2]),
        ];
        GameRow::new(&r.puzzle, if r.solved { "solved" } else { "not solved" }, figures)
    }

    fn summary(&self, results: &[GameResult]) -> Vec<Row> {
        let n = results.len();
        let solved = results.iter().filter(|r| r.solved).count();
        let judged: u32 = results.iter().map(|r| r.judge.iter().sum::<u32>()).sum();
        let clean: u32 = results.iter().map(|r| r.judge[0] + r.judge[1]).sum();
        let calls: u32 = results.iter().map(|r| r.model_calls).sum();
        let turns: u32 = results.iter().map(|r| r.questions + r.guesses).sum();
        let parse_rate = percent(clean as usize, judged as usize);
        vec![Row::new(vec![
            Figure::new("solve rate", format!("{:.0}% ({solved}/{n})", percent(solved, n))),
            Figure::new("questions and guesses per game", format!("{:.1}", per_game(f64::from(turns), n))),
            Figure::new(
                "host model calls per game (Judge and Narrator)",
                format!("{:.1}", per_game(f64::from(calls), n)),
            ),
            Figure::new("Judge parse rate", format!("{parse_rate:.0}% ({clean}/{judged} readable)")),
        ])]
    }
}

/// Plays `puzzle` with `ai_players` AI players until it is solved or
/// `max_turns` turns were played (then they give up).
pub async fn play(pipeline: &Pipeline, puzzle: Arc<Puzzle>, ai_players: u32, max_turns: usize) -> GameResult {
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
    }
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
        let text = SoupSelfplay::default().report(std::slice::from_ref(&result)).render();
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
