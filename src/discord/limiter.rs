//! Discord's rate limits in front of a proxy URL. serenity's own limiter
//! (`Ratelimiter::perform`) builds every request for discord.com whatever
//! `HttpBuilder::proxy` says, so a bot pointed at a proxy (the fake) runs
//! with it off. With `Endpoint::keep_limits` its REST calls pass through
//! this local relay instead, which keeps each route's state in serenity's
//! own `Ratelimit` (wait out `X-RateLimit-Remaining: 0` until the reset;
//! after a 429, `Retry-After`, then send again) and holds every call while
//! a global 429's wait runs. Against discord.com serenity's limiter is on
//! and none of this runs.
//!
//! Buckets are serenity's: the route and its major parameter (channel,
//! guild, webhook or application, interaction), tokens left out. One
//! difference from serenity's loop, on purpose: serenity lets go of its
//! global lock before sleeping out a global 429, so its other calls go on
//! during the wait; here the lock is held for the whole wait.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serenity::http::{LightMethod, Ratelimit, RatelimitInfo, Route};

use super::Endpoint;

/// Most attempts at one call; past them its last 429 goes back as is.
const ATTEMPTS: usize = 20;

/// `endpoint` with its proxy behind a relay that keeps the limits, and
/// the relay's task; `endpoint` itself when it asks for none.
pub async fn in_front(endpoint: &Endpoint) -> anyhow::Result<(Endpoint, Option<tokio::task::JoinHandle<()>>)> {
    let Some(proxy) = endpoint.proxy.as_ref().filter(|_| endpoint.keep_limits) else {
        return Ok((endpoint.clone(), None));
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}", listener.local_addr()?);
    let mut client = reqwest::Client::builder();
    if endpoint.http2 {
        client = client.http2_prior_knowledge();
    }
    let relay = Arc::new(Relay {
        upstream: proxy.trim_end_matches('/').to_string(),
        client: client.build()?,
        global: tokio::sync::Mutex::new(()),
        routes: Mutex::default(),
    });
    let app = axum::Router::new().fallback(relay_call).with_state(relay);
    let task = tokio::spawn(async move {
        if let Err(e) = axum::serve(crate::bot::net::no_delay(listener), app).await {
            tracing::error!(error = %e, "the Discord rate-limit relay stopped");
        }
    });
    Ok((Endpoint { proxy: Some(url), ..endpoint.clone() }, Some(task)))
}

struct Relay {
    upstream: String,
    client: reqwest::Client,
    /// Held while a global 429's wait runs.
    global: tokio::sync::Mutex<()>,
    routes: Mutex<HashMap<String, Arc<tokio::sync::Mutex<Ratelimit>>>>,
}

async fn relay_call(State(relay): State<Arc<Relay>>, req: Request) -> Response {
    match relay.perform(req).await {
        Ok(response) => response,
        Err(e) => {
            tracing::warn!(error = %format!("{e:#}"), "the rate-limit relay could not reach the proxy");
            (StatusCode::BAD_GATEWAY, e.to_string()).into_response()
        }
    }
}

impl Relay {
    /// serenity's `Ratelimiter::perform`, sending to the proxy.
    async fn perform(&self, req: Request) -> anyhow::Result<Response> {
        let (parts, body) = req.into_parts();
        let body = axum::body::to_bytes(body, usize::MAX).await?;
        let target = format!("{}{}", self.upstream, parts.uri.path_and_query().map_or("/", |p| p.as_str()));
        let bucket = parts.uri.path().strip_prefix("/api/v10").map(|path| self.bucket(&route(path)));
        let mut headers = parts.headers.clone();
        for hop in [header::HOST, header::CONNECTION, header::TRANSFER_ENCODING] {
            headers.remove(hop);
        }
        // serenity's hooks take its request only to log and report it.
        let logged = serenity::http::Request::new(Route::GatewayBot, LightMethod::Get);
        let report = |_: RatelimitInfo| {};
        let mut attempt = 0;
        loop {
            attempt += 1;
            drop(self.global.lock().await);
            if let Some(bucket) = &bucket {
                bucket.lock().await.pre_hook(&logged, &report).await;
                // A global wait may have begun while this one waited.
                drop(self.global.lock().await);
            }
            let request = self.client.request(parts.method.clone(), &target).headers(headers.clone());
            let response = request.body(body.clone()).send().await?;
            let last = attempt >= ATTEMPTS;
            if response.status() == StatusCode::TOO_MANY_REQUESTS
                && response.headers().contains_key("x-ratelimit-global")
            {
                let wait = retry_after(response.headers());
                tracing::debug!(?wait, "global rate limit: every call waits");
                let _held = self.global.lock().await;
                tokio::time::sleep(wait).await;
                if !last {
                    continue;
                }
            } else if let Some(bucket) = &bucket {
                let redo = bucket.lock().await.post_hook(&response, &logged, &report, false).await.unwrap_or(false);
                if redo && !last {
                    continue;
                }
            }
            return back(response).await;
        }
    }

    fn bucket(&self, key: &str) -> Arc<tokio::sync::Mutex<Ratelimit>> {
        let mut routes = self.routes.lock().unwrap_or_else(PoisonError::into_inner);
        routes.entry(key.to_string()).or_default().clone()
    }
}

/// serenity's bucket for a path below `/api/v10`: ids are placeholders
/// except the major parameter, and tokens are left out.
fn route(path: &str) -> String {
    let (mut key, mut before) = (String::new(), ["", ""]);
    for segment in path.trim_start_matches('/').split('/') {
        let major = matches!(before[1], "channels" | "guilds" | "webhooks" | "interactions");
        let token = matches!(before[0], "webhooks" | "interactions");
        let id = !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit());
        key.push('/');
        key.push_str(if major || !(token || id) {
            segment
        } else if token {
            "{token}"
        } else {
            "{id}"
        });
        before = [before[1], segment];
    }
    key
}

/// A global 429's wait: `Retry-After` in seconds (1 if unreadable).
fn retry_after(headers: &HeaderMap) -> Duration {
    let seconds = headers.get("retry-after").and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<f64>().ok());
    Duration::from_secs_f64(seconds.filter(|s| s.is_finite() && *s >= 0.0).unwrap_or(1.0))
}

/// The proxy's response, handed back to serenity.
async fn back(response: reqwest::Response) -> anyhow::Result<Response> {
    let status = response.status();
    let mut headers = response.headers().clone();
    for hop in [header::CONNECTION, header::TRANSFER_ENCODING] {
        headers.remove(hop);
    }
    let mut out = Response::new(Body::from(response.bytes().await?));
    *out.status_mut() = status;
    *out.headers_mut() = headers;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_serenitys_route_and_major_parameter() {
        assert_eq!(route("/channels/20/messages"), "/channels/20/messages");
        assert_eq!(route("/channels/20/messages/77"), "/channels/20/messages/{id}");
        assert_eq!(route("/webhooks/2/tok9"), "/webhooks/2/{token}");
        assert_eq!(route("/webhooks/2/tok9/messages/@original"), "/webhooks/2/{token}/messages/@original");
        assert_eq!(route("/interactions/5/tok5/callback"), "/interactions/5/{token}/callback");
        assert_eq!(route("/applications/2/commands"), "/applications/{id}/commands");
    }
}
