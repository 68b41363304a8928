//! The fake's WebSocket gateway: op 10 Hello, op 2 Identify (with its
//! `shard: [id, total]`) → READY and a GUILD_CREATE per server on that
//! shard, op 1 heartbeats answered with op 11, op 6 Resume refused with op 9
//! (the bot identifies again), then every dispatched event of the
//! connection's servers (a server is on shard `(id >> 22) % total`).

use std::sync::Arc;

use futures::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::sync::broadcast;
use tokio_tungstenite::tungstenite::Message;

use super::payloads::{self, Who};
use super::{APP, CHANNEL, Dispatch, Inner, lock};

const HEARTBEAT_MS: u64 = 41_250;
/// Most frames written per flush.
const BATCH: usize = 64;

pub(super) async fn serve(listener: tokio::net::TcpListener, inner: Arc<Inner>) {
    loop {
        let Ok((mut stream, _)) = listener.accept().await else { continue };
        crate::bot::net::set_no_delay(&mut stream);
        let inner = inner.clone();
        tokio::spawn(async move {
            if let Err(e) = session(stream, inner).await {
                tracing::debug!(error = %e, "fake gateway connection ended");
            }
        });
    }
}

async fn session(stream: tokio::net::TcpStream, inner: Arc<Inner>) -> anyhow::Result<()> {
    let ws = tokio_tungstenite::accept_async(stream).await?;
    let (mut tx, mut rx) = ws.split();
    let mut events = inner.events.subscribe();
    tx.send(text(json!({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_MS}}))).await?;
    let mut identified = false;
    let mut shard: Option<(u64, u64)> = None;
    let mut seq = 0u64;
    loop {
        tokio::select! {
            frame = rx.next() => {
                let Some(frame) = frame else { return Ok(()) };
                let Message::Text(frame) = frame? else { continue };
                let frame: Value = serde_json::from_str(&frame)?;
                match frame["op"].as_u64() {
                    Some(1) => tx.send(text(json!({"op": 11}))).await?,
                    Some(2) => {
                        let asked = &frame["d"]["shard"];
                        shard = asked[0].as_u64().zip(asked[1].as_u64());
                        lock(&inner.identified).push(shard.unwrap_or((0, 1)));
                        for (t, d) in hello_events(&inner, shard)? {
                            seq += 1;
                            tx.send(dispatch(seq, &t, &d.to_string())).await?;
                        }
                        identified = true;
                        inner.ready.send_modify(|n| *n += 1);
                    }
                    Some(6) => tx.send(text(json!({"op": 9, "d": false}))).await?,
                    _ => {}
                }
            }
            event = events.recv(), if identified => match event {
                Ok(first) => write_batch(&mut tx, &inner, &mut events, first, &mut seq, shard).await?,
                Err(tokio::sync::broadcast::error::RecvError::Lagged(n)) => {
                    tracing::warn!(missed = n, "fake gateway dropped events for a slow bot");
                }
                Err(_) => return Ok(()),
            },
        }
    }
}

/// Writes `first` and whatever else is already queued (up to `BATCH`
/// frames) with one flush, like a busy gateway fills its socket, then notes
/// when each interaction went out.
async fn write_batch<S>(
    tx: &mut S,
    inner: &Inner,
    events: &mut broadcast::Receiver<Arc<Dispatch>>,
    first: Arc<Dispatch>,
    seq: &mut u64,
    shard: Option<(u64, u64)>,
) -> anyhow::Result<()>
where
    S: futures::Sink<Message, Error = tokio_tungstenite::tungstenite::Error> + Unpin,
{
    let mut batch = vec![first];
    while batch.len() < BATCH {
        match events.try_recv() {
            Ok(next) => batch.push(next),
            Err(broadcast::error::TryRecvError::Lagged(n)) => {
                tracing::warn!(missed = n, "fake gateway dropped events for a slow bot");
            }
            Err(_) => break,
        }
    }
    let ours = inner.guilds_on(shard);
    batch.retain(|e| e.guild.is_none_or(|g| ours.contains(&g)));
    for event in &batch {
        *seq += 1;
        tx.feed(dispatch(*seq, &event.event, &event.d)).await?;
    }
    tx.flush().await?;
    let now = std::time::Instant::now();
    let mut on_wire = lock(&inner.on_wire);
    for id in batch.iter().filter_map(|e| e.interaction) {
        on_wire.entry(id).or_insert(now);
    }
    Ok(())
}

fn text(value: Value) -> Message {
    Message::Text(value.to_string())
}

/// An op 0 frame; `d` is already JSON.
fn dispatch(seq: u64, event: &str, d: &str) -> Message {
    Message::Text(format!(r#"{{"op":0,"s":{seq},"t":{},"d":{d}}}"#, Value::String(event.to_string())))
}

/// READY, then a GUILD_CREATE with each server's channels and members,
/// for the servers on `shard`.
fn hello_events(inner: &Inner, shard: Option<(u64, u64)>) -> anyhow::Result<Vec<(String, Value)>> {
    let guilds = inner.guilds_on(shard);
    let ready = payloads::ready(&inner.bot, APP, &guilds, shard.unwrap_or((0, 1)), &inner.gateway)?;
    let members = lock(&inner.members).clone();
    let mut all: Vec<&Who> = members.iter().collect();
    all.push(&inner.bot);
    let mut events = vec![("READY".to_string(), ready)];
    for id in guilds {
        let id_text = id.to_string();
        let in_guild = |c: &&Value| c["type"].as_u64() == Some(0) && c["guild_id"].as_str() == Some(id_text.as_str());
        let channels: Vec<Value> = lock(&inner.channels).values().filter(in_guild).cloned().collect();
        let guild = payloads::guild(id, all.first().map_or(CHANNEL, |m| m.id), &channels, &all)?;
        events.push(("GUILD_CREATE".into(), guild));
    }
    Ok(events)
}
