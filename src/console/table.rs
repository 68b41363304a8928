//! Seated games in the terminal: the one human at the keyboard plays with
//! AI seats. Lines become the engine's lobby and ballot moves
//! (`/join`, `/leave`, `/begin`, `/add-ai`, `/vote <id>`, `/whisper`,
//! `/status`); what comes back is printed only where the human may read
//! it: public messages, their own seat's, never another seat's. Replies of
//! turns nobody typed (an AI seat's vote, a deadline) arrive through the
//! engine's courier (`TerminalCourier`, the bot layer's queue) and are
//! printed the same way; rows a stop left unshown come through the bot
//! layer too (`bot::delivery`), as they do for the chat front ends.

use std::path::PathBuf;
use std::sync::Arc;

use tokio::sync::mpsc;

use crate::app::App;
use crate::bot::delivery::{host_reads, left_unsent, shown};
use crate::core::actor::{Delivery, Inbound, SessionHandle};
use crate::core::catalogue::{Catalogue, Frontend, Move, Parsed, ReadError};
use crate::core::game::{HostedGame, TableOptions, TurnInput};
use crate::core::services::Progress;
use crate::core::store::NewSession;
use crate::core::vocab::Language;
use crate::core::vocab::Player;

use super::screen::Screen;

/// One line typed at a seated game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableLine {
    Move(TurnInput),
    Quit,
    /// Not a verb of this game (or one missing what it needs): shown the
    /// list of verbs.
    Unknown(String),
    Empty,
}

/// A seated game's verbs as the terminal reads them: the game's group of
/// the catalogue, parsed by the catalogue like every front end's.
#[derive(Debug, Clone)]
pub struct TableVerbs {
    pub catalogue: Catalogue,
    pub group: String,
    /// The language help is shown in.
    pub lang: Language,
}

impl TableVerbs {
    pub fn new(catalogue: Catalogue, group: &str, lang: Language) -> TableVerbs {
        TableVerbs { catalogue, group: group.to_string(), lang }
    }

    /// A line: free text is the game's (a description, a contribution, an
    /// action); `/verb …` is read by the catalogue. `/start` begins the
    /// game here (the lobby is already open), `/quit` leaves.
    pub fn read(&self, line: &str) -> TableLine {
        let line = line.trim();
        if line.is_empty() {
            return TableLine::Empty;
        }
        let Some(typed) = line.strip_prefix('/') else {
            return TableLine::Move(TurnInput::Say(line.to_string()));
        };
        let verb = typed.split_whitespace().next().unwrap_or_default().to_lowercase();
        if matches!(verb.as_str(), "quit" | "exit") {
            return TableLine::Quit;
        }
        let unknown = || TableLine::Unknown(format!("/{verb}"));
        match self.catalogue.read_line(Frontend::Terminal, &self.group, typed, "/") {
            Ok(Parsed::Input { input, .. }) => TableLine::Move(input),
            Ok(Parsed::Bot { verb, .. }) if verb.action == Some(Move::Start) => TableLine::Move(TurnInput::Begin),
            Ok(Parsed::Bot { .. }) | Err(ReadError::Unknown(_) | ReadError::Usage(_)) => unknown(),
        }
    }

    /// Every verb, for help and errors.
    pub fn help(&self) -> String {
        let verbs = self.catalogue.group_help(Frontend::Terminal, self.lang, &self.group, "/");
        format!(
            "{verbs}
/quit  Leave (a line without / is your move in words)"
        )
    }
}

/// The texts of a delivery the human `me` may read, in order.
pub fn visible(delivery: &Delivery, me: &Player) -> Vec<String> {
    let mut out = vec![delivery.reply.text.clone()];
    for m in delivery.messages.iter().filter(|m| host_reads(&m.audience, me)) {
        out.push(m.reply.text.clone());
    }
    if !delivery.choices.is_empty() {
        let ids: Vec<String> = delivery.choices.iter().map(|(id, label)| format!("{id} ({label})")).collect();
        out.push(format!("vote with /vote <id>: {}", ids.join(", ")));
    }
    out.retain(|t| !t.is_empty());
    out
}

/// Hands the replies of AI seats' moves and deadlines to the play loop:
/// the bot layer's queue courier, under the terminal's name.
pub use crate::bot::delivery::QueueCourier as TerminalCourier;

/// Plays `lines` at a table as `me`, printing through `out`. Replies the
/// courier brought in the meantime are printed before each line. Returns
/// whether the game is over.
pub async fn play_lines(
    verbs: &TableVerbs,
    handle: &SessionHandle,
    me: &Player,
    lines: impl IntoIterator<Item = String>,
    courier: &mut mpsc::UnboundedReceiver<Delivery>,
    out: &mut dyn FnMut(&str),
) -> anyhow::Result<bool> {
    for line in lines {
        if drain(handle, me, courier, out).await? {
            return Ok(true);
        }
        match step(verbs, handle, me, &line, out).await? {
            Step::Quit => return Ok(false),
            Step::Over => return Ok(true),
            Step::On(_) => {}
        }
    }
    drain(handle, me, courier, out).await
}

