//! The Undercover state machine: roles, order, votes, ties, the blank's
//! guess, leaving, and the win check; word files; the AI seats' parsers.

use super::*;
use crate::core::undercover::words::{Aliases, WordLibrary};
use crate::core::vocab::Difficulty;

fn player(n: usize) -> Player {
    Player { id: format!("t:{n}"), name: format!("P{n}") }
}

fn pair() -> WordPair {
    WordPair {
        id: "en-drinks-01".into(),
        civilian: "coffee".into(),
        undercover: "tea".into(),
        difficulty: Difficulty::Easy,
        aliases: Aliases { civilian: vec!["咖啡".into()], undercover: vec!["茶".into()] },
    }
}

/// A started game of `n` humans, seed `seed`.
fn started(n: usize, blank: bool, seed: u64) -> UndercoverGame {
    let rules = Rules { blank, ..Rules::default() };
    let mut g = UndercoverGame::new(&player(1), n, rules, Language::En, Dealt::from_pair(&pair(), false), seed);
    for i in 2..=n {
        g = g.apply(&Event::Join(player(i)), &()).unwrap();
    }
    g.apply(&Event::Begin { by: "t:1".into(), moderator: false, now_ms: 0 }, &()).unwrap()
}

fn describe_all(mut g: UndercoverGame) -> UndercoverGame {
    while let Some(seat) = g.speaker().map(str::to_string) {
        g = g.apply(&Event::Describe { seat, text: "hot".into(), now_ms: 1 }, &()).unwrap();
    }
    g
}

fn vote(g: &UndercoverGame, voter: &str, target: &str) -> UndercoverGame {
    let option = g.number(target).unwrap().to_string();
    g.apply(&Event::Vote { voter: voter.into(), option, now_ms: 2 }, &()).unwrap()
}

fn with_role(g: &UndercoverGame, role: Role) -> Vec<String> {
    g.roles.iter().filter(|(_, r)| **r == role).map(|(s, _)| s.clone()).collect()
}

#[test]
fn roles_follow_the_seat_count_and_the_seed() {
    let six = started(6, false, 7);
    assert_eq!(with_role(&six, Role::Undercover).len(), 1);
    assert_eq!(with_role(&six, Role::Civilian).len(), 5);
    let seven = started(7, false, 7);
    assert_eq!(with_role(&seven, Role::Undercover).len(), 2);
    let blank = started(5, true, 7);
    assert_eq!(with_role(&blank, Role::Blank).len(), 1);
    assert_eq!(started(6, false, 7).roles, six.roles, "the same seed deals the same roles");
    let dealt: Vec<_> = (0..20).map(|s| with_role(&started(6, false, s), Role::Undercover)).collect();
    assert!(dealt.iter().any(|d| d != &dealt[0]), "different seeds deal differently");
    assert_eq!(six.word_of(&with_role(&six, Role::Undercover)[0]), Some("tea"));
}

#[test]
fn a_blank_seat_needs_five_seats() {
    let rules = Rules { blank: true, ..Rules::default() };
    let mut g = UndercoverGame::new(&player(1), 4, rules, Language::En, Dealt::from_pair(&pair(), false), 1);
    for i in 2..=4 {
        g = g.apply(&Event::Join(player(i)), &()).unwrap();
    }
    let begin = Event::Begin { by: "t:1".into(), moderator: false, now_ms: 0 };
    assert_eq!(g.apply(&begin, &()).unwrap_err(), Rejection::TooFewForBlank);
}

#[test]
fn seats_describe_in_the_shown_order_and_a_missed_turn_is_skipped() {
    let g = started(4, false, 3);
    assert_eq!(g.speakers, g.seat_ids(), "round 1 starts at seat 1");
    let second = g.speakers[1].clone();
    let early = Event::Describe { seat: second.clone(), text: "x".into(), now_ms: 1 };
    assert!(matches!(g.apply(&early, &()), Err(Rejection::NotYourTurn { .. })));
    let tag = g.deadline.clone().unwrap().tag;
    assert_eq!(tag, "describe:1:0");
    let g = g.apply(&Event::Timer { tag: tag.clone(), now_ms: 90_000 }, &()).unwrap();
    assert_eq!(g.said.last().unwrap().text, None, "the skipped turn is noted");
    assert_eq!(g.speaker(), Some(second.as_str()));
    assert_eq!(g.apply(&Event::Timer { tag, now_ms: 90_001 }, &()).unwrap_err(), Rejection::StaleTimer);
    let g = describe_all(g);
    assert!(matches!(g.phase, Phase::Vote { round: 1, runoff: false }));
}

#[test]
fn the_most_voted_seat_is_out_and_civilians_win_when_the_undercover_is() {
    let g = describe_all(started(4, false, 11));
    let spy = with_role(&g, Role::Undercover)[0].clone();
    let own = g.number(&spy).unwrap().to_string();
    let refused = g.apply(&Event::Vote { voter: spy.clone(), option: own, now_ms: 2 }, &());
    assert_eq!(refused.unwrap_err(), Rejection::OwnVote);
    let mut g = g;
    for voter in g.seat_ids() {
        let target = if voter == spy { g.seat_ids().into_iter().find(|s| *s != spy).unwrap() } else { spy.clone() };
        g = vote(&g, &voter, &target);
    }
    assert_eq!(g.phase, Phase::Over);
    assert_eq!(g.outcome, Some(Outcome::Civilians));
    assert_eq!(g.votes[0].out.as_deref(), Some(spy.as_str()));
    assert_eq!(g.winners().len(), 3);
}

