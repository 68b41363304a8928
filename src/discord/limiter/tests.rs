use std::future::Future;
use std::net::SocketAddr;

use serenity::http::{HttpBuilder, Ratelimiter};
use serenity::model::id::{ApplicationId, ChannelId};

use super::*;
use crate::bot::quota::Limit;
use crate::discord::fake::{CHANNEL, FakeDiscord, RateLimits};

#[test]
fn buckets_are_the_route_and_its_major_parameter_with_a_webhooks_token() {
    assert_eq!(route("/channels/20/messages"), "/channels/20/messages");
    assert_eq!(route("/channels/20/messages/77"), "/channels/20/messages/{id}");
    assert_eq!(route("/webhooks/2/tok9"), "/webhooks/2/tok9");
    assert_ne!(route("/webhooks/2/tok9"), route("/webhooks/2/tok8"), "one bucket per interaction");
    assert_eq!(route("/webhooks/2/tok9/messages/@original"), "/webhooks/2/tok9/messages/@original");
    assert_eq!(route("/webhooks/2/tok9/messages/31"), "/webhooks/2/tok9/messages/{id}");
    assert_eq!(route("/interactions/5/tok5/callback"), "/interactions/5/tok5/callback");
    assert_eq!(route("/applications/2/commands"), "/applications/{id}/commands");
}

#[test]
fn token_buckets_go_once_their_token_has_expired_and_route_buckets_stay() {
    let start = Instant::now();
    let mut buckets = Buckets::default();
    let channel = route("/channels/20/messages");
    let webhook = route("/webhooks/2");
    buckets.get(&channel, start);
    buckets.get(&webhook, start);
    let held = buckets.get(&route("/webhooks/2/held"), start);
    let tokens: Vec<String> = (0..300).map(|i| route(&format!("/webhooks/2/tok{i}/messages/@original"))).collect();
    for key in &tokens {
        buckets.get(key, start);
    }
    assert_eq!(buckets.by_key.len(), 303, "nothing has expired yet");
    buckets.get(&tokens[0], start + TOKEN_LIFETIME - Duration::from_secs(60));

    let later = start + TOKEN_LIFETIME + Duration::from_secs(1);
    for i in 0..SWEEP_EVERY {
        buckets.get(&route(&format!("/interactions/5/new{i}/callback")), later);
    }
    let kept = |key: &str| buckets.by_key.contains_key(key);
    assert!(tokens[1..].iter().all(|key| !kept(key)), "the expired tokens' buckets are gone");
    assert!(kept(&tokens[0]), "a token used within its lifetime stays");
    assert!(kept(&channel) && kept(&webhook), "route buckets stay");
    assert!(kept(&route("/webhooks/2/held")), "a bucket a call holds stays");
    assert!(buckets.by_key.len() <= 4 + SWEEP_EVERY, "{} buckets", buckets.by_key.len());
    drop(held);
}

/// serenity 0.12 keys every interaction's follow-ups by the application
/// alone: two games' follow-ups share one bucket, which the relay keeps
/// apart. When this fails, serenity fixed it: the relay's token keying
/// can go.
#[test]
fn serenity_puts_every_interactions_follow_ups_in_one_bucket() {
    let app = ApplicationId::new(2);
    let a = Route::WebhookFollowupMessages { application_id: app, token: "interaction-a" };
    let b = Route::WebhookFollowupMessages { application_id: app, token: "interaction-b" };
    assert_eq!(a.ratelimiting_bucket(), b.ratelimiting_bucket(), "serenity's gap");
    assert_ne!(route("/webhooks/2/interaction-a"), route("/webhooks/2/interaction-b"), "ours");
}

/// The fake behind TLS as `discord.com` (a test CA's certificate), and a
/// client that trusts that CA and finds `discord.com` there: serenity's own
/// limiter builds every request for https://discord.com, so this is how it
/// reaches the fake.
async fn as_discord_com(fake: &FakeDiscord) -> reqwest::Client {
    use tokio_rustls::rustls;
    use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
    let tls = |name: &str| std::fs::read(format!("{}/tests/data/tls/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(
            vec![CertificateDer::from(tls("discord.com.der"))],
            PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(tls("discord.com.key.der"))),
        )
        .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let front: SocketAddr = listener.local_addr().unwrap();
    let upstream = fake.base_url().trim_start_matches("http://").to_string();
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let (acceptor, upstream) = (acceptor.clone(), upstream.clone());
            tokio::spawn(async move {
                let Ok(mut tls) = acceptor.accept(tcp).await else { return };
                let Ok(mut plain) = tokio::net::TcpStream::connect(&upstream).await else { return };
                let _ = tokio::io::copy_bidirectional(&mut tls, &mut plain).await;
            });
        }
    });
    reqwest::Client::builder()
        .use_rustls_tls()
        .add_root_certificate(reqwest::Certificate::from_der(&tls("ca.der")).unwrap())
        .resolve("discord.com", front)
        .build()
        .unwrap()
}

/// A fake allowing 5 calls a second in all (Discord's global limit, made small).
async fn globally_limited() -> FakeDiscord {
    let limits = RateLimits { per_route: None, global: Some(Limit::new(5, Duration::from_secs(1))) };
    FakeDiscord::start_limited(limits).await.unwrap()
}

fn post() -> serenity::http::Request<'static> {
    let route = Route::ChannelMessages { channel_id: ChannelId::new(CHANNEL) };
    serenity::http::Request::new(route, LightMethod::Post).body(Some(br#"{"content":"a reply"}"#.to_vec()))
}

/// Ten posts started 100 ms apart, as a busy bot's replies come: the 6th
/// meets the global limit (a 429 with its wait); a client that keeps the
/// limit sends nothing more until the wait ends. Returns the calls the
/// fake saw come before an announced wait ended.
async fn ten_posts<F: Future<Output = ()> + Send + 'static>(fake: &FakeDiscord, send: impl Fn() -> F) -> u64 {
    let mut calls = Vec::new();
    for i in 0..10u64 {
        let call = send();
        calls.push(tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(100 * i)).await;
            call.await;
        }));
    }
    for call in calls {
        call.await.unwrap();
    }
    let tally = fake.rate_limits();
    assert!(tally.refused >= 1, "the global limit was met: {tally:?}");
    tally.violations
}

/// serenity's own limiter lets calls go on during a global 429's wait
/// (it drops its global lock before sleeping); through the relay none
/// does. When the first half fails, serenity fixed it.
#[tokio::test]
async fn a_global_wait_holds_every_call_in_the_relay_but_not_in_serenity() {
    let fake = globally_limited().await;
    let serenity = Arc::new(Ratelimiter::new(as_discord_com(&fake).await, "Bot fake-token"));
    let jumped = ten_posts(&fake, || {
        let serenity = serenity.clone();
        async move {
            serenity.perform(post()).await.unwrap();
        }
    })
    .await;
    assert!(jumped >= 1, "serenity sent {jumped} calls during a global wait it had been told of");

    let fake = globally_limited().await;
    let (endpoint, relay) = in_front(&fake.endpoint()).await.unwrap();
    let proxy = endpoint.proxy.clone().unwrap();
    let http = Arc::new(HttpBuilder::new("fake-token").proxy(proxy).ratelimiter_disabled(true).build());
    let jumped = ten_posts(&fake, || {
        let http = http.clone();
        async move {
            let response = http.request(post()).await.unwrap();
            assert!(response.status().is_success(), "every post got through: {}", response.status());
        }
    })
    .await;
    assert_eq!(jumped, 0, "the relay held every call while the global wait ran");
    relay.unwrap().abort();
}
