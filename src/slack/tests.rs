use super::*;

#[test]
fn keys_are_platform_qualified() {
    assert_eq!(scope_of("T1"), "slack:T1");
    let key = thread_key("C1", "1700000000.000100");
    assert_eq!(key, "slack:C1:1700000000.000100");
    assert_eq!(thread_ts_of(&key), Some("1700000000.000100"));
}

#[test]
fn start_options_take_the_arenas_topic_from_the_rest_of_the_line() {
    use crate::core::catalogue::Frontend;
    let catalogue = crate::assets::catalogue();
    let options = |group: &str, text: &str| catalogue.start_options(Frontend::Slack, group, text);
    let o = options("arena", "characters:3 max_turns:12 topic: Should cities ban cars? Ünïcode ok");
    assert_eq!(o.ai_seats, Some(3));
    assert_eq!(o.number::<u32>("max_turns"), Some(12));
    assert_eq!(o.get("topic"), Some("Should cities ban cars? Ünïcode ok"));
    let o = options("undercover", "6 zh blank");
    assert_eq!((o.seats, o.flag("blank"), o.get("topic")), (Some(6), Some(true), None));
}
