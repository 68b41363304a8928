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
    let e = Event::Speak { seat, text: "an idea".into(), scores: scores(v), parsed: true, now_ms: 10, to: None };
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
    let wrong =
        Event::Speak { seat: "ai:2".into(), text: "x".into(), scores: scores(5), parsed: true, now_ms: 0, to: None };
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
    let e = Event::Speak { seat: "t:1".into(), text: "x".into(), scores: scores(5), parsed: true, now_ms: 0, to: None };
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

// ---- Weights, back-and-forth, the host's rules, the speakers' context ----

use std::sync::Arc;

use crate::core::fixtures::recording;
use crate::core::game::TableOptions;

fn speak_with(g: &ArenaGame, values: [u8; 5], to: Option<&str>) -> ArenaGame {
    let seat = g.speaker().unwrap().to_string();
    let e = Event::Speak {
        seat,
        text: "a point".into(),
        scores: Scores::from_values(values),
        parsed: true,
        now_ms: 10,
        to: to.map(str::to_string),
    };
    g.apply(&e, &()).unwrap()
}

#[test]
fn each_dimension_counts_by_its_own_weight_in_each_stage() {
    // One dimension at a time: its weight and nothing else.
    let expected = [
        (Stage::Early, [3.0, 2.0, 2.0, 2.0, 1.0]),
        (Stage::Middle, [2.0, 2.5, 3.0, 1.5, 1.0]),
        (Stage::Late, [1.5, 2.0, 4.0, 1.0, 1.5]),
    ];
    for (stage, by_dimension) in expected {
        for (i, want) in by_dimension.iter().enumerate() {
            let mut v = [0; 5];
            v[i] = 10;
            let got = Scores::from_values(v).weighted(stage);
            assert!((got - want).abs() < 1e-6, "{stage:?} {}: {got} ≠ {want}", DIMENSIONS[i]);
        }
        assert_eq!(stage.weights().iter().sum::<u32>(), 100, "{stage:?}");
    }
    // Ratings that differ by dimension: 7·w1 + 2·w2 + 9·w3 + 4·w4 + 1·w5.
    let mixed = Scores::from_values([7, 2, 9, 4, 1]);
    assert!((mixed.weighted(Stage::Early) - 5.2).abs() < 1e-6, "{}", mixed.weighted(Stage::Early));
    assert!((mixed.weighted(Stage::Middle) - 5.3).abs() < 1e-6, "{}", mixed.weighted(Stage::Middle));
    assert!((mixed.weighted(Stage::Late) - 5.6).abs() < 1e-6, "{}", mixed.weighted(Stage::Late));
    // In play: an inventor (novelty) beats a fixer (solutions) early and
    // loses to them late, so the same ratings eliminate a different seat.
    let inventor = [10, 4, 2, 6, 3];
    let fixer = [2, 4, 10, 3, 6];
    let rules = Rules { max_turns: 12, early_until: 3, middle_until: 6, ..Rules::default() };
    let mut g = started(1, 2, rules);
    let order = g.order.clone();
    for (i, _) in order.iter().enumerate() {
        g = speak_with(&g, if i == 0 { inventor } else { fixer }, None);
    }
    let r1 = &g.rounds[0];
    assert!((r1.scores[&order[0]] - 5.7).abs() < 1e-4, "early, the inventor: {:?}", r1.scores);
    assert!((r1.scores[&order[1]] - 4.6).abs() < 1e-4, "early, a fixer: {:?}", r1.scores);
    // Turns 7–9 are late: the fixer's solutions now weigh 40%.
    while g.turn < 6 {
        g = speak_with(&g, [5; 5], None);
    }
    let late_order = g.order.clone();
    for seat in &late_order {
        g = speak_with(&g, if *seat == order[0] { inventor } else { fixer }, None);
    }
    let late = g.rounds.last().unwrap();
    assert_eq!(late.stage, Stage::Late);
    assert!((late.scores[&order[0]] - 4.15).abs() < 1e-4, "late, the inventor: {:?}", late.scores);
    assert!((late.scores[&order[1]] - 6.3).abs() < 1e-4, "late, a fixer: {:?}", late.scores);
    assert_eq!(late.out.as_deref(), Some(order[0].as_str()), "the inventor, lowest and under 5, is out");
}

