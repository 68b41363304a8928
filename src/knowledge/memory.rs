//! `LanceMemory`: the LanceDB `memory` table. Memories from many servers
//! share one table, so recall is a filtered vector query in LanceDB itself.

use std::sync::Arc;

use arrow_schema::SchemaRef;
use async_trait::async_trait;
use lancedb::{Connection, Table};

use super::lance::{Col, Val, in_list, int_col, lit, nearest, open_table, scan, schema, text_col, upsert};
use super::upkeep::Upkeep;
use crate::core::embed::Embedder;
use crate::core::memory::{Memory, MemoryError, MemoryItem, MemoryKind};

const TABLE: &str = "memory";
const COLS: [Col; 5] =
    [Col::Text("id"), Col::Text("namespace"), Col::Text("kind"), Col::Text("text"), Col::Int("updated_ms")];

pub struct LanceMemory {
    table: Table,
    schema: SchemaRef,
    embedder: Arc<dyn Embedder>,
    upkeep: Upkeep,
}

fn store_err(e: impl std::fmt::Display) -> MemoryError {
    MemoryError::Store(e.to_string())
}

impl LanceMemory {
    pub async fn open(db: &Connection, embedder: Arc<dyn Embedder>) -> Result<Self, MemoryError> {
        let schema = schema(&COLS, embedder.dimensions());
        let (table, _) = open_table(db, TABLE, schema.clone()).await.map_err(store_err)?;
        let upkeep = Upkeep::open(&table).await;
        Ok(LanceMemory { table, schema, embedder, upkeep })
    }

    /// Removes every memory (before a rebuild from SQL).
    pub async fn clear(&self) -> Result<(), MemoryError> {
        self.upkeep.write(self.table.delete("true")).await.map_err(store_err)?;
        Ok(())
    }
}

fn items(batches: &[arrow_array::RecordBatch]) -> Vec<MemoryItem> {
    let mut out = Vec::new();
    for b in batches {
        let cols = ["id", "namespace", "kind", "text"].map(|c| text_col(b, c));
        let ([Some(id), Some(ns), Some(kind), Some(text)], Some(updated)) = (cols, int_col(b, "updated_ms")) else {
            continue;
        };
        out.extend((0..b.num_rows()).filter_map(|i| {
            Some(MemoryItem {
                id: id.value(i).to_string(),
                namespace: ns.value(i).to_string(),
                kind: MemoryKind::parse(kind.value(i))?,
                text: text.value(i).to_string(),
                updated_ms: updated.value(i),
            })
        }));
    }
    out
}

#[async_trait]
impl Memory for LanceMemory {
    async fn put(&self, items: &[MemoryItem]) -> Result<(), MemoryError> {
        let texts: Vec<String> = items.iter().map(|m| m.text.clone()).collect();
        let vectors = self.embedder.embed(&texts).await.map_err(|e| MemoryError::Embed(e.to_string()))?;
        let rows: Vec<(Vec<Val>, Vec<f32>)> = items
            .iter()
            .zip(vectors)
            .map(|(m, v)| {
                let vals = vec![
                    Val::Text(m.id.clone()),
                    Val::Text(m.namespace.clone()),
                    Val::Text(m.kind.as_str().to_string()),
                    Val::Text(m.text.clone()),
                    Val::Int(m.updated_ms),
                ];
                (vals, v)
            })
            .collect();
        self.upkeep.write(upsert(&self.table, &self.schema, "id", &rows)).await.map_err(store_err)
    }

    async fn recall(&self, namespaces: &[String], query: &str, k: usize) -> Result<Vec<MemoryItem>, MemoryError> {
        if namespaces.is_empty() || k == 0 {
            return Ok(Vec::new());
        }
        let vector = self.embedder.embed(&[query.to_string()]).await.map_err(|e| MemoryError::Embed(e.to_string()))?;
        let Some(q) = vector.first() else { return Ok(Vec::new()) };
        let names: Vec<&str> = namespaces.iter().map(String::as_str).collect();
        let batches = nearest(&self.table, q, &in_list("namespace", &names), k).await.map_err(store_err)?;
        Ok(items(&batches))
    }

    async fn list(&self, namespace: &str) -> Result<Vec<MemoryItem>, MemoryError> {
        let batches = scan(&self.table, Some(&format!("namespace = {}", lit(namespace)))).await.map_err(store_err)?;
        let mut out = items(&batches);
        out.sort_by(|a, b| b.updated_ms.cmp(&a.updated_ms).then_with(|| a.id.cmp(&b.id)));
        Ok(out)
    }

    async fn forget(&self, namespace: &str) -> Result<usize, MemoryError> {
        let filter = format!("namespace = {}", lit(namespace));
        let n = self.table.count_rows(Some(filter.clone())).await.map_err(store_err)?;
        self.upkeep.write(self.table.delete(filter.as_str())).await.map_err(store_err)?;
        Ok(n)
    }
}

#[cfg(test)]
mod tests;
