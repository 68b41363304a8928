use super::*;
use crate::knowledge::{HashingEmbedder, open_db};

async fn open(dir: &std::path::Path) -> LanceMemory {
    let db = open_db(dir).await.unwrap();
    LanceMemory::open(&db, Arc::new(HashingEmbedder::new(64))).await.unwrap()
}

fn item(id: &str, ns: &str, kind: MemoryKind, text: &str, at: i64) -> MemoryItem {
    MemoryItem { id: id.into(), namespace: ns.into(), kind, text: text.into(), updated_ms: at }
}

#[tokio::test]
async fn memories_are_recalled_by_meaning_within_namespaces() {
    let dir = tempfile::tempdir().unwrap();
    let mem = open(dir.path()).await;
    mem.put(&[
        item("a1", "player:discord:1", MemoryKind::Summary, "solved the lighthouse puzzle quickly", 1),
        item("a2", "player:discord:1", MemoryKind::Profile, "asks many questions and never takes hints", 2),
        item("b1", "player:discord:2", MemoryKind::Summary, "gave up on the lighthouse puzzle", 3),
    ])
    .await
    .unwrap();
    let got = mem.recall(&["player:discord:1".into()], "lighthouse puzzle", 1).await.unwrap();
    assert_eq!(got.iter().map(|m| m.id.as_str()).collect::<Vec<_>>(), ["a1"]);
    let none = mem.recall(&["player:slack:9".into()], "lighthouse", 3).await.unwrap();
    assert!(none.is_empty(), "other namespaces are never recalled");
}

#[tokio::test]
async fn the_same_id_replaces_and_forget_erases_one_namespace() {
    let dir = tempfile::tempdir().unwrap();
    let mem = open(dir.path()).await;
    mem.put(&[item("s", "player:console:kim", MemoryKind::Stats, "1 game", 1)]).await.unwrap();
    mem.put(&[item("s", "player:console:kim", MemoryKind::Stats, "2 games", 2)]).await.unwrap();
    mem.put(&[item("o", "player:console:ann", MemoryKind::Stats, "5 games", 2)]).await.unwrap();
    let kim = mem.list("player:console:kim").await.unwrap();
    assert_eq!(kim.iter().map(|m| m.text.as_str()).collect::<Vec<_>>(), ["2 games"]);
    assert_eq!(mem.forget("player:console:kim").await.unwrap(), 1);
    assert!(mem.list("player:console:kim").await.unwrap().is_empty());
    assert_eq!(mem.list("player:console:ann").await.unwrap().len(), 1, "others keep theirs");
    drop(mem);
    let reopened = open(dir.path()).await;
    assert!(reopened.list("player:console:kim").await.unwrap().is_empty(), "forgetting survives a restart");
}

#[tokio::test]
async fn memories_written_a_game_at_a_time_are_merged_and_all_kept() {
    use crate::knowledge::upkeep::COMPACT_AFTER;
    let dir = tempfile::tempdir().unwrap();
    let mem = open(dir.path()).await;
    for i in 0..COMPACT_AFTER {
        let text = format!("game {i}: solved the lighthouse puzzle");
        mem.put(&[item(&format!("g{i}"), "player:discord:1", MemoryKind::Summary, &text, i as i64)]).await.unwrap();
    }
    mem.upkeep.settle().await;
    let stats = mem.table.stats().await.unwrap();
    assert_eq!(stats.fragment_stats.num_fragments, 1, "{COMPACT_AFTER} writes merged into one file");
    assert_eq!(mem.list("player:discord:1").await.unwrap().len(), COMPACT_AFTER);
    let got = mem.recall(&["player:discord:1".into()], "game 7: solved the lighthouse puzzle", 1).await.unwrap();
    assert_eq!(got[0].id, "g7", "vectors survive the merge");
    assert_eq!(mem.forget("player:discord:1").await.unwrap(), COMPACT_AFTER);
}
