use super::*;
use crate::knowledge::open_db;

fn vectors(n: usize, dims: usize, seed: f32) -> Vec<Vec<f32>> {
    (0..n).map(|i| (0..dims).map(|d| seed + i as f32 + d as f32 / 100.0).collect()).collect()
}

async fn open(dir: &std::path::Path, dims: usize) -> LanceVectorCache {
    LanceVectorCache::open(&open_db(dir).await.unwrap(), dims).await.unwrap()
}

#[tokio::test]
async fn saved_vectors_come_back_in_order_in_a_later_process() {
    let dir = tempfile::tempdir().unwrap();
    // More than one batch's worth, so order is not the scan's by chance.
    let saved = vectors(300, 8, 0.5);
    open(dir.path(), 8).await.save("known:en-a:0011", &saved).await;
    let later = open(dir.path(), 8).await;
    assert_eq!(later.load("known:en-a:0011").await, Some(saved));
    assert_eq!(later.load("known:en-a:0012").await, None, "another key is a miss");
    assert_eq!(later.load("").await, None);
}

#[tokio::test]
async fn saving_a_key_again_replaces_its_vectors_and_no_other() {
    let dir = tempfile::tempdir().unwrap();
    let cache = open(dir.path(), 4).await;
    // A quote in a key cannot break out of the filter.
    let (odd, plain) = ("known:it's:1", "known:zh-b:2");
    cache.save(odd, &vectors(3, 4, 1.0)).await;
    cache.save(plain, &vectors(2, 4, 7.0)).await;
    cache.save(odd, &vectors(3, 4, 2.0)).await;
    assert_eq!(cache.load(odd).await, Some(vectors(3, 4, 2.0)));
    assert_eq!(cache.load(plain).await, Some(vectors(2, 4, 7.0)));
}

#[tokio::test]
async fn vectors_of_another_size_are_refused_and_another_model_starts_empty() {
    let dir = tempfile::tempdir().unwrap();
    let cache = open(dir.path(), 4).await;
    cache.save("k", &vectors(2, 5, 0.0)).await;
    assert_eq!(cache.load("k").await, None, "a wrong-sized vector is not stored");
    cache.save("k", &vectors(2, 4, 0.0)).await;
    assert!(cache.load("k").await.is_some());
    // An embedder with other dimensions: the table is made again.
    let other = open(dir.path(), 6).await;
    assert_eq!(other.load("k").await, None);
}

#[tokio::test]
async fn a_key_with_a_position_missing_is_a_miss() {
    let dir = tempfile::tempdir().unwrap();
    let cache = open(dir.path(), 4).await;
    cache.save("k", &vectors(3, 4, 0.0)).await;
    cache.table.delete("position = 1").await.unwrap();
    assert_eq!(cache.load("k").await, None, "a hole means the saved set is not whole");
}
