//! Werewolf's rules, one test each: the deal, a night kill, the Doctor's
//! save and its limit, the Seer's check, the werewolves' tie broken by
//! the seed, the run-off and a tied run-off, both win conditions, the
//! Witch and the Hunter, missed night moves, the debate's limits, a
//! restart mid-night through the snapshot; then the table: what each
//! audience is told, the gate, AI seats' moves and their fallbacks, and
//! the AI seats' parsers.

use super::agents::{Ask, Asker};
use super::verbs::WerewolfVerb;
use super::*;
use crate::core::fixtures::{pipeline, recording};
use crate::core::game::table::GameTable;
use crate::core::game::{Audience, Inbound, Played, TurnContext, TurnInput};
use crate::core::services::{Pipeline, Progress};

fn player(n: usize) -> Player {
    Player { id: format!("t:{n}"), name: format!("P{n}") }
}

fn id(n: usize) -> String {
    format!("t:{n}")
}

/// A started game of `n` humans, seed `seed`, as dealt.
fn dealt(n: usize, rules: Rules, seed: u64) -> WerewolfGame {
    let mut g = WerewolfGame::new(&player(1), n, Rules { fill_to: n, ..rules }, Language::En, seed);
    for i in 2..=n {
        g = g.apply(&Event::Join(player(i)), &()).unwrap();
    }
    g.apply(&Event::Begin { by: id(1), moderator: false, now_ms: 0 }, &()).unwrap()
}

/// A started game whose roles are `roles` by seat (1-based order), on
/// its first night.
fn with_roles(roles: &[Role], rules: Rules) -> WerewolfGame {
    let mut g = dealt(roles.len(), rules, 1);
    g.roles = roles.iter().enumerate().map(|(i, r)| (id(i + 1), *r)).collect();
    g.nights.clear();
    g.open_night(1, 0);
    g
}

/// Seven seats: #1 the werewolf, #2 the Seer, #3 the Doctor, #4–#7
/// villagers.
fn seven() -> WerewolfGame {
    use Role::*;
    with_roles(&[Werewolf, Seer, Doctor, Villager, Villager, Villager, Villager], Rules::default())
}

fn ok(g: &WerewolfGame, event: Event) -> WerewolfGame {
    g.apply(&event, &()).unwrap_or_else(|e| panic!("{event:?}: {e:?}"))
}

fn kill(g: &WerewolfGame, wolf: usize, target: usize) -> WerewolfGame {
    ok(g, Event::Kill { seat: id(wolf), target: id(target), now_ms: 1 })
}

fn check(g: &WerewolfGame, seer: usize, target: usize) -> WerewolfGame {
    ok(g, Event::Check { seat: id(seer), target: id(target), now_ms: 1 })
}

fn protect(g: &WerewolfGame, doctor: usize, target: usize) -> WerewolfGame {
    ok(g, Event::Protect { seat: id(doctor), target: id(target), now_ms: 1 })
}

fn vote(g: &WerewolfGame, voter: usize, target: usize) -> WerewolfGame {
    ok(g, Event::Vote { voter: id(voter), option: target.to_string(), now_ms: 2 })
}

/// Everyone living passes the debate.
fn end_debate(mut g: WerewolfGame) -> WerewolfGame {
    for seat in g.living() {
        if matches!(g.phase, Phase::Debate { .. }) {
            g = ok(&g, Event::Pass { seat, now_ms: 3 });
        }
    }
    g
}

#[test]
fn roles_follow_the_seat_count_and_the_seed() {
    let wolves = |n: usize| dealt(n, Rules::default(), 7).seats_with(Role::Werewolf).len();
    assert_eq!([5, 7, 8, 10, 11, 12].map(wolves), [1, 1, 2, 2, 3, 3]);
    let g = dealt(6, Rules { witch: true, hunter: true, ..Rules::default() }, 7);
    for role in [Role::Seer, Role::Doctor, Role::Witch, Role::Hunter] {
        assert_eq!(g.seats_with(role).len(), 1, "{role:?}");
    }
    assert_eq!(g.seats_with(Role::Villager).len(), 1);
    assert_eq!(dealt(6, Rules::default(), 7).roles, dealt(6, Rules::default(), 7).roles, "the seed deals");
    let deals: Vec<_> = (0..20).map(|s| dealt(6, Rules::default(), s).roles).collect();
    assert!(deals.iter().any(|d| d != &deals[0]), "different seeds deal differently");
    assert_eq!(g.phase, Phase::Night { night: 1 });
}