#[test]
fn a_tie_goes_to_a_runoff_then_to_the_recorded_seed() {
    let g = describe_all(started(4, false, 5));
    let ids = g.seat_ids();
    // 1→2, 2→1, 3→1, 4→2: seats 1 and 2 tie.
    let mut g = g;
    for (voter, target) in [(0, 1), (1, 0), (2, 0), (3, 1)] {
        g = vote(&g, &ids[voter], &ids[target]);
    }
    assert!(matches!(g.phase, Phase::Vote { round: 1, runoff: true }));
    let options: Vec<String> = g.ballot.as_ref().unwrap().options.iter().map(|(id, _)| id.clone()).collect();
    assert_eq!(options, vec!["1", "2"], "the run-off is between the tied seats only");
    let tag = g.deadline.clone().unwrap().tag;
    let closed = g.apply(&Event::Timer { tag, now_ms: 200_000 }, &()).unwrap();
    let record = closed.votes.last().unwrap();
    assert!(record.random && record.runoff);
    assert!(record.out.as_ref().is_some_and(|o| o == &ids[0] || o == &ids[1]));
    assert_eq!(record.abstained.len(), 4, "nobody voted in the run-off: four abstentions");
    let again = g.apply(&Event::Timer { tag: g.deadline.clone().unwrap().tag, now_ms: 200_000 }, &()).unwrap();
    assert_eq!(again.votes, closed.votes, "the pick follows the seed");
}

#[test]
fn the_undercover_wins_at_parity() {
    let mut g = describe_all(started(4, false, 9));
    let spy = with_role(&g, Role::Undercover)[0].clone();
    let civilians = with_role(&g, Role::Civilian);
    // Everyone votes out a civilian: 1 undercover vs 2 civilians, play on.
    for voter in g.seat_ids() {
        let target = if voter == civilians[0] { civilians[1].clone() } else { civilians[0].clone() };
        g = vote(&g, &voter, &target);
    }
    assert!(matches!(g.phase, Phase::Describe { round: 2, .. }));
    let g = describe_all(g);
    let mut g = g;
    for voter in g.living() {
        let target = if voter == civilians[1] { civilians[2].clone() } else { civilians[1].clone() };
        g = vote(&g, &voter, &target);
    }
    assert_eq!(g.outcome, Some(Outcome::Undercover));
    assert_eq!(g.winners(), vec![spy]);
}

#[test]
fn the_blank_voted_out_may_guess_and_wins_alone_if_right() {
    let mut g = describe_all(started(5, true, 21));
    let blank = with_role(&g, Role::Blank)[0].clone();
    for voter in g.seat_ids() {
        let target =
            if voter == blank { g.seat_ids().into_iter().find(|s| *s != blank).unwrap() } else { blank.clone() };
        g = vote(&g, &voter, &target);
    }
    assert!(matches!(&g.phase, Phase::LastGuess { seat, .. } if *seat == blank));
    let wrong = g.apply(&Event::LastGuess { seat: blank.clone(), text: "tea".into(), right: false, now_ms: 3 }, &());
    assert!(matches!(wrong.unwrap().phase, Phase::Describe { round: 2, .. }));
    let right = g.apply(&Event::LastGuess { seat: blank.clone(), text: "coffee".into(), right: true, now_ms: 3 }, &());
    let right = right.unwrap();
    assert_eq!(right.outcome, Some(Outcome::Blank));
    assert_eq!(right.winners(), vec![blank]);
}

#[test]
fn a_seat_that_leaves_mid_vote_is_dropped_from_the_ballot_and_play_goes_on() {
    let mut g = describe_all(started(5, false, 4));
    let spy = with_role(&g, Role::Undercover)[0].clone();
    let civilians = with_role(&g, Role::Civilian);
    g = vote(&g, &civilians[0], &spy);
    let g = g.apply(&Event::Leave { seat: civilians[0].clone(), now_ms: 5 }, &()).unwrap();
    assert!(!g.is_alive(&civilians[0]));
    let ballot = g.ballot.as_ref().unwrap();
    assert!(!ballot.voters.contains(&civilians[0]));
    assert_eq!(ballot.cast_count(), 0, "the leaver's vote went with them");
    let refused = g.apply(&Event::Vote { voter: civilians[0].clone(), option: "1".into(), now_ms: 6 }, &());
    assert_eq!(refused.unwrap_err(), Rejection::Out);
}

#[test]
fn the_host_or_a_moderator_ends_the_game_and_nobody_else() {
    let g = started(3, false, 1);
    let by_player = g.apply(&Event::End { by: "t:2".into(), moderator: false, now_ms: 9 }, &());
    assert_eq!(by_player.unwrap_err(), Rejection::NotHost);
    let ended = g.apply(&Event::End { by: "t:2".into(), moderator: true, now_ms: 9 }, &()).unwrap();
    assert_eq!(ended.outcome, Some(Outcome::Ended));
    assert!(ended.winners().is_empty());
}

