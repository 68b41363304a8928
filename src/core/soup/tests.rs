use super::*;
use crate::core::fixtures::puzzle;

fn alice() -> Player {
    Player { id: "t:alice".into(), name: "Alice".into() }
}

fn bob() -> Player {
    Player { id: "t:bob".into(), name: "Bob".into() }
}

fn started() -> SoupGame {
    let p = puzzle();
    SoupGame::new(&p, 2).apply(&SoupEvent::Start, &p).expect("start")
}

fn ask(game: &SoupGame, key: &str, verdict: Verdict) -> SoupGame {
    game.apply(&SoupEvent::Asked { player: alice(), key: key.into(), verdict }, &puzzle()).expect("ask")
}

#[test]
fn lobby_accepts_only_start() {
    let p = puzzle();
    let lobby = SoupGame::new(&p, 3);
    assert_eq!(lobby.apply(&SoupEvent::HintTaken, &p), Err(Rejection::NotStarted));
    assert_eq!(started().apply(&SoupEvent::Start, &p), Err(Rejection::AlreadyStarted));
}

#[test]
fn questions_count_once_and_fill_the_ledger() {
    let g = ask(&started(), "was he alone", Verdict::No);
    let g = ask(&g, "was he alone", Verdict::Yes);
    assert_eq!(g.questions, 1);
    assert_eq!(g.ledger_verdict("was he alone"), Some(Verdict::No), "the first verdict stands");
}

#[test]
fn hints_stop_at_the_limit_and_a_refusal_changes_nothing() {
    let p = puzzle();
    let g = started().apply(&SoupEvent::HintTaken, &p).unwrap().apply(&SoupEvent::HintTaken, &p).unwrap();
    assert_eq!(g.hints_left(), 0);
    assert_eq!(g.apply(&SoupEvent::HintTaken, &p), Err(Rejection::NoHintsLeft { limit: 2 }));
    assert_eq!(g.hints_used, 2);
}

#[test]
fn the_hint_limit_never_exceeds_the_stored_hints() {
    assert_eq!(SoupGame::new(&puzzle(), 10).hint_limit, 3);
}

#[test]
fn facts_accumulate_across_guesses_and_players_until_solved() {
    let p = puzzle();
    let g0 = started();
    let g1 = g0.apply(&SoupEvent::Guessed { player: alice(), facts: vec!["f1".into()] }, &p).unwrap();
    let grade = g0.grade(&g1, &["f1".into()], &p);
    assert_eq!((grade.stated, grade.found_total, grade.fact_count, grade.solved), (1, 1, 3, false));
    assert_eq!(g1.phase, Phase::InProgress);
    let g2 = g1.apply(&SoupEvent::Guessed { player: bob(), facts: vec!["f2".into(), "zz".into()] }, &p).unwrap();
    assert_eq!(g2.phase, Phase::Solved);
    assert_eq!(g2.solver.as_deref(), Some("t:bob"));
    assert_eq!(g2.found.get("f1").map(String::as_str), Some("t:alice"));
    assert!(g1.grade(&g2, &["f2".into()], &p).solved);
}

#[test]
fn finished_games_refuse_every_move() {
    let p = puzzle();
    for end in [SoupEvent::GaveUp, SoupEvent::Revealed, SoupEvent::Expired] {
        let over = started().apply(&end, &p).unwrap();
        assert!(over.phase.is_over());
        let r = over.apply(&SoupEvent::HintTaken, &p);
        assert_eq!(r, Err(Rejection::GameOver(over.phase)));
    }
}

#[test]
fn scores_reward_few_questions_and_hints() {
    let p = puzzle();
    let mut g = started();
    for i in 0..5 {
        g = ask(&g, &format!("q{i}"), Verdict::No);
    }
    g = g.apply(&SoupEvent::HintTaken, &p).unwrap();
    let solved = g.apply(&SoupEvent::Guessed { player: alice(), facts: vec!["f1".into(), "f2".into()] }, &p).unwrap();
    // 100 - 5 questions * 2 - 1 hint * 10 - 0 wrong guesses * 5
    assert_eq!(solved.score(), 80);
    assert_eq!(solved.player_points(), vec![("t:alice".to_string(), "Alice".to_string(), 80 + 10)]);
    assert_eq!(started().apply(&SoupEvent::GaveUp, &p).unwrap().score(), 0);
}

#[test]
fn the_snapshot_round_trips_through_json() {
    let g = ask(&started(), "was he alone", Verdict::No);
    let json = serde_json::to_string(&g).unwrap();
    assert_eq!(serde_json::from_str::<SoupGame>(&json).unwrap(), g);
}
