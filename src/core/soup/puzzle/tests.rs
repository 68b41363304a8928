use super::*;
use crate::core::fixtures::{LIGHTHOUSE, puzzle};

/// Parses `source` after applying `edit` to the fixture text and returns
/// the problems as `field: reason` lines.
fn problems(edit: impl Fn(&str) -> String) -> Vec<String> {
    match Puzzle::from_toml(&edit(LIGHTHOUSE), Some("en-test-lighthouse"), Some(Language::En)) {
        Ok(_) => Vec::new(),
        Err(ps) => ps.iter().map(ToString::to_string).collect(),
    }
}

fn check(edit: impl Fn(&str) -> String, expected_field: &str, reason_part: &str) {
    let found = problems(edit);
    assert!(
        found.iter().any(|p| p.starts_with(expected_field) && p.contains(reason_part)),
        "expected a problem in {expected_field} mentioning {reason_part:?}, got {found:?}"
    );
}

#[test]
fn the_fixture_is_valid() {
    let p = puzzle();
    assert_eq!(p.facts.len(), 3);
    assert_eq!(p.required_fact_ids().collect::<Vec<_>>(), ["f1", "f2"]);
}

#[test]
fn malformed_puzzles_name_the_field_and_reason() {
    check(|s| s.replace("id = \"en-test-lighthouse\"", "id = \"Bad Id!\""), "id", "a-z");
    check(|s| s.replace("difficulty = \"medium\"", "difficulty = \"brutal\""), "(at byte", "brutal");
    check(
        |s| s.replace("surface = \"A lighthouse", "surface = \"   \"\nx = \"A lighthouse"),
        "(at byte",
        "unknown field",
    );
    check(|s| s.replace("required = true", "required = false"), "facts", "required");
    check(|s| s.replace("id = \"f2\"", "id = \"f1\""), "facts[1].id", "used twice");
    check(|s| s.replace("\"The lamp was there to warn ships away from danger.\"", ""), "hints", "at least 3");
    check(
        |s| s.replace("Think about who was at sea that night.", "the ship struck the rocks and sank"),
        "hints[0]",
        "paraphrase",
    );
    check(|s| s.replace("title = \"The Dark Lighthouse\"", "title = \"\""), "title", "empty");
    check(|s| s.replace("language = \"en\"", "language = \"zh\""), "language", "under \"en\"");
}

#[test]
fn the_lint_catches_giveaways_told_stories_and_unsupported_facts() {
    check(
        |s| s.replace("Think about who was at sea that night.", "Remember: the keeper's brother was aboard that ship."),
        "hints[0]",
        "required fact f2",
    );
    check(
        |s| {
            s.replace(
                "A lighthouse keeper switched off his lamp one night.",
                "Because the lamp was dark, the ship struck the rocks and sank one night.",
            )
        },
        "surface",
        "word for word",
    );
    check(
        |s| s.replace("He learned of it from the newspaper.", "A jealous rival bribed the harbour pilot."),
        "facts[2].text",
        "not supported",
    );
}

#[test]
fn a_file_name_that_differs_from_the_id_is_refused() {
    let err = Puzzle::from_toml(LIGHTHOUSE, Some("other-name"), None).expect_err("mismatch");
    assert!(err.iter().any(|p| p.field == "id" && p.reason.contains("other-name")), "{err:?}");
}

#[test]
fn garbage_is_reported_not_panicked_on() {
    for junk in ["", "\u{0}\u{1}", "[[[", "id = 3", &"x".repeat(10_000)] {
        assert!(Puzzle::from_toml(junk, None, None).is_err());
    }
}

#[test]
fn over_long_bottom_is_refused() {
    let long = "word ".repeat(1_000);
    check(|s| s.replace("bottom = \"The keeper", &format!("bottom = \"{long} The keeper")), "bottom", "longer");
}

#[test]
fn a_puzzle_splits_into_typed_documents() {
    let docs = puzzle_docs(&puzzle());
    let public: Vec<&str> = docs.iter().filter(|d| d.visibility == Visibility::Public).map(|d| d.id.as_str()).collect();
    assert_eq!(public, ["en-test-lighthouse#surface"]);
    assert_eq!(docs.iter().filter(|d| d.kind == DocKind::Fact).count(), 3);
    assert_eq!(docs.iter().filter(|d| d.kind == DocKind::Hint).count(), 3);
    assert!(docs.iter().all(|d| !d.text.is_empty()));
}
