//! The operator's endpoint of a bot process (`[ops] bind`): `GET /metrics`
//! (the Prometheus text format, from `core::telemetry`), `GET /livez` (200
//! while the process serves; nothing else is asked), `GET /healthz` (200
//! while the games' database answers) and `GET /readyz` (200 once the
//! database answers, the knowledge index is not mid-sync and the
//! configured model answers), and the client side of it that
//! `echoes healthcheck` runs.
//!
//! A 503's body says what is not ready, never why: the cause (a database
//! or provider error, which may name hosts or users) goes to the log and
//! the `errors` counter only.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;

use crate::app::App;
use crate::core::llm::{LlmClient, RoleModels};
use crate::core::store::Store;
use crate::core::telemetry::telemetry;

const OPENMETRICS: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";
/// How long `/readyz` waits for a model's health check.
const MODEL_TIMEOUT: Duration = Duration::from_secs(2);
/// How long a model's answer is kept, so probes do not hammer the provider.
const MODEL_KEPT: Duration = Duration::from_secs(5);
/// How long `echoes healthcheck` waits for the endpoint.
const HEALTHCHECK_TIMEOUT: Duration = Duration::from_secs(5);

/// Whether a part of the process can serve, asked without waiting.
pub type ReadyFlag = Arc<dyn Fn() -> bool + Send + Sync>;

/// What the probes ask.
#[derive(Clone)]
pub struct Probes {
    store: Arc<dyn Store>,
    /// Whether the knowledge index can serve; `None`: the process plays
    /// without one (the vector store could not be opened), which is ready.
    knowledge: Option<ReadyFlag>,
    /// The configured models; `None`: not asked.
    models: Option<Arc<ModelCheck>>,
}

impl Probes {
    /// Probes that ask the database only.
    pub fn new(store: Arc<dyn Store>) -> Probes {
        Probes { store, knowledge: None, models: None }
    }

    /// `/readyz` also waits until `ready` says the knowledge index can serve.
    pub fn knowledge(self, ready: impl Fn() -> bool + Send + Sync + 'static) -> Probes {
        Probes { knowledge: Some(Arc::new(ready)), ..self }
    }

    /// `/readyz` also waits until each of the models answers its health check.
    pub fn models(self, models: RoleModels) -> Probes {
        let check = ModelCheck { models, last: tokio::sync::Mutex::new(None) };
        Probes { models: Some(Arc::new(check)), ..self }
    }

    /// What a bot process's endpoint asks: its database, its knowledge
    /// index (synced in the background from start-up) and its models.
    pub fn of(app: &App) -> Probes {
        let probes = Probes::new(app.store.clone()).models(app.models.clone());
        match &app.vectors {
            Some(vectors) => {
                let knowledge = vectors.knowledge.clone();
                probes.knowledge(move || knowledge.is_synced())
            }
            None => probes,
        }
    }

    /// Whether the database answers; why not goes to the log.
    async fn database_answers(&self) -> bool {
        match self.store.ping().await {
            Ok(()) => true,
            Err(e) => {
                tracing::warn!(error = %e, "the database does not answer the ops endpoint's probe");
                telemetry().error("store");
                false
            }
        }
    }

    /// What is not ready, as `/readyz` says it; `None` when all is.
    async fn not_ready(&self) -> Option<&'static str> {
        if !self.database_answers().await {
            return Some("not ready: database\n");
        }
        if self.knowledge.as_ref().is_some_and(|ready| !ready()) {
            return Some("not ready: knowledge\n");
        }
        if let Some(models) = &self.models
            && !models.answers().await
        {
            return Some("not ready: model\n");
        }
        None
    }
}

/// The models' health checks, each answer kept for `MODEL_KEPT`.
struct ModelCheck {
    models: RoleModels,
    /// When the last check ran and whether every model answered. Held
    /// while a check runs, so probes that come meanwhile wait for it
    /// instead of asking again.
    last: tokio::sync::Mutex<Option<(Instant, bool)>>,
}

impl ModelCheck {
    async fn answers(&self) -> bool {
        let mut last = self.last.lock().await;
        if let Some((at, answered)) = *last
            && at.elapsed() < MODEL_KEPT
        {
            return answered;
        }
        let answered = self.ask().await;
        *last = Some((Instant::now(), answered));
        answered
    }

