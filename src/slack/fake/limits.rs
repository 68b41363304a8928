//! Slack's rate limits in the fake (off unless a test sets them): per
//! method and channel (`chat.postMessage` allows about one a second in a
//! channel) and per method across the workspace (the tiers). Past one,
//! Slack's answer: HTTP 429, `Retry-After` in whole seconds and
//! `{"ok": false, "error": "ratelimited"}`. Slack's successes do not say
//! how much is left, so only a 429 announces a wait. The windows and the
//! tally are `bot::quota`'s.

use std::time::Duration;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::bot::quota::{Bucket, Limit};

/// The limits a fake enforces; `Default` enforces none.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RateLimits {
    /// Method → its limit in each channel.
    pub per_channel: Vec<(String, Limit)>,
    /// Method → its limit across the workspace.
    pub per_method: Vec<(String, Limit)>,
}

impl RateLimits {
    /// `method` limited to `limit` in each channel.
    pub fn per_channel(method: &str, limit: Limit) -> RateLimits {
        RateLimits { per_channel: vec![(method.into(), limit)], ..RateLimits::default() }
    }

    /// `method` limited to `limit` across the workspace.
    pub fn per_method(method: &str, limit: Limit) -> RateLimits {
        RateLimits { per_method: vec![(method.into(), limit)], ..RateLimits::default() }
    }

    /// The buckets a call to `method` in `channel` counts against.
    pub fn buckets(&self, method: &str, channel: Option<&str>) -> Vec<Bucket> {
        let bucket = |key: String, limit: Limit| Bucket { key, limit, global: false, announced: false };
        let in_channel = self
            .per_channel
            .iter()
            .filter(|(m, _)| m == method)
            .filter_map(|(m, limit)| Some(bucket(format!("{m} {}", channel?), *limit)));
        let everywhere =
            self.per_method.iter().filter(|(m, _)| m == method).map(|(m, limit)| bucket(m.clone(), *limit));
        in_channel.chain(everywhere).collect()
    }
}

/// Slack's 429: `Retry-After` is whole seconds, rounded up.
pub fn too_many(retry_after: Duration) -> Response {
    let body = json!({"ok": false, "error": "ratelimited"});
    let mut response = (StatusCode::TOO_MANY_REQUESTS, axum::Json(body)).into_response();
    let seconds = retry_after.as_millis().div_ceil(1000).max(1);
    let value = HeaderValue::from_str(&seconds.to_string()).unwrap_or(HeaderValue::from_static("1"));
    response.headers_mut().insert(header::RETRY_AFTER, value);
    response
}