#[test]
fn ai_seats_fill_the_table_when_it_starts() {
    let g = WerewolfGame::new(&player(1), 12, Rules { fill_to: 7, ..Rules::default() }, Language::En, 3);
    let g = ok(&g, Event::Begin { by: id(1), moderator: false, now_ms: 0 });
    assert_eq!(g.seats.len(), 7);
    assert_eq!(g.seats.ai_count(), 6);
    assert_eq!(g.roles.len(), 7);
}

#[test]
fn the_werewolves_victim_dies_at_dawn() {
    let g = seven();
    assert_eq!(g.ballot.as_ref().unwrap().voters, vec![id(1)]);
    let g = kill(&g, 1, 4);
    assert!(matches!(g.phase, Phase::Night { .. }), "the Seer and the Doctor still owe");
    let g = check(&g, 2, 5);
    let g = protect(&g, 3, 6);
    assert_eq!(g.phase, Phase::Debate { day: 1 });
    assert_eq!(g.out.get(&id(4)), Some(&Out::Killed { night: 1 }));
    assert_eq!(g.nights[0].died, vec![id(4)]);
}

#[test]
fn the_doctor_saves_the_victim_but_not_the_same_seat_two_nights_running() {
    let g = protect(&check(&kill(&seven(), 1, 4), 2, 5), 3, 4);
    assert!(g.out.is_empty(), "protected: no one died");
    assert!(g.nights[0].died.is_empty());
    // Day 1 exiles no one (nobody votes); night 2 falls.
    let g = end_debate(g);
    let g = ok(&g, Event::Timer { tag: g.deadline.clone().unwrap().tag, now_ms: 4 });
    assert_eq!(g.phase, Phase::Night { night: 2 });
    let refused = g.apply(&Event::Protect { seat: id(3), target: id(4), now_ms: 5 }, &()).unwrap_err();
    assert_eq!(refused, Rejection::SameProtect);
    let g = protect(&g, 3, 3);
    assert_eq!(g.nights[1].protect, Some(id(3)), "the Doctor may protect itself");
}

#[test]
fn the_seer_learns_privately_whether_a_seat_is_a_werewolf() {
    let g = check(&seven(), 2, 1);
    let lines = seat::private_lines(&g, &id(2));
    assert!(lines.iter().any(|l| l.contains("#1 P1 is **a werewolf**")), "{lines:?}");
    let g = check(&ok(&kill(&seven(), 1, 4), Event::Pass { seat: id(3), now_ms: 1 }), 2, 5);
    let lines = seat::private_lines(&g, &id(2));
    assert!(lines.iter().any(|l| l.contains("#5 P5 is **not a werewolf**")), "{lines:?}");
    for other in [1, 3, 4, 5] {
        assert!(seat::private_lines(&g, &id(other)).iter().all(|l| !l.contains("🔮")), "only the Seer is told");
    }
    assert_eq!(g.apply(&Event::Check { seat: id(2), target: id(6), now_ms: 1 }, &()).unwrap_err(), Rejection::NotNow);
    let g = seven();
    assert_eq!(
        g.apply(&Event::Check { seat: id(4), target: id(1), now_ms: 1 }, &()).unwrap_err(),
        Rejection::NotYourRole
    );
    assert_eq!(g.apply(&Event::Check { seat: id(2), target: id(2), now_ms: 1 }, &()).unwrap_err(), Rejection::Yourself);
}

#[test]
fn a_tie_among_the_werewolves_is_broken_by_the_seed() {
    use Role::*;
    let roles = [Werewolf, Werewolf, Seer, Doctor, Villager, Villager, Villager, Villager];
    let night = |seed: u64| {
        let mut g = with_roles(&roles, Rules::default());
        g.seed = seed;
        let g = kill(&kill(&g, 1, 5), 2, 6);
        assert!(g.nights[0].wolves_done && g.nights[0].random);
        g.nights[0].victim.clone().unwrap()
    };
    let picks: Vec<String> = (0..16).map(night).collect();
    assert!(picks.iter().all(|p| *p == id(5) || *p == id(6)));
    assert!(picks.contains(&id(5)) && picks.contains(&id(6)), "{picks:?}");
    assert_eq!(night(3), night(3), "the same seed picks the same");
    // A changed vote replaces the earlier one; a werewolf is no target.
    let g = with_roles(&roles, Rules::default());
    assert_eq!(
        g.apply(&Event::Kill { seat: id(1), target: id(2), now_ms: 1 }, &()).unwrap_err(),
        Rejection::NotATarget
    );
    let g = kill(&kill(&kill(&g, 1, 5), 1, 7), 2, 7);
    assert_eq!((g.nights[0].victim.clone(), g.nights[0].random), (Some(id(7)), false));
}

