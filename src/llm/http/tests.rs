use super::*;

const CAP: Duration = Duration::from_millis(100);

fn ms(millis: u64) -> Duration {
    Duration::from_millis(millis)
}

fn status(code: u16) -> AttemptError {
    LlmError::Status { status: code, body: String::new() }.into()
}

#[test]
fn retry_delay_prefers_retry_after_and_caps_both() {
    let cases = [
        (Some(ms(5)), None, Some(ms(5))),
        (Some(ms(5)), Some(ms(50)), Some(ms(50))),
        (Some(ms(5)), Some(Duration::from_secs(30)), Some(CAP)),
        (Some(ms(500)), None, Some(CAP)),
        (None, Some(ms(50)), None),
    ];
    for (backoff, retry_after, expected) in cases {
        assert_eq!(retry_delay(backoff, retry_after, CAP), expected, "{backoff:?} {retry_after:?}");
    }
}

#[test]
fn only_transient_failures_are_retried() {
    let retried = [status(429), status(500), status(502), status(503), status(599)];
    let final_ = [status(400), status(401), status(404), status(422)];

    assert!(retried.iter().all(AttemptError::is_retryable));
    assert!(!final_.iter().any(AttemptError::is_retryable));
    assert!(AttemptError::from(LlmError::Timeout).is_retryable());
    assert!(AttemptError::from(LlmError::Unavailable("refused".into())).is_retryable());
    assert!(!AttemptError::from(LlmError::Malformed("junk".into())).is_retryable());
    assert!(!AttemptError::from(LlmError::Config("no key".into())).is_retryable());
}

#[test]
fn long_error_bodies_are_truncated_on_a_char_boundary() {
    let long = "é".repeat(MAX_ERROR_BODY);

    let short = truncate(long);

    assert!(short.len() <= MAX_ERROR_BODY + '…'.len_utf8());
    assert!(short.ends_with('…'));
    assert_eq!(truncate("short".into()), "short");
}

#[test]
fn empty_error_body_falls_back_to_the_status_reason() {
    assert_eq!(fallback_error_text("  ", StatusCode::BAD_GATEWAY), "Bad Gateway");
    assert_eq!(fallback_error_text(" upstream died \n", StatusCode::BAD_GATEWAY), "upstream died");
}

#[test]
fn endpoint_joins_without_doubling_slashes() {
    assert_eq!(endpoint("http://h:1/v1", "/models"), "http://h:1/v1/models");
    assert_eq!(endpoint("http://h:1", "api/chat"), "http://h:1/api/chat");
}

#[test]
fn stream_lines_lose_their_line_endings_and_must_be_utf8() {
    assert_eq!(decode_line(b"data: x\r\n"), Ok("data: x"));
    assert!(matches!(decode_line(&[0xff, b'\n']), Err(LlmError::Malformed(_))));
}
