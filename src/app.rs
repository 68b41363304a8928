//! Wiring: builds the engine (store, models, prompts, puzzles, knowledge
//! and memory) from settings. Front ends and commands share this, so the
//! terminal and the bots run the same game on the same parts.

use std::sync::Arc;

use anyhow::Context;

use crate::config::Settings;
use crate::core::actor::Engine;
use crate::core::catalogue::Catalogue;
use crate::core::embed::{Embedder, VectorCache};
use crate::core::game::Selfplayer;
use crate::core::knowledge::{Doc, Knowledge, SyncReport};
use crate::core::llm::RoleModels;
use crate::core::services::Pipeline;
use crate::core::soup::puzzle::Puzzle;
use crate::core::soup::selfplay::SoupSelfplay;
use crate::core::store::{Store, SystemClock};
use crate::knowledge::{HashingEmbedder, LanceKnowledge, LanceMemory, LanceVectorCache, SharedMemory, open_db};
use crate::puzzles::{FileProblem, PuzzleLibrary};
use crate::store::SqlStore;

/// The LanceDB-backed parts.
pub struct Vectors {
    pub knowledge: Arc<LanceKnowledge>,
    /// Player memory: SQL's record, followed by this process's index.
    pub memory: Arc<SharedMemory>,
    pub embedder: Arc<dyn Embedder>,
    /// Puzzles' known answers, embedded once for this directory.
    pub prepared: Arc<LanceVectorCache>,
    /// Whether the embedder understands meaning (a sentence model), so the
    /// semantic ledger may use it.
    pub semantic: bool,
}

pub struct App {
    pub settings: Settings,
    pub library: PuzzleLibrary,
    /// Puzzle files that were skipped because they are malformed.
    pub skipped: Vec<FileProblem>,
    pub store: Arc<dyn Store>,
    pub engine: Arc<Engine>,
    pub catalogue: Catalogue,
    pub models: RoleModels,
    /// `None` when the vector store could not be opened; games still run.
    pub vectors: Option<Vectors>,
}

impl App {
    /// Opens storage, puzzles and vectors and builds the engine around `models`.
    pub async fn open(settings: Settings, models: RoleModels) -> anyhow::Result<App> {
        let (library, skipped) = PuzzleLibrary::load(Some(&settings.puzzle_dir()));
        let prompts = crate::assets::load_prompts(settings.prompt_dir())?;
        let store: Arc<dyn Store> = Arc::new(
            SqlStore::connect(&settings.storage.database())
                .await
                .with_context(|| format!("opening the database {}", settings.storage.database()))?,
        );
        let vectors = match open_vectors(&settings, &store, choose_embedder(&settings).await).await {
            Ok(v) => Some(v),
            Err(e) => {
                tracing::warn!(error = %format!("{e:#}"), "vector store unavailable; playing without knowledge and memory");
                None
            }
        };
        let mut pipeline = Pipeline::new(models.clone(), Arc::new(prompts), settings.pipeline());
        if let Some(v) = &vectors {
            pipeline.knowledge = Some(v.knowledge.clone());
            pipeline.memory = Some(v.memory.clone());
            pipeline.embedder = v.semantic.then(|| v.embedder.clone());
            let prepared: Arc<dyn VectorCache> = v.prepared.clone();
            pipeline.vector_cache = Some(prepared);
        }
        let engine = Engine::new(pipeline, store.clone(), Arc::new(SystemClock), settings.expire_after_ms())
            .owned_by(settings.instance());
        let engine = Arc::new(engine);
        let app =
            App { settings, library, skipped, store, engine, catalogue: crate::assets::catalogue(), models, vectors };
        app.sync_knowledge_in_background().await;
        Ok(app)
    }

    /// Every playable puzzle: the library plus valid custom puzzles from SQL.
    pub async fn all_puzzles(&self) -> anyhow::Result<Vec<Arc<Puzzle>>> {
        let mut out: Vec<Arc<Puzzle>> = self.library.all().to_vec();
        for custom in self.store.custom_puzzles().await? {
            match Puzzle::from_toml(&custom.source, Some(&custom.id), None) {
                Ok(p) => out.push(Arc::new(p)),
                Err(problems) => {
                    tracing::warn!(id = %custom.id, scope = %custom.scope, ?problems, "custom puzzle skipped")
                }
            }
        }
        Ok(out)
    }

