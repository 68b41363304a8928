//! Throwaway PostgreSQL databases for tests and benchmarks: each is made
//! on a server with a name of its own and dropped when the value is
//! dropped (also when a test panics), so runs never see each other's rows.
//! The server is `$ECHOES_TEST_POSTGRES`, by default the local one.

// The only dynamic SQL names a database this module made up (letters,
// digits and underscores).
use sqlx::postgres::PgConnection;
use sqlx::{AssertSqlSafe, Connection};

use super::database::Database;
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

/// A PostgreSQL server of a test's or a benchmark's own, which it may stop
/// and start again (the database going away mid-game): `initdb` into a
/// temporary directory, trust auth on 127.0.0.1 and a free port (kept
/// across restarts), stopped and removed when dropped. The binaries are
/// `$ECHOES_TEST_PG_BIN` (scripts/test.sh sets it), else the newest of
/// Debian's `/usr/lib/postgresql/<version>/bin`. As root, the server runs
/// as the `postgres` user (or `nobody`): PostgreSQL refuses root.
pub struct OwnServer {
    bin: std::path::PathBuf,
    dir: std::path::PathBuf,
    port: u16,
    user: Option<(u32, u32)>,
}

impl OwnServer {
    /// Makes and starts the server.
    pub fn start() -> anyhow::Result<OwnServer> {
        let bin = pg_bin().ok_or_else(|| {
            anyhow::anyhow!("no initdb/pg_ctl: install Debian's postgresql package or set ECHOES_TEST_PG_BIN")
        })?;
        let dir = std::env::temp_dir().join(format!("echoes-pg-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir)?;
        let port = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let user = unprivileged_user();
        if let Some((uid, gid)) = user {
            std::os::unix::fs::chown(&dir, Some(uid), Some(gid))?;
        }
        let server = OwnServer { bin, dir, port, user };
        let data = server.path("data");
        server.run("initdb", &["-D", &data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"])?;
        server.resume()?;
        Ok(server)
    }

    /// The server's `postgres` database, as `$ECHOES_TEST_POSTGRES` would name one.
    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// Stops the server at once, cutting every connection (`-m fast`).
    pub fn stop(&self) -> anyhow::Result<()> {
        self.run("pg_ctl", &["-D", &self.path("data"), "-m", "fast", "-w", "stop"])
    }

    /// Starts the server (again), on the same port and data.
    pub fn resume(&self) -> anyhow::Result<()> {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200",
            self.port,
            self.path("")
        );
        self.run("pg_ctl", &["-D", &self.path("data"), "-l", &self.path("server.log"), "-w", "-o", &options, "start"])
    }

    /// A path inside the server's directory, as an argument.
    fn path(&self, name: &str) -> String {
        self.dir.join(name).to_string_lossy().into_owned()
    }

    fn run(&self, tool: &str, args: &[&str]) -> anyhow::Result<()> {
        use std::os::unix::process::CommandExt;
        let mut command = std::process::Command::new(self.bin.join(tool));
        command.args(args).current_dir(&self.dir).stdin(std::process::Stdio::null());
        if let Some((uid, gid)) = self.user {
            command.uid(uid).gid(gid);
        }
        let out = command.output()?;
        anyhow::ensure!(
            out.status.success(),
            "{tool} failed ({}): {}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        Ok(())
    }
}

impl Drop for OwnServer {
    fn drop(&mut self) {
        let _ = self.run("pg_ctl", &["-D", &self.path("data"), "-m", "immediate", "stop"]);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Where initdb and pg_ctl are.
fn pg_bin() -> Option<std::path::PathBuf> {
    let named = std::env::var_os("ECHOES_TEST_PG_BIN").map(std::path::PathBuf::from);
    let mut debian: Vec<std::path::PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path().join("bin"))
        .collect();
    debian.sort_by_key(|p| {
        p.parent().and_then(|v| v.file_name()).and_then(|v| v.to_str()).and_then(|v| v.parse::<u32>().ok()).unwrap_or(0)
    });
    named
        .into_iter()
        .chain(debian.into_iter().rev())
        .find(|dir| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file())
}

/// As root, the user the server runs as: `postgres` where it exists, else `nobody`.
fn unprivileged_user() -> Option<(u32, u32)> {
    // SAFETY: geteuid has no preconditions; getpwnam is given NUL-terminated
    // names and its result is read at once, before any other call.
    unsafe {
        if libc::geteuid() != 0 {
            return None;
        }
        for name in [c"postgres", c"nobody"] {
            let entry = libc::getpwnam(name.as_ptr());
            if !entry.is_null() {
                return Some(((*entry).pw_uid, (*entry).pw_gid));
            }
        }
    }
    None
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
