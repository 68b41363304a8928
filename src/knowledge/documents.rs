//! `LanceKnowledge`: puzzle documents in the LanceDB `knowledge` table.
//!
//! LanceDB is the durable store; one puzzle's documents (a few dozen) are
//! the hot set a game queries, so they are cached in memory after first use
//! and scored there, which is far faster than a filtered table query.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use async_trait::async_trait;
use lancedb::{Connection, Table};
use tokio::sync::RwLock;
use tokio::task::JoinHandle;

use super::lance::{Col, Val, in_list, lit, open_table, scan, schema, text_col, upsert, vector_at};
use super::upkeep::Upkeep;
use super::{content_hash, cosine};
use crate::core::embed::Embedder;
use crate::core::knowledge::{Doc, DocKind, Hit, Knowledge, KnowledgeError, Role, SyncReport, Visibility};

const TABLE: &str = "knowledge";
const COLS: [Col; 7] = [
    Col::Text("doc_id"),
    Col::Text("puzzle_id"),
    Col::Text("kind"),
    Col::Text("visibility"),
    Col::Text("language"),
    Col::Text("text"),
    Col::Text("content_hash"),
];
/// Texts embedded per call while syncing.
const EMBED_BATCH: usize = 32;
/// Documents written per commit while syncing: a process that stops
/// midway (a short command on a fresh install) keeps what it embedded.
const WRITE_BATCH: usize = 128;

type PuzzleDocs = Arc<Vec<(Doc, Vec<f32>)>>;

pub struct LanceKnowledge {
    table: Table,
    schema: SchemaRef,
    embedder: Arc<dyn Embedder>,
    /// Names the embedding model; part of each content hash so a new model
    /// re-embeds everything.
    embedder_id: String,
    cache: RwLock<HashMap<String, PuzzleDocs>>,
    /// Held for writing while a sync runs: retrieval waits for it, so a
    /// game never reads a half-built index.
    syncing: Arc<RwLock<()>>,
    upkeep: Upkeep,
}

fn store_err(e: impl std::fmt::Display) -> KnowledgeError {
    KnowledgeError::Store(e.to_string())
}

impl LanceKnowledge {
    pub async fn open(db: &Connection, embedder: Arc<dyn Embedder>) -> Result<Self, KnowledgeError> {
        let embedder_id = embedder.describe();
        let schema = schema(&COLS, embedder.dimensions());
        let (table, _) = open_table(db, TABLE, schema.clone()).await.map_err(store_err)?;
        let upkeep = Upkeep::open(&table).await;
        let (cache, syncing) = (RwLock::default(), Arc::default());
        Ok(LanceKnowledge { table, schema, embedder, embedder_id, cache, syncing, upkeep })
    }

    /// Whether retrieval would answer now: no sync holds the index (the
    /// one started at start-up embeds every document on a new machine).
    /// A sync that failed has let go too: play goes on with what is there.
    pub fn is_synced(&self) -> bool {
        self.syncing.try_read().is_ok()
    }

    pub async fn row_count(&self) -> Result<usize, KnowledgeError> {
        self.table.count_rows(None).await.map_err(store_err)
    }

    fn hash(&self, doc: &Doc) -> String {
        content_hash(&[&self.embedder_id, doc.kind.as_str(), doc.visibility.as_str(), &doc.language, &doc.text])
    }

    async fn existing_hashes(&self) -> Result<HashMap<String, String>, KnowledgeError> {
        let batches = scan(&self.table, None).await.map_err(store_err)?;
        let mut out = HashMap::new();
        for b in &batches {
            let (Some(ids), Some(hashes)) = (text_col(b, "doc_id"), text_col(b, "content_hash")) else { continue };
            for i in 0..b.num_rows() {
                out.insert(ids.value(i).to_string(), hashes.value(i).to_string());
            }
        }
        Ok(out)
    }

    async fn embed_rows(&self, docs: &[&Doc]) -> Result<Vec<(Vec<Val>, Vec<f32>)>, KnowledgeError> {
        let mut rows = Vec::with_capacity(docs.len());
        for chunk in docs.chunks(EMBED_BATCH) {
            let texts: Vec<String> = chunk.iter().map(|d| d.text.clone()).collect();
            let vectors = self.embedder.embed(&texts).await.map_err(|e| KnowledgeError::Embed(e.to_string()))?;
            for (doc, vector) in chunk.iter().zip(vectors) {
                rows.push((row(doc, &self.hash(doc)), vector));
            }
        }
        Ok(rows)
    }

