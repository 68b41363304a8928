//! Sockets for the HTTP and WebSocket servers around the bots: the Slack
//! Events API endpoint and the offline fakes of Discord and Slack. Their
//! replies are small and latency-bound, so Nagle's algorithm is off: with it
//! on, a reply written in two pieces waits for the peer's delayed ACK
//! (40 ms on Linux) before its second piece leaves.

use std::net::SocketAddr;

use axum::serve::{Listener, ListenerExt};
use tokio::net::{TcpListener, TcpStream};

/// `listener` for `axum::serve`, with TCP_NODELAY on every connection.
pub fn no_delay(listener: TcpListener) -> impl Listener<Io = TcpStream, Addr = SocketAddr> {
    listener.tap_io(set_no_delay as fn(&mut TcpStream))
}

/// Turns Nagle's algorithm off on an accepted connection.
pub fn set_no_delay(stream: &mut TcpStream) {
    if let Err(e) = stream.set_nodelay(true) {
        tracing::debug!(error = %e, "could not set TCP_NODELAY");
    }
}
