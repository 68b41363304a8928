use super::*;

fn bucket(key: &str, requests: u32, global: bool, announced: bool) -> Bucket {
    Bucket { key: key.into(), limit: Limit::new(requests, Duration::from_secs(1)), global, announced }
}

fn ms(t0: Instant, ms: u64) -> Instant {
    t0 + Duration::from_millis(ms)
}

#[test]
fn a_bucket_admits_its_limit_per_window_then_refuses_until_it_resets() {
    let (q, t0) = (Quotas::default(), Instant::now());
    let b = [bucket("POST /channels/1/messages", 2, false, true)];
    let Admission::Admitted(left) = q.admit(&b, t0) else { panic!("the first is admitted") };
    assert_eq!((left[0].limit, left[0].remaining, left[0].reset_after), (2, 1, Duration::from_secs(1)));
    assert!(matches!(q.admit(&b, ms(t0, 10)), Admission::Admitted(ref l) if l[0].remaining == 0));
    let Admission::Refused { retry_after, global, .. } = q.admit(&b, ms(t0, 20)) else { panic!("over the limit") };
    assert_eq!((retry_after, global), (Duration::from_millis(980), false));
    assert!(matches!(q.admit(&b, ms(t0, 1000)), Admission::Admitted(_)), "a new window");
    assert_eq!(q.tally(), Tally { refused: 1, exhausted: 1, violations: 0 }, "20 ms after the last slot: in flight");
}

#[test]
fn a_request_after_the_announced_wait_began_and_before_it_ended_is_a_violation() {
    let (q, t0) = (Quotas::default(), Instant::now());
    let b = [bucket("chat.postMessage C1", 1, false, false)];
    assert!(matches!(q.admit(&b, t0), Admission::Admitted(_)));
    // Not announced by the success: the first 429 tells the client.
    assert!(matches!(q.admit(&b, ms(t0, 200)), Admission::Refused { .. }));
    assert!(matches!(q.admit(&b, ms(t0, 230)), Admission::Refused { .. }), "crossed the 429 on the wire");
    assert!(matches!(q.admit(&b, ms(t0, 400)), Admission::Refused { .. }));
    assert!(matches!(q.admit(&b, ms(t0, 1000)), Admission::Admitted(_)));
    assert_eq!(q.tally(), Tally { refused: 3, exhausted: 2, violations: 1 }, "the new window is spent too");
}

#[test]
fn the_global_bucket_is_checked_first_and_a_refused_request_counts_nowhere() {
    let (q, t0) = (Quotas::default(), Instant::now());
    let global = bucket("global", 2, true, false);
    let a = [bucket("a", 1, false, true), global.clone()];
    let b = [bucket("b", 5, false, true), global];
    assert!(matches!(q.admit(&a, t0), Admission::Admitted(ref l) if l.len() == 2));
    assert!(matches!(q.admit(&a, ms(t0, 1)), Admission::Refused { global: false, .. }));
    assert!(matches!(q.admit(&b, ms(t0, 2)), Admission::Admitted(_)), "the refused one took no global slot");
    let Admission::Refused { global, bucket, .. } = q.admit(&b, ms(t0, 3)) else { panic!("global limit") };
    assert!(global && bucket.key == "global");
    assert!(matches!(q.admit(&b, ms(t0, 1000)), Admission::Admitted(_)));
}
