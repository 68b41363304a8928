use super::*;

fn judged(parse: &'static str, seconds: f64, first: bool) -> Judged {
    let (expected, got) = ("YES".to_string(), "YES".to_string());
    Judged { line: 1, kind: Kind::Question, expected, got, correct: true, graded_right: true, parse, seconds, first }
}

#[test]
fn turns_are_timed_by_how_they_were_answered() {
    let mut all = vec![judged("known", 4.0, true), judged("cant_tell", 0.2, false)];
    all.extend((1..=20).map(|i| judged("known", f64::from(i) / 100.0, false)));
    let latency = latency(&all);
    let names: Vec<&str> = latency.iter().map(|(what, ..)| *what).collect();
    assert_eq!(names, ["first turn of a puzzle", "known answer", "can't tell"], "groups with no turns are left out");
    assert_eq!(latency[0], ("first turn of a puzzle", 1, 4.0, 4.0));
    let (_, n, p50, p95) = latency[1];
    assert_eq!(n, 20, "the first turn is not counted with the later ones");
    assert!((p50 - 0.11).abs() < 1e-9 && (p95 - 0.19).abs() < 1e-9, "{p50} {p95}");
    let (text, json) = report(&all);
    assert!(text.contains("known answer 0.110 / 0.190 s (20)"), "{text}");
    assert_eq!(json["seconds_per_turn"]["can't tell"]["turns"], 1);
}
