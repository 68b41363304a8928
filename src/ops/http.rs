//! The operator's endpoint of a bot process (`[ops] bind`): `GET /metrics`
//! (the Prometheus text format, from `core::telemetry`) and `GET /healthz`
//! (200 when the games' database answers, 503 with the reason otherwise).

use std::sync::Arc;

use anyhow::Context;
use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;

use crate::core::store::Store;
use crate::core::telemetry::telemetry;

const OPENMETRICS: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

pub fn router(store: Arc<dyn Store>) -> Router {
    Router::new().route("/metrics", get(metrics)).route("/healthz", get(healthz)).with_state(store)
}

/// Serves the endpoint on `bind` in the background; returns the address
/// it listens on (`127.0.0.1:0` picks a port).
pub async fn start(bind: &str, store: Arc<dyn Store>) -> anyhow::Result<std::net::SocketAddr> {
    let listener = tokio::net::TcpListener::bind(bind).await.with_context(|| format!("[ops] bind {bind}"))?;
    let addr = listener.local_addr()?;
    tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, router(store)).await {
            tracing::error!(error = %e, "the ops endpoint stopped");
        }
    });
    tracing::info!(%addr, "ops endpoint: GET /metrics, GET /healthz");
    Ok(addr)
}

async fn metrics() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, OPENMETRICS)], telemetry().encode())
}

async fn healthz(State(store): State<Arc<dyn Store>>) -> impl IntoResponse {
    match store.ping().await {
        Ok(()) => (StatusCode::OK, "ok\n".to_string()),
        Err(e) => {
            telemetry().error("store");
            (StatusCode::SERVICE_UNAVAILABLE, format!("database: {e}\n"))
        }
    }
}
