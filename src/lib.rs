//! Echoes of Deceit: LLM-hosted deduction games (Turtle Soup first) for
//! Discord, Slack and the terminal.
//!
//! # Layout
//!
//! - [`core`]: the games, the turn pipeline, session actors, prompts and the
//!   ports (traits) for models and storage. No I/O crate in here.
//! - [`llm`]: model providers behind `core::llm::LlmClient` (Ollama,
//!   OpenAI-compatible, scripted and parrot test doubles).
//! - [`store`]: `core::store::Store` on sqlx (SQLite).
//! - [`puzzles`]: finding, loading and checking puzzle files.
//! - [`assets`]: files compiled into the binary (prompts, command catalogue,
//!   puzzles, default config) and their on-disk overrides.
//! - [`config`]: layered configuration (defaults, file, `ECHOES__…` env).
//! - [`console`]: the terminal front end (`echoes play`).
//! - [`cli`]: the `echoes` command line.
//!
//! `ARCHITECTURE.md` at the repository root has the map and the invariants.

pub mod app;
pub mod assets;
pub mod cli;
pub mod config;
pub mod console;
pub mod core;
pub mod llm;
pub mod puzzles;
pub mod store;