#[test]
fn a_snapshot_round_trips() {
    let g = describe_all(started(5, true, 8));
    let back = UndercoverGame::restore(&g.snapshot().unwrap()).unwrap();
    assert_eq!(back, g);
}

fn file(theme: &str, body: &str) -> (String, String) {
    (format!("en/{theme}.toml"), format!("theme = \"{theme}\"\n{body}"))
}

#[test]
fn word_files_are_checked_pair_by_pair() {
    let good = file(
        "drinks",
        "[[pair]]\nid = \"en-drinks-01\"\ncivilian = \"coffee\"\nundercover = \"tea\"\ndifficulty = \"easy\"\n",
    );
    let (library, problems) = WordLibrary::from_sources(std::slice::from_ref(&good));
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(library.len(), 1);
    let cases = [
        (
            "[[pair]]\nid = \"en-drinks-02\"\ncivilian = \"apple\"\nundercover = \"apple pie\"\ndifficulty = \"easy\"\n",
            "contains",
        ),
        (
            "[[pair]]\nid = \"en-drinks-03\"\ncivilian = \"milk\"\nundercover = \"milk\"\ndifficulty = \"easy\"\n",
            "same",
        ),
        (
            "[[pair]]\nid = \"x-04\"\ncivilian = \"milk\"\nundercover = \"juice\"\ndifficulty = \"easy\"\n",
            "should start",
        ),
        (
            "[[pair]]\nid = \"en-drinks-05\"\ncivilian = \"milk\"\nundercover = \"juice\"\ndifficulty = \"tricky\"\n",
            "not a word file",
        ),
        (
            "[[pair]]\nid = \"en-drinks-06\"\ncivilian = \"a very long milk shake\"\nundercover = \"juice\"\ndifficulty = \"easy\"\n",
            "at most",
        ),
        ("", "no [[pair]]"),
    ];
    for (body, why) in cases {
        let (library, problems) = WordLibrary::from_sources(&[file("drinks", body)]);
        assert!(library.is_empty(), "{body}");
        assert!(problems.iter().any(|p| p.message.contains(why)), "{body}: {problems:?}");
    }
    let same = "[[pair]]\nid = \"en-other-01\"\ncivilian = \"tea\"\nundercover = \"Coffee\"\ndifficulty = \"easy\"\n";
    let (_, twice) = WordLibrary::from_sources(&[good.clone(), file("other", same)]);
    assert!(twice.iter().any(|p| p.message.contains("same pair")), "{twice:?}");
    let (_, wrong_dir) = WordLibrary::from_sources(&[("fr/drinks.toml".into(), good.1.clone())]);
    assert!(!wrong_dir.is_empty());
}

#[test]
fn ai_answers_are_parsed_into_moves_or_nothing() {
    let options = vec![("2".to_string(), "#2 Bo".to_string()), ("12".to_string(), "#12 Cy".to_string())];
    assert_eq!(agents::parse_vote("I vote for 12.", &options).as_deref(), Some("12"));
    assert_eq!(agents::parse_vote("Seat #2, clearly", &options).as_deref(), Some("2"));
    assert_eq!(agents::parse_vote("seat 1 or 3", &options), None);
    assert_eq!(agents::parse_vote("", &options), None);
    assert_eq!(agents::clean_line("\n  \"It keeps you awake.\"\nmore").as_deref(), Some("It keeps you awake."));
    assert_eq!(agents::clean_line("Description: warm and bitter").as_deref(), Some("warm and bitter"));
    assert_eq!(agents::clean_line("  \n \"\" "), None);
}

#[test]
fn a_description_that_says_a_word_in_any_form_is_refused() {
    let table = table::UndercoverTable::new(started(4, false, 2), Vec::new(), "CANARY-undercover-test");
    for said in [
        "it is coffee",
        "COFFEE!",
        "c-o-f-f-e-e",
        "c o f f e e",
        "eeffoc",
        "Y29mZmVl",
        "我喝咖啡",
        "not tea at all",
        "c0ff33",
    ] {
        assert!(table.check_description(said).is_some(), "{said:?} passed");
    }
    for said in ["It keeps you awake in the morning.", "Many people drink it hot.", "steam rises from it"] {
        assert_eq!(table.check_description(said), None, "{said:?} was refused");
    }
    assert!(table.check_description("  ").is_some());
    assert!(table.check_description(&"long ".repeat(60)).is_some());
}

#[test]
fn a_seat_is_told_its_own_word_and_nobody_elses() {
    let g = started(4, false, 6);
    let table = table::UndercoverTable::new(g.clone(), Vec::new(), "CANARY-undercover-test");
    let spy = with_role(&g, Role::Undercover)[0].clone();
    let civilian = with_role(&g, Role::Civilian)[0].clone();
    let gates = |seat: &str, text: &str| table.gate_check(&crate::core::game::Audience::Seat(seat.into()), text);
    assert!(gates(&civilian, "Your word: coffee").is_none(), "a civilian may read the civilians' word");
    assert!(gates(&civilian, "Your word: tea").is_some(), "but not the undercover's");
    assert!(gates(&spy, "Your word: tea").is_none());
    assert!(gates(&spy, "Your word: coffee").is_some());
}

