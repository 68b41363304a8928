use super::*;

#[test]
fn keys_are_platform_qualified() {
    assert_eq!(scope_of("T1"), "slack:T1");
    let key = thread_key("C1", "1700000000.000100");
    assert_eq!(key, "slack:C1:1700000000.000100");
    assert_eq!(thread_ts_of(&key), Some("1700000000.000100"));
}