#[test]
fn an_addressed_contestant_replies_before_the_round_goes_on_and_both_are_scored() {
    let mut g = started(1, 3, rules());
    let order = g.order.clone();
    let target = order[2].clone();
    g = speak_with(&g, [8; 5], Some(&target));
    assert_eq!(g.speaker(), Some(target.as_str()), "the addressed contestant answers first");
    assert_eq!(g.said[0].to.as_deref(), Some(target.as_str()));
    // Its reply is scored like any contribution and gives no reply back.
    g = speak_with(&g, [4; 5], Some(&order[0]));
    assert_eq!(g.said[1].reply_to, Some(1));
    assert_eq!(g.said[1].to, None, "a reply opens no further reply");
    assert_eq!(g.speaker(), Some(order[1].as_str()), "then the round goes on in order");
    g = speak_with(&g, [6; 5], None);
    g = speak_with(&g, [6; 5], None);
    g = speak_with(&g, [6; 5], None);
    let round = &g.rounds[0];
    assert!((round.scores[&target] - 5.0).abs() < 1e-4, "the mean of its reply (4) and its turn (6): {round:?}");
    assert!((round.scores[&order[0]] - 8.0).abs() < 1e-4);
    // Nobody may address themselves or someone out; a human replier has a deadline.
    let mut g = started(2, 1, rules());
    let first = g.order[0].clone();
    g = speak_with(&g, [5; 5], Some(&first));
    assert!(g.reply.is_none(), "addressing yourself opens no reply");
    let human = g.order.iter().find(|s| s.starts_with("t:") && g.speaker() != Some(s.as_str())).cloned().unwrap();
    g = speak_with(&g, [5; 5], Some(&human));
    assert_eq!(g.speaker(), Some(human.as_str()));
    let deadline = g.deadline.clone().expect("a human's reply has a deadline");
    let g2 = g.apply(&Event::Timer { tag: deadline.tag.clone(), now_ms: deadline.at_ms }, &()).unwrap();
    assert!(g2.reply.is_none() && g2.said.last().unwrap().scores.is_none(), "a reply let pass is skipped");
}

#[test]
fn the_host_sets_the_threshold_the_rule_the_stages_and_the_turn_time_and_bad_values_are_refused() {
    let host = ArenaHost::new(Arc::new(Roster::default()));
    let options = |pairs: &[(&str, &str)]| {
        let mut o = TableOptions::default();
        for (k, v) in pairs {
            o.set(k, *v);
        }
        o
    };
    let set = [
        ("threshold", "3.5"),
        ("elimination", "lowest"),
        ("early_until", "2"),
        ("middle_until", "5"),
        ("turn_seconds", "30"),
        ("max_turns", "12"),
    ];
    let r = host.rules_for(Language::En, &options(&set)).unwrap();
    assert_eq!((r.threshold, r.elimination, r.early_until, r.middle_until), (3.5, Elimination::Lowest, 2, 5));
    assert_eq!((r.turn_seconds, r.max_turns), (30, 12));
    let d = host.rules_for(Language::En, &options(&[("max_turns", "40")])).unwrap();
    assert_eq!((d.early_until, d.middle_until, d.elimination, d.threshold), (10, 30, Elimination::BelowThreshold, 5.0));
    let only_early = host.rules_for(Language::En, &options(&[("early_until", "4"), ("max_turns", "9")])).unwrap();
    assert_eq!((only_early.early_until, only_early.middle_until), (4, 30));
    let refused = |pairs: &[(&str, &str)]| host.rules_for(Language::En, &options(pairs)).err().unwrap_or_default();
    assert!(refused(&[("threshold", "11")]).contains("“11” is not a valid threshold: a number from 0 to 10"));
    assert!(refused(&[("threshold", "high")]).contains("not a valid threshold"));
    assert!(refused(&[("elimination", "random")]).contains("below (the lowest goes out only under the threshold)"));
    assert!(refused(&[("early_until", "6"), ("middle_until", "5")]).contains("early_until must come before"));
    assert!(refused(&[("turn_seconds", "2")]).contains("from 5 to 600"));
    assert!(refused(&[("max_turns", "0")]).contains("a turn number from 1 to 100"));
    assert!(refused(&[("middle_until", "abc")]).contains("not a valid middle_until"));
    // The rules as played: with Lowest, someone goes out though above the threshold.
    let mut g = started(1, 2, Rules { early_until: 3, middle_until: 6, ..r.clone() });
    for _ in 0..3 {
        g = speak(&g, 9);
    }
    assert_eq!(g.rounds[0].out, None, "turns 1–3: the early stage");
    for _ in 0..3 {
        g = speak(&g, 9);
    }
    assert!(g.rounds[1].out.is_some(), "the lowest goes out at 9.0 under the Lowest rule");
}

