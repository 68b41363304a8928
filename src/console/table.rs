//! Seated games in the terminal: the one human at the keyboard plays with
//! AI seats. Lines become the engine's lobby and ballot moves
//! (`/join`, `/leave`, `/begin`, `/add-ai`, `/vote <id>`, `/whisper`,
//! `/status`); what comes back is printed only where the human may read
//! it: public messages, their own seat's, never another seat's. Replies of
//! turns nobody typed (an AI seat's vote, a deadline) arrive through the
//! engine's courier (`TerminalCourier`) and are printed the same way.

use tokio::sync::mpsc;

use crate::core::actor::{Courier, Delivery, Inbound, SessionHandle};
use crate::core::game::{Audience, TurnInput};
use crate::core::soup::Player;

/// One line typed at a seated game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableLine {
    Move(TurnInput),
    Quit,
    /// Not a verb of seated games: shown the list of verbs.
    Unknown(String),
    Empty,
}

/// The verbs, for help and errors.
pub const TABLE_VERBS: &str = "/join /leave /begin /add-ai /vote <id> /whisper /status /quit";

pub fn parse_table_line(line: &str) -> TableLine {
    let line = line.trim();
    if line.is_empty() {
        return TableLine::Empty;
    }
    let (verb, rest) = line.split_once(' ').unwrap_or((line, ""));
    match verb.to_lowercase().as_str() {
        "/join" => TableLine::Move(TurnInput::Join),
        "/leave" => TableLine::Move(TurnInput::Leave),
        "/begin" | "/start" => TableLine::Move(TurnInput::Begin),
        "/add-ai" => TableLine::Move(TurnInput::AddAi),
        "/vote" if !rest.trim().is_empty() => TableLine::Move(TurnInput::Vote(rest.trim().to_string())),
        "/whisper" => TableLine::Move(TurnInput::Whisper),
        "/status" => TableLine::Move(TurnInput::Status),
        "/quit" | "/exit" => TableLine::Quit,
        _ => TableLine::Unknown(verb.to_string()),
    }
}

/// The texts of a delivery the human `me` may read, in order.
pub fn visible(delivery: &Delivery, me: &Player) -> Vec<String> {
    let mut out = vec![delivery.reply.text.clone()];
    for m in &delivery.messages {
        let readable = match &m.audience {
            Audience::Everyone | Audience::Moderators => true,
            Audience::Seat(id) => *id == me.id,
        };
        if readable {
            out.push(m.reply.text.clone());
        }
    }
    if !delivery.choices.is_empty() {
        let ids: Vec<String> = delivery.choices.iter().map(|(id, label)| format!("{id} ({label})")).collect();
        out.push(format!("vote with /vote <id>: {}", ids.join(", ")));
    }
    out.retain(|t| !t.is_empty());
    out
}

/// Hands the replies of AI seats' moves and deadlines to the play loop.
pub struct TerminalCourier(pub mpsc::UnboundedSender<Delivery>);

impl Courier for TerminalCourier {
    fn deliver(&self, _session_id: &str, delivery: Delivery) {
        let _ = self.0.send(delivery);
    }
}

/// Plays `lines` at a table as `me`, printing through `out`. Replies the
/// courier brought in the meantime are printed before each line. Returns
/// whether the game is over.
pub async fn play_lines(
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
        let input = match parse_table_line(&line) {
            TableLine::Move(input) => input,
            TableLine::Quit => return Ok(false),
            TableLine::Empty => continue,
            TableLine::Unknown(verb) => {
                out(&format!("Unknown command {verb}. Try: {TABLE_VERBS}"));
                continue;
            }
        };
        let delivery = handle.send(Inbound::new(me.clone(), input)).await?;
        if show(handle, me, &delivery, out).await? {
            return Ok(true);
        }
    }
    drain(handle, me, courier, out).await
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

#[cfg(test)]
mod tests;