#[test]
fn every_bundled_pair_can_be_told_privately_and_described_safely() {
    let library = crate::assets::words();
    let mut problems = Vec::new();
    for (i, themed) in library.pairs().iter().enumerate() {
        let dealt = Dealt::from_pair(&themed.pair, false);
        let rules = Rules::default();
        let mut g = UndercoverGame::new(&player(1), 4, rules, themed.language, dealt.clone(), i as u64);
        for n in 2..=4 {
            g = g.apply(&Event::Join(player(n)), &()).unwrap();
        }
        let g = g.apply(&Event::Begin { by: "t:1".into(), moderator: false, now_ms: 0 }, &()).unwrap();
        let table = table::UndercoverTable::new(g.clone(), Vec::new(), "CANARY-undercover-test");
        for (seat, role) in &g.roles {
            let text = say::your_word(themed.language, dealt.word(*role).unwrap());
            if let Some(span) = table.gate_check(&crate::core::game::Audience::Seat(seat.clone()), &text) {
                problems.push(format!("{}: {role:?} told {text:?}: blocked on {span:?}", dealt.pair_id));
            }
        }
        for line in say::stock_descriptions(themed.language) {
            if table.check_description(line).is_some() {
                problems.push(format!("{}: stock line {line:?} refused", dealt.pair_id));
            }
        }
    }
    assert!(problems.is_empty(), "{} problems: {problems:#?}", problems.len());
}

#[test]
fn an_anonymous_game_disguises_ai_seats_and_ends_with_guess_the_ai() {
    let rules = Rules { anonymous: true, ..Rules::default() };
    let mut g = UndercoverGame::new(&player(1), 4, rules, Language::En, Dealt::from_pair(&pair(), false), 3);
    g = g.apply(&Event::Join(player(2)), &()).unwrap();
    g = g.apply(&Event::AddAi, &()).unwrap();
    g = g.apply(&Event::AddAi, &()).unwrap();
    let names: Vec<String> = g.seats.seats.iter().map(|s| s.player.name.clone()).collect();
    assert!(names.iter().all(|n| !n.contains("AI") && !n.contains('🤖')), "{names:?}");
    assert_ne!(names[2], names[3]);
    g = g.apply(&Event::Begin { by: "t:1".into(), moderator: false, now_ms: 0 }, &()).unwrap();
    let mut g = describe_all(g);
    let spy = with_role(&g, Role::Undercover)[0].clone();
    for voter in g.seat_ids() {
        let target = if voter == spy { g.seat_ids().into_iter().find(|s| *s != spy).unwrap() } else { spy.clone() };
        g = vote(&g, &voter, &target);
    }
    assert_eq!(g.outcome, Some(Outcome::Civilians));
    assert_eq!(g.phase, Phase::GuessAi, "the result is in; now the humans guess the AI");
    assert!(!g.is_over());
    let ai: Vec<String> = g.seats.agents().map(|s| s.player.id.clone()).collect();
    let by_ai = g.apply(&Event::GuessAi { seat: ai[0].clone(), seats: vec![] }, &());
    assert_eq!(by_ai.unwrap_err(), Rejection::NotSeated, "AI seats do not guess");
    g = g.apply(&Event::GuessAi { seat: "t:1".into(), seats: ai.clone() }, &()).unwrap();
    assert_eq!(g.phase, Phase::GuessAi);
    g = g.apply(&Event::GuessAi { seat: "t:2".into(), seats: vec![ai[0].clone(), "t:1".into()] }, &()).unwrap();
    assert!(g.is_over());
    assert_eq!(g.ai_guess_scores(), vec![("t:1".to_string(), 2, 0), ("t:2".to_string(), 1, 1)]);
    assert_eq!(g.outcome, Some(Outcome::Civilians), "the game's own result stands");
}

#[test]
fn a_phase_reminds_the_humans_it_waits_for_and_a_stale_timer_says_nothing() {
    let g = started(4, false, 3);
    let deadline = g.deadline.clone().unwrap();
    let reminder = g.reminder().unwrap();
    assert_eq!(reminder.at_ms, deadline.at_ms - i64::from(REMIND_BEFORE_SECONDS) * 1000);
    assert!(g.timer_is_live(&reminder.tag) && g.timer_is_live(&deadline.tag));
    let speaker = g.speaker().unwrap().to_string();
    let name = g.seats.seats.iter().find(|s| s.player.id == speaker).unwrap().player.name.clone();
    let table = table::UndercoverTable::new(g.clone(), Vec::new(), "CANARY-undercover-test");
    let reminded = table.timer(&reminder.tag, reminder.at_ms).expect("a reminder is its own turn");
    assert!(reminded.commit);
    assert!(reminded.reply.text.contains("20 s left to describe"), "{}", reminded.reply.text);
    assert!(reminded.reply.text.contains(&name), "{}", reminded.reply.text);
    assert!(table.timer(&deadline.tag, deadline.at_ms).is_none(), "the deadline itself is played as an event");

    let next = g.apply(&Event::Describe { seat: speaker, text: "hot".into(), now_ms: 5 }, &()).unwrap();
    let table = table::UndercoverTable::new(next, Vec::new(), "CANARY-undercover-test");
    for tag in [&reminder.tag, &deadline.tag] {
        let stale = table.timer(tag, reminder.at_ms).expect("a stale timer is answered here");
        assert!(!stale.commit && stale.reply.text.is_empty(), "a stale timer is silent and not stored");
    }
    let short = Rules { describe_seconds: 30, ..Rules::default() };
    let mut quick = UndercoverGame::new(&player(1), 3, short, Language::En, Dealt::from_pair(&pair(), false), 1);
    for i in 2..=3 {
        quick = quick.apply(&Event::Join(player(i)), &()).unwrap();
    }
    let quick = quick.apply(&Event::Begin { by: "t:1".into(), moderator: false, now_ms: 0 }, &()).unwrap();
    assert_eq!(quick.reminder(), None, "a 30 s phase has no reminder");
}

