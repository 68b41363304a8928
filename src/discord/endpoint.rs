//! Discord's Interactions Endpoint URL. With one set in the developer
//! portal, Discord POSTs every interaction here, signed with Ed25519,
//! instead of sending INTERACTION_CREATE on the gateway (which still
//! carries messages and thread events).
//!
//! An interaction's first response may be the HTTP response itself. The
//! `/soup` turns, refusals and buttons answer that way (`Data::
//! first_response`): no REST round trip, and interactions are read in
//! parallel instead of one after another by the gateway's shard task.
//! Anything else poise sends through the callback endpoint as usual, and
//! the request is answered 202 Accepted once the command has run (or after
//! `ANSWER_WITHIN`, inside Discord's 3 seconds).

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use ed25519_dalek::{Signature, VerifyingKey};
use hyper_util::server::conn::auto;
use poise::serenity_prelude as serenity;
use serenity::Framework as _;

use super::types::{Data, Error, Framework, Inbox};

/// The request headers Discord signs with.
pub const SIGNATURE_HEADER: &str = "x-signature-ed25519";
pub const TIMESTAMP_HEADER: &str = "x-signature-timestamp";
/// The route Discord is pointed at.
pub const PATH: &str = "/interactions";
/// How long a request waits for its first response before it is answered
/// 202 (the command responds through the callback endpoint instead).
const ANSWER_WITHIN: Duration = Duration::from_millis(2_500);
/// Interactions one HTTP/2 connection may carry at once.
const MAX_STREAMS: u32 = 4_096;
/// How far a request's signed timestamp may be from the bot's clock.
pub const MAX_AGE_SECS: u64 = 300;

impl Data {
    /// Sends an interaction's first response: as the HTTP response when
    /// Discord POSTed the interaction and is still waiting, otherwise
    /// through the acks' client (a connection of its own) or `http`.
    pub async fn first_response(
        &self,
        http: &serenity::Http,
        id: serenity::InteractionId,
        token: &str,
        response: serenity::CreateInteractionResponse,
    ) -> Result<(), Error> {
        let started = std::time::Instant::now();
        if !self.inbox.answer(id, &response) {
            let http = self.acks.as_deref().unwrap_or(http);
            http.create_interaction_response(id, token, &response, Vec::new()).await?;
        }
        crate::core::telemetry::telemetry().ack("discord", started.elapsed());
        Ok(())
    }
}

/// Reads the app's public key (hex, from the developer portal).
pub fn public_key(hex_key: &str) -> anyhow::Result<VerifyingKey> {
    let bytes: [u8; 32] = hex::decode(hex_key.trim())
        .ok()
        .and_then(|b| b.try_into().ok())
        .context("the Discord public key must be 64 hex digits (General Information → Public Key)")?;
    VerifyingKey::from_bytes(&bytes).context("the Discord public key is not a valid Ed25519 key")
}

/// Whether the request carries Discord's signature over timestamp + body,
/// made within `MAX_AGE_SECS` of `now` (Unix seconds): a recorded request
/// replayed later is refused.
pub fn verify(key: &VerifyingKey, headers: &HeaderMap, body: &[u8], now: u64) -> Result<(), &'static str> {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let (Some(signature), Some(timestamp)) = (header(SIGNATURE_HEADER), header(TIMESTAMP_HEADER)) else {
        return Err("missing request signature");
    };
    let made: u64 = timestamp.parse().map_err(|_| "malformed request timestamp")?;
    if made.abs_diff(now) > MAX_AGE_SECS {
        return Err("stale request timestamp");
    }
    let signature = hex::decode(signature)
        .ok()
        .and_then(|b| Signature::from_slice(&b).ok())
        .ok_or("malformed request signature")?;
    let mut signed = Vec::with_capacity(timestamp.len() + body.len());
    signed.extend_from_slice(timestamp.as_bytes());
    signed.extend_from_slice(body);
    key.verify_strict(&signed, &signature).map_err(|_| "invalid request signature")
}

/// Seconds since the Unix epoch, as in `X-Signature-Timestamp`.
pub fn unix_now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// Serves the endpoint on `listener` until the task is aborted: HTTP/1.1,
/// or HTTP/2 with up to `MAX_STREAMS` interactions in flight on one
/// connection (each request waits for its first response, so a burst on
/// one connection would otherwise queue behind hyper's default of 200).
pub fn serve(listener: tokio::net::TcpListener, inbox: Arc<Inbox>, key: VerifyingKey) -> tokio::task::JoinHandle<()> {
    let app = router(inbox, key);
    tokio::spawn(async move {
        loop {
            let mut stream = match listener.accept().await {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of file descriptors, say: wait, then go on accepting.
                    tracing::warn!(error = %e, "could not accept an Interactions Endpoint connection");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            };
            crate::bot::net::set_no_delay(&mut stream);
            let service = hyper_util::service::TowerToHyperService::new(app.clone());
            tokio::spawn(async move {
                let mut http = auto::Builder::new(hyper_util::rt::TokioExecutor::new());
                http.http2().max_concurrent_streams(MAX_STREAMS);
                if let Err(e) = http.serve_connection(hyper_util::rt::TokioIo::new(stream), service).await {
                    tracing::debug!(error = %e, "an Interactions Endpoint connection ended");
                }
            });
        }
    })
}

