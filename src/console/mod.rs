//! The terminal front end: `echoes play`. One player, one session, lines
//! from the keyboard or from a script file; the same engine and command
//! catalogue as the bots.
//!
//! It only translates: a line becomes a `ConsoleCommand`, a `Delivery`
//! becomes printed text. Game rules live in `core`. `table.rs` does the
//! same for seated games (lobby, votes; only the human's own secrets are
//! printed). Like the chat front ends it goes through `bot` for delivery
//! by audience (what a stop left unshown, marking rows sent, the courier)
//! and the boards, and names no store adapter.

mod commands;
mod screen;
pub mod table;
pub mod transcript;

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use tokio::io::{AsyncBufReadExt, BufReader};

pub use commands::{ConsoleCommand, VERBS, parse_line};
use screen::Screen;

use crate::app::App;
use crate::bot::boards;
use crate::bot::delivery::{QueueCourier, host_reads, left_unsent, shown};
use crate::core::actor::{Delivery, Inbound, SessionHandle, is_final};
use crate::core::catalogue::Frontend;
use crate::core::game::TurnInput;
use crate::core::services::Progress;
use crate::core::soup::puzzle::Puzzle;
use crate::core::store::LoadedSession;
use crate::core::vocab::Difficulty;
use crate::core::vocab::Language;
use crate::core::vocab::Player;

#[derive(Debug, Clone, Default)]
pub struct PlayOptions {
    pub puzzle: Option<String>,
    pub script: Option<PathBuf>,
    pub resume: Option<String>,
    pub language: Option<Language>,
    pub difficulty: Option<Difficulty>,
    /// The player's name; on resume, defaults to the session's last player.
    pub name: Option<String>,
    /// AI players at the table (a new game only).
    pub ai_players: u32,
}

/// Where lines come from.
enum Lines {
    Script(std::vec::IntoIter<String>),
    Stdin(tokio::io::Lines<BufReader<tokio::io::Stdin>>),
}

impl Lines {
    async fn next(&mut self) -> anyhow::Result<Option<String>> {
        match self {
            Lines::Script(lines) => Ok(lines.next()),
            Lines::Stdin(lines) => Ok(lines.next_line().await?),
        }
    }
}

/// Plays one game in the terminal until it ends, the player quits or
/// input runs out.
pub async fn play(app: &App, opts: PlayOptions) -> anyhow::Result<()> {
    let mut screen = Screen::new(opts.script.is_some());
    let (handle, puzzle, player) = match &opts.resume {
        Some(id) => resume(app, id, opts.name.as_deref(), &mut screen).await?,
        None => {
            let player = console_player(opts.name.as_deref().unwrap_or("Player"));
            let (handle, puzzle) = start(app, &opts, &player, &mut screen).await?;
            (handle, puzzle, player)
        }
    };
    screen.info(&format!("session {} · resume with: echoes play --resume {}", handle.id, handle.id));
    let mut lines = match &opts.script {
        Some(path) => Lines::Script(script_lines(path)?.into_iter()),
        None => Lines::Stdin(BufReader::new(tokio::io::stdin()).lines()),
    };
    let lang = puzzle.language;
    // AI players' turns arrive through the engine's courier, printed as
    // they come, between the lines typed.
    let (tx, mut courier) = tokio::sync::mpsc::unbounded_channel();
    app.engine.set_courier(Arc::new(QueueCourier(tx)));
    let mut over = false;
    loop {
        screen.prompt();
        let line = tokio::select! {
            Some(delivery) = courier.recv() => {
                show(&handle, &delivery, &player, &mut screen).await?;
                if is_final(delivery.reply.kind) {
                    over = true;
                    break;
                }
                continue;
            }
            line = lines.next() => line?,
        };
        let Some(line) = line else { break };
        screen.echo(&line);
        let outcome = match parse_line(&app.catalogue, &line) {
            ConsoleCommand::Turn(input) => turn(&handle, &player, input, &mut screen).await?,
            ConsoleCommand::Quit => break,
            other => {
                screen.reply(&local_reply(app, other, lang).await?);
                continue;
            }
        };
        if outcome {
            over = true;
            break;
        }
    }
    if over {
        match transcript::write(app, Some(&handle.id), None).await {
            Ok(path) => screen.info(&format!("transcript: {}", path.display())),
            Err(e) => screen.info(&format!("the transcript could not be written: {e:#}")),
        }
        screen.info("game over · start another with: echoes play");
    }
    // Post-game memory is written in the background; let it finish.
    app.engine.settle().await;
    Ok(())
}