#[test]
fn a_servers_own_pairs_are_checked_and_come_up_in_about_half_its_games() {
    use crate::core::game::{HostedGame, TableOptions};
    use crate::core::guild::CustomContent;
    let host = UndercoverHost::new(std::sync::Arc::new(crate::assets::words()));
    let read = |lang, text: &str| host.custom(lang, text).expect("Undercover takes server pairs");
    let item = read(Language::En, "lighthouse, lighthouses / windmill").unwrap();
    assert!(item.id.starts_with("en-server-"), "{}", item.id);
    assert_eq!(item.id, read(Language::En, " Lighthouse /windmill ").unwrap().id, "the id is the words'");
    assert!(read(Language::En, "kettle / teapot").unwrap_err().contains("en-home-"), "a bundled pair");
    assert!(read(Language::En, "tea / tea").unwrap_err().contains("the same"));
    assert!(read(Language::En, "tea").is_err() && read(Language::En, "a / b / c").is_err());
    assert!(read(Language::En, "灯塔 / 风车").is_err(), "Chinese words are not an English pair");
    assert!(read(Language::Zh, "灯塔 / 风车").is_ok());

    let custom = vec![CustomContent {
        scope: "discord:1".into(),
        game: UndercoverGame::KIND.into(),
        id: item.id.clone(),
        language: Language::En,
        source: item.source.clone(),
        added_by: "discord:9".into(),
        created_ms: 1,
    }];
    let options = TableOptions { custom, ..TableOptions::default() };
    let dealt = |lang, seed| host.lobby(&player(1), lang, &options, seed).unwrap().dealt;
    let ours: Vec<Dealt> = (0..40).map(|seed| dealt(Language::En, seed)).filter(|d| d.pair_id == item.id).collect();
    assert!((10..=30).contains(&ours.len()), "{} of 40 games used the server's pair", ours.len());
    assert!(
        ours.iter().all(|d| [&d.civilian_aliases, &d.undercover_aliases]
            .iter()
            .any(|a| a.contains(&"lighthouses".to_string())))
    );
    assert!(
        (0..20).all(|seed| dealt(Language::Zh, seed).pair_id != item.id),
        "an English pair stays out of Chinese games"
    );
}

#[test]
fn ai_seats_take_a_humans_time_only_when_they_pass_for_humans() {
    let anonymous = Rules { anonymous: true, ..Rules::default() };
    let g = UndercoverGame::new(&player(1), 4, anonymous, Language::En, Dealt::from_pair(&pair(), false), 5);
    let table = table::UndercoverTable::new(g, Vec::new(), "CANARY-undercover-test");
    let said = crate::core::game::TurnInput::Say("It keeps you awake in the morning.".into());
    let pace = table.human_pace("agent:ai:1:describe:1:0", &said).expect("an anonymous AI seat waits");
    assert!((3_000 + 34 * 200..=20_000).contains(&pace), "{pace} ms for 34 characters");
    let vote = crate::core::game::TurnInput::Vote("2".into());
    assert!((3_000..10_000).contains(&table.human_pace("agent:ai:1:vote:1:main", &vote).unwrap()));
    let plain = table::UndercoverTable::new(started(4, false, 5), Vec::new(), "CANARY-undercover-test");
    assert_eq!(plain.human_pace("agent:ai:1:describe:1:0", &said), None, "named AI seats answer at once");
}

// ---- The host's options, the AI seats' reasons and memory ----

use std::sync::Arc;

use crate::core::fixtures::recording;
use crate::core::game::table::{Answers, GameTable};
use crate::core::game::{Audience, Inbound, Played, TableOptions, TurnContext, TurnInput};
use crate::core::services::{Pipeline, Progress};

/// Plays one input and adopts it; what was shown.
async fn step(table: &mut table::UndercoverTable, pipeline: &Pipeline, who: &Player, input: TurnInput) -> Played {
    let noop = |_: Progress| {};
    let ctx = TurnContext { pipeline, now_ms: 1_000, progress: &noop };
    let played = table.play(&ctx, &Inbound::new(who.clone(), input)).await;
    let mut shown = Played::reply(played.reply.clone());
    shown.messages = played.messages.clone();
    crate::core::game::Table::adopt(table, played);
    shown
}

