//! Discord's rate limits in the fake (off unless a test sets them): a
//! bucket per route and major parameter (`POST /channels/20/messages`)
//! whose numbers every response carries (`X-RateLimit-Limit`,
//! `-Remaining`, `-Reset`, `-Reset-After`, `-Bucket`), and a global limit
//! over every call but interaction callbacks, which no header announces.
//! Past either, Discord's 429: `Retry-After`, `X-RateLimit-Scope`
//! (`X-RateLimit-Global` for the global one) and the JSON body with
//! `retry_after` and `global`. The windows and the tally are
//! `bot::quota`'s.

use std::time::Duration;

use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::bot::quota::{Bucket, Left, Limit};

/// The limits a fake enforces; `Default` enforces none.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RateLimits {
    /// Per route and major parameter (channel, guild, webhook, interaction).
    pub per_route: Option<Limit>,
    /// Every call but interaction callbacks (Discord's 50 per second).
    pub global: Option<Limit>,
}

impl RateLimits {
    pub fn is_on(&self) -> bool {
        self.per_route.is_some() || self.global.is_some()
    }

    /// The buckets a call counts against.
    pub fn buckets(&self, method: &str, path: &str) -> Vec<Bucket> {
        let mut buckets = Vec::new();
        if let Some(limit) = self.per_route {
            buckets.push(Bucket { key: route_key(method, path), limit, global: false, announced: true });
        }
        if let Some(limit) = self.global.filter(|_| !path.starts_with("/interactions/")) {
            buckets.push(Bucket { key: "global".into(), limit, global: true, announced: false });
        }
        buckets
    }
}

/// `POST /channels/20/messages/{id}`: ids are placeholders except the
/// major parameter (the one after `channels`, `guilds`, `webhooks` or
/// `interactions`); tokens stay, so each webhook token is its own bucket.
pub fn route_key(method: &str, path: &str) -> String {
    let mut key = String::from(method);
    let mut previous = "";
    for segment in path.trim_start_matches('/').split('/') {
        let major = matches!(previous, "channels" | "guilds" | "webhooks" | "interactions");
        let id = !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit());
        key.push('/');
        key.push_str(if id && !major { "{id}" } else { segment });
        previous = segment;
    }
    key
}

/// Seconds with millisecond precision, rounded up: a client waiting this
/// long never comes back early.
fn seconds(d: Duration) -> f64 {
    d.as_micros().div_ceil(1000) as f64 / 1000.0
}

fn value(text: String) -> HeaderValue {
    HeaderValue::from_str(&text).unwrap_or(HeaderValue::from_static("0"))
}

/// The `X-RateLimit-*` headers for a route bucket's numbers.
pub fn add_headers(headers: &mut HeaderMap, left: &Left) {
    let reset_after = seconds(left.reset_after);
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    headers.insert("x-ratelimit-limit", value(left.limit.to_string()));
    headers.insert("x-ratelimit-remaining", value(left.remaining.to_string()));
    headers.insert("x-ratelimit-reset-after", value(format!("{reset_after:.3}")));
    headers.insert("x-ratelimit-reset", value(format!("{:.3}", now.as_secs_f64() + reset_after)));
    headers.insert("x-ratelimit-bucket", value(format!("{:016x}", fnv(&left.key))));
}

/// Discord's 429. `Retry-After` is whole seconds, rounded up; the body
/// has the exact figure.
pub fn too_many(bucket: &Left, retry_after: Duration, global: bool) -> Response {
    let body = json!({"message": "You are being rate limited.", "retry_after": seconds(retry_after), "global": global});
    let mut response = (StatusCode::TOO_MANY_REQUESTS, axum::Json(body)).into_response();
    let headers = response.headers_mut();
    headers.insert("retry-after", value(retry_after.as_millis().div_ceil(1000).max(1).to_string()));
    if global {
        headers.insert("x-ratelimit-global", HeaderValue::from_static("true"));
        headers.insert("x-ratelimit-scope", HeaderValue::from_static("global"));
    } else {
        add_headers(headers, bucket);
        headers.insert("x-ratelimit-scope", HeaderValue::from_static("user"));
    }
    response
}

/// A stable bucket id (FNV-1a), like Discord's opaque hash.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_route_key_keeps_only_the_major_parameter() {
        assert_eq!(route_key("POST", "/channels/20/messages"), "POST/channels/20/messages");
        assert_eq!(route_key("PATCH", "/channels/20/messages/7"), "PATCH/channels/20/messages/{id}");
        assert_eq!(route_key("POST", "/webhooks/2/tok9"), "POST/webhooks/2/tok9");
        assert_eq!(route_key("PUT", "/applications/2/commands"), "PUT/applications/{id}/commands");
    }

    #[test]
    fn interaction_callbacks_escape_the_global_limit() {
        let limit = Limit::new(1, Duration::from_secs(1));
        let limits = RateLimits { per_route: None, global: Some(limit) };
        assert!(limits.buckets("POST", "/interactions/5/tok5/callback").is_empty());
        assert_eq!(limits.buckets("POST", "/channels/20/messages").len(), 1);
    }
}
