//! Who is the Undercover's secrecy, over every bundled pair, with a
//! parrot model (it answers with its whole prompt): no word reaches a
//! public message before the end, and no AI seat's prompt holds another
//! seat's word. And the game through the real binary in the terminal.

use std::sync::Arc;

use echoes::core::game::{Audience, Game};
use echoes::core::undercover::selfplay::play_game;
use echoes::core::undercover::{Dealt, Role, Rules, UndercoverGame};
use echoes::core::vocab::Language;
use echoes::core::vocab::Player;

use crate::support::{Brain, FakeOllama, Recorder, Sandbox};

/// Whether `text` says `word`: as whole words in English, as characters
/// in a row in Chinese.
fn says(text: &str, word: &str, lang: Language) -> bool {
    let fold = |t: &str| t.to_lowercase();
    match lang {
        Language::Zh if !word.is_ascii() => text.contains(word),
        _ => {
            let words: Vec<String> = fold(text)
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .map(str::to_string)
                .collect();
            let wanted: Vec<String> = fold(word).split_whitespace().map(str::to_string).collect();
            !wanted.is_empty() && words.windows(wanted.len()).any(|run| run == wanted.as_slice())
        }
    }
}

#[tokio::test]
async fn with_a_parrot_no_word_reaches_public_or_another_seats_prompt() {
    let dir = tempfile::tempdir().unwrap();
    let recorder = Arc::new(Recorder::default());
    let parts = echoes::bot::instant::offline_parts(&dir.path().join("e.db"), recorder.clone()).await.unwrap();
    let pipeline = &parts.engine.pipeline;
    let library = echoes::assets::words();
    assert!(library.len() >= 120, "{} pairs", library.len());
    let mut games = 0;
    for (i, themed) in library.pairs().iter().enumerate() {
        let lang = themed.language;
        let dealt = Dealt::from_pair(&themed.pair, i % 2 == 1);
        let blank = i % 3 == 0;
        let first = Player { id: "ai:0".into(), name: "AI 0 🤖".into() };
        let rules = Rules { blank, ..Rules::default() };
        let mut game = UndercoverGame::new(&first, 6, rules, lang, dealt.clone(), i as u64);
        for _ in 1..6 {
            game.seats = game.seats.add_ai().unwrap();
        }
        recorder.0.lock().unwrap().clear();
        let mut leaks: Vec<String> = Vec::new();
        let mut roles = std::collections::BTreeMap::new();
        let result = play_game(pipeline, game, &mut |state, played| {
            if roles.is_empty() {
                roles = state.roles.clone();
            }
            let ending = played.snapshot.as_ref().is_some_and(|s| s.phase == "over");
            if ending {
                return;
            }
            let mut public = vec![played.reply.text.clone()];
            public.extend(
                played.messages.iter().filter(|m| m.audience == Audience::Everyone).map(|m| m.reply.text.clone()),
            );
            // No seat's description shows its instructions (the engine's echo guard).
            for instruction in
                ["Who is the Undercover\". Most players", "谁是卧底”。大多数玩家", "Your word:", "你的词："]
            {
                if let Some(text) = public.iter().find(|t| t.contains(instruction)) {
                    leaks.push(format!("public: a seat's instructions in {text:?}"));
                }
            }
            for role in [Role::Civilian, Role::Undercover] {
                for form in dealt.forms(role) {
                    if let Some(text) = public.iter().find(|t| says(t, form, lang)) {
                        leaks.push(format!("public: {form:?} in {text:?}"));
                    }
                }
            }
            // A seat's private message holds its own word only (roles as
            // dealt by this very turn, for the first).
            let after = played.snapshot.as_ref().and_then(|s| UndercoverGame::restore(s).ok());
            if let Some(after) = after.as_ref().filter(|_| roles.is_empty()) {
                roles = after.roles.clone();
            }
            for m in &played.messages {
                if let Audience::Seat(seat) = &m.audience {
                    let own = roles.get(seat).copied().and_then(|r| dealt.word(r));
                    for other in [Role::Civilian, Role::Undercover].into_iter().filter_map(|r| dealt.word(r)) {
                        if Some(other) != own && says(&m.reply.text, other, lang) {
                            leaks.push(format!("to {seat}: {other:?} in {:?}", m.reply.text));
                        }
                    }
                }
            }
        })
        .await;
        assert!(result.outcome.is_some(), "{}: the game ended ({result:?})", dealt.pair_id);
        // Every prompt names its seat; it holds that seat's word and no other.
        for prompt in recorder.0.lock().unwrap().iter() {
            let seat = (0..6).find(|n| {
                prompt.contains(&format!("You are AI {n} 🤖.")) || prompt.contains(&format!("你是 AI {n} 🤖。"))
            });
            let Some(seat) = seat else {
                leaks.push(format!("a prompt names no seat: {prompt:.200}"));
                continue;
            };
            let own = roles.get(&format!("ai:{seat}")).and_then(|r| dealt.word(*r));
            for other in [Role::Civilian, Role::Undercover].into_iter().filter_map(|r| dealt.word(r)) {
                if Some(other) != own && says(prompt, other, lang) {
                    leaks.push(format!("seat {seat}'s prompt holds {other:?}"));
                }
            }
        }
        assert!(leaks.is_empty(), "{}: {leaks:#?}", dealt.pair_id);
        games += 1;
    }
    assert_eq!(games, library.len());
}