#[test]
fn a_tie_goes_to_a_run_off_and_a_tied_run_off_exiles_no_one() {
    // Night 1: #7 dies. Day 1: six living (#1–#6).
    let g = end_debate(protect(&check(&kill(&seven(), 1, 7), 2, 5), 3, 3));
    assert_eq!(g.phase, Phase::Vote { day: 1, runoff: false });
    let g = vote(&vote(&vote(&vote(&vote(&vote(&g, 1, 4), 2, 4), 3, 5), 4, 5), 5, 6), 6, 5);
    // #5 has three: exiled outright.
    assert_eq!(g.votes[0].out, Some(id(5)));
    assert!(g.revealed.contains(&id(5)));
    assert_eq!(g.phase, Phase::Night { night: 2 });

    let g = end_debate(protect(&check(&kill(&seven(), 1, 7), 2, 5), 3, 3));
    let g = vote(&vote(&vote(&vote(&vote(&vote(&g, 1, 4), 2, 4), 3, 5), 4, 5), 5, 6), 6, 1);
    assert_eq!(g.phase, Phase::Vote { day: 1, runoff: true });
    let options: Vec<&str> = g.ballot.as_ref().unwrap().options.iter().map(|(o, _)| o.as_str()).collect();
    assert_eq!(options, ["4", "5"], "the run-off is between the tied seats");
    assert_eq!(
        g.apply(&Event::Vote { voter: id(1), option: "6".into(), now_ms: 2 }, &()).unwrap_err(),
        Rejection::NotATarget
    );
    let g = vote(&vote(&vote(&vote(&vote(&vote(&g, 1, 4), 2, 4), 3, 5), 4, 5), 5, 4), 6, 5);
    assert_eq!(g.votes.len(), 2);
    assert_eq!(g.votes[1].out, None);
    assert!(g.votes[1].runoff);
    assert_eq!(g.phase, Phase::Night { night: 2 }, "a tied run-off exiles no one");
}

#[test]
fn villagers_win_when_no_werewolf_is_left() {
    let g = end_debate(protect(&check(&kill(&seven(), 1, 7), 2, 5), 3, 3));
    let mut g = g;
    for voter in 2..=6 {
        g = vote(&g, voter, 1);
    }
    let g = vote(&g, 1, 2);
    assert_eq!(g.outcome, Some(Outcome::Villagers));
    assert!(g.is_over());
    let winners = g.winners();
    assert!(!winners.contains(&id(1)) && winners.contains(&id(7)), "the dead villagers win too");
}

#[test]
fn werewolves_win_when_they_are_as_many_as_the_rest() {
    use Role::*;
    let g = with_roles(&[Werewolf, Seer, Doctor, Villager, Villager], Rules::default());
    // Night 1: #4 dies; four living.
    let g = protect(&check(&kill(&g, 1, 4), 2, 5), 3, 3);
    let g = end_debate(g);
    // Day 1: the village exiles its own Doctor.
    let g = vote(&vote(&vote(&vote(&g, 1, 3), 2, 3), 3, 2), 5, 3);
    assert_eq!(g.out.get(&id(3)), Some(&Out::Exiled { day: 1 }));
    // Night 2: the Seer dies; one werewolf against one villager.
    let g = ok(&kill(&g, 1, 2), Event::Pass { seat: id(2), now_ms: 5 });
    assert_eq!(g.outcome, Some(Outcome::Werewolves));
    assert_eq!(g.winners(), vec![id(1)]);
}

