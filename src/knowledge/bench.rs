//! `echoes bench retrieval`: role-filtered top-5 latency on the knowledge
//! schema at several table sizes, with and without indexes, next to a
//! brute-force dot product over the same vectors in memory (the floor).

use std::path::Path;
use std::time::{Duration, Instant};

use lancedb::index::Index;
use lancedb::index::scalar::BitmapIndexBuilder;
use lancedb::index::vector::IvfPqIndexBuilder;
use rand::{Rng, SeedableRng};

use super::lance::{Col, Val, nearest, open_db, open_table, schema, upsert};
use crate::core::knowledge::{Role, Visibility};

const COLS: [Col; 3] = [Col::Text("doc_id"), Col::Text("puzzle_id"), Col::Text("visibility")];
const VIS: [Visibility; 3] = [Visibility::Public, Visibility::Hint, Visibility::Judge];

/// Latency percentiles of one variant.
pub struct Figures {
    pub rows: usize,
    pub variant: &'static str,
    pub p50: Duration,
    pub p99: Duration,
}

fn unit(rng: &mut impl Rng, dims: usize) -> Vec<f32> {
    let v: Vec<f32> = (0..dims).map(|_| rng.random::<f32>() - 0.5).collect();
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    v.into_iter().map(|x| x / n).collect()
}

fn percentiles(mut samples: Vec<Duration>) -> (Duration, Duration) {
    samples.sort_unstable();
    let at = |q: f64| samples[((samples.len() as f64 - 1.0) * q).round() as usize];
    (at(0.5), at(0.99))
}

/// The floor: a filtered top-k over vectors held in memory.
fn brute_force(rows: &[(Visibility, Vec<f32>)], q: &[f32], allowed: &[Visibility], k: usize) -> Vec<usize> {
    let mut scored: Vec<(f32, usize)> = rows
        .iter()
        .enumerate()
        .filter(|(_, (v, _))| allowed.contains(v))
        .map(|(i, (_, vec))| (vec.iter().zip(q).map(|(a, b)| a * b).sum(), i))
        .collect();
    let k = k.min(scored.len());
    if k > 0 {
        scored.select_nth_unstable_by(k - 1, |a, b| b.0.total_cmp(&a.0));
        scored.truncate(k);
    }
    scored.into_iter().map(|(_, i)| i).collect()
}

/// Runs the benchmark in `dir` for each table size; `queries` per variant.
pub async fn retrieval(dir: &Path, sizes: &[usize], dims: usize, queries: usize) -> anyhow::Result<Vec<Figures>> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let role = Role::Narrator;
    let allowed = role.may_see();
    let filter = super::lance::in_list("visibility", &allowed.iter().map(|v| v.as_str()).collect::<Vec<_>>());
    let mut out = Vec::new();
    for &n in sizes {
        let db = open_db(&dir.join(format!("bench-{n}"))).await?;
        let schema = schema(&COLS, dims);
        let (table, _) = open_table(&db, "knowledge", schema.clone()).await?;
        let rows: Vec<(Visibility, Vec<f32>)> =
            (0..n).map(|_| (VIS[rng.random_range(0..3)], unit(&mut rng, dims))).collect();
        for (chunk_no, chunk) in rows.chunks(10_000).enumerate() {
            let batch: Vec<(Vec<Val>, Vec<f32>)> = chunk
                .iter()
                .enumerate()
                .map(|(i, (vis, v))| {
                    let id = chunk_no * 10_000 + i;
                    let vals = vec![
                        Val::Text(format!("d{id}")),
                        Val::Text(format!("p{}", id % 100)),
                        Val::Text(vis.as_str().into()),
                    ];
                    (vals, v.clone())
                })
                .collect();
            upsert(&table, &schema, "doc_id", &batch).await?;
        }
        let qs: Vec<Vec<f32>> = (0..queries).map(|_| unit(&mut rng, dims)).collect();
        let mut floor = Vec::new();
        for q in &qs {
            let t = Instant::now();
            std::hint::black_box(brute_force(&rows, q, allowed, 5));
            floor.push(t.elapsed());
        }
        out.push(figures(n, "in-memory brute force (floor)", floor));
        out.push(figures(n, "lancedb, no index", time_queries(&table, &qs, &filter).await?));
        table.create_index(&["visibility"], Index::Bitmap(BitmapIndexBuilder::default())).execute().await?;
        if n >= 256 {
            let partitions = ((n as f64).sqrt() as u32).clamp(1, 256);
            let ivf =
                IvfPqIndexBuilder::default().distance_type(lancedb::DistanceType::Cosine).num_partitions(partitions);
            table.create_index(&["vector"], Index::IvfPq(ivf)).execute().await?;
        }
        out.push(figures(n, "lancedb, bitmap + IVF-PQ index", time_queries(&table, &qs, &filter).await?));
    }
    Ok(out)
}

async fn time_queries(table: &lancedb::Table, qs: &[Vec<f32>], filter: &str) -> anyhow::Result<Vec<Duration>> {
    let mut samples = Vec::with_capacity(qs.len());
    for q in qs {
        let t = Instant::now();
        let batches = nearest(table, q, filter, 5).await?;
        std::hint::black_box(batches);
        samples.push(t.elapsed());
    }
    Ok(samples)
}

fn figures(rows: usize, variant: &'static str, samples: Vec<Duration>) -> Figures {
    let (p50, p99) = percentiles(samples);
    Figures { rows, variant, p50, p99 }
}

/// The report table.
pub fn render(figures: &[Figures]) -> String {
    let mut lines = vec![format!("{:>7}  {:<32} {:>10} {:>10}", "rows", "variant", "p50", "p99")];
    for f in figures {
        lines.push(format!("{:>7}  {:<32} {:>10.3?} {:>10.3?}", f.rows, f.variant, f.p50, f.p99));
    }
    lines.join("\n")
}