struct Endpoint {
    inbox: Arc<Inbox>,
    key: VerifyingKey,
}

/// The endpoint's routes (`POST /interactions`).
pub fn router(inbox: Arc<Inbox>, key: VerifyingKey) -> axum::Router {
    axum::Router::new().route(PATH, axum::routing::post(receive)).with_state(Arc::new(Endpoint { inbox, key }))
}

async fn receive(State(endpoint): State<Arc<Endpoint>>, headers: HeaderMap, body: Bytes) -> Response {
    if let Err(why) = verify(&endpoint.key, &headers, &body, unix_now()) {
        return (StatusCode::UNAUTHORIZED, why).into_response();
    }
    let interaction: serenity::Interaction = match serde_json::from_slice(&body) {
        Ok(interaction) => interaction,
        Err(e) => {
            tracing::warn!(error = %e, "a signed request was not an interaction");
            return (StatusCode::BAD_REQUEST, "not an interaction").into_response();
        }
    };
    if let serenity::Interaction::Ping(_) = interaction {
        return json(br#"{"type":1}"#.to_vec());
    }
    let inbox = &endpoint.inbox;
    let (Some(framework), Some(ctx)) = (inbox.framework.get(), inbox.context.get()) else {
        return (StatusCode::SERVICE_UNAVAILABLE, "the bot is still connecting").into_response();
    };
    let id = interaction.id();
    let Some(answer) = inbox.open(id) else {
        tracing::debug!(interaction = %id, "interaction delivered twice; the first delivery answers it");
        return StatusCode::ACCEPTED.into_response();
    };
    let (framework, ctx, waiting) = (framework.clone(), ctx.clone(), inbox.clone());
    tokio::spawn(async move {
        framework.dispatch(ctx, serenity::FullEvent::InteractionCreate { interaction }).await;
        waiting.close(id);
    });
    match tokio::time::timeout(ANSWER_WITHIN, answer).await {
        Ok(Ok(body)) => json(body),
        _ => {
            inbox.close(id);
            StatusCode::ACCEPTED.into_response()
        }
    }
}

fn json(body: Vec<u8>) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// poise's framework with a second owner: serenity dispatches gateway
/// events to it, and the endpoint dispatches the interactions it receives.
pub struct Shared {
    unstarted: Option<Framework>,
    live: Option<Arc<Framework>>,
    inbox: Arc<Inbox>,
}

impl Shared {
    pub fn new(framework: Framework, inbox: Arc<Inbox>) -> Shared {
        Shared { unstarted: Some(framework), live: None, inbox }
    }
}

#[async_trait::async_trait]
impl serenity::Framework for Shared {
    async fn init(&mut self, client: &serenity::Client) {
        if let Some(mut framework) = self.unstarted.take() {
            framework.init(client).await;
            let framework = Arc::new(framework);
            let _ = self.inbox.framework.set(framework.clone());
            self.live = Some(framework);
        }
    }

    async fn dispatch(&self, ctx: serenity::Context, event: serenity::FullEvent) {
        if let serenity::FullEvent::Ready { .. } = &event {
            self.inbox.connected(&ctx);
        }
        if let Some(framework) = &self.live {
            framework.dispatch(ctx, event).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_first_response_goes_to_the_waiting_request_once() {
        let inbox = Inbox::default();
        let id = serenity::InteractionId::new(7);
        let defer = serenity::CreateInteractionResponse::Defer(serenity::CreateInteractionResponseMessage::new());
        assert!(!inbox.answer(id, &defer), "nobody waits: the caller uses REST");
        let mut waiting = inbox.open(id).expect("first delivery");
        assert!(inbox.open(id).is_none(), "a second delivery of the same interaction is not dispatched");
        assert!(inbox.answer(id, &defer));
        let body: serde_json::Value = serde_json::from_slice(&waiting.try_recv().unwrap()).unwrap();
        assert_eq!(body["type"], 5);
        assert!(!inbox.answer(id, &defer), "answered once; later responses are follow-ups");
    }

    #[test]
    fn signatures_are_checked_over_timestamp_and_body() {
        use ed25519_dalek::Signer as _;
        let signer = ed25519_dalek::SigningKey::from_bytes(&[3; 32]);
        let key = public_key(&hex::encode(signer.verifying_key().to_bytes())).unwrap();
        let headers = |ts: &str, body: &[u8]| {
            let mut h = HeaderMap::new();
            let sig = signer.sign(&[ts.as_bytes(), body].concat());
            h.insert(SIGNATURE_HEADER, hex::encode(sig.to_bytes()).parse().unwrap());
            h.insert(TIMESTAMP_HEADER, ts.parse().unwrap());
            h
        };
        let body = br#"{"type":1}"#;
        assert_eq!(verify(&key, &headers("1000", body), body, 1_100), Ok(()));
        assert_eq!(verify(&key, &headers("1000", body), b"{}", 1_100), Err("invalid request signature"));
        assert_eq!(
            verify(&key, &headers("1000", body), body, 1_000 + MAX_AGE_SECS + 1),
            Err("stale request timestamp")
        );
        assert_eq!(verify(&key, &HeaderMap::new(), body, 1_000), Err("missing request signature"));
        assert!(public_key("abc").is_err());
    }
}
