//! `echoes db migrate` and `echoes db copy`: the games' database for an
//! operator. A copy is checked before it is reported: every table's rows
//! are counted on both sides.

use anyhow::Context;

use crate::store::{Database, SqlStore, copy_database, count_rows};

/// Brings `database` up to date; says which migrations ran.
pub async fn migrate(database: &Database) -> anyhow::Result<String> {
    let store = SqlStore::connect(database).await.with_context(|| format!("opening {database}"))?;
    // Opening applies what is missing.
    let applied = store.migrated_on_open().to_vec();
    let total = crate::store::migrator(store.backend()).iter().count();
    store.close().await;
    Ok(match applied.as_slice() {
        [] => format!("{database}: the schema is up to date ({total} migrations)."),
        versions => format!("{database}: applied migrations {versions:?}."),
    })
}

/// Copies every row of `from` into the empty `to` and compares the counts.
pub async fn copy(from: &Database, to: &Database) -> anyhow::Result<String> {
    anyhow::ensure!(from != to, "--from and --to name the same database");
    let source = SqlStore::connect(from).await.with_context(|| format!("opening {from}"))?;
    let target = SqlStore::connect(to).await.with_context(|| format!("opening {to}"))?;
    let report = copy_database(&source, &target).await.with_context(|| format!("copying {from} into {to}"))?;
    let (before, after) = (count_rows(&source).await?, count_rows(&target).await?);
    source.close().await;
    target.close().await;
    anyhow::ensure!(before == after, "the counts differ after the copy: {before:?} against {after:?}");
    let mut out = format!("Copied {} rows from {from} into {to}:\n", report.total());
    for (table, n) in &report.tables {
        out.push_str(&format!("  {table:<24} {n}\n"));
    }
    Ok(out.trim_end().to_string())
}