#[tokio::test]
async fn undercover_plays_in_the_terminal_through_a_script() {
    let ollama = FakeOllama::start(Brain::new(&[])).await;
    let sandbox = Sandbox::new();
    // Seat 1 (the human) describes first; the two AI seats follow; then
    // everyone votes. The script waits while the table is busy.
    let script =
        sandbox.write("undercover.txt", "/describe I have an opinion about it.\n/status\n/vote 2\n/word\n/end\n");
    let args = [
        "play",
        "undercover",
        "--ai-seats",
        "2",
        "--seed",
        "42",
        "--name",
        "Ana",
        "--script",
        script.to_str().unwrap(),
    ];
    let run = sandbox.run(Some(&ollama.server.uri()), &args).await;
    let out = &run.stdout;
    assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
    assert!(out.contains("#1 Ana (host), #2 AI 1 🤖, #3 AI 2 🤖"), "{out}");
    assert!(out.contains("Your word: **") || out.contains("You are the **blank**"), "{out}");
    assert!(out.contains("#1 Ana: “I have an opinion about it.”"), "{out}");
    assert!(out.contains("#2 AI 1 🤖: “") && out.contains("Vote now"), "{out}");
    assert!(out.contains("Words: civilians"), "the end shows the words: {out}");
    assert!(out.contains("Round 1 votes:"), "{out}");
    // The same seed deals the same game.
    let again = sandbox.run(Some(&ollama.server.uri()), &args).await;
    let words = |t: &str| t.lines().find(|l| l.contains("Words: civilians")).map(str::to_string);
    assert_eq!(words(&again.stdout), words(out));
}

#[tokio::test]
async fn selfplay_reports_win_rates_length_and_fallbacks_with_a_scripted_model() {
    let sandbox = Sandbox::new();
    // Descriptions, then votes for seat 2 or 3; "1" is never an AI's own
    // seat here except seat 1's, whose vote falls back.
    let config = sandbox.write(
        "scripted.toml",
        "[llm]\nprovider = \"scripted\"\nscripted_replies = [\"People have opinions about it.\", \"2\", \"It comes in many kinds.\", \"3\"]\n",
    );
    let run = sandbox
        .echoes(None)
        .env("ECHOES__LLM__PROVIDER", "scripted")
        .args([
            "--config",
            config.to_str().unwrap(),
            "selfplay",
            "undercover",
            "--games",
            "3",
            "--seats",
            "5",
            "--blank",
        ])
        .output()
        .await
        .unwrap();
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{out}\n{}", String::from_utf8_lossy(&run.stderr));
    assert!(out.contains("3 games · civilians won"), "{out}");
    assert!(out.contains("mean length") && out.contains("fell back to a safe move"), "{out}");
    let finished =
        out.lines().filter(|l| l.contains("civilians ") || l.contains("undercover ") || l.contains("blank ")).count();
    assert!(finished >= 3, "every game ends: {out}");
}

/// The difficulty of the pair an end shows ("Words: civilians X ·
/// undercover Y", any markup stripped), looked up in the bundled library.
pub fn shown_difficulty(text: &str) -> Option<echoes::core::soup::puzzle::Difficulty> {
    let line = text.lines().find(|l| l.contains("Words: civilians"))?.replace('*', "");
    let rest = line.split("Words: civilians ").nth(1)?;
    let (civilian, undercover) = rest.split_once(" · undercover ")?;
    let (civilian, undercover) = (civilian.trim(), undercover.trim().trim_end_matches('.'));
    let library = echoes::assets::words();
    let found = library.pairs().iter().find(|p| {
        let (a, b) = (p.pair.civilian.as_str(), p.pair.undercover.as_str());
        (a, b) == (civilian, undercover) || (b, a) == (civilian, undercover)
    });
    found.map(|p| p.pair.difficulty)
}

#[tokio::test]
async fn the_hosts_difficulty_and_undercover_count_reach_the_terminal_game_and_bad_ones_are_refused() {
    use echoes::core::soup::puzzle::Difficulty;
    let ollama = FakeOllama::start(Brain::new(&[])).await;
    let sandbox = Sandbox::new();
    let script = sandbox.write("end.txt", "/end\n");
    let script = script.to_str().unwrap();
    let uri = ollama.server.uri();
    let common = ["--ai-seats", "5", "--name", "Ana", "--script", script];
    for seed in ["7", "8"] {
        let mut args = vec!["play", "undercover", "difficulty:hard", "undercovers:2", "--seed", seed];
        args.extend(common);
        let run = sandbox.run(Some(&uri), &args).await;
        assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
        assert!(run.stdout.contains("6 seats, 2 undercovers"), "{}", run.stdout);
        assert_eq!(shown_difficulty(&run.stdout), Some(Difficulty::Hard), "{}", run.stdout);
    }
    // The config's `[game.start.undercover]` fills what the line leaves out.
    let config = sandbox.write("start.toml", "[game.start.undercover]\ndifficulty = \"easy\"\nundercovers = 2\n");
    let mut args = vec!["--config", config.to_str().unwrap(), "play", "undercover", "--seed", "7"];
    args.extend(common);
    let run = sandbox.run(Some(&uri), &args).await;
    assert!(run.ok && run.stdout.contains("2 undercovers"), "{}\n{}", run.stdout, run.stderr);
    assert_eq!(shown_difficulty(&run.stdout), Some(Difficulty::Easy), "{}", run.stdout);

    let extreme = sandbox.run(Some(&uri), &["play", "undercover", "difficulty:extreme", "--script", script]).await;
    assert!(!extreme.ok && extreme.stderr.contains("“extreme” is not a difficulty"), "{}", extreme.stderr);
    let crowded = ["play", "undercover", "undercovers:2", "--ai-seats", "3", "--script", script];
    let crowded = sandbox.run(Some(&uri), &crowded).await;
    assert!(!crowded.ok && crowded.stderr.contains("2 undercovers need 5 seats"), "{}", crowded.stderr);
}
