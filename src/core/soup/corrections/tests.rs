use super::*;
use crate::core::soup::known::Known as Memory;

fn lighthouse() -> Puzzle {
    let mut puzzle = crate::core::fixtures::puzzle();
    let known = |question: &str, verdict| Known { question: question.into(), verdict };
    puzzle.known = vec![
        known("Did someone die?", Verdict::Yes),
        known("Was it a ghost?", Verdict::No),
        known("Does the weather matter?", Verdict::No),
    ];
    puzzle
}

fn recall(puzzle: &Puzzle, question: &str) -> Option<Verdict> {
    Memory::new(puzzle).recall(question, None).map(|r| r.verdict)
}

#[test]
fn a_correction_replaces_the_known_answer_to_the_same_question() {
    let p = lighthouse();
    assert_eq!(recall(&p, "does the weather matter"), Some(Verdict::No));
    let fix = Correction::new(&p, "  does the   weather matter ", "irrelevant").unwrap();
    assert_eq!(fix.question, "does the weather matter", "spaces folded");
    let corrected = p.corrected(std::slice::from_ref(&fix));
    assert_eq!(corrected.known.len(), p.known.len(), "replaced, not added beside it");
    assert!(!corrected.known.iter().any(|k| k.question == "Does the weather matter?"));
    assert_eq!(recall(&corrected, "Does the weather matter?"), Some(Verdict::Irrelevant));
    assert_eq!(recall(&corrected, "was it a ghost"), Some(Verdict::No), "the others stay");
    assert_eq!(p.known.len(), 3, "the library's puzzle is untouched");
}

#[test]
fn a_new_question_is_added_and_other_puzzles_corrections_are_ignored() {
    let p = lighthouse();
    let fix = Correction::new(&p, "Was the newspaper a local one?", "IRRELEVANT").unwrap();
    let other = Correction { puzzle: "en-other".into(), question: "Was it a ghost?".into(), verdict: Verdict::Yes };
    let corrected = p.corrected(&[fix, other]);
    assert_eq!(corrected.known.len(), 4);
    assert_eq!(recall(&corrected, "was the newspaper a local one"), Some(Verdict::Irrelevant));
    assert_eq!(recall(&corrected, "was it a ghost"), Some(Verdict::No));
}

#[test]
fn a_negated_correction_replaces_the_plain_question_too() {
    let p = lighthouse();
    let fix = Correction::new(&p, "Did nobody die?", "NO").unwrap();
    let corrected = p.corrected(&[fix]);
    assert!(!corrected.known.iter().any(|k| k.question == "Did someone die?"));
    assert_eq!(recall(&corrected, "did nobody die"), Some(Verdict::No));
}

#[test]
fn the_same_question_typed_again_has_the_same_id() {
    let p = lighthouse();
    let id = |q: &str| Correction::new(&p, q, "YES").unwrap().id(Language::En);
    assert_eq!(id("Was the newspaper late?"), id("was the NEWSPAPER late"));
    assert_ne!(id("Was the newspaper late?"), id("Was the ship late?"));
    assert!(id("Was the ship late?").starts_with("en-test-lighthouse#"));
    assert_eq!(id("Was the ship late?").len(), "en-test-lighthouse#".len() + 6);
}

#[test]
fn what_a_correction_cannot_be_is_refused_with_its_reason() {
    let p = lighthouse();
    assert_eq!(Correction::new(&p, "   ", "YES"), Err(Refused::BadQuestion));
    assert_eq!(Correction::new(&p, &"why ".repeat(100), "YES"), Err(Refused::BadQuestion));
    assert_eq!(Correction::new(&p, "Was it a ghost?", "maybe"), Err(Refused::BadVerdict));
    assert_eq!(Correction::new(&p, "Was it a ghost?", "META"), Err(Refused::BadVerdict));
    match Correction::new(&p, "Was the keeper's brother aboard and drowned?", "NO") {
        Err(Refused::Lint(reasons)) => assert!(reasons.iter().any(|r| r.contains("key fact f2")), "{reasons:?}"),
        other => panic!("a NO to a key fact must be refused: {other:?}"),
    }
}

#[test]
fn verdicts_are_read_as_moderators_type_them() {
    assert_eq!(verdict_of("yes and no"), Some(Verdict::YesAndNo));
    assert_eq!(verdict_of("YES_AND_NO"), Some(Verdict::YesAndNo));
    assert_eq!(verdict_of("No."), Some(Verdict::No));
    assert_eq!(verdict_of("是"), Some(Verdict::Yes));
    assert_eq!(verdict_of("不是"), Some(Verdict::No));
    assert_eq!(verdict_of("是也不是"), Some(Verdict::YesAndNo));
    assert_eq!(verdict_of("无关。"), Some(Verdict::Irrelevant));
    assert_eq!(verdict_of(""), None);
}

#[test]
fn a_correction_survives_its_stored_form() {
    let p = lighthouse();
    let fix = Correction::new(&p, "Was the newspaper late?", "YES").unwrap();
    assert_eq!(Correction::from_source(&fix.to_source()), Some(fix.clone()));
    assert_eq!(Correction::from_source("{not json"), None);
    assert_eq!(fix.shown(), "YES · Was the newspaper late?");
    let both = Correction { verdict: Verdict::YesAndNo, ..fix };
    assert_eq!(both.shown(), "YES AND NO · Was the newspaper late?");
}

#[test]
fn a_corrected_verdict_is_not_served_from_the_prepared_cache() {
    let p = lighthouse();
    let fix = Correction::new(&p, "Did someone die?", "NO").unwrap();
    let corrected = p.corrected(&[fix]);
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let before = runtime.block_on(crate::core::soup::known::prepared(&p, None, None));
    let after = runtime.block_on(crate::core::soup::known::prepared(&corrected, None, None));
    assert_eq!(before.recall("Did someone die?", None).map(|r| r.verdict), Some(Verdict::Yes));
    assert_eq!(after.recall("Did someone die?", None).map(|r| r.verdict), Some(Verdict::No));
}
