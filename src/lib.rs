//! Echoes of Deceit: LLM-hosted deduction games (Turtle Soup first) for
//! Discord, Slack and the terminal.
//!
//! # Layout
//!
//! - [`core`]: the games, the turn pipeline, session actors, prompts and the
//!   ports (traits) for models and storage. No I/O crate in here.
//! - [`llm`]: model providers behind `core::llm::LlmClient` (Ollama,
//!   OpenAI-compatible, an in-process GGUF model, scripted and parrot test
//!   doubles) and the `auto` choice between them.
//! - [`embed`]: the in-process sentence embedder behind
//!   `core::embed::Embedder`.
//! - [`models`]: model files: the cache directory, checks, `models fetch`.
//! - [`bench`]: `echoes bench`, measured figures for the local model.
//! - [`store`]: `core::store::Store` on sqlx (SQLite).
//! - [`puzzles`]: finding, loading and checking puzzle files.
//! - [`assets`]: files compiled into the binary (prompts, command catalogue,
//!   puzzles, default config) and their on-disk overrides.
//! - [`config`]: layered configuration (defaults, file, `ECHOES__…` env).
//! - [`console`]: the terminal front end (`echoes play`).
//! - [`bot`]: what the chat-bot front ends share: live games by thread,
//!   puzzle choice, rate limits, the offline rig for their tests.
//! - [`discord`]: the Discord front end (serenity + poise) and a local fake
//!   of Discord's REST API and gateway for its tests and benchmark.
//! - [`slack`]: the Slack front end (slack-morphism; Socket Mode and the
//!   Events API) and a local fake of Slack's Web API and Socket Mode.
//! - [`serve`]: `echoes serve`, running the bot front ends.
//! - [`cli`]: the `echoes` command line.
//!
//! `ARCHITECTURE.md` at the repository root has the map and the invariants.

#![recursion_limit = "256"]

pub mod app;
pub mod assets;
pub mod bench;
pub mod bot;
pub mod cli;
pub mod config;
pub mod console;
pub mod core;
pub mod discord;
pub mod embed;
pub mod eval;
pub mod knowledge;
pub mod llm;
pub mod models;
pub mod ops;
pub mod puzzles;
pub mod serve;
pub mod slack;
pub mod store;
