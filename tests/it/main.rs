//! The one integration-test binary: black-box tests of the real `echoes`
//! binary over a real SQLite file and a local HTTP server that speaks the
//! Ollama protocol, plus whole-game tests through the library.

mod architecture;
mod arena;
mod attacks;
mod bad_input;
mod db;
mod discord;
mod e2e;
mod engine;
mod knowledge;
mod legacy;
mod local_model;
mod lore;
mod memory;
mod newcomer;
mod parrot;
mod resume;
mod slack;
mod support;
mod undercover;
mod werewolf;
