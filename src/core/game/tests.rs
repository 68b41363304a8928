use super::*;
use crate::core::secrecy::{Canary, Check};
use crate::core::vocab::Player;

fn player(id: &str) -> Player {
    Player { id: id.into(), name: id.to_uppercase() }
}

fn rules() -> SeatRules {
    SeatRules { min: 3, max: 4, max_ai: 1 }
}

#[test]
fn a_lobby_seats_joins_and_refuses_with_the_old_state_untouched() {
    let lobby = Seats::open(rules(), &player("a"));
    let lobby = lobby.join(&player("b")).unwrap();
    assert_eq!(lobby.join(&player("b")), Err(SeatError::AlreadySeated));
    assert_eq!(lobby.start("a", false), Err(SeatError::TooFew { min: 3, seated: 2 }));
    let lobby = lobby.add_ai().unwrap();
    assert_eq!(lobby.add_ai(), Err(SeatError::NoAiSeats { max_ai: 1 }));
    let agent = lobby.agents().next().unwrap();
    assert!(agent.player.name.contains("AI"), "an agent is named as AI: {}", agent.player.name);
    assert_eq!(lobby.start("b", false), Err(SeatError::NotHost));
    let started = lobby.start("b", true).unwrap();
    assert!(started.started);
    assert_eq!(started.join(&player("c")), Err(SeatError::Started));
    assert_eq!(lobby.len(), 3, "a refused move changed nothing");
}

#[test]
fn a_full_lobby_refuses_and_the_host_passes_on_when_they_leave() {
    let mut lobby = Seats::open(rules(), &player("a"));
    for id in ["b", "c", "d"] {
        lobby = lobby.join(&player(id)).unwrap();
    }
    assert!(lobby.is_full());
    assert_eq!(lobby.join(&player("e")), Err(SeatError::Full { max: 4 }));
    let lobby = lobby.leave("a").unwrap();
    assert_eq!(lobby.host, "b");
    assert_eq!(lobby.leave("a"), Err(SeatError::NotSeated));
}

#[test]
fn votes_stay_secret_until_everyone_voted_and_a_change_replaces() {
    let options = vec![("a".to_string(), "Alice".to_string()), ("b".to_string(), "Bob".to_string())];
    let ballot = Ballot::open(options, vec!["a".into(), "b".into(), "c".into()]);
    assert_eq!(ballot.cast("zed", "a"), Err(BallotError::NotAVoter));
    assert_eq!(ballot.cast("a", "x"), Err(BallotError::UnknownOption("x".into())));
    let ballot = ballot.cast("a", "b").unwrap().cast("b", "a").unwrap();
    let ballot = ballot.cast("a", "a").unwrap();
    assert_eq!(ballot.cast_count(), 2, "a changed vote replaces the earlier one");
    assert!(!ballot.is_complete());
    let ballot = ballot.cast("c", "b").unwrap();
    assert!(ballot.is_complete());
    let (closed, tally) = ballot.close();
    assert_eq!(tally.counts, vec![("a".to_string(), 2), ("b".to_string(), 1)]);
    assert_eq!(tally.winner(), Some("a"));
    assert_eq!(closed.cast("a", "b"), Err(BallotError::Closed));
}

#[test]
fn a_tie_or_no_votes_has_no_winner_and_abstentions_are_listed() {
    let options = vec![("a".to_string(), "A".to_string()), ("b".to_string(), "B".to_string())];
    let ballot = Ballot::open(options, vec!["a".into(), "b".into(), "c".into()]);
    let (_, empty) = ballot.close();
    assert_eq!(empty.winner(), None);
    let (_, tie) = ballot.cast("a", "b").unwrap().cast("b", "a").unwrap().close();
    assert_eq!(tie.winner(), None);
    assert_eq!(tie.abstained, vec!["c".to_string()]);
}

#[test]
fn a_deadline_fires_under_one_event_id() {
    let d = Deadline::after(1_000, 45, "vote:1");
    assert_eq!(d.at_ms, 46_000);
    assert_eq!(d.event_id(), Deadline::after(1_000, 45, "vote:1").event_id());
    assert_ne!(d.event_id(), Deadline::after(2_000, 45, "vote:1").event_id());
}

#[test]
fn audiences_round_trip_through_their_stored_form() {
    for a in [Audience::Everyone, Audience::Moderators, Audience::Seat("discord:1".into())] {
        assert_eq!(Audience::from_parts(a.as_str(), a.recipient().map(String::from)), Some(a));
    }
    assert_eq!(Audience::from_parts("seat", None), None);
    assert_eq!(Audience::from_parts("martians", None), None);
}

fn gates() -> SecretGates {
    let secrets = [
        Secret::of_seat("a", "blue lantern"),
        Secret::of_seat("b", "copper kettle"),
        Secret::hidden("the keeper hid the smugglers ledger beneath the chapel stairs"),
    ];
    SecretGates::new("Two seats, two words.", &secrets, Canary::from_seed(7))
}

#[test]
fn a_seat_may_read_its_own_secret_and_nobody_elses() {
    let gates = gates();
    let seat_a = Audience::Seat("a".into());
    assert_eq!(gates.check(&seat_a, "Your word is: blue lantern"), Check::Pass);
    assert!(gates.check(&seat_a, "Bob holds COPPER kettle").is_blocked());
    assert!(gates.check(&Audience::Everyone, "a blue lantern, maybe").is_blocked());
    assert!(gates.check(&Audience::Moderators, "copper kettle").is_blocked());
    assert_eq!(gates.check(&Audience::Everyone, "Voting is open."), Check::Pass);
}

#[test]
fn a_revealed_secret_stops_counting() {
    let secrets = [Secret::of_seat("a", "blue lantern"), Secret::of_seat("b", "copper kettle")];
    let mut gates = SecretGates::new("Two seats, two words.", &secrets, Canary::from_seed(7));
    gates.allow_public("blue lantern");
    assert_eq!(gates.check(&Audience::Everyone, "Alice's word was blue lantern."), Check::Pass);
    assert!(gates.check(&Audience::Everyone, "and Bob's is copper kettle").is_blocked());
}

#[test]
fn chinese_short_secrets_are_matched_by_character() {
    let gates = SecretGates::new("", &[Secret::of_seat("a", "饺子")], Canary::from_seed(1));
    assert!(gates.check(&Audience::Everyone, "我觉得是饺子吧").is_blocked());
    assert_eq!(gates.check(&Audience::Everyone, "我觉得是包子吧"), Check::Pass);
}

#[test]
fn a_snapshot_of_another_game_or_a_newer_version_is_refused() {
    let s = Snapshot {
        kind: "soup".into(),
        version: 1,
        phase: "lobby".into(),
        progress: 0,
        deadline_ms: None,
        body: "{}".into(),
    };
    assert!(s.expect("soup", 1).is_ok());
    assert!(matches!(s.expect("undercover", 1), Err(SnapshotError::WrongKind { .. })));
    assert!(matches!(s.expect("soup", 0), Err(SnapshotError::TooNew { .. })));
}
