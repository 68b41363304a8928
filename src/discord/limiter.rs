//! Discord's rate limits, kept by us instead of serenity. Every REST call
//! of the bot passes through this local relay (serenity is pointed at it
//! as its proxy, its own limiter off), which forwards to discord.com (or to
//! the proxy a test names: the fake) and keeps each route's state in
//! serenity's own `Ratelimit` (wait out `X-RateLimit-Remaining: 0` until
//! the reset; after a 429, `Retry-After`, then send again).
//!
//! Two places where serenity 0.12's `Ratelimiter::perform` falls short of
//! Discord's rules, each shown against the fake by a test below (serenity's
//! own limiter, reached over TLS) and kept right here:
//! - **A global 429 stops every call until its wait ends.** serenity only
//!   takes and drops its global lock before sleeping out the wait, so its
//!   other calls go on meanwhile and hit the limit again (each one an
//!   invalid request Discord counts towards a temporary ban); here the
//!   lock is held for the whole wait.
//! - **Interaction follow-ups are limited per interaction.** Discord's
//!   major parameter for `/webhooks/{id}/{token}` is the id with the token;
//!   serenity keys them by the application id alone, so one busy
//!   interaction's follow-ups hold back every other game's. Here a webhook
//!   route's bucket keeps its token.
//!
//! Buckets are otherwise serenity's: the route and its major parameter
//! (channel, guild, webhook with its token, interaction), other ids left out.
//! A bucket keyed by a token lives no longer than the token: one unused for
//! `TOKEN_LIFETIME` goes at the next sweep (every `SWEEP_EVERY` new
//! buckets), so a bot's years of interactions do not pile up in memory.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serenity::http::{LightMethod, Ratelimit, RatelimitInfo, Route};

use super::Endpoint;

/// Most attempts at one call; past them its last 429 goes back as is.
const ATTEMPTS: usize = 20;
/// Where the relay sends what no proxy takes.
pub const DISCORD: &str = "https://discord.com";
/// How long an interaction's token can be used (Discord: 15 minutes); a
/// token's bucket unused this long is dropped.
const TOKEN_LIFETIME: Duration = Duration::from_secs(15 * 60);
/// New buckets between two sweeps for expired ones.
const SWEEP_EVERY: usize = 64;

/// `endpoint` behind a relay that keeps the limits (in front of its proxy,
/// or of discord.com), and the relay's task; `endpoint` itself when it
/// asks for none.
pub async fn in_front(endpoint: &Endpoint) -> anyhow::Result<(Endpoint, Option<tokio::task::JoinHandle<()>>)> {
    if !endpoint.keep_limits {
        return Ok((endpoint.clone(), None));
    }
    let proxy = endpoint.proxy.as_deref().unwrap_or(DISCORD);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}", listener.local_addr()?);
    let mut client = reqwest::Client::builder();
    if endpoint.http2 && endpoint.proxy.is_some() {
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
    // serenity speaks HTTP/1.1 to the relay on loopback; the relay speaks
    // HTTP/2 onwards where the proxy (or discord.com) does.
    Ok((Endpoint { proxy: Some(url), http2: false, ..endpoint.clone() }, Some(task)))
}

struct Relay {
    upstream: String,
    client: reqwest::Client,
    /// Held while a global 429's wait runs.
    global: tokio::sync::Mutex<()>,
    routes: Mutex<Buckets>,
}

/// Each bucket's limits, by key (`route`), with when it was last used.
#[derive(Default)]
struct Buckets {
    by_key: HashMap<String, Bucket>,
    /// New buckets since the last sweep.
    added: usize,
}

struct Bucket {
    limit: Arc<tokio::sync::Mutex<Ratelimit>>,
    used: Instant,
}

impl Buckets {
    /// The bucket for `key`, made when missing, marked used at `now`.
    fn get(&mut self, key: &str, now: Instant) -> Arc<tokio::sync::Mutex<Ratelimit>> {
        if let Some(bucket) = self.by_key.get_mut(key) {
            bucket.used = now;
            return Arc::clone(&bucket.limit);
        }
        self.added += 1;
        if self.added >= SWEEP_EVERY {
            self.added = 0;
            self.sweep(now);
        }
        let limit: Arc<tokio::sync::Mutex<Ratelimit>> = Arc::default();
        self.by_key.insert(key.to_string(), Bucket { limit: Arc::clone(&limit), used: now });
        limit
    }

    /// Drops the token buckets whose token has expired, unless a call
    /// still holds one; route buckets stay.
    fn sweep(&mut self, now: Instant) {
        self.by_key.retain(|key, bucket| {
            !per_interaction(key)
                || Arc::strong_count(&bucket.limit) > 1
                || now.saturating_duration_since(bucket.used) < TOKEN_LIFETIME
        });
    }
}

/// Whether a bucket's key holds an interaction's (or a webhook's) token:
/// `/webhooks/{id}/{token}…` or `/interactions/{id}/{token}…`.
fn per_interaction(key: &str) -> bool {
    let mut segments = key.trim_start_matches('/').split('/');
    let (kind, token) = (segments.next(), segments.nth(1));
    matches!(kind, Some("webhooks" | "interactions")) && token.is_some_and(|t| !t.is_empty())
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
        routes.get(key, Instant::now())
    }
}

/// The bucket for a path below `/api/v10`: ids are placeholders except
/// the major parameter (the one after `channels`, `guilds`, `webhooks` or
/// `interactions`), and a webhook's or interaction's token stays, so each
/// interaction's follow-ups are a bucket of their own, as Discord has them.
fn route(path: &str) -> String {
    let mut key = String::new();
    let mut before = "";
    for segment in path.trim_start_matches('/').split('/') {
        let major = matches!(before, "channels" | "guilds" | "webhooks" | "interactions");
        let id = !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit());
        key.push('/');
        key.push_str(if id && !major { "{id}" } else { segment });
        before = segment;
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

#[cfg(all(test, feature = "fakes"))]
mod tests;
