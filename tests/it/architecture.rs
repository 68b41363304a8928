//! Architecture invariants, checked on the source tree.

use std::path::Path;

mod imports;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `src/core` names no I/O crate, and its production code reaches no
/// adapter, file system or network.
#[test]
fn core_does_no_io() {
    let mut files = Vec::new();
    rust_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/core"), &mut files);
    assert!(files.len() > 10);
    let io_crates = ["sqlx", "lancedb", "reqwest", "serenity", "poise", "slack_morphism", "hyper", "axum"];
    let io_paths = [
        "std::fs",
        "std::net",
        "tokio::fs",
        "tokio::net",
        "std::process",
        "crate::store",
        "crate::llm",
        "crate::console",
    ];
    for file in &files {
        // Comments may name adapters ("`crate::store` implements this"); code may not.
        let text: String = std::fs::read_to_string(file)
            .unwrap()
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let is_test = file.ends_with("tests.rs") || file.ends_with("fixtures.rs");
        for name in io_crates {
            assert!(
                !text.contains(&format!("{name}::")) && !text.contains(&format!("use {name}")),
                "{} names {name}",
                file.display()
            );
        }
        for name in io_paths.iter().filter(|_| !is_test) {
            assert!(!text.contains(name), "{} uses {name}", file.display());
        }
    }
}

/// Every module file starts with a `//!` doc saying what it owns.
#[test]
fn every_module_says_what_it_owns() {
    let mut files = Vec::new();
    rust_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
    for file in files.iter().filter(|f| !f.ends_with("tests.rs")) {
        let text = std::fs::read_to_string(file).unwrap();
        assert!(text.trim_start().starts_with("//!"), "{} has no //! module doc", file.display());
    }
}

/// A file's production code: without its comment lines and its inline
/// test module (`#[cfg(test)]` closes a file here).
fn code_of(file: &Path) -> String {
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .take_while(|l| !l.starts_with("#[cfg(test)]"))
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The engine knows no game: the actor, the store port and its SQL
/// adapter, the engine's services and the bots' shared layer name no
/// game's module or state; only a game's own folder and its rendering in
/// each front end do. (Turtle Soup's seat in the bots, the live Soup games
/// by thread and the playable puzzles, `bot/games.rs` and
/// `bot/puzzles.rs`, is the one place the shared layer still hosts Soup
/// by name: Soup is not yet a `HostedGame`.)
#[test]
fn the_engine_names_no_game() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![
        root.join("core/actor.rs"),
        root.join("core/store.rs"),
        root.join("core/record.rs"),
        root.join("core/services.rs"),
        root.join("core/catalogue.rs"),
    ];
    for dir in ["core/actor", "core/game", "core/record", "store", "bot"] {
        rust_files(&root.join(dir), &mut files);
    }
    let soups_seat = [root.join("bot/games.rs"), root.join("bot/puzzles.rs")];
    let games = ["soup::", "undercover::", "arena::", "rpg::", "secret_ballot::", "werewolf::", "SoupGame", "i18n::"];
    for file in files.iter().filter(|f| !f.ends_with("tests.rs") && !soups_seat.contains(f)) {
        let code = code_of(file);
        for game in games {
            assert!(!code.contains(game), "{} names a game ({game})", file.display());
        }
    }
}

/// Every game's model calls are prompt templates (`prompts/<game>/`), so
/// a server owner can tune any of them from `[prompts] dir`: no game's
/// code hands a model a sentence of its own, as a literal or a `format!`.
#[test]
fn every_model_call_of_every_game_is_a_template() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/core");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let engine = root.join("game");
    let games: Vec<_> = files
        .iter()
        .filter(|f| (f.ends_with("host.rs") && !f.starts_with(&engine)) || f.ends_with("soup/mod.rs"))
        .collect();
    assert!(games.len() >= 6, "every game folder is read: {games:?}");
    let folders: Vec<_> = games.iter().filter_map(|f| f.parent()).collect();
    let built =
        ["ChatMessage::system(\"", "ChatMessage::user(\"", "ChatMessage::system(format!", "ChatMessage::user(format!"];
    let mut calls = 0;
    for file in files.iter().filter(|f| folders.iter().any(|d| f.starts_with(d)) && !f.ends_with("tests.rs")) {
        let code: String = code_of(file).split_whitespace().collect::<Vec<_>>().join("");
        calls += code.matches("ChatMessage::").count();
        for pattern in built {
            assert!(
                !code.contains(pattern),
                "{} builds a prompt in code ({pattern}): make it a template",
                file.display()
            );
        }
    }
    assert!(calls >= 10, "the games' model calls are found ({calls})");
}