    /// Starts a sync and returns once it holds the index: retrieval from
    /// then on waits for it to end. The first start on a new machine
    /// embeds every document (tens of seconds on two cores); a game need
    /// not wait for that before its story is told.
    pub async fn sync_in_background(self: Arc<Self>, docs: Vec<Doc>) -> JoinHandle<Result<SyncReport, KnowledgeError>> {
        let held = self.syncing.clone().write_owned().await;
        tokio::spawn(async move {
            let report = self.sync_held(&docs).await;
            drop(held);
            match &report {
                Ok(r) => tracing::info!(documents = r.documents, embedded = r.embedded, "knowledge synced"),
                Err(e) => tracing::warn!(error = %e, "knowledge sync failed"),
            }
            report
        })
    }

    /// `Knowledge::sync`, the caller holding `syncing` for writing.
    async fn sync_held(&self, docs: &[Doc]) -> Result<SyncReport, KnowledgeError> {
        let existing = self.existing_hashes().await?;
        let changed: Vec<&Doc> = docs.iter().filter(|d| existing.get(&d.id) != Some(&self.hash(d))).collect();
        for chunk in changed.chunks(WRITE_BATCH) {
            let rows = self.embed_rows(chunk).await?;
            self.upkeep.write(upsert(&self.table, &self.schema, "doc_id", &rows)).await.map_err(store_err)?;
        }
        let keep: HashSet<&str> = docs.iter().map(|d| d.id.as_str()).collect();
        let removed: Vec<&str> = existing.keys().map(String::as_str).filter(|id| !keep.contains(id)).collect();
        for chunk in removed.chunks(200) {
            let filter = in_list("doc_id", chunk);
            self.upkeep.write(self.table.delete(filter.as_str())).await.map_err(store_err)?;
        }
        self.cache.write().await.clear();
        Ok(SyncReport { documents: docs.len(), embedded: changed.len(), removed: removed.len() })
    }

    async fn puzzle(&self, puzzle_id: &str) -> Result<PuzzleDocs, KnowledgeError> {
        if let Some(docs) = self.cache.read().await.get(puzzle_id) {
            return Ok(docs.clone());
        }
        let filter = format!("puzzle_id = {}", lit(puzzle_id));
        let batches = scan(&self.table, Some(&filter)).await.map_err(store_err)?;
        let docs: PuzzleDocs = Arc::new(batches.iter().flat_map(docs_from_batch).collect());
        self.cache.write().await.insert(puzzle_id.to_string(), docs.clone());
        Ok(docs)
    }
}

fn row(doc: &Doc, hash: &str) -> Vec<Val> {
    [&doc.id, &doc.puzzle_id, doc.kind.as_str(), doc.visibility.as_str(), &doc.language, &doc.text, hash]
        .into_iter()
        .map(|s| Val::Text(s.to_string()))
        .collect()
}

fn docs_from_batch(b: &RecordBatch) -> Vec<(Doc, Vec<f32>)> {
    let cols = ["doc_id", "puzzle_id", "kind", "visibility", "language", "text"].map(|c| text_col(b, c));
    let [Some(id), Some(puzzle), Some(kind), Some(vis), Some(lang), Some(text)] = cols else { return Vec::new() };
    (0..b.num_rows())
        .filter_map(|i| {
            let doc = Doc {
                id: id.value(i).to_string(),
                puzzle_id: puzzle.value(i).to_string(),
                kind: DocKind::parse(kind.value(i))?,
                // An unknown visibility is treated as the most secret.
                visibility: Visibility::parse(vis.value(i)).unwrap_or(Visibility::Judge),
                language: lang.value(i).to_string(),
                text: text.value(i).to_string(),
            };
            Some((doc, vector_at(b, i)?))
        })
        .collect()
}

#[async_trait]
impl Knowledge for LanceKnowledge {
    async fn sync(&self, docs: &[Doc]) -> Result<SyncReport, KnowledgeError> {
        let _held = self.syncing.write().await;
        self.sync_held(docs).await
    }

    async fn retrieve(&self, role: Role, puzzle_id: &str, query: &str, k: usize) -> Result<Vec<Hit>, KnowledgeError> {
        let _synced = self.syncing.read().await;
        let docs = self.puzzle(puzzle_id).await?;
        let allowed = role.may_see();
        let vector =
            self.embedder.embed(&[query.to_string()]).await.map_err(|e| KnowledgeError::Embed(e.to_string()))?;
        let Some(q) = vector.first() else { return Ok(Vec::new()) };
        let mut hits: Vec<Hit> = docs
            .iter()
            .filter(|(d, _)| allowed.contains(&d.visibility))
            .map(|(d, v)| Hit { doc: d.clone(), score: cosine(q, v) })
            .collect();
        hits.sort_by(|a, b| b.score.total_cmp(&a.score));
        hits.truncate(k);
        Ok(hits)
    }
}

#[cfg(test)]
mod tests;
