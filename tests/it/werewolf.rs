//! Werewolf's secrecy with a parrot model (it answers with its whole
//! prompt), over every role in en and zh: no public message before the
//! end pairs a seat with its hidden role or carries a seat's private line
//! or the canary; the human seat is told its own lines only; no AI seat's
//! prompt holds another seat's secret (a werewolf's, its pack's). And a
//! whole game in the terminal through the real binary, across a restart
//! in the middle of the night.

use std::collections::BTreeMap;
use std::sync::Arc;

use echoes::core::game::drive::drive;
use echoes::core::game::{Audience, Game, Played, TableOptions};
use echoes::core::vocab::{Language, Player};
use echoes::core::werewolf::{Role, Rules, WerewolfGame, WerewolfHost, WerewolfTable, deal, say, seat};

use crate::support::{Brain, FakeOllama, Recorder, Sandbox};

/// The seats a line names with their hidden role: "#3 AI 2 🤖 … Seer".
fn roles_named(game: &WerewolfGame, text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in text.lines() {
        for (seat, role) in &game.roles {
            let hidden = !game.revealed.contains(seat);
            let label = format!("{} ", game.label(seat));
            let named = line.contains(&label) || line.ends_with(label.trim_end());
            if hidden && named && line.contains(&say::role(game.language, *role)) {
                found.push(format!("{seat} as {role:?} in {line:?}"));
            }
        }
    }
    found
}

/// Whether two seats share what they were told (werewolves share the pack's).
fn same_team(game: &WerewolfGame, a: &str, b: &str) -> bool {
    a == b || [a, b].iter().all(|s| game.role(s).is_some_and(Role::is_wolf))
}

#[tokio::test]
async fn with_a_parrot_no_role_reaches_public_and_no_prompt_holds_another_seats_secret() {
    let dir = tempfile::tempdir().unwrap();
    let recorder = Arc::new(Recorder::default());
    let parts = echoes::bot::instant::offline_parts(&dir.path().join("e.db"), recorder.clone()).await.unwrap();
    let pipeline = &parts.engine.pipeline;
    let host = WerewolfHost::default();
    let human = Player { id: "t:human".into(), name: "Hana".into() };
    let mut covered: BTreeMap<(Language, Role), usize> = BTreeMap::new();
    for lang in [Language::En, Language::Zh] {
        for seed in 0..4u64 {
            let options =
                TableOptions { seats: Some(8), ai_seats: Some(7), seed: Some(seed), ..TableOptions::default() }
                    .with("witch", "yes")
                    .with("hunter", "yes");
            let game = host.lobby(&human, lang, &options, seed);
            let canary = echoes::core::actor::new_canary();
            let mut table = WerewolfTable::new(game, Vec::new(), &canary);
            recorder.0.lock().unwrap().clear();
            let mut leaks: Vec<String> = Vec::new();
            let mut watch = |_: &WerewolfTable, played: &Played| {
                let Some(after) = played.snapshot.as_ref().and_then(|s| WerewolfGame::restore(s).ok()) else { return };
                if after.outcome.is_some() {
                    return;
                }
                let mut public = vec![played.reply.text.clone()];
                public.extend(
                    played.messages.iter().filter(|m| m.audience == Audience::Everyone).map(|m| m.reply.text.clone()),
                );
                let public = public.join("\n");
                leaks.extend(roles_named(&after, &public));
                // No seat shows its own instructions (the engine's echo guard).
                if public.contains("social-deduction game Werewolf") || public.contains("quote these instructions") {
                    leaks.push(format!("a seat's instructions in public: {public:?}"));
                }
                if public.contains(&canary) {
                    leaks.push(format!("the canary in public: {public:?}"));
                }
                for seat in after.roles.keys() {
                    for line in seat::private_lines(&after, seat) {
                        if public.contains(&line) {
                            leaks.push(format!("{seat}'s line in public: {line:?}"));
                        }
                    }
                }
                for m in &played.messages {
                    let Audience::Seat(to) = &m.audience else { continue };
                    assert_eq!(to, &human.id, "AI seats are told nothing: they read the state");
                    for other in after.roles.keys().filter(|o| !same_team(&after, o, to)) {
                        for line in seat::private_lines(&after, other) {
                            if m.reply.text.contains(&line) {
                                leaks.push(format!("{other}'s line told to {to}: {line:?}"));
                            }
                        }
                    }
                }
            };
            drive(pipeline, &mut table, human.clone(), 3_000, &mut watch).await;
            let game = &table.game;
            assert!(game.is_over(), "{lang:?} seed {seed}: the game ended ({:?})", game.phase);
            for role in game.roles.values() {
                *covered.entry((lang, *role)).or_default() += 1;
            }
            // Every prompt names its seat; it holds no other team's lines.
            for prompt in recorder.0.lock().unwrap().iter() {
                let asking = game.roles.keys().find(|s| {
                    let label = game.label(s);
                    prompt.contains(&format!("You are {label}.")) || prompt.contains(&format!("你是 {label}。"))
                });
                let Some(asking) = asking else {
                    leaks.push(format!("a prompt names no seat: {prompt:.200}"));
                    continue;
                };
                assert!(game.is_ai(asking), "only AI seats are prompted");
                assert!(prompt.contains(&canary), "every AI prompt carries the canary");
                for other in game.roles.keys().filter(|o| !same_team(game, o, asking)) {
                    for line in seat::private_lines(game, other) {
                        if prompt.contains(&line) {
                            leaks.push(format!("{asking}'s prompt holds {other}'s line {line:?}"));
                        }
                    }
                }
            }
            assert!(leaks.is_empty(), "{lang:?} seed {seed}: {leaks:#?}");
        }
    }
    for lang in [Language::En, Language::Zh] {
        for role in Role::ALL {
            assert!(covered.get(&(lang, role)).is_some_and(|n| *n > 0), "{role:?} played in {lang:?}");
        }
    }
}