#[tokio::test]
async fn speakers_see_the_turn_stage_standings_and_reply_to_whoever_addressed_them_and_the_narrator_sees_it_all() {
    let spoken = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let (pipeline, prompts) = recording(move |prompt: &str| {
        if prompt.contains("ARENA-RUBRIC-7") {
            r#"{"novelty": 7, "builds_on_others": 2, "solves_problem": 9, "radical_thinking": 4, "manipulation": 1}"#
                .into()
        } else if prompt.contains("Your right of reply") {
            "I stand by my plan, whatever you say.".into()
        } else if prompt.contains("Write your contribution") {
            let n = spoken.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            // Every fifth contribution challenges seat #2.
            if n % 5 == 4 {
                format!("#3, your idea {n} sinks the library.")
            } else {
                format!("Idea number {n} for the library.")
            }
        } else {
            "The ring tightens.".into()
        }
    });
    let host = ArenaHost::new(Arc::new(bundled_roster()));
    let options = TableOptions { ai_seats: Some(4), ..TableOptions::default() }
        .with("spectate", "yes")
        .with("max_turns", "40")
        .with("threshold", "0")
        .with("topic", "Keep the flooded library open");
    let boss = Player { id: "selfplay:host".into(), name: "host".into() };
    let (game, cast) = host.lobby(&boss, Language::En, &options, 5).unwrap();
    let table = super::ArenaTable::new(game, cast, "CANARY-arena-test");
    let result = super::selfplay::play_game(&pipeline, table, &boss, &mut |_, _| {}).await;
    assert_eq!(result.turns, 40, "{result:?}");
    let prompts = prompts.lock().unwrap();
    // A contestant's prompt: the turn, the stage, the standings, the recent messages.
    let late = prompts.iter().rev().find(|p| p.contains("Write your contribution")).unwrap();
    assert!(late.contains("of 40 · late stage") && late.contains("Standings: #"), "{late}");
    assert!(late.contains("Recent messages:") && late.contains("Idea number"), "{late}");
    // A challenge gives seat #3 a reply, and its prompt says who and what.
    let reply = prompts.iter().find(|p| p.contains("Your right of reply")).expect("a reply was asked for");
    assert!(reply.contains("addressed you: \"#3, your idea 4 sinks the library.\""), "{reply}");
    // The scorer and the narrator's summary read the whole game, turn 1 included.
    let summary = prompts.iter().find(|p| p.contains("Sum the game up")).expect("a summary");
    assert!(summary.contains("Idea number 0 for the library."), "the summary sees turn 1: {summary}");
    let last_score = prompts.iter().rev().find(|p| p.contains("ARENA-RUBRIC-7")).unwrap();
    assert!(last_score.contains("Idea number 0 for the library."), "the scorer sees turn 1: {last_score}");
}

#[test]
fn a_contribution_addresses_a_contestant_by_seat_or_name_at_its_start() {
    let g = started(1, 3, rules());
    let cast = bundled_roster().cast(Language::En).cloned().unwrap();
    let table = super::ArenaTable::new(g.clone(), Arc::new(cast), "CANARY-arena-test");
    let by = "t:1";
    let seat = |n: usize| g.seats.seats[n - 1].player.id.clone();
    assert_eq!(table.addressed(by, "#3, your plan leaks."), Some(seat(3)));
    assert_eq!(table.addressed(by, "@Persona a 🤖 you are wrong"), Some(seat(2)));
    assert_eq!(table.addressed(by, "Persona b: explain yourself."), Some(seat(3)));
    assert_eq!(table.addressed(by, "Persona b has a point."), None, "a name in passing addresses nobody");
    assert_eq!(table.addressed(by, "I agree with #3."), None);
    assert_eq!(table.addressed(by, "#1, I talk to myself."), None);
    assert_eq!(table.addressed(by, "#9, nobody sits there."), None);
}

fn bundled_roster() -> Roster {
    let (roster, problems) = Roster::from_sources(&crate::assets::arena_sources(None).unwrap());
    assert!(problems.is_empty(), "{problems:?}");
    roster
}

/// The gate caught the rules once: Dr. Brisk's strategy names "scores",
/// "novelty" and "contribution", the opening names all three, and the
/// Arena opened as "(withheld…)". The game's own sentences are public, so
/// no persona's strategy may withhold the lobby, the opening or a round's
/// score table, in either language; the strategy itself still is caught.
#[test]
fn no_personas_strategy_withholds_the_games_own_sentences() {
    use crate::core::game::Audience;
    use crate::core::secrecy::Check;
    let roster = bundled_roster();
    for lang in [Language::En, Language::Zh] {
        let cast = roster.cast(lang).cloned().unwrap();
        for p in &cast.personas {
            let lobby = ArenaGame::new(&player(1), 8, rules(), lang, "Fix the library", 7)
                .apply(&Event::AddAi(p.clone()), &())
                .unwrap();
            let table = super::ArenaTable::new(lobby.clone(), Arc::new(cast.clone()), "CANARY-arena-test");
            let begin = Event::Begin { by: "t:1".into(), moderator: false, now_ms: 0 };
            let open = lobby.apply(&begin, &()).unwrap();
            let round = speak(&speak(&open, 6), 3);
            assert_eq!(round.rounds.len(), 1, "two contestants: one round");
            let texts = [
                table.lobby_text(&lobby),
                table.narrate(&lobby, &open, &begin).0.text,
                table.round_table(&round, &round.rounds[0]),
            ];
            for text in texts {
                let check = table.gates.check(&Audience::Everyone, &text);
                assert!(matches!(check, Check::Pass), "{} ({}) withholds: {text}", p.id, lang.code());
            }
            let leak = format!("My plan, frankly: {}", p.secret);
            let check = table.gates.check(&Audience::Everyone, &leak);
            assert!(matches!(check, Check::Blocked(_)), "{} ({}): its strategy passes", p.id, lang.code());
        }
    }
}
