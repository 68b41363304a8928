use super::*;

#[test]
fn the_bundled_library_has_twelve_valid_puzzles_per_language() {
    let (library, problems) = PuzzleLibrary::load(None);
    assert!(problems.is_empty(), "{problems:?}");
    for lang in [Language::En, Language::Zh] {
        let n = library.all().iter().filter(|p| p.language == lang).count();
        assert!(n >= 12, "{lang:?} has {n} puzzles");
    }
    for p in library.all() {
        assert!(p.hints.len() >= 3 && p.required_fact_ids().count() >= 1, "{}", p.id);
    }
}

#[test]
fn a_malformed_file_is_skipped_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let en = dir.path().join("en");
    std::fs::create_dir_all(&en).unwrap();
    std::fs::write(en.join("en-test-lighthouse.toml"), crate::core::fixtures::LIGHTHOUSE).unwrap();
    std::fs::write(en.join("en-broken.toml"), "id = \"en-broken\"\ntitle = 3\n").unwrap();
    std::fs::write(en.join("en-binary.toml"), [0xff, 0xfe, 0x00]).unwrap();
    let (library, problems) = PuzzleLibrary::load(Some(dir.path()));
    assert_eq!(library.len(), 1);
    assert!(library.get("en-test-lighthouse").is_some());
    let files: Vec<&str> = problems.iter().map(|p| p.file.as_str()).collect();
    assert!(files.iter().any(|f| f.ends_with("en-broken.toml")), "{problems:?}");
    assert!(problems.iter().any(|p| p.file.ends_with("en-binary.toml") && p.problem.reason.contains("UTF-8")));
    let (count, checked) = check(&[dir.path().to_path_buf()]);
    assert_eq!((count, checked.len()), (3, problems.len()));
}

#[test]
fn picking_respects_filters_and_suggests_near_ids() {
    let (library, _) = PuzzleLibrary::load(None);
    let p = library.pick(Some(Language::Zh), Some(Difficulty::Hard)).unwrap();
    assert_eq!((p.language, p.difficulty), (Language::Zh, Difficulty::Hard));
    assert!(library.suggest("rooster").contains(&"en-midnight-rooster"));
}
