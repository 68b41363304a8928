//! LanceDB plumbing shared by the knowledge and memory tables: connecting,
//! creating a table for the embedder's dimensions, Arrow batches in and out,
//! and SQL string literals for filters.

use std::path::Path;
use std::sync::Arc;

use arrow_array::types::Float32Type;
use arrow_array::{Array, FixedSizeListArray, Float32Array, Int64Array, RecordBatch, RecordBatchIterator, StringArray};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef};
use futures::TryStreamExt;
use lancedb::query::{ExecutableQuery, QueryBase};
use lancedb::{Connection, Table};

/// A column of a table we create: text or 64-bit integer.
#[derive(Debug, Clone, Copy)]
pub enum Col {
    Text(&'static str),
    Int(&'static str),
}

/// Values for one row, in the table's column order (vector last).
#[derive(Debug, Clone)]
pub enum Val {
    Text(String),
    Int(i64),
}

pub async fn open_db(dir: &Path) -> lancedb::Result<Connection> {
    std::fs::create_dir_all(dir).map_err(|e| lancedb::Error::Runtime { message: format!("{}: {e}", dir.display()) })?;
    lancedb::connect(&dir.to_string_lossy()).execute().await
}

pub fn schema(cols: &[Col], dims: usize) -> SchemaRef {
    let mut fields: Vec<Field> = cols
        .iter()
        .map(|c| match c {
            Col::Text(name) => Field::new(*name, DataType::Utf8, false),
            Col::Int(name) => Field::new(*name, DataType::Int64, false),
        })
        .collect();
    let item = Arc::new(Field::new("item", DataType::Float32, true));
    fields.push(Field::new("vector", DataType::FixedSizeList(item, dims as i32), false));
    Arc::new(Schema::new(fields))
}

/// Opens `name`, creating it empty, or re-creating it when its vectors have
/// other dimensions than the embedder's (the index is rebuilt from the record).
pub async fn open_table(db: &Connection, name: &str, schema: SchemaRef) -> lancedb::Result<(Table, bool)> {
    let names = db.table_names().execute().await?;
    if names.iter().any(|n| n == name) {
        let table = db.open_table(name).execute().await?;
        if table.schema().await?.as_ref() == schema.as_ref() {
            return Ok((table, false));
        }
        tracing::warn!(table = name, "vector table has another shape; re-creating it");
        db.drop_table(name, &[]).await?;
    }
    Ok((db.create_empty_table(name, schema).execute().await?, true))
}

pub fn batch(schema: &SchemaRef, rows: &[(Vec<Val>, Vec<f32>)]) -> Result<RecordBatch, ArrowError> {
    let ncols = schema.fields().len() - 1;
    let mut columns: Vec<Arc<dyn Array>> = Vec::with_capacity(ncols + 1);
    for i in 0..ncols {
        columns.push(match schema.field(i).data_type() {
            DataType::Int64 => Arc::new(Int64Array::from_iter_values(rows.iter().map(|(v, _)| match &v[i] {
                Val::Int(n) => *n,
                Val::Text(_) => 0,
            }))),
            _ => Arc::new(StringArray::from_iter_values(rows.iter().map(|(v, _)| match &v[i] {
                Val::Text(s) => s.clone(),
                Val::Int(n) => n.to_string(),
            }))),
        });
    }
    let dims = match schema.field(ncols).data_type() {
        DataType::FixedSizeList(_, d) => *d,
        _ => 0,
    };
    columns.push(Arc::new(FixedSizeListArray::from_iter_primitive::<Float32Type, _, _>(
        rows.iter().map(|(_, v)| Some(v.iter().copied().map(Some).collect::<Vec<_>>())),
        dims,
    )));
    RecordBatch::try_new(schema.clone(), columns)
}

/// Upserts rows keyed by `key`.
pub async fn upsert(
    table: &Table,
    schema: &SchemaRef,
    key: &str,
    rows: &[(Vec<Val>, Vec<f32>)],
) -> lancedb::Result<()> {
    if rows.is_empty() {
        return Ok(());
    }
    let data = batch(schema, rows)?;
    let reader = RecordBatchIterator::new(vec![Ok(data)], schema.clone());
    let mut merge = table.merge_insert(&[key]);
    merge.when_matched_update_all(None).when_not_matched_insert_all();
    merge.execute(Box::new(reader)).await?;
    Ok(())
}

/// All rows matching `filter` (or all rows), every column.
pub async fn scan(table: &Table, filter: Option<&str>) -> lancedb::Result<Vec<RecordBatch>> {
    let query = match filter {
        Some(f) => table.query().only_if(f),
        None => table.query(),
    };
    query.execute().await?.try_collect().await
}

/// The `k` nearest rows to `vector` among those matching `filter`.
pub async fn nearest(table: &Table, vector: &[f32], filter: &str, k: usize) -> lancedb::Result<Vec<RecordBatch>> {
    table
        .query()
        .nearest_to(vector)?
        .distance_type(lancedb::DistanceType::Cosine)
        .only_if(filter)
        .limit(k)
        .execute()
        .await?
        .try_collect()
        .await
}

pub fn text_col<'a>(batch: &'a RecordBatch, name: &str) -> Option<&'a StringArray> {
    batch.column_by_name(name)?.as_any().downcast_ref::<StringArray>()
}

pub fn int_col<'a>(batch: &'a RecordBatch, name: &str) -> Option<&'a Int64Array> {
    batch.column_by_name(name)?.as_any().downcast_ref::<Int64Array>()
}

/// Row `i`'s vector.
pub fn vector_at(batch: &RecordBatch, i: usize) -> Option<Vec<f32>> {
    let list = batch.column_by_name("vector")?.as_any().downcast_ref::<FixedSizeListArray>()?;
    let values = list.value(i);
    Some(values.as_any().downcast_ref::<Float32Array>()?.values().to_vec())
}

/// A SQL string literal: single quotes doubled, so ids can't break out.
pub fn lit(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// `column IN ('a', 'b')`.
pub fn in_list(column: &str, values: &[&str]) -> String {
    let items: Vec<String> = values.iter().map(|v| lit(v)).collect();
    format!("{column} IN ({})", items.join(", "))
}
