//! Storage adapters: the `core::store::Store` port on sqlx. SQLite is the
//! embedded default (one file, WAL, foreign keys, one writer connection).

mod guild;
mod sqlite;

pub use sqlite::SqliteStore;
