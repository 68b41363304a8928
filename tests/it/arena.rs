//! The Arena's secrecy with a parrot model (it answers with its whole
//! prompt) over every bundled persona: no contestant's private notes reach
//! a public message before the end or another contestant's prompt, and
//! the scorer's rubric and raw output reach no contestant or the narrator.
//! And the game through the real binary: the terminal by script, replay
//! from the record, and self-play.

use std::collections::BTreeMap;
use std::sync::Arc;

use echoes::core::arena::selfplay::play_game;
use echoes::core::arena::{ArenaHost, ArenaTable};
use echoes::core::game::{Audience, TableOptions};
use echoes::core::vocab::Language;
use echoes::core::vocab::Player;

use crate::support::{Brain, FakeOllama, Recorder, Sandbox};

#[tokio::test]
async fn with_a_parrot_no_private_note_or_rubric_reaches_anyone_it_should_not() {
    let dir = tempfile::tempdir().unwrap();
    let recorder = Arc::new(Recorder::default());
    let parts = echoes::bot::instant::offline_parts(&dir.path().join("a.db"), recorder.clone()).await.unwrap();
    let pipeline = &parts.engine.pipeline;
    let roster = Arc::new(echoes::assets::roster());
    let host = ArenaHost::new(roster.clone());
    let first = Player { id: "selfplay:host".into(), name: "host".into() };
    for lang in [Language::En, Language::Zh] {
        let cast = roster.cast(lang).unwrap();
        let mut seen = std::collections::BTreeSet::new();
        let mut game_no = 0_u64;
        while seen.len() < cast.personas.len() && game_no < 40 {
            game_no += 1;
            let options = TableOptions { ai_seats: Some(4), ..TableOptions::default() }
                .with("max_turns", "10")
                .with("spectate", "yes");
            let (game, cast) = host.lobby(&first, lang, &options, game_no).unwrap();
            let secrets: BTreeMap<String, String> =
                game.cast.iter().map(|(seat, p)| (game.name(seat), p.secret.clone())).collect();
            seen.extend(game.cast.values().map(|p| p.id.clone()));
            let table = ArenaTable::new(game, cast, "CANARY-arena-parrot");
            recorder.0.lock().unwrap().clear();
            let mut leaks = Vec::new();
            let result = play_game(pipeline, table, &first, &mut |_, played| {
                if played.snapshot.as_ref().is_some_and(|s| s.phase == "over") {
                    return;
                }
                let mut public = vec![played.reply.text.clone()];
                public.extend(
                    played.messages.iter().filter(|m| m.audience == Audience::Everyone).map(|m| m.reply.text.clone()),
                );
                for (name, secret) in &secrets {
                    if public.iter().any(|t| t.contains(secret.as_str())) {
                        leaks.push(format!("{name}'s notes in public"));
                    }
                }
                if public.iter().any(|t| t.contains("ARENA-RUBRIC")) {
                    leaks.push("the rubric in public".into());
                }
                // No speaker shows its own instructions (the engine's echo guard).
                for instruction in
                    ["Write your contribution", "轮到你了。用你的口吻发言", "Reply with the comment only"]
                {
                    if let Some(t) = public.iter().find(|t| t.contains(instruction)) {
                        leaks.push(format!("a speaker's instructions in public: {t}"));
                    }
                }
            })
            .await;
            assert!(result.outcome.is_some(), "{lang:?} game {game_no} ended: {result:?}");
            assert_eq!(result.parsed, 0, "a parrot's scores are never readable");
            for prompt in recorder.0.lock().unwrap().iter() {
                if prompt.contains("ARENA-RUBRIC") {
                    // The scorer's prompt: the public record and the rubric, no notes.
                    for (name, secret) in &secrets {
                        if prompt.contains(secret.as_str()) {
                            leaks.push(format!("the scorer's prompt holds {name}'s notes"));
                        }
                    }
                    continue;
                }
                // The prompt's own card comes first (its system message);
                // later cards are public contributions that quoted one.
                let card_at = |name: &String| {
                    let plain = name.trim_end_matches(" 🤖");
                    [format!("You are {plain}:"), format!("你是{plain}：")]
                        .iter()
                        .filter_map(|c| prompt.find(c.as_str()))
                        .min()
                };
                let owner = secrets.keys().filter(|n| card_at(n).is_some()).min_by_key(|n| card_at(n));
                for (name, secret) in &secrets {
                    if Some(name) != owner && prompt.contains(secret.as_str()) {
                        leaks.push(format!("{owner:?}'s prompt holds {name}'s notes"));
                    }
                }
            }
            assert!(leaks.is_empty(), "{lang:?} game {game_no}: {leaks:#?}");
        }
        assert_eq!(seen.len(), cast.personas.len(), "every {lang:?} persona played");
    }
}

