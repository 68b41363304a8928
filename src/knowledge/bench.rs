//! `echoes bench retrieval`: role-filtered top-5 latency on the knowledge
//! schema at several table sizes, with and without indexes, next to a
//! brute-force dot product over the same vectors in memory (the floor:
//! one pass of dot products over a flat matrix plus a top-k pass).

use std::path::Path;
use std::time::{Duration, Instant};

use lancedb::index::Index;
use lancedb::index::scalar::BitmapIndexBuilder;
use lancedb::index::vector::IvfPqIndexBuilder;
use rand::{Rng, SeedableRng};

use super::lance::{Col, Val, nearest, open_db, open_table, schema, upsert};
use super::upkeep::{KEEP_VERSIONS_DAYS, Upkeep};
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

/// The floor: the same filtered top-k over the same vectors held in
/// memory, with nothing between the query and the numbers: one pass of
/// dot products over a flat row-major matrix (eight running sums per row,
/// so the compiler vectorises it), rows the role may not see skipped.
struct Floor {
    /// `n × dims`, one row per document.
    matrix: Vec<f32>,
    /// Whether the role may see each row.
    visible: Vec<bool>,
    dims: usize,
}

impl Floor {
    fn new(rows: &[(Visibility, Vec<f32>)], allowed: &[Visibility], dims: usize) -> Floor {
        let matrix = rows.iter().flat_map(|(_, v)| v.iter().copied()).collect();
        let visible = rows.iter().map(|(vis, _)| allowed.contains(vis)).collect();
        Floor { matrix, visible, dims }
    }

    fn top(&self, q: &[f32], k: usize) -> Vec<usize> {
        let scores: Vec<f32> = self
            .matrix
            .chunks_exact(self.dims)
            .zip(&self.visible)
            .map(|(row, &visible)| if visible { dot(row, q) } else { f32::NEG_INFINITY })
            .collect();
        top_k(&scores, k)
    }
}

/// `a · b`, in eight lanes.
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0f32; 8];
    let (a8, b8) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = a8.remainder().iter().zip(b8.remainder()).map(|(x, y)| x * y).sum();
    for (x, y) in a8.zip(b8) {
        for ((lane, x), y) in lanes.iter_mut().zip(x).zip(y) {
            *lane += x * y;
        }
    }
    lanes.iter().sum::<f32>() + tail
}

/// Indices of the `k` highest finite scores, best first.
fn top_k(scores: &[f32], k: usize) -> Vec<usize> {
    let mut best: Vec<(f32, usize)> = Vec::with_capacity(k + 1);
    let mut worst = f32::NEG_INFINITY;
    for (i, &s) in scores.iter().enumerate() {
        if s <= worst && best.len() == k {
            continue;
        }
        if s == f32::NEG_INFINITY {
            continue;
        }
        let at = best.iter().position(|(b, _)| s > *b).unwrap_or(best.len());
        best.insert(at, (s, i));
        best.truncate(k);
        if best.len() == k {
            worst = best[k - 1].0;
        }
    }
    best.into_iter().map(|(_, i)| i).collect()
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
        let brute = Floor::new(&rows, allowed, dims);
        let mut floor = Vec::new();
        for q in &qs {
            let t = Instant::now();
            std::hint::black_box(brute.top(q, 5));
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

/// `echoes bench upkeep`: one table as a bot leaves it after `writes`
/// writes of a row each (a memory per game), searched before and after
/// `Upkeep` merges its files.
pub struct UpkeepFigures {
    pub writes: usize,
    pub dims: usize,
    pub before: Shape,
    pub after: Shape,
    /// Opening the table until its merge was done.
    pub merge: Duration,
}

/// A table's files and bytes on disk, and its filtered top-5 latency.
pub struct Shape {
    pub files: usize,
    pub versions: usize,
    pub bytes: u64,
    pub p50: Duration,
    pub p99: Duration,
}

pub async fn upkeep(dir: &Path, writes: usize, dims: usize, queries: usize) -> anyhow::Result<UpkeepFigures> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let filter = super::lance::in_list("visibility", &[Visibility::Public.as_str(), Visibility::Hint.as_str()]);
    let db = open_db(dir).await?;
    let schema = schema(&COLS, dims);
    let (table, _) = open_table(&db, "memory", schema.clone()).await?;
    for id in 0..writes {
        let vals = vec![
            Val::Text(format!("m{id}")),
            Val::Text(format!("p{}", id % 100)),
            Val::Text(VIS[rng.random_range(0..3)].as_str().into()),
        ];
        upsert(&table, &schema, "doc_id", &[(vals, unit(&mut rng, dims))]).await?;
    }
    let qs: Vec<Vec<f32>> = (0..queries).map(|_| unit(&mut rng, dims)).collect();
    let before = shape(dir, &table, &qs, &filter).await?;
    let t = Instant::now();
    Upkeep::open(&table).await.settle().await;
    let merge = t.elapsed();
    let after = shape(dir, &table, &qs, &filter).await?;
    Ok(UpkeepFigures { writes, dims, before, after, merge })
}

async fn shape(dir: &Path, table: &lancedb::Table, qs: &[Vec<f32>], filter: &str) -> anyhow::Result<Shape> {
    let files = table.stats().await?.fragment_stats.num_fragments;
    let versions = table.list_versions().await?.len();
    let bytes = bytes_under(dir);
    let (p50, p99) = percentiles(time_queries(table, qs, filter).await?);
    Ok(Shape { files, versions, bytes, p50, p99 })
}

fn bytes_under(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
    entries
        .flatten()
        .map(|e| match e.metadata() {
            Ok(m) if m.is_dir() => bytes_under(&e.path()),
            Ok(m) => m.len(),
            Err(_) => 0,
        })
        .sum()
}

pub fn render_upkeep(f: &UpkeepFigures) -> String {
    let row = |name: &str, s: &Shape| {
        let mib = s.bytes as f64 / (1024.0 * 1024.0);
        format!("{name:<22} {:>6} {:>9} {:>9.1} {:>10.3?} {:>10.3?}", s.files, s.versions, mib, s.p50, s.p99)
    };
    [
        format!("{} writes of one row each ({}-dim vectors); filtered top-5 latency", f.writes, f.dims),
        format!("{:<22} {:>6} {:>9} {:>9} {:>10} {:>10}", "table", "files", "versions", "MiB", "p50", "p99"),
        row("as written", &f.before),
        row("after upkeep", &f.after),
        format!("merge on opening: {:.2?} (versions younger than {KEEP_VERSIONS_DAYS} days are kept)", f.merge),
    ]
    .join("\n")
}

/// The report table.
pub fn render(figures: &[Figures]) -> String {
    let mut lines = vec![format!("{:>7}  {:<32} {:>10} {:>10}", "rows", "variant", "p50", "p99")];
    for f in figures {
        lines.push(format!("{:>7}  {:<32} {:>10.3?} {:>10.3?}", f.rows, f.variant, f.p50, f.p99));
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests;