#[test]
fn the_witch_cures_once_and_poisons_once() {
    use Role::*;
    let roles = [Werewolf, Seer, Doctor, Witch, Villager, Villager, Villager];
    let g = with_roles(&roles, Rules { witch: true, ..Rules::default() });
    let g = protect(&check(&g, 2, 1), 3, 3);
    assert_eq!(
        g.apply(&Event::Cure { seat: id(4), now_ms: 1 }, &()).unwrap_err(),
        Rejection::NotNow,
        "not before the pack chose"
    );
    let g = kill(&g, 1, 5);
    assert!(g.night_tasks().contains(&(id(4), Task::Potion)));
    let g = ok(&g, Event::Cure { seat: id(4), now_ms: 1 });
    assert!(g.out.is_empty(), "cured");
    assert!(g.cure_used);
    let g = end_debate(g);
    let g = ok(&g, Event::Timer { tag: g.deadline.clone().unwrap().tag, now_ms: 4 });
    let g = protect(&check(&kill(&g, 1, 5), 2, 6), 3, 2);
    assert_eq!(g.apply(&Event::Cure { seat: id(4), now_ms: 5 }, &()).unwrap_err(), Rejection::NoPotion);
    let g = ok(&g, Event::Poison { seat: id(4), target: id(6), now_ms: 5 });
    assert_eq!(g.out.get(&id(5)), Some(&Out::Killed { night: 2 }));
    assert_eq!(g.out.get(&id(6)), Some(&Out::Poisoned { night: 2 }));
}

#[test]
fn a_killed_hunter_shoots_before_the_day() {
    use Role::*;
    let roles = [Werewolf, Seer, Doctor, Hunter, Villager, Villager, Villager];
    let g = with_roles(&roles, Rules { hunter: true, ..Rules::default() });
    let g = protect(&check(&kill(&g, 1, 4), 2, 5), 3, 3);
    assert_eq!(g.phase, Phase::Hunter { day: 1, seat: id(4), dawn: true });
    assert_eq!(
        g.apply(&Event::Shoot { seat: id(5), target: id(1), now_ms: 2 }, &()).unwrap_err(),
        Rejection::NotYourRole
    );
    let g = ok(&g, Event::Shoot { seat: id(4), target: id(1), now_ms: 2 });
    assert_eq!(g.out.get(&id(1)), Some(&Out::Shot { day: 1 }));
    assert_eq!(g.outcome, Some(Outcome::Villagers), "the Hunter shot the last werewolf");
}

#[test]
fn a_missed_night_is_played_as_it_stands() {
    let g = kill(&seven(), 1, 4);
    let tag = g.deadline.clone().unwrap().tag;
    assert_eq!(g.apply(&Event::Timer { tag: "night:9".into(), now_ms: 5 }, &()).unwrap_err(), Rejection::StaleTimer);
    let g = ok(&g, Event::Timer { tag, now_ms: 5 });
    assert_eq!(g.phase, Phase::Debate { day: 1 });
    assert_eq!(g.nights[0].died, vec![id(4)], "no protection: the victim died");
    // No werewolf vote at all: no victim.
    let g = seven();
    let g = ok(&g, Event::Timer { tag: g.deadline.clone().unwrap().tag, now_ms: 5 });
    assert!(g.out.is_empty());
}

#[test]
fn the_debate_limits_speeches_and_ends_when_everyone_is_done() {
    let mut g = protect(&check(&kill(&seven(), 1, 7), 2, 5), 3, 3);
    for n in 0..SPEECHES_PER_DAY {
        g = ok(&g, Event::Speak { seat: id(4), text: format!("point {n}"), now_ms: 3 });
    }
    assert_eq!(
        g.apply(&Event::Speak { seat: id(4), text: "more".into(), now_ms: 3 }, &()).unwrap_err(),
        Rejection::SpokenOut
    );
    assert_eq!(
        g.apply(&Event::Speak { seat: id(7), text: "boo".into(), now_ms: 3 }, &()).unwrap_err(),
        Rejection::Dead
    );
    for seat in [1, 2, 3, 5] {
        g = ok(&g, Event::Pass { seat: id(seat), now_ms: 3 });
    }
    assert_eq!(g.phase, Phase::Debate { day: 1 }, "#6 has not passed");
    g = ok(&g, Event::Pass { seat: id(6), now_ms: 3 });
    assert_eq!(g.phase, Phase::Vote { day: 1, runoff: false }, "#4 spoke out, the rest passed");
}

