use super::*;
use crate::core::soup::puzzle::Puzzle;
use crate::core::soup::puzzle::all_puzzle_docs;
use crate::knowledge::{HashingEmbedder, open_db};
use crate::puzzles::PuzzleLibrary;

async fn open(dir: &std::path::Path) -> LanceKnowledge {
    let db = open_db(dir).await.unwrap();
    LanceKnowledge::open(&db, Arc::new(HashingEmbedder::new(64))).await.unwrap()
}

fn library() -> PuzzleLibrary {
    PuzzleLibrary::load(None).0
}

#[tokio::test]
async fn unchanged_documents_are_not_embedded_again() {
    let dir = tempfile::tempdir().unwrap();
    let kb = open(dir.path()).await;
    let lib = library();
    let puzzles: Vec<&Puzzle> = lib.all().iter().map(|p| p.as_ref()).collect();
    let first = kb.sync(&all_puzzle_docs(&puzzles)).await.unwrap();
    assert_eq!(first.embedded, first.documents);
    assert_eq!(kb.row_count().await.unwrap(), first.documents);
    let again = kb.sync(&all_puzzle_docs(&puzzles)).await.unwrap();
    assert_eq!((again.embedded, again.removed), (0, 0));

    let mut edited = (*lib.all()[0]).clone();
    edited.surface = format!("{} (edited)", edited.surface);
    let mut changed: Vec<&Puzzle> = puzzles[1..].to_vec();
    changed.push(&edited);
    assert_eq!(kb.sync(&all_puzzle_docs(&changed)).await.unwrap().embedded, 1);

    let fewer = kb.sync(&all_puzzle_docs(&puzzles[..2])).await.unwrap();
    assert!(fewer.removed > 0);
    assert_eq!(kb.row_count().await.unwrap(), fewer.documents);
}

#[tokio::test]
async fn no_role_but_the_judge_retrieves_judge_documents_on_any_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let kb = open(dir.path()).await;
    let lib = library();
    let puzzles: Vec<&Puzzle> = lib.all().iter().map(|p| p.as_ref()).collect();
    kb.sync(&all_puzzle_docs(&puzzles)).await.unwrap();
    for p in lib.all() {
        // The worst query: the secret itself.
        for role in [Role::Narrator, Role::PlayerAgent, Role::HintMaster] {
            let hits = kb.retrieve(role, &p.id, &p.bottom, 50).await.unwrap();
            assert!(!hits.is_empty(), "{role:?} sees the surface of {}", p.id);
            for hit in hits {
                assert!(role.may_see().contains(&hit.doc.visibility), "{role:?} got {:?}", hit.doc.id);
                assert_ne!(hit.doc.text, p.bottom.trim());
            }
        }
        let judge = kb.retrieve(Role::Judge, &p.id, &p.bottom, 1).await.unwrap();
        assert_eq!(judge[0].doc.kind, DocKind::Bottom, "the judge finds the bottom by its own text");
    }
}

#[tokio::test]
async fn knowledge_survives_a_restart_and_a_deleted_directory_is_rebuilt() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library();
    let puzzles: Vec<&Puzzle> = lib.all().iter().map(|p| p.as_ref()).collect();
    let count = {
        let kb = open(dir.path()).await;
        kb.sync(&all_puzzle_docs(&puzzles)).await.unwrap().documents
    };
    let reopened = open(dir.path()).await;
    assert_eq!(reopened.row_count().await.unwrap(), count);
    assert_eq!(reopened.sync(&all_puzzle_docs(&puzzles)).await.unwrap().embedded, 0);
    drop(reopened);

    std::fs::remove_dir_all(dir.path()).unwrap();
    let rebuilt = open(dir.path()).await;
    assert_eq!(rebuilt.row_count().await.unwrap(), 0);
    assert_eq!(rebuilt.sync(&all_puzzle_docs(&puzzles)).await.unwrap().embedded, count);
    let hits = rebuilt.retrieve(Role::Narrator, &lib.all()[0].id, "anything", 3).await.unwrap();
    assert_eq!(hits.len(), 1, "only the surface is public");
}

#[tokio::test]
async fn ids_with_quotes_cannot_break_the_filter() {
    let dir = tempfile::tempdir().unwrap();
    let kb = open(dir.path()).await;
    let hits = kb.retrieve(Role::Judge, "x' OR '1'='1", "q", 5).await.unwrap();
    assert!(hits.is_empty());
}

/// The hashing embedder, slow (so a sync is still running when a game
/// asks), and failing from its `fail_from`th call on.
struct SlowEmbedder {
    calls: std::sync::atomic::AtomicUsize,
    fail_from: usize,
}

#[async_trait]
impl Embedder for SlowEmbedder {
    fn describe(&self) -> String {
        "slow".into()
    }
    fn dimensions(&self) -> usize {
        64
    }
    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, crate::core::embed::EmbedError> {
        let call = self.calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        if call >= self.fail_from {
            return Err(crate::core::embed::EmbedError::Failed("the model stopped".into()));
        }
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        HashingEmbedder::new(64).embed(texts).await
    }
}

async fn open_slow(dir: &std::path::Path, fail_from: usize) -> Arc<LanceKnowledge> {
    let db = open_db(dir).await.unwrap();
    let embedder = Arc::new(SlowEmbedder { calls: Default::default(), fail_from });
    Arc::new(LanceKnowledge::open(&db, embedder).await.unwrap())
}

#[tokio::test]
async fn a_game_asking_during_the_first_sync_waits_for_the_whole_index() {
    let dir = tempfile::tempdir().unwrap();
    let kb = open_slow(dir.path(), usize::MAX).await;
    let lib = library();
    let puzzles: Vec<&Puzzle> = lib.all().iter().map(|p| p.as_ref()).collect();
    let docs = all_puzzle_docs(&puzzles);
    let last = lib.all().last().unwrap().clone();
    let sync = kb.clone().sync_in_background(docs.clone()).await;
    // Asked at once: the sync is far from the last puzzle's documents.
    let hits = kb.retrieve(Role::Judge, &last.id, &last.bottom, 1).await.unwrap();
    assert_eq!(hits[0].doc.kind, DocKind::Bottom, "the judge finds the bottom, not a half-built index");
    sync.await.unwrap().unwrap();
    assert_eq!(kb.row_count().await.unwrap(), docs.len());
    assert_eq!(kb.sync(&docs).await.unwrap().embedded, 0, "a later sync finds it all done");
}

#[tokio::test]
async fn a_sync_that_stops_midway_keeps_what_it_wrote() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library();
    let puzzles: Vec<&Puzzle> = lib.all().iter().map(|p| p.as_ref()).collect();
    let docs = all_puzzle_docs(&puzzles);
    assert!(docs.len() > 2 * WRITE_BATCH, "enough documents for several writes");
    // Four embedding calls are one write's worth; the fifth fails.
    let failing = open_slow(dir.path(), WRITE_BATCH / EMBED_BATCH).await;
    assert!(failing.sync(&docs).await.is_err());
    assert_eq!(failing.row_count().await.unwrap(), WRITE_BATCH);
    drop(failing);
    let again = open_slow(dir.path(), usize::MAX).await;
    assert_eq!(again.sync(&docs).await.unwrap().embedded, docs.len() - WRITE_BATCH);
}
