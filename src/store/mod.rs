//! Storage adapters: the `core::store::Store` and `core::guild::GuildStore`
//! ports on SQL. SQLite is the embedded default (one file, WAL, foreign
//! keys, one writer connection); PostgreSQL serves several bot processes.
//! One implementation (`sql.rs`, `guild.rs`) runs on both through sqlx's
//! `Any` driver; `open.rs` names the database and opens it; `copy.rs`
//! moves one database's rows into another; `scratch.rs` makes throwaway
//! PostgreSQL databases for tests and benchmarks.

mod copy;
mod database;
mod errors;
mod guild;
mod listen;
mod open;
pub mod scratch;
mod sql;

pub use copy::{CopyReport, copy_database, count_rows};
pub use database::{Backend, Database};
pub use open::migrator;
pub use sql::SqlStore;