#[test]
fn a_seat_that_leaves_is_out_and_the_night_goes_on() {
    let g = check(&kill(&seven(), 1, 4), 2, 5);
    let g = ok(&g, Event::Leave { seat: id(3), now_ms: 5 });
    assert_eq!(g.phase, Phase::Debate { day: 1 }, "the Doctor left: nobody else owed");
    assert_eq!(g.out.get(&id(3)), Some(&Out::Left { day: 1 }));
    let g = ok(&seven(), Event::Leave { seat: id(1), now_ms: 5 });
    assert_eq!(g.outcome, Some(Outcome::Villagers), "the only werewolf left");
}

// ---- The table ----

async fn play(table: &mut WerewolfTable, pipeline: &Pipeline, who: &Player, input: TurnInput) -> Played {
    let noop = |_: Progress| {};
    let ctx = TurnContext { pipeline, now_ms: 1_000, progress: &noop };
    table.play(&ctx, &Inbound::new(who.clone(), input)).await
}

/// Plays and adopts, returning what was shown (reply, messages).
async fn step(table: &mut WerewolfTable, pipeline: &Pipeline, who: &Player, input: TurnInput) -> Played {
    let played = play(table, pipeline, who, input).await;
    let shown = clone_shown(&played);
    crate::core::game::Table::adopt(table, played);
    shown
}

fn clone_shown(p: &Played) -> Played {
    let mut out = Played::reply(p.reply.clone());
    out.messages = p.messages.clone();
    out.choices = p.choices.clone();
    out.withheld = p.withheld.clone();
    out.snapshot = p.snapshot.clone();
    out
}

fn public(p: &Played) -> String {
    let mut texts = vec![p.reply.text.clone()];
    texts.extend(p.messages.iter().filter(|m| m.audience == Audience::Everyone).map(|m| m.reply.text.clone()));
    texts.join("\n")
}

fn to(p: &Played, seat: &str) -> String {
    let to_seat = |m: &&crate::core::game::Message| m.audience == Audience::Seat(seat.to_string());
    p.messages.iter().filter(to_seat).map(|m| m.reply.text.clone()).collect::<Vec<_>>().join("\n")
}

/// A table of seven humans with the roles of `seven()`, in the lobby.
fn human_table() -> WerewolfTable {
    let mut g = WerewolfGame::new(&player(1), 7, Rules { fill_to: 7, ..Rules::default() }, Language::En, 1);
    for i in 2..=7 {
        g = ok(&g, Event::Join(player(i)));
    }
    WerewolfTable::new(g, Vec::new(), "zq-bcdf-ghjk-mnpq")
}

/// Seeds `human_table` is dealt by: the first that deals `seven()`'s roles.
fn seven_seed() -> u64 {
    use Role::*;
    let want = [Werewolf, Seer, Doctor, Villager, Villager, Villager, Villager];
    (0..10_000).find(|s| deal(7, *s, &Rules::default()) == want).expect("a seed deals these roles")
}

#[tokio::test]
async fn each_audience_is_told_only_its_own_and_the_night_reaches_the_day() {
    let pipeline = pipeline(|_| "garbage".into());
    let mut table = human_table();
    table.game.seed = seven_seed();
    let begun = step(&mut table, &pipeline, &player(1), TurnInput::Begin).await;
    let shown = public(&begun);
    assert!(shown.contains("Night 1") && shown.contains("Werewolf ×1"), "{shown}");
    for role in ["**Werewolf**", "**Seer**", "**Doctor**"] {
        assert!(!shown.contains(role), "no role in public: {shown}");
    }
    assert!(
        to(&begun, &id(1)).contains("Your role: **Werewolf**") && to(&begun, &id(1)).contains("The werewolves: #1 P1")
    );
    assert!(to(&begun, &id(2)).contains("**Seer**") && to(&begun, &id(2)).contains("`check <seat>`"));
    assert!(!to(&begun, &id(4)).contains("werewolves:"), "villagers don't learn the pack");

    let killed = step(&mut table, &pipeline, &player(1), WerewolfVerb::Kill("4".into()).into()).await;
    assert_eq!(killed.reply.text, say::night_ack(Language::En), "a night move says nothing in public");
    assert!(to(&killed, &id(1)).contains("#1 P1 wants #4 P4"));
    assert!(to(&killed, &id(4)).is_empty());
    let checked = step(&mut table, &pipeline, &player(2), WerewolfVerb::Check("P1".into()).into()).await;
    assert!(to(&checked, &id(2)).contains("#1 P1 is **a werewolf**"), "{}", to(&checked, &id(2)));
    let refused = step(&mut table, &pipeline, &player(3), WerewolfVerb::Protect("#9".into()).into()).await;
    assert_eq!(refused.reply.kind, crate::core::game::ReplyKind::Rejected);
    let dawn = step(&mut table, &pipeline, &player(3), WerewolfVerb::Protect("4".into()).into()).await;
    let shown = public(&dawn);
    assert!(shown.contains("Day 1.** No one died") && shown.contains("Debate"), "{shown}");
    assert!(table.history().iter().all(|t| !t.text.contains("wants")), "the public record holds no night move");

    let whisper = step(&mut table, &pipeline, &player(2), TurnInput::Whisper).await;
    assert!(to(&whisper, &id(2)).contains("#1 P1 is **a werewolf**"));
    assert!(!public(&whisper).contains("werewolf"));
}