#[tokio::test]
async fn the_arena_plays_in_the_terminal_across_a_restart_and_replays_from_the_record() {
    let ollama = FakeOllama::start(Brain::new(&[])).await;
    let sandbox = Sandbox::new();
    // Ana speaks in round 1; in round 2 she reacts (refused: she is a
    // contestant) and quits while her turn is pending.
    let first = sandbox.write("arena-1.txt", "/status\nPut the reading room on stilts.\n/react 2\n/quit\n");
    let args = [
        "play",
        "arena",
        "Keep",
        "the",
        "flooded",
        "library",
        "open",
        "--characters",
        "2",
        "--max-turns",
        "6",
        "--turn-seconds",
        "5",
        "--seed",
        "3",
        "--name",
        "Ana",
        "--script",
        first.to_str().unwrap(),
    ];
    let run = sandbox.run(Some(&ollama.server.uri()), &args).await;
    assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
    let out = &run.stdout;
    assert!(out.contains("Topic: Keep the flooded library open"), "{out}");
    assert!(out.contains("#1 Ana, your turn"), "{out}");
    assert!(out.contains("🗣️ #1 Ana: Put the reading room on stilts."), "{out}");
    assert!(out.contains("🗣️ #2 ") && out.contains("📊 Round 1") && out.contains("📜 "), "{out}");
    assert!(out.contains("Contestants don't react"), "{out}");
    let session =
        run.stderr.lines().find_map(|l| l.strip_prefix("· session ")).and_then(|s| s.split_whitespace().next());
    let session = session.unwrap_or_else(|| panic!("a session id: {}", run.stderr)).to_string();

    // Resumed: Ana's turn passes without a word; she scores nothing, is
    // eliminated, and the game ends at the turn limit with the summary.
    let second = sandbox.write("arena-2.txt", "");
    let resumed = ["play", "--resume", &session, "--name", "Ana", "--script", second.to_str().unwrap()];
    let run2 = sandbox.run(Some(&ollama.server.uri()), &resumed).await;
    assert!(run2.ok, "{}\n{}", run2.stdout, run2.stderr);
    let both = format!("{out}\n{}", run2.stdout);
    assert!(both.contains("#1 Ana did not speak in time") && both.contains("❌ #1 Ana is eliminated"), "{both}");
    assert!(both.contains("The Arena closes") && both.contains("Final standings:"), "{both}");
    assert!(both.contains("out in round 2") && both.contains("The hidden strategies:"), "{both}");

    let replay = sandbox.run(Some(&ollama.server.uri()), &["replay", &session]).await;
    assert!(replay.ok, "{}\n{}", replay.stdout, replay.stderr);
    let text = &replay.stdout;
    assert!(text.contains("turn 1 · #1 Ana: Put the reading room on stilts."), "{text}");
    assert!(text.contains("turn 6 · #1 Ana (skipped)") && text.contains("📊 Round 2"), "{text}");

    // Any game's transcript, through its host: every turn and what it sent.
    let file = sandbox.path().join("arena.md");
    let args = ["transcript", session.as_str(), "--out", file.to_str().unwrap()];
    let written = sandbox.run(Some(&ollama.server.uri()), &args).await;
    assert!(written.ok, "{}\n{}", written.stdout, written.stderr);
    let markdown = std::fs::read_to_string(&file).unwrap();
    assert!(markdown.starts_with("# arena · transcript"), "{markdown}");
    assert!(markdown.contains("**Ana**: Put the reading room on stilts."), "{markdown}");
    assert!(markdown.contains("   > ") && markdown.contains("Final standings:"), "{markdown}");
}