/// No front end names a game's verb: the catalogue reads every verb from
/// the games' declarations, so a front end neither builds a game's input
/// nor matches on a game verb's name.
#[test]
fn no_front_end_names_a_game_verb() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for dir in ["discord", "slack", "console"] {
        rust_files(&root.join(dir), &mut files);
    }
    let catalogue = echoes::assets::catalogue();
    let own: Vec<&str> = catalogue.verbs.iter().filter(|v| v.action.is_none()).map(|v| v.name.as_str()).collect();
    assert!(own.contains(&"ask") && own.contains(&"topic"), "the games declare their own verbs");
    let is_front_end_code = |f: &&std::path::PathBuf| {
        let p = f.to_string_lossy();
        !p.ends_with("tests.rs") && !p.contains("/fake/") && !p.ends_with("bench.rs")
    };
    for file in files.iter().filter(is_front_end_code) {
        let code = code_of(file);
        for name in ["SoupVerb", "UndercoverVerb", "ArenaVerb", "LoreVerb", "::verbs::", "TurnInput::Verb("] {
            assert!(!code.contains(name), "{} names a game's verbs ({name})", file.display());
        }
        for verb in &own {
            let arm = format!("\"{verb}\" =>");
            assert!(!code.contains(&arm), "{} matches on the game verb {verb:?}", file.display());
        }
    }
}

/// The engine knows no game: the actor, the store port and its SQL
/// adapter, the engine services and the bots' shared layer never name
/// Turtle Soup's state (`SoupGame`); only the Soup game's own module, its
/// pipeline and its rendering in each front end do.
#[test]
fn the_engine_names_no_game_state() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![root.join("core/actor.rs"), root.join("core/store.rs")];
    for dir in ["core/game", "store", "bot"] {
        rust_files(&root.join(dir), &mut files);
    }
    for file in files.iter().filter(|f| !f.ends_with("tests.rs")) {
        let text = std::fs::read_to_string(file).unwrap();
        assert!(!text.contains("SoupGame"), "{} names SoupGame", file.display());
    }
}

/// No front end names the store's adapter: the terminal, Discord and
/// Slack reach the record through the store's ports and the bot layer
/// (`bot::delivery` for rows a stop left unshown and marking them sent,
/// `bot::boards` for the leaderboard and the last finished game), never
/// through `SqlStore` or the `store` module that holds it.
#[test]
fn no_front_end_names_the_store_adapter() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for dir in ["console", "discord", "slack"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 10, "the front ends' files: {files:?}");
    for file in &files {
        // Comments may name the adapter; code, tests included, may not.
        let code: String = std::fs::read_to_string(file)
            .unwrap()
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        for name in ["SqlStore", "store::sql", "crate::store", "echoes::store"] {
            assert!(!code.contains(name), "{} names the store's adapter ({name})", file.display());
        }
    }
}

/// No two sibling modules import each other, directly or around a loop
/// (`tests/it/architecture/imports.rs` reads the paths).
#[test]
fn no_import_circles() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let modules = imports::modules(&src);
    let actor: imports::Module = vec!["core".into(), "actor".into()];
    assert!(
        imports::references(&actor, &modules[&actor], &modules)
            .contains(&vec!["core".to_string(), "store".to_string()]),
        "the reader sees the actor use the store's port"
    );
    let circles = imports::circles(&modules);
    assert!(circles.is_empty(), "sibling modules that import each other: {circles:#?}");
}