#[tokio::test]
async fn a_restart_mid_night_picks_the_night_up_where_it_was() {
    let pipeline = pipeline(|_| "garbage".into());
    let mut table = human_table();
    table.game.seed = seven_seed();
    step(&mut table, &pipeline, &player(1), TurnInput::Begin).await;
    step(&mut table, &pipeline, &player(1), WerewolfVerb::Kill("5".into()).into()).await;
    let checked = step(&mut table, &pipeline, &player(2), WerewolfVerb::Check("3".into()).into()).await;
    // The process stops; the table comes back from the stored snapshot.
    let snapshot = checked.snapshot.unwrap();
    let restored = WerewolfGame::restore(&snapshot).unwrap();
    assert_eq!(restored, table.game);
    let mut again = WerewolfTable::new(restored, table.history().to_vec(), "zq-bcdf-ghjk-mnpq");
    let repeat = step(&mut again, &pipeline, &player(2), WerewolfVerb::Check("4".into()).into()).await;
    assert_eq!(repeat.reply.text, say::refusal(Language::En, &Rejection::Done));
    let dawn = step(&mut again, &pipeline, &player(3), WerewolfVerb::Protect("2".into()).into()).await;
    assert!(public(&dawn).contains("#5 P5 died in the night"), "{}", public(&dawn));
    let whisper = step(&mut again, &pipeline, &player(2), TurnInput::Whisper).await;
    assert!(to(&whisper, &id(2)).contains("#3 P3 is **not a werewolf**"), "the Seer still knows");
}

#[tokio::test]
async fn the_gate_withholds_a_speech_that_carries_the_canary() {
    let pipeline = pipeline(|_| "garbage".into());
    let mut table = human_table();
    table.game.seed = seven_seed();
    step(&mut table, &pipeline, &player(1), TurnInput::Begin).await;
    step(&mut table, &pipeline, &player(1), WerewolfVerb::Kill("5".into()).into()).await;
    step(&mut table, &pipeline, &player(2), WerewolfVerb::Check("3".into()).into()).await;
    step(&mut table, &pipeline, &player(3), WerewolfVerb::Protect("2".into()).into()).await;
    let leak = WerewolfVerb::Speak("the key is zq-bcdf-ghjk-mnpq".into()).into();
    let played = step(&mut table, &pipeline, &player(4), leak).await;
    assert!(played.withheld.is_some());
    assert!(!public(&played).contains("bcdf"), "{}", public(&played));
}