    /// Brings the knowledge table in line with the puzzles (only changed
    /// documents are embedded), waiting for it. Failures are logged: play
    /// goes on.
    pub async fn sync_knowledge(&self) -> Option<SyncReport> {
        let vectors = self.vectors.as_ref()?;
        match vectors.knowledge.sync(&self.knowledge_docs().await).await {
            Ok(report) => Some(report),
            Err(e) => {
                tracing::warn!(error = %e, "knowledge sync failed");
                None
            }
        }
    }

    /// The same, in the background: retrieval waits for it, nothing else
    /// does (a new machine's first start embeds every document).
    async fn sync_knowledge_in_background(&self) {
        let Some(vectors) = &self.vectors else { return };
        let docs = self.knowledge_docs().await;
        // Detached: it logs its own outcome.
        drop(vectors.knowledge.clone().sync_in_background(docs).await);
    }

    /// Every puzzle's documents and every hosted game's (the Lore RPG's
    /// worlds).
    async fn knowledge_docs(&self) -> Vec<Doc> {
        let puzzles = match self.all_puzzles().await {
            Ok(p) => p,
            Err(e) => {
                tracing::warn!(error = %e, "could not list custom puzzles");
                self.library.all().to_vec()
            }
        };
        let refs: Vec<&Puzzle> = puzzles.iter().map(|p| p.as_ref()).collect();
        let mut docs = crate::core::soup::puzzle::all_puzzle_docs(&refs);
        for game in crate::assets::hosted_games() {
            docs.extend(game.knowledge());
        }
        docs
    }
}

/// The sentence model when its files are installed, else the hashing
/// embedder (storage works; the semantic ledger stays off).
async fn choose_embedder(settings: &Settings) -> (Arc<dyn Embedder>, bool) {
    if settings.knowledge.embedder == "hashing" {
        return (Arc::new(HashingEmbedder::new(384)), false);
    }
    match crate::embed::sentence_model(&settings.knowledge.embedder, &settings.llm.local).await {
        Ok(embedder) => (embedder, true),
        Err(e) => {
            tracing::info!(error = %e, "no sentence embedder; knowledge uses hashing and the ledger exact matching");
            (Arc::new(HashingEmbedder::new(384)), false)
        }
    }
}

/// Names the embedder the vectors were made with; when it changes, memory
/// is re-embedded from the SQL record (knowledge notices by content hash).
const EMBEDDER_MARKER: &str = "embedder.txt";
/// How far this directory's memory index has followed SQL's memory record.
const MEMORY_MARK: &str = "memory_feed.seq";

async fn open_vectors(
    settings: &Settings,
    store: &Arc<dyn Store>,
    (embedder, semantic): (Arc<dyn Embedder>, bool),
) -> anyhow::Result<Vectors> {
    let dir = &settings.storage.vector_dir;
    let db = open_db(dir).await.with_context(|| format!("opening the vector store {}", dir.display()))?;
    let knowledge = Arc::new(LanceKnowledge::open(&db, embedder.clone()).await?);
    let index = Arc::new(LanceMemory::open(&db, embedder.clone()).await?);
    let prepared = Arc::new(LanceVectorCache::open(&db, embedder.dimensions()).await?);
    let memory = Arc::new(SharedMemory::new(store.clone(), index, Some(dir.join(MEMORY_MARK))));
    if memory.record_is_empty().await? {
        // A database from before memory's record: its memories are written
        // from the finished games once, into the record every process follows.
        crate::core::soup::remember::rebuild_memory(store.as_ref(), memory.as_ref()).await?;
    }
    let marker = dir.join(EMBEDDER_MARKER);
    let label = embedder.describe();
    if std::fs::read_to_string(&marker).ok().as_deref() != Some(label.as_str()) {
        memory.rebuild().await?;
        std::fs::write(&marker, &label).with_context(|| format!("writing {}", marker.display()))?;
    } else {
        memory.catch_up().await?;
    }
    memory.follow().await;
    Ok(Vectors { knowledge, memory, embedder, prepared, semantic })
}

/// Every game that offers self-play (`echoes selfplay`), by its group:
/// Turtle Soup over the configured puzzles, then each hosted game whose
/// `HostedGame::selfplay` offers one.
pub fn selfplayers(settings: &Settings) -> Vec<(&'static str, Arc<dyn Selfplayer>)> {
    let (library, _) = PuzzleLibrary::load(Some(&settings.puzzle_dir()));
    let soup = SoupSelfplay { puzzles: library.all().to_vec() };
    let mut out: Vec<(&'static str, Arc<dyn Selfplayer>)> = vec![("soup", Arc::new(soup))];
    for game in crate::assets::hosted_games() {
        let group = game.group();
        out.extend(game.selfplay().map(|s| (group, s)));
    }
    out
}