/// Every text a played turn shows, with its audience.
fn shown(p: &Played) -> Vec<(Audience, String)> {
    let mut out = vec![(Audience::Everyone, p.reply.text.clone())];
    out.extend(p.messages.iter().map(|m| (m.audience.clone(), m.reply.text.clone())));
    out
}

fn host_options(pairs: &[(&str, &str)], seats: usize) -> TableOptions {
    let mut options = TableOptions { seats: Some(seats), ..TableOptions::default() };
    for (name, value) in pairs {
        options.set(name, *value);
    }
    options
}

#[test]
fn the_host_chooses_the_difficulty_and_the_undercovers_and_bad_choices_are_refused() {
    let library = crate::assets::words();
    let host = UndercoverHost::new(Arc::new(library.clone()));
    for seed in 0..12 {
        let hard = host.lobby(&player(1), Language::En, &host_options(&[("difficulty", "hard")], 6), seed).unwrap();
        let pair = library.get(&hard.dealt.pair_id).unwrap();
        assert_eq!(pair.pair.difficulty, Difficulty::Hard, "seed {seed}: {}", hard.dealt.pair_id);
        assert_eq!(hard.rules.difficulty, Some(Difficulty::Hard));
        let easy = host.lobby(&player(1), Language::Zh, &host_options(&[("difficulty", "简单")], 6), seed).unwrap();
        assert_eq!(library.get(&easy.dealt.pair_id).unwrap().pair.difficulty, Difficulty::Easy);
    }
    // Two undercovers at a table of six: dealt as asked.
    let mut g = host.lobby(&player(1), Language::En, &host_options(&[("undercovers", "2")], 6), 3).unwrap();
    for i in 2..=6 {
        g = g.apply(&Event::Join(player(i)), &()).unwrap();
    }
    let g = g.apply(&Event::Begin { by: "t:1".into(), moderator: false, now_ms: 0 }, &()).unwrap();
    assert_eq!(with_role(&g, Role::Undercover).len(), 2);
    // One undercover asked for at a table of eight (which would get two).
    let mut g = host.lobby(&player(1), Language::En, &host_options(&[("undercovers", "1")], 8), 3).unwrap();
    for i in 2..=8 {
        g = g.apply(&Event::Join(player(i)), &()).unwrap();
    }
    let g = g.apply(&Event::Begin { by: "t:1".into(), moderator: false, now_ms: 0 }, &()).unwrap();
    assert_eq!(with_role(&g, Role::Undercover).len(), 1);

    let refused = |pairs: &[(&str, &str)], seats: usize| {
        host.lobby(&player(1), Language::En, &host_options(pairs, seats), 1).err().unwrap_or_default()
    };
    assert!(refused(&[("difficulty", "extreme")], 6).contains("“extreme” is not a difficulty"));
    assert!(refused(&[("undercovers", "none")], 6).contains("not a number of undercovers"));
    assert!(refused(&[("undercovers", "0")], 6).contains("not a number of undercovers"));
    let three = refused(&[("undercovers", "3")], 6);
    assert!(three.contains("3 undercovers need 7 seats") && three.contains("there are 6 seats"), "{three}");
    assert!(refused(&[("undercovers", "2"), ("blank", "yes")], 6).contains("need 7 seats"));
    assert!(refused(&[("undercovers", "3")], 7).is_empty(), "seven seats hold three undercovers");

    // A lobby big enough, but too few seated when it starts: refused, not cut.
    let mut g = host.lobby(&player(1), Language::En, &host_options(&[("undercovers", "2")], 12), 1).unwrap();
    for i in 2..=4 {
        g = g.apply(&Event::Join(player(i)), &()).unwrap();
    }
    let begin = Event::Begin { by: "t:1".into(), moderator: false, now_ms: 0 };
    assert_eq!(g.apply(&begin, &()), Err(Rejection::TooFewForUndercovers { undercovers: 2, seats: 5 }));
    let said = say::refusal(Language::En, &Rejection::TooFewForUndercovers { undercovers: 2, seats: 5 }, "");
    assert!(said.contains("2 undercovers need 5 seats"), "{said}");
}