#[tokio::test]
async fn ai_seats_move_from_their_own_view_and_fall_back_on_garbage() {
    let (pipeline, prompts) = recording(move |prompt| {
        if prompt.contains("Choose tonight's victim") {
            r#"{"beliefs": [{"seat": 2, "belief": "quiet"}], "target": 2, "note": "take the quiet one"}"#.into()
        } else {
            "no idea".into()
        }
    });
    let host = Player { id: "ai:0".into(), name: "AI 0".into() };
    let options = crate::core::game::TableOptions { seats: Some(7), ai_seats: Some(6), ..Default::default() };
    let mut g = WerewolfHost::default().lobby(&host, Language::En, &options, seven_seed());
    g.seats.seats[0].ai = true;
    let mut table = WerewolfTable::new(g, Vec::new(), "zq-bcdf-ghjk-mnpq");
    step(&mut table, &pipeline, &host, TurnInput::Begin).await;
    let noop = |_: Progress| {};
    let ctx = TurnContext { pipeline: &pipeline, now_ms: 2_000, progress: &noop };
    let moves = table.agent_moves(&ctx, 1).await;
    assert_eq!(moves.len(), 3, "the werewolf, the Seer and the Doctor: {moves:?}");
    assert!(table.agent_moves(&ctx, 1).await.is_empty(), "each move is made once");
    let (made, fell) = table.agent_counts();
    assert_eq!((made, fell), (3, 2), "the Seer's and the Doctor's garbage fell back");
    let seer = table.game.seats_with(Role::Seer)[0].clone();
    let wolf = table.game.seats_with(Role::Werewolf)[0].clone();
    for prompt in prompts.lock().unwrap().iter() {
        assert!(prompt.contains("zq-bcdf-ghjk-mnpq"), "every prompt carries the canary");
        let seer_prompt = prompt.contains(&format!("You are {}.", table.game.label(&seer)));
        assert_eq!(prompt.contains("**Seer**"), seer_prompt, "only the Seer's prompt holds its role");
        let wolf_prompt = prompt.contains(&format!("You are {}.", table.game.label(&wolf)));
        assert_eq!(prompt.contains("The werewolves:"), wolf_prompt, "only a werewolf's prompt holds the pack");
    }
    for m in moves {
        let player = m.seat.clone();
        step(&mut table, &pipeline, &player, m.input).await;
    }
    let night = &table.game.nights[0];
    assert_eq!(night.victim.as_deref(), Some("ai:1"), "the pack took seat #2, as the model said");
    assert!(table.game.pack.iter().any(|p| p.text == "take the quiet one"));
    assert_eq!(table.game.memos.get(&wolf).map(String::as_str), Some("#2: quiet"), "the notes stay with the seat");
    assert!(table.game.phase != Phase::Lobby);
}

