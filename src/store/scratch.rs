//! Throwaway PostgreSQL databases for tests and benchmarks: each is made
//! on a server with a name of its own and dropped when the value is
//! dropped (also when a test panics), so runs never see each other's rows.
//! The server is `$ECHOES_TEST_POSTGRES`, by default the local one.

// The only dynamic SQL names a database this module made up (letters,
// digits and underscores).
use sqlx::postgres::PgConnection;
use sqlx::{AssertSqlSafe, Connection};

use super::open::Database;
use crate::core::store::StoreError;

pub const SERVER_VAR: &str = "ECHOES_TEST_POSTGRES";
pub const DEFAULT_SERVER: &str = "postgres://postgres@127.0.0.1:5432/test";

/// A database created for one test or benchmark run.
pub struct ScratchDb {
    /// Any database on the server, to create and drop this one from.
    admin: String,
    name: String,
    url: String,
}

impl ScratchDb {
    /// The server tests use: `$ECHOES_TEST_POSTGRES` or the local one.
    pub fn server() -> String {
        std::env::var(SERVER_VAR).ok().filter(|s| !s.is_empty()).unwrap_or_else(|| DEFAULT_SERVER.to_string())
    }

    /// Creates an empty database on `server()`.
    pub async fn create() -> Result<ScratchDb, StoreError> {
        ScratchDb::create_on(&ScratchDb::server()).await
    }

    pub async fn create_on(server: &str) -> Result<ScratchDb, StoreError> {
        let name = format!("echoes_scratch_{}", uuid::Uuid::new_v4().simple());
        let url = with_database(server, &name)
            .ok_or_else(|| StoreError::Database(format!("{SERVER_VAR}: not a postgres:// URL: {server:?}")))?;
        let mut admin = PgConnection::connect(server).await.map_err(|e| {
            StoreError::Database(format!(
                "PostgreSQL is not reachable at {} ({e}): start it, or point {SERVER_VAR} at a server",
                Database::Postgres(server.to_string())
            ))
        })?;
        sqlx::query(AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&mut admin)
            .await
            .map_err(|e| StoreError::Database(format!("CREATE DATABASE {name}: {e}")))?;
        let _ = admin.close().await;
        Ok(ScratchDb { admin: server.to_string(), name, url })
    }

    /// The database, as `[storage] database` would name it.
    pub fn database(&self) -> Database {
        Database::Postgres(self.url.clone())
    }

    pub fn url(&self) -> &str {
        &self.url
    }
}

/// `server` (`postgres://who@host:port/db?options`) naming `database` instead.
fn with_database(server: &str, database: &str) -> Option<String> {
    let (scheme, rest) = server.split_once("://")?;
    let (rest, options) = match rest.split_once('?') {
        Some((rest, options)) => (rest, format!("?{options}")),
        None => (rest, String::new()),
    };
    let authority = rest.split('/').next()?;
    Some(format!("{scheme}://{authority}/{database}{options}"))
}

impl Drop for ScratchDb {
    /// Drops the database, closing any connection still open to it. Runs
    /// on a thread of its own: a drop may happen inside a runtime.
    fn drop(&mut self) {
        let (admin, name) = (self.admin.clone(), self.name.clone());
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
            runtime.block_on(async {
                let mut conn = PgConnection::connect(&admin).await?;
                sqlx::query(AssertSqlSafe(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")))
                    .execute(&mut conn)
                    .await?;
                conn.close().await?;
                anyhow::Ok(())
            })
        })
        .join();
        if let Ok(Err(e)) = dropped {
            tracing::warn!(database = %self.name, error = %e, "could not drop a scratch database");
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_scratch_url_keeps_the_server_and_names_its_database() {
        let url = super::with_database("postgres://postgres@127.0.0.1:5432/test?sslmode=disable", "x1");
        assert_eq!(url.as_deref(), Some("postgres://postgres@127.0.0.1:5432/x1?sslmode=disable"));
        assert_eq!(super::with_database("postgres://h", "x1").as_deref(), Some("postgres://h/x1"));
        assert_eq!(super::with_database("not a url", "x1"), None);
    }
}
