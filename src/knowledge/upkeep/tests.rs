use super::*;
use crate::knowledge::lance::{Col, Val, open_table, schema, upsert};
use crate::knowledge::open_db;

const COLS: [Col; 1] = [Col::Text("id")];

fn row(i: usize) -> (Vec<Val>, Vec<f32>) {
    (vec![Val::Text(format!("row-{i}"))], vec![i as f32, 1.0, 0.5, 0.25])
}

async fn table_in(dir: &std::path::Path) -> (Table, arrow_schema::SchemaRef) {
    let db = open_db(dir).await.unwrap();
    let schema = schema(&COLS, 4);
    let (table, _) = open_table(&db, "t", schema.clone()).await.unwrap();
    (table, schema)
}

async fn files(table: &Table) -> usize {
    table.stats().await.unwrap().fragment_stats.num_fragments
}

#[tokio::test]
async fn a_table_left_in_many_small_files_is_merged_when_a_process_opens_it() {
    let dir = tempfile::tempdir().unwrap();
    let (table, schema) = table_in(dir.path()).await;
    // An earlier process (or a release without upkeep) wrote a row at a time.
    for i in 0..COMPACT_AFTER {
        upsert(&table, &schema, "id", &[row(i)]).await.unwrap();
    }
    assert_eq!(files(&table).await, COMPACT_AFTER);

    let upkeep = Upkeep::open(&table).await;
    upkeep.settle().await;
    assert_eq!(files(&table).await, 1, "merged into one file");
    assert_eq!(table.count_rows(None).await.unwrap(), COMPACT_AFTER, "every row kept");
}

#[tokio::test]
async fn a_table_with_few_files_is_left_alone_until_enough_writes() {
    let dir = tempfile::tempdir().unwrap();
    let (table, schema) = table_in(dir.path()).await;
    let upkeep = Upkeep::open(&table).await;
    for i in 0..COMPACT_AFTER - 1 {
        upkeep.write(upsert(&table, &schema, "id", &[row(i)])).await.unwrap();
    }
    upkeep.settle().await;
    assert_eq!(files(&table).await, COMPACT_AFTER - 1, "no merge before the count");

    // The count's last write starts a merge; writes made while it runs wait
    // their turn and are kept.
    upkeep.write(upsert(&table, &schema, "id", &[row(COMPACT_AFTER - 1)])).await.unwrap();
    for i in COMPACT_AFTER..COMPACT_AFTER + 3 {
        upkeep.write(upsert(&table, &schema, "id", &[row(i)])).await.unwrap();
    }
    upkeep.settle().await;
    let after = files(&table).await;
    assert!(after <= 4, "{after} files: the first {COMPACT_AFTER} were merged");
    assert_eq!(table.count_rows(None).await.unwrap(), COMPACT_AFTER + 3);
}

#[tokio::test]
async fn a_failed_write_is_not_counted() {
    let dir = tempfile::tempdir().unwrap();
    let (table, _) = table_in(dir.path()).await;
    let upkeep = Upkeep::open(&table).await;
    let wrong = crate::knowledge::lance::schema(&COLS, 5);
    let bad = (vec![Val::Text("x".into())], vec![0.0; 5]);
    assert!(upkeep.write(upsert(&table, &wrong, "id", &[bad])).await.is_err());
    assert_eq!(upkeep.writes.load(Ordering::Relaxed), 0);
}
