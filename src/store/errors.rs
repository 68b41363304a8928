//! A database error as the store's port names it: the database away (not
//! answering, restarting, a connection cut: the input may be sent again
//! later) or a statement refused.

use crate::core::store::StoreError;

pub(super) fn db(e: impl std::fmt::Display + 'static) -> StoreError {
    let away = (&e as &dyn std::any::Any).downcast_ref::<sqlx::Error>().is_some_and(is_unavailable);
    if away { StoreError::Unavailable(e.to_string()) } else { StoreError::Database(e.to_string()) }
}

/// Whether `e` says the database is away (not answering, restarting,
/// refusing connections, a connection cut) rather than that it refused
/// this statement: the caller's input may simply be sent again later.
fn is_unavailable(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::Protocol(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => true,
        // SQLSTATE class 08 (connection exception) and 57P (operator
        // intervention: the server shutting down or starting up).
        sqlx::Error::Database(d) => d.code().is_some_and(|c| c.starts_with("08") || c.starts_with("57P")),
        _ => false,
    }
}