async fn start(
    app: &App,
    opts: &PlayOptions,
    player: &Player,
    screen: &mut Screen,
) -> anyhow::Result<(SessionHandle, Arc<Puzzle>)> {
    let puzzle = choose_puzzle(app, opts)?;
    let hint_limit = app.settings.game.hint_limit;
    let (handle, intro) =
        app.engine.start_session_with(puzzle.clone(), "console", hint_limit, player.clone(), opts.ai_players).await?;
    show(&handle, &intro, player, screen).await?;
    Ok((handle, puzzle))
}

fn choose_puzzle(app: &App, opts: &PlayOptions) -> anyhow::Result<Arc<Puzzle>> {
    if let Some(id) = &opts.puzzle {
        return app.library.get(id).ok_or_else(|| {
            let near = app.library.suggest(id);
            let hint = if near.is_empty() { String::new() } else { format!(" Did you mean: {}?", near.join(", ")) };
            anyhow::anyhow!("There is no puzzle {id:?}.{hint} `echoes puzzles list` shows them all.")
        });
    }
    let language = opts.language.or(Some(app.settings.language()));
    app.library
        .pick(language, opts.difficulty)
        .or_else(|| app.library.pick(None, opts.difficulty))
        .ok_or_else(|| anyhow::anyhow!("No puzzle matches; `echoes puzzles list` shows what is available."))
}

fn console_player(name: &str) -> Player {
    Player { id: format!("console:{}", name.to_lowercase()), name: name.to_string() }
}

/// Resumes a session as `name`, or as whoever last played in it.
async fn resume(
    app: &App,
    id: &str,
    name: Option<&str>,
    screen: &mut Screen,
) -> anyhow::Result<(SessionHandle, Arc<Puzzle>, Player)> {
    let library = &app.library;
    let (handle, loaded) = app
        .engine
        .resume_session(id, |pid| library.get(pid))
        .await
        .with_context(|| format!("resuming session {id}"))?;
    let puzzle = library.get(&loaded.puzzle_id).context("the session's puzzle disappeared")?;
    let player = match name {
        Some(name) => console_player(name),
        None => loaded.turns.last().map_or_else(|| console_player("Player"), |t| t.player.clone()),
    };
    replay_history(&loaded, &puzzle, screen);
    // The replay above shows every committed reply, including any the
    // previous process committed but was stopped before showing.
    for item in left_unsent(&app.engine, &handle.id).await? {
        shown(app.store.as_ref(), item.id).await?;
    }
    Ok((handle, puzzle, player))
}

/// Shows a resumed session's turns as they happened.
fn replay_history(loaded: &LoadedSession, puzzle: &Puzzle, screen: &mut Screen) {
    screen.info(&format!("resuming {} · {} turns so far", puzzle.title, loaded.turns.len()));
    for turn in &loaded.turns {
        if !turn.input.is_empty() {
            screen.echo_history(&turn.input);
        }
        screen.reply(&turn.reply.text);
    }
}

/// Sends one turn; returns true when the game is over.
/// What the terminal says when the database did not answer a turn.
pub(crate) const DATABASE_AWAY: &str =
    "the game's record can't be reached just now, so nothing was played: send that again in a moment";

