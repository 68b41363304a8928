//! The fake's Socket Mode WebSocket: `hello` on connect, then whatever
//! frames a test sends to the newest connection; `{"envelope_id": …}`
//! acks are recorded.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use futures::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

use super::{Inner, lock, payloads};

pub(super) async fn serve(listener: tokio::net::TcpListener, inner: Arc<Inner>) {
    loop {
        let Ok((mut stream, _)) = listener.accept().await else { continue };
        crate::bot::net::set_no_delay(&mut stream);
        let inner = inner.clone();
        tokio::spawn(async move {
            if let Err(e) = connection(stream, inner).await {
                tracing::debug!(error = %e, "fake Socket Mode connection ended");
            }
        });
    }
}

async fn connection(stream: tokio::net::TcpStream, inner: Arc<Inner>) -> anyhow::Result<()> {
    let ws = tokio_tungstenite::accept_async(stream).await?;
    let (mut tx, mut rx) = ws.split();
    tx.send(Message::Text(payloads::hello().to_string())).await?;
    let (out, mut frames) = mpsc::unbounded_channel::<String>();
    lock(&inner.sockets).push(out);
    inner.opened.fetch_add(1, Ordering::Relaxed);
    loop {
        tokio::select! {
            frame = frames.recv() => {
                let Some(frame) = frame else { return Ok(()) };
                let disconnect = frame.contains(r#""type":"disconnect""#);
                tx.send(Message::Text(frame)).await?;
                if disconnect {
                    // Slack closes the connection soon after; stop routing here.
                    frames.close();
                }
            }
            message = rx.next() => {
                let Some(message) = message else { return Ok(()) };
                match message? {
                    Message::Text(text) => {
                        if let Ok(ack) = serde_json::from_str::<Value>(&text)
                            && let Some(id) = ack.get("envelope_id").and_then(Value::as_str)
                        {
                            inner.acked(id);
                        }
                    }
                    Message::Close(_) => return Ok(()),
                    _ => {}
                }
            }
        }
    }
}