    /// Each distinct model's health check (no generation), `MODEL_TIMEOUT` each.
    async fn ask(&self) -> bool {
        let RoleModels { judge, narrator } = &self.models;
        let mut clients = vec![judge];
        if !Arc::ptr_eq(judge, narrator) {
            clients.push(narrator);
        }
        for client in clients {
            if !answers_in_time(client.as_ref()).await {
                telemetry().error("model");
                return false;
            }
        }
        true
    }
}

async fn answers_in_time(client: &dyn LlmClient) -> bool {
    match tokio::time::timeout(MODEL_TIMEOUT, client.health()).await {
        Ok(Ok(())) => true,
        Ok(Err(e)) => {
            tracing::warn!(model = %client.describe(), error = %e, "the model does not answer the ops endpoint's probe");
            false
        }
        Err(_) => {
            tracing::warn!(model = %client.describe(), timeout = ?MODEL_TIMEOUT, "the model's health check timed out");
            false
        }
    }
}

pub fn router(probes: Probes) -> Router {
    Router::new()
        .route("/metrics", get(metrics))
        .route("/livez", get(livez))
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .with_state(probes)
}

/// Serves the endpoint on `bind` in the background; returns the address
/// it listens on (`127.0.0.1:0` picks a port).
pub async fn start(bind: &str, probes: Probes) -> anyhow::Result<SocketAddr> {
    let listener = tokio::net::TcpListener::bind(bind).await.with_context(|| format!("[ops] bind {bind}"))?;
    let addr = listener.local_addr()?;
    tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, router(probes)).await {
            tracing::error!(error = %e, "the ops endpoint stopped");
        }
    });
    tracing::info!(%addr, "ops endpoint: GET /metrics, GET /livez, GET /healthz, GET /readyz");
    Ok(addr)
}

async fn metrics() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, OPENMETRICS)], telemetry().encode())
}

async fn livez() -> &'static str {
    "ok\n"
}

async fn healthz(State(probes): State<Probes>) -> (StatusCode, &'static str) {
    if probes.database_answers().await {
        (StatusCode::OK, "ok\n")
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, "database unavailable\n")
    }
}

async fn readyz(State(probes): State<Probes>) -> (StatusCode, &'static str) {
    match probes.not_ready().await {
        None => (StatusCode::OK, "ready\n"),
        Some(what) => (StatusCode::SERVICE_UNAVAILABLE, what),
    }
}

/// The URL of `path` on the endpoint bound at `bind`, as a prober on the
/// same machine asks it: an unspecified address (`0.0.0.0`, `[::]`) is
/// asked on loopback, a host name as it is.
pub fn local_url(bind: &str, path: &str) -> anyhow::Result<String> {
    let bind = bind.trim();
    anyhow::ensure!(
        !bind.is_empty(),
        "[ops] bind is not set, so nothing serves {path}: set it (e.g. ECHOES__OPS__BIND=127.0.0.1:9464) or pass --url"
    );
    let host = match bind.parse::<SocketAddr>() {
        Ok(addr) if addr.ip().is_unspecified() => {
            let loopback: IpAddr = if addr.is_ipv4() { Ipv4Addr::LOCALHOST.into() } else { Ipv6Addr::LOCALHOST.into() };
            SocketAddr::new(loopback, addr.port()).to_string()
        }
        Ok(addr) => addr.to_string(),
        Err(_) => bind.to_string(),
    };
    Ok(format!("http://{host}{path}"))
}

/// `echoes healthcheck`: GETs `url` within `HEALTHCHECK_TIMEOUT`; the line
/// to print on a 200, else an error saying what answered.
pub async fn healthcheck(url: &str) -> anyhow::Result<String> {
    let client = reqwest::Client::builder().timeout(HEALTHCHECK_TIMEOUT).build()?;
    let response = client.get(url).send().await.with_context(|| format!("{url} did not answer"))?;
    let status = response.status().as_u16();
    let body = response.text().await.unwrap_or_default();
    let said = body.lines().next().unwrap_or_default().trim().to_string();
    anyhow::ensure!(status == 200, "{url} answered HTTP {status}: {said}");
    Ok(format!("{url}: {said}"))
}

#[cfg(test)]
mod tests;
