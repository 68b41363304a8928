//! No reply shown twice after a crash, on Slack.
//!
//! A reply is committed to the outbox before it is shown and marked sent
//! after; a process killed between the two leaves a row that is unsent but
//! already in the thread. Discord absorbs the resend with `enforce_nonce`;
//! Slack has no such thing, so each message the bot posts for an outbox
//! row carries the row in Slack's message metadata (`event_type`
//! `echoes_outbox`, `event_payload` `{"row": id, "piece": i}`: a long
//! reply is several messages). A process that shows a session's unsent
//! rows (on resume, on taking a session over) first reads the thread's
//! replies with their metadata (`conversations.replies` with
//! `include_all_metadata`) and posts only the pieces not already there.
//!
//! Messages only one user sees (`chat.postEphemeral`) are not in the
//! thread's history; a private row can still be shown twice.

use std::collections::{BTreeSet, HashMap};

use slack_morphism::prelude::*;

/// The metadata's `event_type`.
pub const EVENT_TYPE: &str = "echoes_outbox";
/// Pages of replies read at most (200 each) when looking for shown rows.
const MAX_PAGES: usize = 10;

/// The metadata of piece `piece` of outbox row `row`.
pub fn metadata(row: i64, piece: usize) -> SlackMessageMetadata {
    let payload = HashMap::from([("row".to_owned(), row.to_string()), ("piece".to_owned(), piece.to_string())]);
    SlackMessageMetadata::new(EVENT_TYPE.to_owned()).with_event_payload(payload)
}

/// A message's text, marked as piece `mark.1` of row `mark.0` when it
/// shows an outbox row.
pub fn outbox_text(text: &str, mark: Option<(i64, usize)>) -> SlackMessageContent {
    let content = SlackMessageContent::new().with_text(text.to_owned());
    match mark {
        Some((row, piece)) => content.with_metadata(metadata(row, piece)),
        None => content,
    }
}

/// The row and piece a message stands for, when the bot posted it for one.
pub fn marked(content: &SlackMessageContent) -> Option<(i64, usize)> {
    let metadata = content.metadata.as_ref().filter(|m| m.event_type == EVENT_TYPE)?;
    let payload = metadata.event_payload.as_ref()?;
    Some((payload.get("row")?.parse().ok()?, payload.get("piece")?.parse().ok()?))
}

/// The pieces of outbox rows a thread already shows.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Shown(HashMap<i64, BTreeSet<usize>>);

impl Shown {
    pub fn from_messages<'a>(messages: impl IntoIterator<Item = &'a SlackMessageContent>) -> Shown {
        let mut shown = Shown::default();
        for (row, piece) in messages.into_iter().filter_map(marked) {
            shown.0.entry(row).or_default().insert(piece);
        }
        shown
    }

    pub fn has(&self, row: i64, piece: usize) -> bool {
        self.0.get(&row).is_some_and(|pieces| pieces.contains(&piece))
    }

    pub fn rows(&self) -> usize {
        self.0.len()
    }
}

/// The rows already shown in the thread under `thread_ts`, read with
/// their metadata from Slack (every page, oldest first).
pub async fn shown_in_thread(
    session: &SlackClientSession<'_, SlackClientHyperHttpsConnector>,
    channel: &str,
    thread_ts: &str,
) -> anyhow::Result<Shown> {
    let mut contents = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..MAX_PAGES {
        let mut params = vec![
            ("channel", Some(channel.to_owned())),
            ("ts", Some(thread_ts.to_owned())),
            ("include_all_metadata", Some("true".to_owned())),
            ("limit", Some("200".to_owned())),
        ];
        if let Some(cursor) = &cursor {
            params.push(("cursor", Some(cursor.clone())));
        }
        let page: SlackApiConversationsRepliesResponse = session
            .http_session_api
            .http_get("conversations.replies", &params, None)
            .await
            .map_err(|e| anyhow::anyhow!("Slack conversations.replies failed: {e}"))?;
        contents.extend(page.messages.into_iter().map(|m| m.content));
        cursor = page.response_metadata.and_then(|m| m.next_cursor).map(|c| c.to_string()).filter(|c| !c.is_empty());
        if cursor.is_none() {
            break;
        }
    }
    Ok(Shown::from_messages(&contents))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marked_message_names_its_row_and_piece() {
        let content = SlackMessageContent::new().with_text("hi".into()).with_metadata(metadata(42, 1));
        assert_eq!(marked(&content), Some((42, 1)));
        let other = SlackMessageContent::new()
            .with_text("hi".into())
            .with_metadata(SlackMessageMetadata::new("something_else".into()));
        assert_eq!(marked(&other), None);
        let shown = Shown::from_messages([&content, &other]);
        assert!(shown.has(42, 1) && !shown.has(42, 0) && !shown.has(7, 1));
        assert_eq!(shown.rows(), 1);
    }

    #[test]
    fn metadata_goes_out_as_slack_reads_it() {
        let json = serde_json::to_value(metadata(5, 0)).unwrap();
        assert_eq!(json["event_type"], "echoes_outbox");
        assert_eq!(json["event_payload"]["row"], "5");
        assert_eq!(json["event_payload"]["piece"], "0");
    }
}
