//! `echoes db copy`: every row of one games' database into another (a
//! user outgrowing one process moves from SQLite to PostgreSQL). Both are
//! migrated to the same version first; the target must hold no rows. One
//! transaction: a copy that fails leaves the target empty. Column types
//! are read from the target, so a value crosses as what its column holds.

use sqlx::any::AnyRow;
// Dynamic SQL here names only the tables in `TABLES` and the columns the
// target's own schema lists; every value is a bound parameter.
use sqlx::{Any, AssertSqlSafe, Row, Transaction};

use super::database::Backend;
use super::sql::{SqlStore, db};
use crate::core::store::StoreError;

/// Every table, parents before the rows that name them.
const TABLES: &[&str] = &[
    "players",
    "sessions",
    "turns",
    "inbox",
    "outbox",
    "scores",
    "custom_puzzles",
    "guild_config",
    "thread_bindings",
    "guild_disabled_puzzles",
    "guild_next_puzzle",
    "custom_content",
    "memory_feed",
];

/// Rows copied, per table, in `TABLES` order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopyReport {
    pub tables: Vec<(String, u64)>,
}

impl CopyReport {
    pub fn total(&self) -> u64 {
        self.tables.iter().map(|(_, n)| n).sum()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Integer,
    Text,
}

/// Rows per table in `store` (the counts a copy is checked against).
pub async fn count_rows(store: &SqlStore) -> Result<Vec<(String, u64)>, StoreError> {
    let mut counts = Vec::with_capacity(TABLES.len());
    for table in TABLES {
        let n: i64 = sqlx::query(AssertSqlSafe(format!("SELECT COUNT(*) AS n FROM {table}")))
            .fetch_one(&store.reader)
            .await
            .map_err(db)?
            .try_get("n")
            .map_err(db)?;
        counts.push((table.to_string(), n as u64));
    }
    Ok(counts)
}

/// Copies every row of `from` into the empty `to`.
pub async fn copy_database(from: &SqlStore, to: &SqlStore) -> Result<CopyReport, StoreError> {
    let target = count_rows(to).await?;
    if let Some((table, n)) = target.iter().find(|(_, n)| *n > 0) {
        return Err(StoreError::Database(format!(
            "the target database is not empty ({n} rows in {table}): copy into a new database"
        )));
    }
    let mut tx = to.writer.begin().await.map_err(db)?;
    let mut report = CopyReport { tables: Vec::with_capacity(TABLES.len()) };
    for table in TABLES {
        let columns = columns(&mut tx, to.backend, table).await?;
        let names: Vec<&str> = columns.iter().map(|(name, _)| name.as_str()).collect();
        let select = format!("SELECT {} FROM {table}", names.join(", "));
        let rows = sqlx::query(AssertSqlSafe(select)).fetch_all(&from.reader).await.map_err(db)?;
        let params: Vec<String> = (1..=names.len()).map(|i| format!("${i}")).collect();
        let insert = format!("INSERT INTO {table} ({}) VALUES ({})", names.join(", "), params.join(", "));
        for row in &rows {
            let mut query = sqlx::query(AssertSqlSafe(insert.as_str()));
            for (i, (name, kind)) in columns.iter().enumerate() {
                query = match kind {
                    Kind::Integer => query.bind(value::<i64>(row, i, table, name)?),
                    Kind::Text => query.bind(value::<String>(row, i, table, name)?),
                };
            }
            query.execute(&mut *tx).await.map_err(|e| StoreError::Database(format!("{table}: {e}")))?;
        }
        report.tables.push((table.to_string(), rows.len() as u64));
    }
    if to.backend == Backend::Postgres {
        // Rows came with their ids: the next outbox id and memory feed
        // sequence number follow the last ones.
        for reset in [
            "SELECT setval(pg_get_serial_sequence('outbox', 'id'), COALESCE(MAX(id), 0) + 1, false) FROM outbox",
            "SELECT setval(pg_get_serial_sequence('memory_feed', 'seq'), COALESCE(MAX(seq), 0) + 1, false) FROM memory_feed",
        ] {
            sqlx::query(reset).execute(&mut *tx).await.map_err(db)?;
        }
    }
    tx.commit().await.map_err(db)?;
    Ok(report)
}

fn value<'r, T>(row: &'r AnyRow, i: usize, table: &str, column: &str) -> Result<Option<T>, StoreError>
where
    T: sqlx::Decode<'r, Any> + sqlx::Type<Any>,
{
    row.try_get::<Option<T>, _>(i).map_err(|e| StoreError::Corrupt(format!("{table}.{column}: {e}")))
}

/// A table's columns in the target, with the kind each holds.
async fn columns(
    tx: &mut Transaction<'_, Any>,
    backend: Backend,
    table: &str,
) -> Result<Vec<(String, Kind)>, StoreError> {
    let (sql, name, kind) = match backend {
        Backend::Sqlite => {
            (format!("SELECT name, type FROM pragma_table_info('{table}') ORDER BY cid"), "name", "type")
        }
        Backend::Postgres => (
            format!(
                "SELECT CAST(column_name AS TEXT) AS column_name, CAST(data_type AS TEXT) AS data_type
                 FROM information_schema.columns
                 WHERE table_schema = current_schema() AND table_name = '{table}' ORDER BY ordinal_position"
            ),
            "column_name",
            "data_type",
        ),
    };
    let rows = sqlx::query(AssertSqlSafe(sql)).fetch_all(&mut **tx).await.map_err(db)?;
    let mut out = Vec::with_capacity(rows.len());
    for row in &rows {
        let column: String = row.try_get(name).map_err(db)?;
        let declared: String = row.try_get(kind).map_err(db)?;
        let declared = declared.to_ascii_lowercase();
        let kind = if declared.contains("int") || declared == "bigserial" {
            Kind::Integer
        } else if declared.contains("text") || declared.contains("char") {
            Kind::Text
        } else {
            return Err(StoreError::Corrupt(format!("{table}.{column}: a column of type {declared} cannot be copied")));
        };
        out.push((column, kind));
    }
    if out.is_empty() {
        return Err(StoreError::Database(format!("no table {table} in the target database")));
    }
    Ok(out)
}