#[tokio::test]
async fn arena_selfplay_reports_score_spread_length_and_parse_rate() {
    let sandbox = Sandbox::new();
    let config = sandbox.write(
        "scripted.toml",
        "[llm]\nprovider = \"scripted\"\nscripted_replies = [\"{\\\"novelty\\\": 7, \\\"builds_on_others\\\": 3, \\\"solves_problem\\\": 6, \\\"radical_thinking\\\": 2, \\\"manipulation\\\": 5}\", \"We should rent the basement to a rowing club.\"]\n",
    );
    let run = sandbox
        .echoes(None)
        .env("ECHOES__LLM__PROVIDER", "scripted")
        .args([
            "--config",
            config.to_str().unwrap(),
            "selfplay",
            "arena",
            "--games",
            "2",
            "--characters",
            "3",
            "--max-turns",
            "6",
        ])
        .output()
        .await
        .unwrap();
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{out}\n{}", String::from_utf8_lossy(&run.stderr));
    assert!(out.contains("2 games · mean length 6.0 turns"), "{out}");
    assert!(out.contains("scorer parse rate") && out.contains("novelty") && out.contains("manipulation"), "{out}");
    assert_eq!(out.lines().filter(|l| l.contains("finished")).count(), 2, "both games end: {out}");
}

#[test]
fn the_check_command_reads_the_bundled_cast() {
    let sources = echoes::assets::arena_sources(None).unwrap();
    let (roster, problems) = echoes::core::arena::Roster::from_sources(&sources);
    assert!(problems.is_empty(), "{problems:?}");
    assert!(roster.summary().contains("en: 18 personas"), "{}", roster.summary());
}

#[tokio::test]
async fn the_hosts_arena_rules_reach_the_terminal_game_from_the_line_and_the_config() {
    let ollama = FakeOllama::start(Brain::new(&[])).await;
    let sandbox = Sandbox::new();
    let script = sandbox.write("arena-end.txt", "/end\n");
    let config = sandbox.write("arena.toml", "[game.start.arena]\nelimination = \"lowest\"\nthreshold = 4\n");
    let args = [
        "--config",
        config.to_str().unwrap(),
        "play",
        "arena",
        "early_until:2",
        "middle_until:4",
        "Keep",
        "the",
        "library",
        "open",
        "--characters",
        "2",
        "--max-turns",
        "6",
        "--turn-seconds",
        "30",
        "--name",
        "Ana",
        "--script",
        script.to_str().unwrap(),
    ];
    let run = sandbox.run(Some(&ollama.server.uri()), &args).await;
    assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
    let out = &run.stdout;
    assert!(out.contains("Topic: Keep the library open"), "{out}");
    let rules = "Rules: eliminations from turn 3, the lowest goes out every round; the late stage from turn 5.";
    assert!(out.contains(rules), "the line's stages and the config's rule: {out}");
    assert!(out.contains("#1 Ana, your turn") && out.contains("(30 s)"), "{out}");
    let bad = ["play", "arena", "threshold:eleven", "--script", script.to_str().unwrap()];
    let refused = sandbox.run(Some(&ollama.server.uri()), &bad).await;
    assert!(!refused.ok && refused.stderr.contains("“eleven” is not a valid threshold"), "{}", refused.stderr);
}
