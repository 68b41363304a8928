//! The Arena's state machine (turn order, skipped turns, stages,
//! eliminations, the end), reactions and moderation, the scorer's parser,
//! the public record, and the roster files.

use super::agents::{clean_text, parse_scores};
use super::*;

fn player(n: usize) -> Player {
    Player { id: format!("t:{n}"), name: format!("P{n}") }
}

fn persona(id: &str) -> Persona {
    Persona {
        id: id.into(),
        name: format!("Persona {id}"),
        tagline: "a tagline".into(),
        voice: "a voice".into(),
        goals: vec!["a goal".into()],
        secret: match id {
            "a" => "Hoards copper spoons and trades them for promises at midnight; calls it the Zebra Gambit.",
            "b" => "Whispers lighthouse riddles to rivals until they doubt their own maps.",
            _ => "Praises the quietest contestant loudly, then borrows every idea they had.",
        }
        .to_string(),
    }
}

fn rules() -> Rules {
    Rules { max_turns: 12, early_until: 4, middle_until: 8, ..Rules::default() }
}

/// Humans 1..=h and AI personas a, b, …, started.
fn started(humans: usize, ai: usize, rules: Rules) -> ArenaGame {
    let mut g = ArenaGame::new(&player(1), 8, rules, Language::En, "Fix the library", 7);
    for i in 2..=humans {
        g = g.apply(&Event::Join(player(i)), &()).unwrap();
    }
    for i in 0..ai {
        let id = ((b'a' + i as u8) as char).to_string();
        g = g.apply(&Event::AddAi(persona(&id)), &()).unwrap();
    }
    g.apply(&Event::Begin { by: "t:1".into(), moderator: false, now_ms: 0 }, &()).unwrap()
}

fn scores(v: u8) -> Scores {
    Scores::from_values([v; 5])
}

fn speak(g: &ArenaGame, v: u8) -> ArenaGame {
    let seat = g.speaker().unwrap().to_string();
    let e = Event::Speak { seat, text: "an idea".into(), scores: scores(v), parsed: true, now_ms: 10 };
    g.apply(&e, &()).unwrap()
}

#[test]
fn contestants_speak_round_robin_and_a_human_has_a_deadline() {
    let g = started(1, 2, rules());
    assert_eq!(g.order, vec!["t:1", "ai:1", "ai:2"]);
    assert_eq!(g.speaker(), Some("t:1"));
    let d = g.deadline.clone().expect("a human speaker has a deadline");
    assert!(g.reminder().is_some_and(|r| r.at_ms == d.at_ms - 20_000));
    let g = speak(&g, 5);
    assert_eq!(g.speaker(), Some("ai:1"));
    assert_eq!(g.deadline, None, "an AI speaker has no deadline");
    let g = speak(&speak(&g, 5), 5);
    assert_eq!(g.rounds.len(), 1);
    assert_eq!(g.order, vec!["ai:1", "ai:2", "t:1"], "the order rotates by one seat per round");
    assert_eq!(g.round(), 2);
    let wrong = Event::Speak { seat: "ai:2".into(), text: "x".into(), scores: scores(5), parsed: true, now_ms: 0 };
    assert!(matches!(g.apply(&wrong, &()), Err(Rejection::NotYourTurn { .. })));
}

#[test]
fn a_missed_turn_is_skipped_and_scores_nothing() {
    let g = started(2, 1, rules());
    let tag = g.deadline.clone().unwrap().tag;
    let g = g.apply(&Event::Timer { tag: tag.clone(), now_ms: 120_000 }, &()).unwrap();
    assert_eq!(g.said[0].scores, None, "skipped");
    assert_eq!(g.speaker(), Some("t:2"));
    assert_eq!(g.apply(&Event::Timer { tag, now_ms: 1 }, &()).unwrap_err(), Rejection::StaleTimer);
    let remind = g.reminder().unwrap().tag;
    assert_eq!(g.apply(&Event::Timer { tag: remind, now_ms: 1 }, &()).unwrap_err(), Rejection::StaleTimer);
}