/// What one typed line did.
enum Step {
    /// The game goes on; the deadline the line's turn set, if any.
    On(Option<i64>),
    Over,
    Quit,
}

/// Plays one typed line and prints what the human may read of it.
async fn step(
    verbs: &TableVerbs,
    handle: &SessionHandle,
    me: &Player,
    line: &str,
    out: &mut dyn FnMut(&str),
) -> anyhow::Result<Step> {
    let input = match verbs.read(line) {
        TableLine::Move(input) => input,
        TableLine::Quit => return Ok(Step::Quit),
        TableLine::Empty => return Ok(Step::On(None)),
        TableLine::Unknown(verb) => {
            out(&format!("Unknown command {verb}. Try:\n{}", verbs.help()));
            return Ok(Step::On(None));
        }
    };
    // On a terminal, a spinner names the step a turn is at (the Lore
    // RPG's "Validating your action against the lore").
    let spinner = Screen::new(false).spinner();
    let mut inbound = Inbound::new(me.clone(), input);
    inbound.progress = spinner.clone().map(|bar| {
        Arc::new(move |p: Progress| bar.set_message(super::phase_text(p))) as Arc<dyn Fn(Progress) + Send + Sync>
    });
    let delivery = handle.send(inbound).await;
    if let Some(bar) = spinner {
        bar.finish_and_clear();
    }
    let delivery = match delivery {
        Err(e) if e.is_unavailable() => {
            out(super::DATABASE_AWAY);
            return Ok(Step::On(None));
        }
        other => other?,
    };
    Ok(if show(handle, me, &delivery, out).await? { Step::Over } else { Step::On(delivery.deadline_ms) })
}

/// Plays a seated game from a line source until it ends, the human quits
/// or input runs out, printing what the courier brings as it comes
/// (AI seats' moves and deadlines do not wait for the human's next line).
/// A script's lines are played once the table has been quiet for
/// `settle`, so AI seats move in between as they would live. When the
/// lines run out, the game goes on by itself (deadlines, AI seats) and is
/// printed until it ends or nothing more is due.
pub async fn play_live(
    verbs: &TableVerbs,
    handle: &SessionHandle,
    me: &Player,
    mut lines: mpsc::Receiver<String>,
    courier: &mut mpsc::UnboundedReceiver<Delivery>,
    settle: Option<std::time::Duration>,
    out: &mut dyn FnMut(&str),
) -> anyhow::Result<bool> {
    let mut deadline: Option<i64> = None;
    loop {
        if let Some(quiet) = settle {
            while let Ok(Some(delivery)) = tokio::time::timeout(quiet, courier.recv()).await {
                deadline = delivery.deadline_ms.or(deadline);
                if show(handle, me, &delivery, out).await? {
                    return Ok(true);
                }
            }
        }
        let line = tokio::select! {
            delivery = courier.recv() => {
                match delivery {
                    Some(delivery) => {
                        deadline = delivery.deadline_ms.or(deadline);
                        if show(handle, me, &delivery, out).await? {
                            return Ok(true);
                        }
                        continue;
                    }
                    None => continue,
                }
            }
            line = lines.recv() => line,
        };
        let Some(line) = line else { return wait_out(handle, me, courier, deadline, out).await };
        match step(verbs, handle, me, &line, out).await? {
            Step::Quit => return Ok(false),
            Step::Over => return Ok(true),
            Step::On(set) => deadline = set.or(deadline),
        }
    }
}

/// Quiet this long with no deadline due: nothing more is coming.
const QUIET_MS: i64 = 5_000;
/// How long after a deadline its turn may take to arrive.
const GRACE_MS: i64 = 3_000;

/// The input ended: prints what the game does by itself until it ends, or
/// until nothing arrives by the last deadline (plus a grace) or, without
/// one, for a few quiet seconds. True when the game ended.
async fn wait_out(
    handle: &SessionHandle,
    me: &Player,
    courier: &mut mpsc::UnboundedReceiver<Delivery>,
    mut deadline: Option<i64>,
    out: &mut dyn FnMut(&str),
) -> anyhow::Result<bool> {
    loop {
        let now =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64);
        let wait = deadline.filter(|d| *d + GRACE_MS > now).map_or(QUIET_MS, |d| d + GRACE_MS - now);
        match tokio::time::timeout(std::time::Duration::from_millis(wait as u64), courier.recv()).await {
            Ok(Some(delivery)) => {
                deadline = delivery.deadline_ms.or(deadline);
                if show(handle, me, &delivery, out).await? {
                    return Ok(true);
                }
            }
            _ => return Ok(false),
        }
    }
}

