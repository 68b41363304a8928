//! Which database `[storage] database` names, and opening it: the pools
//! and settings per backend, and the migrations. Both backends run the
//! same files in `migrations/`; PostgreSQL takes its own copy of a file
//! only where the SQL must differ (`migrations/postgres/`, same version).

use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::migrate::Migrator;
use sqlx::{ConnectOptions, Executor};

use super::database::{Backend, Database};
use super::errors::db;
use super::sql::SqlStore;
use crate::core::store::StoreError;

static MIGRATIONS: Migrator = sqlx::migrate!("./migrations");
static POSTGRES_OVERRIDES: Migrator = sqlx::migrate!("./migrations/postgres");

/// Connections in SQLite's read pool.
const SQLITE_READERS: u32 = 4;
/// Connections to PostgreSQL, per process.
const POSTGRES_CONNECTIONS: u32 = 16;

impl SqlStore {
    /// Opens the database a setting names and brings its schema up to date.
    pub async fn connect(database: &Database) -> Result<SqlStore, StoreError> {
        match database {
            Database::Sqlite(path) => SqlStore::open(path).await,
            Database::Postgres(url) => SqlStore::postgres(url).await,
        }
    }

    /// Opens (creating if needed) a SQLite database file and runs migrations.
    pub async fn open(path: &Path) -> Result<SqlStore, StoreError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| StoreError::Database(format!("{}: {e}", dir.display())))?;
        }
        let name = path.to_str().ok_or_else(|| StoreError::Database(format!("{}: not UTF-8", path.display())))?;
        // The URL's path is percent-decoded: escape what would end it early.
        let escaped = name.replace('%', "%25").replace('?', "%3F").replace('#', "%23");
        SqlStore::sqlite(&format!("sqlite:{escaped}?mode=rwc")).await
    }

    /// An in-memory SQLite database shared by both pools (tests, benchmarks).
    pub async fn in_memory() -> Result<SqlStore, StoreError> {
        SqlStore::sqlite(&format!("sqlite:file:echoes-{}?mode=memory&cache=shared", uuid::Uuid::new_v4().simple()))
            .await
    }

    async fn sqlite(url: &str) -> Result<SqlStore, StoreError> {
        sqlx::any::install_default_drivers();
        let options = AnyConnectOptions::from_str(url).map_err(db)?.disable_statement_logging();
        let pool = |connections: u32| {
            AnyPoolOptions::new().min_connections(connections).max_connections(connections).after_connect(|conn, _| {
                Box::pin(async move {
                    for pragma in [
                        "PRAGMA journal_mode = WAL",
                        "PRAGMA synchronous = FULL",
                        "PRAGMA foreign_keys = ON",
                        "PRAGMA busy_timeout = 5000",
                    ] {
                        conn.execute(pragma).await?;
                    }
                    Ok(())
                })
            })
        };
        let writer = pool(1).connect_with(options.clone()).await.map_err(db)?;
        let migrated = migrate(&writer, Backend::Sqlite).await?;
        // Every reader is opened now, on the opener's runtime: each
        // connection has a worker thread, which inherits the priority of the
        // thread that starts it (the bots open the store on their game
        // runtime), and a connection opened later by whichever task needed
        // it first would not.
        let reader = pool(SQLITE_READERS).connect_with(options).await.map_err(db)?;
        Ok(SqlStore { writer, reader, backend: Backend::Sqlite, migrated, listen_url: None })
    }

    async fn postgres(url: &str) -> Result<SqlStore, StoreError> {
        sqlx::any::install_default_drivers();
        let options = AnyConnectOptions::from_str(url).map_err(db)?.disable_statement_logging();
        let pool = AnyPoolOptions::new()
            .max_connections(POSTGRES_CONNECTIONS)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options)
            .await
            .map_err(|e| StoreError::Database(format!("{}: {e}", Database::Postgres(url.to_string()))))?;
        let migrated = migrate(&pool, Backend::Postgres).await?;
        Ok(SqlStore {
            writer: pool.clone(),
            reader: pool,
            backend: Backend::Postgres,
            migrated,
            listen_url: Some(url.to_string()),
        })
    }
}

async fn migrate(pool: &sqlx::AnyPool, backend: Backend) -> Result<Vec<i64>, StoreError> {
    let migrator = migrator(backend);
    // No migrations table yet (a new database) reads as none applied. The
    // run itself takes the migrations lock, so processes starting together
    // on one PostgreSQL apply each migration once.
    let applied: Vec<i64> =
        sqlx::query_scalar("SELECT version FROM _sqlx_migrations").fetch_all(pool).await.unwrap_or_default();
    migrator.run(pool).await.map_err(|e| StoreError::Database(format!("migrations: {e}")))?;
    Ok(migrator.iter().map(|m| m.version).filter(|v| !applied.contains(v)).collect())
}

/// The migrations for a backend: the shared files, with PostgreSQL's own
/// copy in place of each file it overrides.
pub fn migrator(backend: Backend) -> Migrator {
    let migrations = MIGRATIONS
        .iter()
        .map(|m| match backend {
            Backend::Postgres => POSTGRES_OVERRIDES.iter().find(|o| o.version == m.version).unwrap_or(m).clone(),
            Backend::Sqlite => m.clone(),
        })
        .collect();
    Migrator::with_migrations(migrations)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_setting_names_a_file_or_a_server() {
        assert_eq!(Database::parse(".echoes/echoes.db"), Database::Sqlite(".echoes/echoes.db".into()));
        assert_eq!(Database::parse("sqlite:/tmp/a.db"), Database::Sqlite("/tmp/a.db".into()));
        let pg = Database::parse("postgres://bot:hunter2@db:5432/echoes");
        assert_eq!(pg.backend(), Backend::Postgres);
        assert_eq!(pg.to_string(), "postgres://bot:***@db:5432/echoes", "the password never reaches a log");
    }

    #[test]
    fn every_postgres_override_replaces_a_shared_migration() {
        for o in POSTGRES_OVERRIDES.iter() {
            let shared = MIGRATIONS.iter().find(|m| m.version == o.version);
            assert!(shared.is_some_and(|m| m.description == o.description), "{} {}", o.version, o.description);
        }
        let pg = migrator(Backend::Postgres);
        assert_eq!(pg.iter().count(), MIGRATIONS.iter().count());
        assert!(pg.iter().any(|m| m.sql.as_str().contains("BIGSERIAL")));
    }
}