#[test]
fn the_weakest_goes_out_past_the_early_stage_until_the_minimum() {
    // Early stage: turns 1–4, nobody out however low.
    let g = started(1, 3, rules());
    let g = speak(&speak(&speak(&speak(&g, 1), 6), 7), 8);
    assert_eq!(g.rounds[0].out, None, "no elimination in the early stage");
    assert_eq!(g.rounds[0].stage, Stage::Early);
    // Round 2 (turns 5–8, middle): the seat at 2 is below the threshold.
    let speakers: Vec<String> = g.order.clone();
    let mut g = g;
    for v in [2, 6, 7, 8] {
        g = speak(&g, v);
    }
    assert_eq!(g.rounds[1].out.as_deref(), Some(speakers[0].as_str()));
    assert_eq!(g.living().len(), 3);
    // Round 3: everyone above the threshold, nobody out.
    for v in [6, 7, 8] {
        g = speak(&g, v);
    }
    assert_eq!(g.rounds[2].out, None);
    // With the Lowest rule the lowest goes even above the threshold, and
    // never below the minimum.
    let lowest = Rules { elimination: Elimination::Lowest, early_until: 0, min_contestants: 2, ..rules() };
    let mut g = started(1, 2, lowest);
    for _ in 0..3 {
        g = speak(&g, 9);
    }
    assert_eq!(g.living().len(), 2, "the lowest (a tie, broken by total then seat) went out");
    for _ in 0..2 {
        g = speak(&g, 9);
    }
    assert_eq!(g.living().len(), 2, "the minimum stays");
}

#[test]
fn the_game_ends_at_the_turn_limit_with_the_highest_total_winning() {
    let g = started(1, 1, Rules { max_turns: 3, ..rules() });
    let g = speak(&g, 4); // t:1
    let g = speak(&g, 9); // ai:1
    let g = speak(&g, 9); // ai:1 again (round 2 starts with ai:1)
    assert!(g.is_over());
    assert_eq!(g.outcome, Some(Outcome::Finished));
    assert_eq!(g.winner().as_deref(), Some("ai:1"));
    assert_eq!(g.standings()[0].0, "ai:1");
    let g = g.apply(&Event::Narrate { text: "The end.".into() }, &()).unwrap();
    assert_eq!(g.summary.as_deref(), Some("The end."));
}

#[test]
fn a_contestant_may_leave_and_the_last_one_standing_wins() {
    let g = started(2, 0, rules());
    let g = g.apply(&Event::Leave { seat: "t:1".into(), now_ms: 5 }, &()).unwrap();
    assert!(g.is_over());
    assert_eq!(g.winner().as_deref(), Some("t:2"));
}

#[test]
fn spectators_react_once_a_round_and_it_counts_a_little() {
    let g = started(1, 1, rules());
    let g = g.apply(&Event::React { spectator: "fan".into(), option: "2".into() }, &()).unwrap();
    assert_eq!(
        g.apply(&Event::React { spectator: "fan".into(), option: "1".into() }, &()).unwrap_err(),
        Rejection::AlreadyReacted
    );
    assert_eq!(
        g.apply(&Event::React { spectator: "t:1".into(), option: "2".into() }, &()).unwrap_err(),
        Rejection::Contestant
    );
    assert_eq!(
        g.apply(&Event::React { spectator: "x".into(), option: "9".into() }, &()).unwrap_err(),
        Rejection::UnknownOption
    );
    let g = speak(&speak(&g, 5), 5);
    let r = &g.rounds[0];
    assert_eq!(r.reactions.get("ai:1"), Some(&1));
    assert!((r.scores["ai:1"] - r.scores["t:1"] - 0.5).abs() < 1e-4, "{:?}", r.scores);
    let g = g.apply(&Event::React { spectator: "fan".into(), option: "1".into() }, &()).unwrap();
    assert_eq!(g.reactions.len(), 1, "a new round, a new reaction");
}

#[test]
fn the_host_or_a_moderator_pauses_resumes_sets_the_topic_and_ends() {
    let g = started(2, 1, rules());
    let bob = "t:2".to_string();
    assert_eq!(g.apply(&Event::Pause { by: bob.clone(), moderator: false }, &()).unwrap_err(), Rejection::NotHost);
    let paused = g.apply(&Event::Pause { by: bob.clone(), moderator: true }, &()).unwrap();
    assert!(paused.paused && paused.deadline.is_none());
    let e = Event::Speak { seat: "t:1".into(), text: "x".into(), scores: scores(5), parsed: true, now_ms: 0 };
    assert_eq!(paused.apply(&e, &()).unwrap_err(), Rejection::Paused);
    let on = paused.apply(&Event::Resume { by: "t:1".into(), moderator: false, now_ms: 50 }, &()).unwrap();
    assert!(!on.paused && on.deadline.as_ref().is_some_and(|d| d.at_ms == 50 + 120_000));
    let topic = on.apply(&Event::Topic { by: "t:1".into(), moderator: false, text: "Bridges".into() }, &()).unwrap();
    assert_eq!(topic.topic, "Bridges");
    let ended = topic.apply(&Event::End { by: bob, moderator: true, now_ms: 0 }, &()).unwrap();
    assert_eq!(ended.outcome, Some(Outcome::Ended));
    assert_eq!(ended.winner(), None, "a game ended early has no winner");
}

