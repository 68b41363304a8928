//! `LanceVectorCache`: prepared vectors in the LanceDB `prepared_vectors`
//! table, one row per vector (`key`, its `position`, the vector), so a
//! puzzle's known answers are embedded once per vector directory instead
//! of once per process.
//!
//! Only vectors and keys are stored, never the texts: a known answer gives
//! the bottom away, and this table is read by no prompt. Like the other
//! tables it is an index: deleting it costs time, not data.

use std::collections::BTreeMap;

use arrow_schema::SchemaRef;
use async_trait::async_trait;
use lancedb::{Connection, Table};

use super::lance::{Col, Val, int_col, lit, open_table, scan, schema, upsert, vector_at};
use super::upkeep::Upkeep;
use crate::core::embed::VectorCache;

const TABLE: &str = "prepared_vectors";
const COLS: [Col; 3] = [Col::Text("row_id"), Col::Text("key"), Col::Int("position")];

pub struct LanceVectorCache {
    table: Table,
    schema: SchemaRef,
    dims: usize,
    upkeep: Upkeep,
}

impl LanceVectorCache {
    /// Opens the table for vectors of `dims` entries (re-created empty when
    /// it held another embedder's).
    pub async fn open(db: &Connection, dims: usize) -> lancedb::Result<Self> {
        let schema = schema(&COLS, dims);
        let (table, _) = open_table(db, TABLE, schema.clone()).await?;
        let upkeep = Upkeep::open(&table).await;
        Ok(LanceVectorCache { table, schema, dims, upkeep })
    }

    async fn read(&self, key: &str) -> lancedb::Result<Option<Vec<Vec<f32>>>> {
        let batches = scan(&self.table, Some(&format!("key = {}", lit(key)))).await?;
        let mut by_position: BTreeMap<i64, Vec<f32>> = BTreeMap::new();
        for b in &batches {
            let Some(positions) = int_col(b, "position") else { continue };
            for i in 0..b.num_rows() {
                if let Some(vector) = vector_at(b, i) {
                    by_position.insert(positions.value(i), vector);
                }
            }
        }
        // Every position from 0, none missing: else it is not what was saved.
        let whole = by_position.keys().copied().eq(0..by_position.len() as i64);
        Ok((whole && !by_position.is_empty()).then(|| by_position.into_values().collect()))
    }
}

#[async_trait]
impl VectorCache for LanceVectorCache {
    async fn load(&self, key: &str) -> Option<Vec<Vec<f32>>> {
        match self.read(key).await {
            Ok(vectors) => vectors,
            Err(e) => {
                tracing::warn!(key, error = %e, "prepared vectors unreadable; embedding again");
                None
            }
        }
    }

    async fn save(&self, key: &str, vectors: &[Vec<f32>]) {
        if vectors.iter().any(|v| v.len() != self.dims) {
            tracing::warn!(key, dims = self.dims, "prepared vectors of another size not stored");
            return;
        }
        let rows: Vec<(Vec<Val>, Vec<f32>)> = vectors
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let cols = vec![Val::Text(format!("{key}#{i}")), Val::Text(key.to_string()), Val::Int(i as i64)];
                (cols, v.clone())
            })
            .collect();
        if let Err(e) = self.upkeep.write(upsert(&self.table, &self.schema, "row_id", &rows)).await {
            tracing::warn!(key, error = %e, "prepared vectors not stored");
        }
    }
}

#[cfg(test)]
mod tests;
