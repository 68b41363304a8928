//! Which database `[storage] database` names, and opening it: the pools
//! and settings per backend, and the migrations. Both backends run the
//! same files in `migrations/`; PostgreSQL takes its own copy of a file
//! only where the SQL must differ (`migrations/postgres/`, same version).

use std::borrow::Cow;
use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use include_dir::{Dir, include_dir};
use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::{ConnectOptions, Executor, SqlSafeStr};

use super::database::{Backend, Database};
use super::errors::db;
use super::sql::SqlStore;
use crate::core::store::StoreError;

/// The migration files, compiled in (`build.rs` watches the folder).
static MIGRATION_FILES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/migrations");

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
    let overrides = match backend {
        Backend::Postgres => migrations_in(MIGRATION_FILES.get_dir("postgres")),
        Backend::Sqlite => Vec::new(),
    };
    let migrations = migrations_in(Some(&MIGRATION_FILES))
        .into_iter()
        .map(|m| overrides.iter().find(|o| o.version == m.version).cloned().unwrap_or(m))
        .collect();
    Migrator::with_migrations(migrations)
}

/// The migrations of one folder (not its subfolders), read as
/// `sqlx::migrate!` reads them, so a database migrated by an earlier build
/// finds the same versions, descriptions and checksums: a file
/// `<version>_<description>.sql`, the description's `_` read as spaces,
/// the checksum taken over the whole file, no transaction when it starts
/// with `-- no-transaction`. Other files are passed over.
fn migrations_in(dir: Option<&'static Dir<'static>>) -> Vec<Migration> {
    let files = dir.into_iter().flat_map(|d| d.files());
    files.filter_map(|file| migration(file.path().file_name()?.to_str()?, file.contents_utf8()?)).collect()
}

/// One migration file, by its name and text; `None`: not a migration.
fn migration(name: &str, sql: &'static str) -> Option<Migration> {
    let (version, rest) = name.split_once('_')?;
    if !rest.ends_with(".sql") {
        return None;
    }
    let version: i64 = version.parse().ok()?;
    let kind = MigrationType::from_filename(rest);
    let description = rest.trim_end_matches(kind.suffix()).replace('_', " ");
    let no_tx = sql.starts_with("-- no-transaction");
    Some(Migration::new(version, Cow::Owned(description), kind, sql.into_sql_str(), no_tx))
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
        let shared = migrations_in(Some(&MIGRATION_FILES));
        let overrides = migrations_in(MIGRATION_FILES.get_dir("postgres"));
        assert!(!overrides.is_empty(), "PostgreSQL has its own copies of some files");
        for o in &overrides {
            let same = shared.iter().find(|m| m.version == o.version);
            assert!(same.is_some_and(|m| m.description == o.description), "{} {}", o.version, o.description);
        }
        let pg = migrator(Backend::Postgres);
        assert_eq!(pg.iter().count(), shared.len());
        assert!(pg.iter().any(|m| m.sql.as_str().contains("BIGSERIAL")));
        assert!(!migrator(Backend::Sqlite).iter().any(|m| m.sql.as_str().contains("BIGSERIAL")));
    }

    /// The migrations are read as `sqlx::migrate!` read them: a database
    /// an earlier build migrated must find each one unchanged (its
    /// version, description and checksum, the SHA-384 of the file), or
    /// it refuses to start.
    #[test]
    fn migrations_read_as_sqlx_reads_them() {
        let all = migrations_in(Some(&MIGRATION_FILES));
        let versions: Vec<i64> = migrator(Backend::Sqlite).iter().map(|m| m.version).collect();
        assert_eq!(versions, (1..=all.len() as i64).collect::<Vec<_>>(), "in order, none missing");
        let feed = all.iter().find(|m| m.version == 8).expect("0008_memory_feed.sql");
        assert_eq!(feed.description, "memory feed");
        assert_eq!(feed.migration_type, MigrationType::Simple);
        assert!(!feed.no_tx);
        let digest = <sha2::Sha384 as sha2::Digest>::digest(feed.sql.as_str().as_bytes());
        assert_eq!(&feed.checksum[..], &digest[..], "the checksum is the file's SHA-384");
        // What databases migrated so far hold in `_sqlx_migrations`: a
        // changed file would stop them at start.
        for backend in [Backend::Sqlite, Backend::Postgres] {
            let known: Vec<(i64, String)> = SQLITE_CHECKSUMS
                .iter()
                .map(|(v, c)| match (backend, POSTGRES_OWN.iter().find(|(o, _)| o == v)) {
                    (Backend::Postgres, Some((_, own))) => (*v, own.to_string()),
                    _ => (*v, c.to_string()),
                })
                .collect();
            let found: Vec<(i64, String)> = migrator(backend)
                .iter()
                .map(|m| (m.version, m.checksum.iter().take(8).map(|b| format!("{b:02x}")).collect()))
                .collect();
            assert_eq!(found, known, "{backend:?}: a migration file changed; add a new migration instead");
        }
        assert!(migration("README.md", "").is_none() && migration("x_y.sql", "").is_none());
    }

    /// Each migration's checksum (its first 8 bytes, hex), as the
    /// databases migrated so far recorded it: read back from
    /// `_sqlx_migrations` after `echoes db migrate` of the last build that
    /// used `sqlx::migrate!` (`e973c1e`), on SQLite and on PostgreSQL, with
    /// the same descriptions. New migrations are added here.
    const SQLITE_CHECKSUMS: &[(i64, &str)] = &[
        (1, "18e7dba48ed82776"),
        (2, "7ec106b103ef16ab"),
        (3, "25a4f59bcbb77615"),
        (4, "3703cb881ee5febb"),
        (5, "0d1cdb7c961aebdb"),
        (6, "0c2b0c5babfb5ef0"),
        (7, "f1cb01a9c392e1aa"),
        (8, "27c3bc0303125d55"),
    ];

    /// PostgreSQL's own copies (`migrations/postgres/`), in place of those versions.
    const POSTGRES_OWN: &[(i64, &str)] = &[(1, "1a67702b5cad4477"), (8, "b2829f14336251a9")];
}