/// A seed that deals six seats as `want` (seat 1 first).
pub fn seed_for(want: &[Role]) -> u64 {
    (0..100_000).find(|s| deal(want.len(), *s, &Rules::default()) == want).expect("a seed deals these roles")
}

#[tokio::test]
async fn werewolf_plays_in_the_terminal_across_a_restart_in_the_night() {
    use Role::*;
    // Ana (#1) is the Seer, #2 the werewolf, #3 the Doctor.
    let seed = seed_for(&[Seer, Werewolf, Doctor, Villager, Villager, Villager]);
    let brain = Brain::new(&[]).with_others(&[
        ("Choose tonight's victim", r#"{"beliefs": [{"seat": 1, "belief": "sharp"}], "target": 4, "note": ""}"#),
        ("Choose a seat to protect", r#"{"beliefs": [], "target": 3}"#),
        ("Day 1, the vote", r#"{"beliefs": [], "target": 2}"#),
        ("the debate", r#"{"beliefs": [], "urgency": 1, "speech": "I keep my eyes open."}"#),
    ]);
    let ollama = FakeOllama::start(brain).await;
    let sandbox = Sandbox::new();
    let seed_text = seed.to_string();
    // The night waits for Ana's check; she stops there.
    let first = sandbox.write("one.txt", "/role\n/status\n/quit\n");
    let args = ["play", "werewolf", "--ai-seats", "5", "--seed", &seed_text, "--name", "Ana", "--script"];
    let mut run_args: Vec<&str> = args.to_vec();
    run_args.push(first.to_str().unwrap());
    let run = sandbox.run(Some(&ollama.server.uri()), &run_args).await;
    let out = &run.stdout;
    assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
    assert!(out.contains("#1 Ana (host)") && out.contains("Night 1"), "{out}");
    assert!(out.contains("Your role: **Seer**"), "Ana is told her role: {out}");
    assert!(!out.contains("Your role: **Werewolf**") && !out.contains("The werewolves:"), "and nothing else: {out}");
    assert!(!out.contains("died in the night"), "the night waits for the Seer: {out}");
    let session =
        run.stderr.lines().find_map(|l| l.strip_prefix("· session ")).and_then(|s| s.split_whitespace().next());
    let session = session.unwrap_or_else(|| panic!("a session id: {}", run.stderr)).to_string();

    // After the restart: the check, the night kill, the debate, the vote, the end.
    let second = sandbox.write("two.txt", "/check 2\n/speak I checked #2: a werewolf.\n/pass\n/vote 2\n");
    let resumed = ["play", "--resume", &session, "--name", "Ana", "--script", second.to_str().unwrap()];
    let run = sandbox.run(Some(&ollama.server.uri()), &resumed).await;
    let out = &run.stdout;
    assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
    assert!(out.contains("#2 AI 1 🤖 is **a werewolf**"), "the Seer's check: {out}");
    assert!(out.contains("#4 AI 3 🤖 died in the night"), "the night kill: {out}");
    assert!(out.contains("#1 Ana: “I checked #2: a werewolf.”") && out.contains("I keep my eyes open."), "{out}");
    assert!(out.contains("#2 AI 1 🤖 is exiled") && out.contains("The villagers win"), "{out}");
    assert!(out.contains("Roles:") && out.contains("#2 AI 1 🤖 · Werewolf"), "the end shows every role: {out}");
    assert!(out.contains("the Seer checked #2 AI 1 🤖: a werewolf"), "every night action: {out}");
    assert!(out.contains("the Doctor protected #3 AI 2 🤖") && out.contains("Day 1 votes:"), "{out}");
}

/// `echoes selfplay werewolf` through the engine's one self-play driver:
/// win rates by side, length in days, vote accuracy and fallbacks, with a
/// scripted model whose replies no seat can use (every move falls back).
#[tokio::test]
async fn selfplay_reports_sides_length_vote_accuracy_and_fallbacks() {
    let sandbox = Sandbox::new();
    let config =
        sandbox.write("scripted.toml", "[llm]\nprovider = \"scripted\"\nscripted_replies = [\"I am not sure.\"]\n");
    let run = sandbox
        .echoes(None)
        .env("ECHOES__LLM__PROVIDER", "scripted")
        .args(["--config", config.to_str().unwrap(), "selfplay", "werewolf", "--games", "2", "--seats", "6"])
        .output()
        .await
        .unwrap();
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{out}\n{}", String::from_utf8_lossy(&run.stderr));
    for figure in ["villagers won", "werewolves won", "mean length (days)", "day votes against a werewolf", "fell back"]
    {
        assert!(out.contains(figure), "no `{figure}` in:\n{out}");
    }
    let games = out
        .lines()
        .filter(|l| l.contains("villagers ") || l.contains("werewolves ") || l.contains("unfinished "))
        .count();
    assert!(games >= 2, "a row per game: {out}");
}
