//! Vector storage on LanceDB: the `knowledge` table (puzzle documents, with
//! per-role visibility), the `memory` table (player, guild and global
//! memories) and the `prepared_vectors` table (puzzles' known answers,
//! embedded once), each written through its `Upkeep` (`upkeep.rs`), which
//! merges a table's small files. All three are indexes: `echoes knowledge
//! rebuild` restores them from `data/` and SQL, which stay the record; `SharedMemory` keeps this
//! process's memory table following SQL's memory record, which every
//! process writes to.
//!
//! The role filter lives here and only here: `LanceKnowledge::retrieve`
//! keeps documents whose visibility is in `Role::may_see()`.

pub mod bench;
mod documents;
mod hashing;
mod lance;
pub mod ledger_bench;
mod memory;
mod shared;
mod upkeep;
mod vectors;

pub use documents::LanceKnowledge;
pub use hashing::HashingEmbedder;
pub use lance::open_db;
pub use memory::LanceMemory;
pub use shared::SharedMemory;
pub use vectors::LanceVectorCache;

/// Cosine similarity of two vectors (1.0 = same direction).
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let na: f32 = a.iter().map(|x| x * x).sum::<f32>().sqrt();
    let nb: f32 = b.iter().map(|x| x * x).sum::<f32>().sqrt();
    if na == 0.0 || nb == 0.0 { 0.0 } else { dot / (na * nb) }
}

/// A stable 64-bit FNV-1a hash (std's hasher may change between releases,
/// and this one decides what gets embedded again).
pub fn content_hash(parts: &[&str]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for b in part.bytes().chain([0xff]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}