async fn turn(handle: &SessionHandle, player: &Player, input: TurnInput, screen: &mut Screen) -> anyhow::Result<bool> {
    let spinner = screen.spinner();
    let progress = spinner
        .clone()
        .map(|bar| Arc::new(move |p: Progress| bar.set_message(phase_text(p))) as Arc<dyn Fn(Progress) + Send + Sync>);
    let mut inbound = Inbound::new(player.clone(), input);
    inbound.progress = progress;
    let delivery = handle.send(inbound).await;
    if let Some(bar) = spinner {
        bar.finish_and_clear();
    }
    let delivery = match delivery {
        Err(e) if e.is_unavailable() => {
            screen.info(DATABASE_AWAY);
            return Ok(false);
        }
        other => other?,
    };
    show(handle, &delivery, player, screen).await?;
    Ok(is_final(delivery.reply.kind))
}

/// Shows a turn's reply and the messages the human at the keyboard may
/// read: public ones, their own seat's, and the moderators' (the terminal's
/// player runs their own game). Another seat's private message is never
/// printed.
async fn show(handle: &SessionHandle, delivery: &Delivery, me: &Player, screen: &mut Screen) -> anyhow::Result<()> {
    screen.reply(&delivery.reply.text);
    for message in delivery.messages.iter().filter(|m| host_reads(&m.audience, me)) {
        screen.reply(&message.reply.text);
    }
    handle.delivered(delivery).await?;
    Ok(())
}

pub(crate) fn phase_text(p: Progress) -> String {
    match p {
        Progress::Judging => "the judge is thinking…".to_string(),
        Progress::Narrating => "the host is writing a remark…".to_string(),
        Progress::Step(step) => format!("{step}…"),
    }
}

/// Verbs answered without a turn.
async fn local_reply(app: &App, command: ConsoleCommand, lang: Language) -> anyhow::Result<String> {
    Ok(match command {
        ConsoleCommand::Help => ["soup", "soup-admin"]
            .map(|group| app.catalogue.group_help(Frontend::Terminal, lang, group, "/"))
            .join("\n"),
        ConsoleCommand::Leaderboard => leaderboard_text(app, lang).await?,
        ConsoleCommand::Puzzles => puzzle_list(app, Some(lang)),
        ConsoleCommand::Transcript => match lang {
            Language::En => {
                "The transcript is written to a file when the game ends (any later time: `echoes transcript`).".into()
            }
            Language::Zh => "游戏结束时会把完整记录写入文件（之后也可用 `echoes transcript`）。".into(),
        },
        ConsoleCommand::Usage(usage) => format!("Usage: {usage}"),
        ConsoleCommand::Unknown(verb) => {
            format!("Unknown command /{verb}. Type /help for the list.")
        }
        ConsoleCommand::Empty => match lang {
            Language::En => "Type a yes/no question, a guess, or /help.".into(),
            Language::Zh => "请输入一个是非题、你的推测，或 /help。".into(),
        },
        ConsoleCommand::Turn(_) | ConsoleCommand::Quit => String::new(),
    })
}

pub async fn leaderboard_text(app: &App, lang: Language) -> anyhow::Result<String> {
    let rows = boards::leaderboard(app.store.as_ref(), None).await?;
    if rows.is_empty() {
        return Ok(match lang {
            Language::En => "No scores yet: solve a puzzle to get on the board.".into(),
            Language::Zh => "还没有得分记录：解开一道题就能上榜。".into(),
        });
    }
    let lines: Vec<String> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| format!("{:>2}. {:<20} {:>5} pts  {} solved", i + 1, r.name, r.points, r.solves))
        .collect();
    Ok(format!("🏆 Leaderboard\n{}", lines.join("\n")))
}

pub fn puzzle_list(app: &App, lang: Option<Language>) -> String {
    app.library
        .all()
        .iter()
        .filter(|p| lang.is_none_or(|l| p.language == l))
        .map(|p| format!("{:<28} {:<3} {:<7} {}", p.id, p.language.code(), p.difficulty.to_string(), p.title))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Script lines: blank lines and `#` comments are skipped.
fn script_lines(path: &std::path::Path) -> anyhow::Result<Vec<String>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading the script file {}", path.display()))?;
    Ok(text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(str::to_string).collect())
}
