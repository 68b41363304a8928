use super::*;

#[test]
fn a_prober_asks_an_unspecified_bind_on_loopback() {
    let url = |bind: &str| local_url(bind, "/healthz").unwrap();
    assert_eq!(url("0.0.0.0:9464"), "http://127.0.0.1:9464/healthz");
    assert_eq!(url("[::]:9464"), "http://[::1]:9464/healthz");
    assert_eq!(url(" 127.0.0.1:9000 "), "http://127.0.0.1:9000/healthz");
    assert_eq!(url("10.1.2.3:9464"), "http://10.1.2.3:9464/healthz");
    assert_eq!(url("bot.internal:9464"), "http://bot.internal:9464/healthz");
    let unset = local_url("", "/healthz").unwrap_err().to_string();
    assert!(unset.contains("[ops] bind") && unset.contains("--url"), "{unset}");
}