#[test]
fn the_parsers_read_json_and_salvage_text() {
    let options: Vec<(String, String)> = ["2", "3", "5"].iter().map(|n| (n.to_string(), format!("#{n}"))).collect();
    let c = agents::parse_choice(r##"Sure: {"beliefs": [{"seat": 3, "belief": "lying"}], "target": "#5"}"##, &options);
    assert_eq!((c.target.as_deref(), c.memo.as_deref(), c.clean), (Some("5"), Some("#3: lying"), true));
    let c = agents::parse_choice(r#"{"beliefs": {"2": "odd"}, "target": 7}"#, &options);
    assert_eq!((c.target, c.memo.as_deref()), (None, Some("#2: odd")), "7 is no option");
    let c = agents::parse_choice("I pick seat 9, no, 3.", &options);
    assert_eq!((c.target.as_deref(), c.clean), (Some("3"), false));
    let c = agents::parse_choice(r#"{"beliefs": [], "potion": "Poison", "target": 2}"#, &options);
    assert_eq!((c.potion, c.target.as_deref()), (agents::Potion::Poison, Some("2")));
    let b = agents::parse_bid(r##"{"beliefs": [], "urgency": 9, "speech": "  \"I trust #3.\" "}"##);
    assert_eq!((b.urgency, b.speech.as_deref()), (4, Some("I trust #3.")));
    let b = agents::parse_bid("I think #2 is lying.");
    assert_eq!((b.urgency, b.speech.as_deref(), b.clean), (2, Some("I think #2 is lying."), false));
    assert_eq!(agents::parse_bid("").speech, None);
}

#[tokio::test]
async fn an_ai_only_game_plays_to_the_end_with_a_model_that_says_garbage() {
    let pipeline = pipeline(|_| "…".into());
    let host = WerewolfHost::default();
    let setup = selfplay::Setup { seats: 8, witch: true, hunter: true, language: Language::Zh };
    let report = selfplay::run(&pipeline, &host, &setup, 3, 11).await;
    assert_eq!(report.games.len(), 3);
    for g in &report.games {
        assert!(g.outcome.is_some(), "{g:?}");
        assert!(g.days >= 1 && g.fallbacks > 0, "{g:?}");
    }
    let text = report.render();
    assert!(text.contains("3 games · villagers won") && text.contains("day votes against a werewolf"), "{text}");
}

#[test]
fn anonymous_ai_seats_pass_for_people_and_the_humans_guess_them_at_the_end() {
    let rules = Rules { anonymous: true, fill_to: 5, ..Rules::default() };
    let mut g = WerewolfGame::new(&player(1), 5, rules, Language::En, 9);
    g = ok(&g, Event::Join(player(2)));
    g = ok(&g, Event::AddAi);
    let ai = g.seats.agents().next().unwrap().player.clone();
    assert!(!ai.name.contains("AI") && !ai.name.contains('🤖'), "an ordinary name: {}", ai.name);
    g = ok(&g, Event::Begin { by: id(1), moderator: false, now_ms: 0 });
    assert_eq!(g.seats.len(), 5);
    let names: Vec<String> = g.seats.seats.iter().map(|s| s.player.name.clone()).collect();
    assert!(names.iter().all(|n| !n.contains('🤖')), "{names:?}");
    let g = ok(&g, Event::End { by: id(1), moderator: false, now_ms: 1 });
    assert_eq!(g.phase, Phase::Over, "a game ended by the host has no result to guess after");
    // A game with a result goes on to the guessing.
    let mut g2 =
        WerewolfGame::new(&player(1), 5, Rules { anonymous: true, fill_to: 5, ..Rules::default() }, Language::En, 9);
    g2 = ok(&g2, Event::Begin { by: id(1), moderator: false, now_ms: 0 });
    g2.finish(Outcome::Villagers, 5);
    assert_eq!(g2.phase, Phase::GuessAi);
    let ai_numbers: Vec<String> = g2.seats.agents().map(|s| g2.number(&s.player.id).unwrap().to_string()).collect();
    let wrong = ok(&g2, Event::GuessAi { seat: id(1), seats: vec![id(1)] });
    assert_eq!(wrong.ai_guess_scores(), vec![(id(1), 0, 1)]);
    let seats: Vec<String> = ai_numbers.iter().filter_map(|n| g2.seat_by_number(n)).map(str::to_string).collect();
    let g2 = ok(&g2, Event::GuessAi { seat: id(1), seats });
    assert_eq!(g2.phase, Phase::Over, "every human guessed");
    assert_eq!(g2.ai_guess_scores(), vec![(id(1), 4, 0)]);
}

/// Random play's figures (every AI move falls back to a seeded pick), a
/// baseline for a model's: `cargo test --lib random_play -- --ignored --nocapture`.
#[tokio::test]
#[ignore]
async fn random_play_baseline() {
    let pipeline = pipeline(|_| "…".into());
    for seats in [7, 10] {
        let setup = selfplay::Setup { seats, ..selfplay::Setup::default() };
        let report = selfplay::run(&pipeline, &WerewolfHost::default(), &setup, 50, 2026).await;
        println!("{seats} seats:\n{}", report.render().lines().rev().take(3).collect::<Vec<_>>().join("\n"));
        assert_eq!(report.games.len(), 50);
    }
}

/// Every AI-seat prompt (a bid for the floor, each night move, the day
/// vote, the Hunter's shot) in both languages, pinned: a change to a
/// prompt's wording shows here.
#[tokio::test]
async fn the_ai_seats_prompts_are_pinned() {
    use crate::core::fixtures::{ai_seat, record, requests, seat_options, shown};
    use crate::core::game::SeatView;
    let asks = [Ask::Vote, Ask::Kill, Ask::Check, Ask::Protect, Ask::Potion, Ask::Shoot];
    for lang in [Language::En, Language::Zh] {
        let (pipeline, asked) = requests(|_| "no idea".into());
        let ctx = TurnContext { pipeline: &pipeline, now_ms: 1_000, progress: &|_| {} };
        let seat = ai_seat();
        let public = record(&[("Moderator", "Day 1 breaks: #5 P5 was killed."), ("#1 P1", "I trust #2.")]);
        let view = SeatView::new(&seat, &public, vec!["You are the **Witch**.", "The werewolves: none known."]);
        for memo in [None, Some("#1: loud")] {
            let asker = Asker { view: &view, label: "#3 AI 3", lang, seats: 7, day: 2, canary: "zq-bcdf-ghjk-mnpq", memo };
            agents::bid(&ctx, &asker).await;
            for ask in asks {
                let witch = ("#5 P5 was attacked.", "cure, poison");
                agents::choose(&ctx, &asker, ask, &seat_options(&["1", "2"]), witch).await;
            }
        }
        insta::assert_snapshot!(format!("ai_seat_prompts_{}", lang.code()), shown(&asked.lock().unwrap()));
    }
}