#[test]
fn a_vote_answer_is_read_strictly_with_its_reasons_and_salvaged_or_refused_otherwise() {
    let options: Vec<(String, String)> = ["1", "3", "4"].iter().map(|n| (n.to_string(), format!("#{n}"))).collect();
    let json = r##"Here: {"my_role": "Undercover", "why": "my word  fits badly", "reads": [{"seat": 3, "read": "too precise"}, {"seat": "#4", "read": "vague"}], "vote": 3}"##;
    let b = agents::parse_ballot(json, &options);
    assert_eq!(b.option.as_deref(), Some("3"));
    let r = b.reasons.unwrap();
    assert_eq!((r.believes.as_str(), r.why.as_str()), ("undercover", "my word fits badly"));
    assert_eq!(r.reads, vec![("3".into(), "too precise".into()), ("4".into(), "vague".into())]);
    let odd =
        agents::parse_ballot(r##"{"my_role": "king", "why": "", "reads": {"1": "calm"}, "vote": "#1"}"##, &options);
    assert_eq!(odd.option.as_deref(), Some("1"));
    assert_eq!(odd.reasons.unwrap().believes, "unsure", "an unknown role is read as unsure");
    let not_an_option =
        agents::parse_ballot(r#"{"my_role": "civilian", "why": "x", "reads": [], "vote": 2}"#, &options);
    assert_eq!(not_an_option, agents::Ballot { option: None, reasons: None }, "2 is no option: no vote, no reasons");
    let salvaged = agents::parse_ballot("I vote for seat 4.", &options);
    assert_eq!(salvaged, agents::Ballot { option: Some("4".into()), reasons: None });
    assert_eq!(agents::parse_ballot("no idea at all", &options), agents::Ballot { option: None, reasons: None });
}

#[test]
fn the_describe_prompt_carries_the_strategy_and_a_seat_that_suspects_itself_blends_in() {
    let prompts = crate::assets::load_prompts(None).unwrap();
    for lang in [Language::En, Language::Zh] {
        let describe = |notes| {
            let seat = agents::SeatFacts { name: "AI 1", word: Some("coffee"), heard: "#1 P1: “hot”", notes };
            agents::describe_prompt(&prompts, lang, seat)
        };
        let (calm, odd) = (describe("Round 1: civilian").unwrap(), describe("Round 1: x [odd]").unwrap());
        let (repeat, vague, blend) = match lang {
            Language::En => ("do not repeat", "Stay vague", "blend in this time"),
            Language::Zh => ("不要重复", "保持含糊", "这次要伪装好"),
        };
        for p in [&calm, &odd] {
            assert!(p.contains(repeat) && p.contains(vague) && p.contains("#1 P1: “hot”"), "{p}");
        }
        assert!(odd.contains(blend) && !calm.contains(blend), "{odd}\n---\n{calm}");
        assert!(calm.contains("Round 1: civilian"), "the seat reads its own notes: {calm}");
    }
}

#[test]
fn every_round_of_a_long_game_is_remembered_within_the_budget() {
    let mut g = started(12, false, 9);
    let seats = g.seat_ids();
    for round in 1..=8_u32 {
        for (i, seat) in seats.iter().enumerate().take(12 - round as usize) {
            let text = format!("round {round} line {i} about the thing");
            g.said.push(Said { round, seat: seat.clone(), text: Some(text) });
        }
        let votes = seats.iter().take(3).map(|s| (s.clone(), seats[11].clone())).collect();
        g.votes.push(VoteRecord { round, runoff: false, votes, abstained: vec![], out: None, random: false });
    }
    let lines = memory::lines(&memory::record(&g));
    let count = |t: &str| crate::core::context::estimate_tokens(t);
    let whole = crate::core::context::fit_record(Language::En, &lines, memory::RECORD_TOKENS, &count);
    assert!(whole.contains("#1 P1: “round 1 line 0 about the thing”"), "round 1 is remembered: {whole:.300}");
    assert!(whole.contains("Round 1 votes: #1 P1 → #12 P12"), "and its votes: {whole:.600}");
    assert!(whole.contains("Round 8 votes") && !whole.contains("left out"), "all 8 rounds fit whole");
    assert_eq!(whole.lines().count(), lines.len());
    let tight = crate::core::context::fit_record(Language::En, &lines, 200, &count);
    assert!(count(&tight) <= 200 + tight.lines().count(), "{}", count(&tight));
    assert!(tight.starts_with('(') && tight.contains("earlier lines left out"), "{tight}");
    assert!(tight.contains("Round 8 votes"), "the newest are kept: {tight}");
}

/// A seed whose table of one human and three AI seats makes the human a
/// civilian (so the game goes on once the AI seats vote the human out).
fn ai_table(seed_from: u64) -> (table::UndercoverTable, Player) {
    let human = player(1);
    for seed in seed_from.. {
        let mut g =
            UndercoverGame::new(&human, 4, Rules::default(), Language::En, Dealt::from_pair(&pair(), false), seed);
        for _ in 0..3 {
            g = g.apply(&Event::AddAi, &()).unwrap();
        }
        let g = g.apply(&Event::Begin { by: "t:1".into(), moderator: false, now_ms: 0 }, &()).unwrap();
        if g.role("t:1") == Some(Role::Civilian) && g.speaker() == Some("t:1") {
            return (table::UndercoverTable::new(g, Vec::new(), "CANARY-undercover-test"), human);
        }
    }
    unreachable!()
}

#[tokio::test]
async fn ai_votes_carry_private_reasons_read_back_by_their_own_seat_and_shown_at_the_end() {
    let (pipeline, prompts) = recording(move |prompt| {
        let name = (1..=3).map(|n| format!("AI {n}")).find(|n| prompt.contains(&format!("You are {n} 🤖."))).unwrap();
        if prompt.contains("Answer with JSON only") {
            // AI 3 answers in prose: its vote is salvaged, with no reasons.
            if name == "AI 3" {
                return "I pick seat 1.".into();
            }
            format!(
                r#"{{"my_role": "undercover", "why": "WHY-{name}", "reads": [{{"seat": 1, "read": "READ-{name}"}}], "vote": 1}}"#
            )
        } else {
            format!("Something {name} would say in round {}.", if prompt.contains("Round 1 votes") { 2 } else { 1 })
        }
    });
    let (mut table, human) = ai_table(0);
    let mut before_end: Vec<(Audience, String)> = Vec::new();
    before_end.extend(shown(&step(&mut table, &pipeline, &human, TurnInput::Say("Warm in the morning.".into())).await));
    let noop = |_: Progress| {};
    // The AI seats describe, then everyone votes: the AI seats for #1.
    while !matches!(table.game.phase, Phase::Vote { .. }) {
        let ctx = TurnContext { pipeline: &pipeline, now_ms: 2_000, progress: &noop };
        for m in table.agent_moves(&ctx, 1).await {
            before_end.extend(shown(&step(&mut table, &pipeline, &m.seat, m.input).await));
        }
    }
    let ctx = TurnContext { pipeline: &pipeline, now_ms: 3_000, progress: &noop };
    let votes = table.agent_moves(&ctx, 2).await;
    assert_eq!(votes.len(), 3);
    for m in votes {
        before_end.extend(shown(&step(&mut table, &pipeline, &m.seat, m.input).await));
    }
    assert_eq!(table.agent_counts().1, 0, "every AI vote was read");
    before_end.extend(shown(&step(&mut table, &pipeline, &human, TurnInput::Vote("2".into())).await));
    assert!(table.game.out.contains_key("t:1"), "the AI seats voted the human out");
    assert!(table.game.outcome.is_none(), "three AI seats play on");
    let g = &table.game;
    assert_eq!(g.reasons.len(), 2, "reasons from the two clean answers: {:?}", g.reasons);
    assert!(g.reasons.iter().all(|r| r.believes == "undercover" && r.vote == "1" && r.round == 1));
    let ai1 = g.seats.seats[1].player.id.clone();
    assert_eq!(g.reasons_of(&ai1).next().map(|r| r.why.as_str()), Some("WHY-AI 1"));

    // Round 2: AI 1's describe prompt holds its own reasons (and, as it
    // believed it held the odd word, the blend-in line) and the whole of
    // round 1; no other seat's prompt holds AI 1's reasons.
    prompts.lock().unwrap().clear();
    for _ in 0..3 {
        let ctx = TurnContext { pipeline: &pipeline, now_ms: 4_000, progress: &noop };
        for m in table.agent_moves(&ctx, 3).await {
            before_end.extend(shown(&step(&mut table, &pipeline, &m.seat, m.input).await));
        }
    }
    let round2 = prompts.lock().unwrap().clone();
    let own = round2.iter().find(|p| p.contains("You are AI 1 🤖.")).expect("AI 1 described in round 2");
    assert!(own.contains("WHY-AI 1") && own.contains("READ-AI 1") && own.contains("blend in this time"), "{own}");
    assert!(own.contains("#1 P1: “Warm in the morning.”") && own.contains("Round 1 votes"), "{own}");
    for p in round2.iter().filter(|p| !p.contains("You are AI 1 🤖.")) {
        assert!(!p.contains("WHY-AI 1") && !p.contains("READ-AI 1"), "another seat read AI 1's reasons: {p}");
    }
    // Nothing shown before the end holds a reason, to anyone.
    for (audience, text) in &before_end {
        assert!(!text.contains("WHY-") && !text.contains("READ-"), "{audience:?} was shown {text}");
    }
    // The end shows why each AI voted as it did.
    let end = step(&mut table, &pipeline, &human, TurnInput::End).await;
    let text = end.reply.text;
    assert!(text.contains("Why each AI voted as it did"), "{text}");
    assert!(text.contains("#2 AI 1 🤖 → #1 P1: believed it was undercover (WHY-AI 1)."), "{text}");
    assert!(text.contains("Reads: #1 P1: READ-AI 1"), "{text}");
}

/// Every AI-seat prompt (a description with a word and as the blank, a
/// vote, the blank's guess) in both languages, pinned: a change to a
/// prompt's wording shows here.
#[tokio::test]
async fn the_ai_seats_prompts_are_pinned() {
    use crate::core::fixtures::{ai_seat, record, requests, seat_options, shown};
    use crate::core::game::{SeatView, TurnContext};
    for lang in [Language::En, Language::Zh] {
        let (pipeline, asked) = requests(|_| "a line".into());
        let ctx = TurnContext { pipeline: &pipeline, now_ms: 1_000, progress: &|_| {} };
        let seat = ai_seat();
        let public = record(&[("#1 P1", "“hot in the morning”"), ("#2 P2", "“comes in a cup”")]);
        let reasons = agents::Reasons {
            believes: "undercover".into(),
            why: "my word fits badly".into(),
            reads: vec![("1".into(), "sure of it".into())],
        };
        let note = agents::note_line(lang, 1, "2", &reasons);
        let with_word = SeatView::new(&seat, &public, vec!["coffee", note.as_str()]);
        let blank = SeatView::new(&seat, &public, vec![""]);
        agents::describe(&ctx, &with_word, lang).await;
        agents::describe(&ctx, &blank, lang).await;
        agents::vote(&ctx, &with_word, lang, &seat_options(&["1", "2"])).await;
        agents::guess(&ctx, &blank, lang).await;
        insta::assert_snapshot!(format!("ai_seat_prompts_{}", lang.code()), shown(&asked.lock().unwrap()));
    }
}
