//! Which database a setting names (`[storage] database`): a SQLite file or
//! a PostgreSQL server, and its backend; shown in logs and errors without
//! a password. Opening it is `open.rs`.

use std::path::PathBuf;
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// The database a setting names: a SQLite file (a path, or `sqlite:PATH`)
/// or a PostgreSQL server (`postgres://…`).
#[derive(Clone, PartialEq, Eq)]
pub enum Database {
    Sqlite(PathBuf),
    Postgres(String),
}

impl Database {
    pub fn parse(text: &str) -> Database {
        let text = text.trim();
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            return Database::Postgres(text.to_string());
        }
        let path = text.strip_prefix("sqlite://").or_else(|| text.strip_prefix("sqlite:")).unwrap_or(text);
        Database::Sqlite(PathBuf::from(path))
    }

    pub fn backend(&self) -> Backend {
        match self {
            Database::Sqlite(_) => Backend::Sqlite,
            Database::Postgres(_) => Backend::Postgres,
        }
    }
}

impl FromStr for Database {
    type Err = std::convert::Infallible;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Ok(Database::parse(text))
    }
}

/// For logs and errors: a PostgreSQL URL without its password.
impl std::fmt::Display for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Database::Sqlite(path) => write!(f, "{}", path.display()),
            Database::Postgres(url) => write!(f, "{}", without_password(url)),
        }
    }
}

/// `postgres://user:secret@host/db` as `postgres://user:***@host/db`.
fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_string() };
    let end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(end);
    match authority.rsplit_once('@') {
        Some((credentials, host)) if credentials.contains(':') => {
            let user = credentials.split(':').next().unwrap_or_default();
            format!("{scheme}://{user}:***@{host}{tail}")
        }
        _ => url.to_string(),
    }
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Database({self})")
    }
}
