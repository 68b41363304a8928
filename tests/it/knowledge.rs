//! Role filtering end to end: an AI player's prompt, built through the
//! knowledge layer, never holds judge-only text, on any bundled puzzle.

use std::sync::Arc;

use echoes::core::knowledge::{Knowledge, Role};
use echoes::core::llm::RoleModels;
use echoes::core::services::{Pipeline, PipelineSettings};
use echoes::core::soup::puzzle::Puzzle;
use echoes::knowledge::{HashingEmbedder, LanceKnowledge, open_db};
use echoes::llm::{ParrotLlm, ScriptedLlm};
use echoes::puzzles::PuzzleLibrary;

use crate::support::leaked;

fn secrets(p: &Puzzle) -> Vec<String> {
    let mut out = vec![p.bottom.trim().to_string()];
    out.extend(p.facts.iter().map(|f| f.text.clone()));
    out.extend(p.hints.iter().cloned());
    out
}

#[tokio::test]
async fn a_player_agent_prompt_never_holds_judge_only_text() {
    let dir = tempfile::tempdir().unwrap();
    let db = open_db(dir.path()).await.unwrap();
    let kb = Arc::new(LanceKnowledge::open(&db, Arc::new(HashingEmbedder::new(384))).await.unwrap());
    let (library, _) = PuzzleLibrary::load(None);
    let all: Vec<&Puzzle> = library.all().iter().map(|p| p.as_ref()).collect();
    kb.sync(&echoes::core::soup::puzzle::all_puzzle_docs(&all)).await.unwrap();
    let prompts = Arc::new(echoes::assets::load_prompts(None).unwrap());
    for puzzle in library.all() {
        let recorder = Arc::new(ScriptedLlm::from_texts(["Was it at night?"]));
        let models = RoleModels { judge: Arc::new(ParrotLlm), narrator: recorder.clone() };
        let mut pipeline = Pipeline::new(models, prompts.clone(), PipelineSettings::default());
        pipeline.knowledge = Some(kb.clone());
        let question = pipeline.ai_player_question(puzzle, &[]).await.unwrap();
        assert_eq!(question.as_deref(), Some("Was it at night?"));
        let prompt: String = recorder.requests()[0].messages.iter().map(|m| m.content.clone()).collect();
        for secret in secrets(puzzle) {
            assert!(!prompt.contains(&secret), "{}: player prompt holds {secret:?}", puzzle.id);
        }
        assert_eq!(leaked(puzzle, &prompt), None, "{}", puzzle.id);

        // And the parrot, answering with the whole prompt, says nothing secret.
        let models = RoleModels { judge: Arc::new(ParrotLlm), narrator: Arc::new(ParrotLlm) };
        let mut parrot = Pipeline::new(models, prompts.clone(), PipelineSettings::default());
        parrot.knowledge = Some(kb.clone());
        let said = parrot.ai_player_question(puzzle, &[]).await.unwrap().unwrap_or_default();
        assert_eq!(leaked(puzzle, &said), None, "{}", puzzle.id);

        // The worst query (the bottom itself) still returns public documents only.
        for hit in kb.retrieve(Role::PlayerAgent, &puzzle.id, &puzzle.bottom, 20).await.unwrap() {
            assert!(Role::PlayerAgent.may_see().contains(&hit.doc.visibility));
        }
    }
}