/// Prints what the courier brought so far; true when the game ended.
async fn drain(
    handle: &SessionHandle,
    me: &Player,
    courier: &mut mpsc::UnboundedReceiver<Delivery>,
    out: &mut dyn FnMut(&str),
) -> anyhow::Result<bool> {
    while let Ok(delivery) = courier.try_recv() {
        if show(handle, me, &delivery, out).await? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Prints a delivery for `me`, marks it delivered; true when the game ended.
pub async fn show(
    handle: &SessionHandle,
    me: &Player,
    delivery: &Delivery,
    out: &mut dyn FnMut(&str),
) -> anyhow::Result<bool> {
    for text in visible(delivery, me) {
        out(&text);
    }
    handle.delivered(delivery).await?;
    Ok(delivery.over)
}

/// How a seated game is played in the terminal.
pub struct SeatedOptions {
    pub options: TableOptions,
    pub name: String,
    pub script: Option<PathBuf>,
}

/// Plays a hosted seated game (`echoes play undercover`): the human at the
/// keyboard hosts, AI seats fill the table, and the game starts at once.
pub async fn play_hosted(app: &App, game: Arc<dyn HostedGame>, run: SeatedOptions) -> anyhow::Result<()> {
    let me = Player { id: format!("console:{}", run.name.to_lowercase()), name: run.name.clone() };
    let mut screen = Screen::new(run.script.is_some());
    let (tx, mut courier) = mpsc::unbounded_channel();
    app.engine.set_courier(Arc::new(TerminalCourier(tx)));
    let language = run.options.language.unwrap_or_else(|| app.settings.language());
    let template = NewSession::for_game(game.kind(), language, "console", app.engine.clock.now_ms());
    let (new, table) = game.open(&me, language, &run.options, template).map_err(|why| anyhow::anyhow!(why))?;
    let handle = app.engine.create_session(&new, table).await?;
    screen
        .info(&format!("session {} · resume with: echoes play --resume {} --name {}", handle.id, handle.id, run.name));
    let mut out = |text: &str| screen.reply(text);
    for input in [TurnInput::Status, TurnInput::Begin] {
        let delivery = handle.send(Inbound::new(me.clone(), input)).await?;
        show(&handle, &me, &delivery, &mut out).await?;
    }
    let verbs = TableVerbs::new(app.catalogue.clone(), game.group(), language);
    run_seated(app, &verbs, &handle, &me, &run, &mut courier, &mut out).await
}

/// Goes on with a stored seated game (`echoes play --resume ID`): what a
/// stop left unprinted for the human is printed first, then the game runs
/// as before (its deadlines and AI seats picked up where they were).
pub async fn resume_hosted(app: &App, game: Arc<dyn HostedGame>, id: &str, run: SeatedOptions) -> anyhow::Result<()> {
    let me = Player { id: format!("console:{}", run.name.to_lowercase()), name: run.name.clone() };
    let mut screen = Screen::new(run.script.is_some());
    let (tx, mut courier) = mpsc::unbounded_channel();
    app.engine.set_courier(Arc::new(TerminalCourier(tx)));
    let handle = app.engine.resume_table(id, |loaded| game.resume(loaded)).await?;
    screen.info(&format!("session {} (resumed)", handle.id));
    let mut out = |text: &str| screen.reply(text);
    for item in left_unsent(&app.engine, &handle.id).await? {
        if host_reads(&item.audience, &me) {
            out(&item.body);
        }
        shown(app.store.as_ref(), item.id).await?;
    }
    let delivery = handle.send(Inbound::new(me.clone(), TurnInput::Status)).await?;
    // Deadlines that passed while no process ran fire on resume, before
    // the status is played: their turns are shown first, even when they
    // ended the game.
    while let Ok(fired) = courier.try_recv() {
        show(&handle, &me, &fired, &mut out).await?;
    }
    if show(&handle, &me, &delivery, &mut out).await? {
        return Ok(());
    }
    let verbs = TableVerbs::new(app.catalogue.clone(), game.group(), app.settings.language());
    run_seated(app, &verbs, &handle, &me, &run, &mut courier, &mut out).await
}

/// The play loop of a seated game, from the script or stdin.
async fn run_seated(
    app: &App,
    verbs: &TableVerbs,
    handle: &SessionHandle,
    me: &Player,
    run: &SeatedOptions,
    courier: &mut mpsc::UnboundedReceiver<Delivery>,
    out: &mut dyn FnMut(&str),
) -> anyhow::Result<()> {
    let (lines_tx, lines) = mpsc::channel(64);
    let settle = match &run.script {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| anyhow::anyhow!("cannot read the script {}: {e}", path.display()))?;
            tokio::spawn(async move {
                for line in text.lines() {
                    if lines_tx.send(line.to_string()).await.is_err() {
                        break;
                    }
                }
            });
            Some(std::time::Duration::from_millis(400))
        }
        None => {
            tokio::spawn(async move {
                use tokio::io::AsyncBufReadExt as _;
                let mut stdin = tokio::io::BufReader::new(tokio::io::stdin()).lines();
                while let Ok(Some(line)) = stdin.next_line().await {
                    if lines_tx.send(line).await.is_err() {
                        break;
                    }
                }
            });
            None
        }
    };
    let over = play_live(verbs, handle, me, lines, courier, settle, out).await?;
    if !over {
        eprintln!(
            "· the game is still on; it goes on by its deadlines while the bot runs: echoes play --resume {} --name {}",
            handle.id, me.name
        );
    }
    app.engine.settle().await;
    Ok(())
}

#[cfg(test)]
mod tests;
