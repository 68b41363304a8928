//! Wiring: builds the engine (store, models, prompts, puzzles) from
//! settings. Front ends and commands share this, so the terminal and the
//! bots run the same game on the same parts.

use std::sync::Arc;

use anyhow::Context;

use crate::config::Settings;
use crate::core::actor::Engine;
use crate::core::catalogue::Catalogue;
use crate::core::llm::RoleModels;
use crate::core::pipeline::Pipeline;
use crate::core::store::{Store, SystemClock};
use crate::puzzles::{FileProblem, PuzzleLibrary};
use crate::store::SqliteStore;

pub struct App {
    pub settings: Settings,
    pub library: PuzzleLibrary,
    /// Puzzle files that were skipped because they are malformed.
    pub skipped: Vec<FileProblem>,
    pub store: Arc<dyn Store>,
    pub engine: Arc<Engine>,
    pub catalogue: Catalogue,
    pub models: RoleModels,
}

impl App {
    /// Opens storage and puzzles and builds the engine around `models`.
    pub async fn open(settings: Settings, models: RoleModels) -> anyhow::Result<App> {
        let (library, skipped) = PuzzleLibrary::load(Some(&settings.puzzle_dir()));
        let prompts = crate::assets::load_prompts(settings.prompt_dir())?;
        let store: Arc<dyn Store> = Arc::new(
            SqliteStore::open(&settings.storage.database)
                .await
                .with_context(|| format!("opening the database {}", settings.storage.database.display()))?,
        );
        let pipeline = Pipeline { models: models.clone(), prompts: Arc::new(prompts), settings: settings.pipeline() };
        let engine = Arc::new(Engine {
            pipeline,
            store: store.clone(),
            clock: Arc::new(SystemClock),
            expire_after_ms: settings.expire_after_ms(),
        });
        Ok(App { settings, library, skipped, store, engine, catalogue: crate::assets::catalogue(), models })
    }
}