#[test]
fn a_snapshot_round_trips() {
    let g = speak(&started(1, 2, rules()), 6);
    let back = ArenaGame::restore(&g.snapshot().unwrap()).unwrap();
    assert_eq!(back, g);
}

#[test]
fn scores_are_read_from_json_prose_or_five_numbers_and_nothing_else() {
    let json =
        r#"{"novelty": 7, "builds_on_others": 3, "solves_problem": 10, "radical_thinking": 0, "manipulation": 2}"#;
    assert_eq!(parse_scores(json).unwrap().values(), [7, 3, 10, 0, 2]);
    let prose = "Novelty: 6/10. Builds on others: 4. Solves problem 8; radical thinking 2, manipulation: 1";
    assert_eq!(parse_scores(prose).unwrap().values(), [6, 4, 8, 2, 1]);
    assert_eq!(parse_scores("5 6 7 8 9").unwrap().values(), [5, 6, 7, 8, 9]);
    for bad in [
        "",
        "great contribution!",
        "1 2 3",
        "novelty: 11, builds_on_others: 3, solves_problem: 1, radical_thinking: 1, manipulation: 1",
        "12 1 1 1 1",
    ] {
        assert_eq!(parse_scores(bad), None, "{bad:?}");
    }
    assert!((Scores::NEUTRAL.weighted(Stage::Middle) - 5.0).abs() < 1e-4);
    assert!((scores(10).weighted(Stage::Late) - 10.0).abs() < 1e-4);
}

#[test]
fn model_text_is_cleaned_into_one_paragraph() {
    assert_eq!(
        clean_text("Ada Quill: \"We build it.\"\nThen test.", 100).as_deref(),
        Some("We build it.\" Then test.")
    );
    assert_eq!(clean_text("Here is my idea: test small", 100).as_deref(), Some("Here is my idea: test small"));
    assert_eq!(clean_text("  \n ** \n", 100), None);
    assert_eq!(clean_text(&"a".repeat(900), 600).map(|t| t.chars().count()), Some(600));
}

#[test]
fn the_public_record_holds_a_rounds_scores_only_once_it_closed() {
    let cast = std::sync::Arc::new(crate::assets::roster().cast(Language::En).unwrap().clone());
    let g = speak(&started(1, 2, rules()), 6);
    let record = ArenaTable::record(&g, &cast.narrator.name);
    assert!(record.iter().all(|t| t.player != "scores"), "no scores before the round closes");
    let g = speak(&speak(&g, 6), 6);
    let g = g.apply(&Event::Narrate { text: "A fine start.".into() }, &()).unwrap();
    let record = ArenaTable::record(&g, &cast.narrator.name);
    assert!(record.iter().any(|t| t.player == "scores" && t.text.contains("6.0")), "{record:?}");
    assert!(record.iter().any(|t| t.text == "A fine start."));
    let table = ArenaTable::new(g.clone(), cast, "CANARY-arena-test");
    let secret = &g.cast["ai:1"].secret;
    assert!(table.gate_check(&crate::core::game::Audience::Everyone, secret).is_some(), "a persona's notes are secret");
    assert!(table.gate_check(&crate::core::game::Audience::Seat("ai:1".into()), secret).is_none());
    assert!(table.check_contribution("We should open the library at night.").is_none());
    assert!(table.check_contribution(secret).is_some());
    assert!(table.check_contribution(" ").is_some());
}

#[test]
fn roster_files_are_checked() {
    let bundled = crate::assets::arena_sources(None).unwrap();
    let mut broken = bundled.clone();
    for (path, text) in &mut broken {
        if path == "en/personas.toml" {
            *text = text.replacen("id = \"quill\"", "id = \"Quill!\"", 1);
        }
        if path == "zh/topics.toml" {
            *text = "[[topic]]\nid = \"x\"\ntext = \"t\"\ntheme = \"nowhere\"\n".into();
        }
    }
    let (roster, problems) = Roster::from_sources(&broken);
    assert!(problems.iter().any(|p| p.contains("en/personas.toml (Quill!)")), "{problems:?}");
    assert!(problems.iter().any(|p| p.contains("theme \"nowhere\"")), "{problems:?}");
    assert!(roster.cast(Language::En).is_none() && roster.cast(Language::Zh).is_none());
    let missing: Vec<_> = bundled.into_iter().filter(|(p, _)| p != "en/narrator.toml").collect();
    let (roster, problems) = Roster::from_sources(&missing);
    assert_eq!(problems, vec!["en/narrator.toml: missing".to_string()]);
    assert!(roster.cast(Language::Zh).is_some());
}
