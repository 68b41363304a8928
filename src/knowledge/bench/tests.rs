use super::*;

#[test]
fn top_k_keeps_the_best_finite_scores_in_order() {
    let scores = [0.1, 0.9, f32::NEG_INFINITY, 0.5, 0.7, 0.9, -0.2];
    assert_eq!(top_k(&scores, 3), vec![1, 5, 4]);
    assert_eq!(top_k(&scores, 10), vec![1, 5, 4, 3, 0, 6]);
    assert!(top_k(&[f32::NEG_INFINITY], 5).is_empty());
}

#[test]
fn the_floor_applies_the_role_filter() {
    let rows = vec![
        (Visibility::Judge, vec![1.0, 0.0]),
        (Visibility::Public, vec![0.8, 0.6]),
        (Visibility::Hint, vec![0.0, 1.0]),
    ];
    let floor = Floor::new(&rows, Role::HintMaster.may_see(), 2);
    assert_eq!(floor.top(&[1.0, 0.0], 2), vec![1, 2], "the judge-only row is never returned");
}

#[tokio::test]
async fn the_upkeep_bench_measures_the_table_before_and_after_its_merge() {
    let dir = tempfile::tempdir().unwrap();
    let f = upkeep(dir.path(), 60, 8, 10).await.unwrap();
    assert_eq!((f.before.files, f.after.files), (60, 1), "a file per write, then one");
    assert!(f.after.versions > f.before.versions, "young versions are kept: a merge adds one");
    assert!(f.before.bytes > 0 && f.after.bytes > f.before.bytes / 2);
    let report = render_upkeep(&f);
    assert!(report.contains("as written") && report.contains("after upkeep"), "{report}");
}
