//! The Web API calls the bot makes: post (in a thread or not), update a
//! message in place, delete one, answer one user privately, share a file. Text reaching here is
//! already neutralised (`render.rs`); links and names are never expanded.
//!
//! Slack's rate limits: a call answered 429 (`ratelimited`) waits the
//! `Retry-After` Slack gives and goes again (`paced`), and until that wait
//! ends every other call to the same method waits too, so none is sent
//! before it is over. Slack's limits are per method (per channel for
//! `chat.postMessage`): holding the whole method is the safe reading of a
//! 429 that does not say which.

use std::future::Future;
use std::time::Duration;

use anyhow::Context as _;
use slack_morphism::errors::SlackClientError;
use slack_morphism::prelude::*;
use tokio::time::Instant;

use super::SlackBot;

/// Every Web API method the bot calls with its bot token, and the bot
/// token scopes it needs (the app manifest, `deploy/slack-manifest.json`,
/// asks for exactly these, with the events' and the slash commands'; see
/// `manifest.rs`). `paced` calls only methods listed here.
/// `apps.connections.open` (Socket Mode) is called with the app-level
/// token, whose one scope is `connections:write`; the upload of a file's
/// bytes goes to the URL `files.getUploadURLExternal` gave and needs none.
pub const METHODS: &[(&str, &[&str])] = &[
    // Who the bot is, at start (`SlackBot::connect`).
    ("auth.test", &[]),
    // Replies, the "thinking…" message, game surfaces and lobbies.
    ("chat.postMessage", &["chat:write"]),
    ("chat.update", &["chat:write"]),
    ("chat.delete", &["chat:write"]),
    // Refusals, help and a seat's secrets: one user sees them.
    ("chat.postEphemeral", &["chat:write"]),
    // `/soup transcript` shares the last game as a file.
    ("files.getUploadURLExternal", &["files:write"]),
    ("files.completeUploadExternal", &["files:write"]),
    // Players shown by their display names (the user id without it).
    ("users.info", &["users:read"]),
    // Members of the moderators' user group (`admin_group`, `config mod-role`).
    ("usergroups.users.list", &["usergroups:read"]),
    // A thread's replies with their metadata, before unsent rows are shown
    // again (`outbox.rs`): games run in public and in private channels.
    ("conversations.replies", &["channels:history", "groups:history"]),
];

/// Most times one call goes again after a 429.
const RETRIES: usize = 8;
/// The wait when a 429 says none.
const DEFAULT_WAIT: Duration = Duration::from_secs(1);

fn content(text: &str) -> SlackMessageContent {
    SlackMessageContent::new().with_text(text.to_string())
}

fn failed(what: &str, e: impl std::fmt::Display) -> anyhow::Error {
    anyhow::anyhow!("Slack {what} failed: {e}")
}

impl SlackBot {
    /// Sends one call to `method`, waiting out Slack's 429s (see above).
    async fn paced<T, F>(&self, method: &str, call: impl Fn() -> F) -> ClientResult<T>
    where
        F: Future<Output = ClientResult<T>>,
    {
        debug_assert!(METHODS.iter().any(|(m, _)| *m == method), "{method} is not in web::METHODS");
        let mut retries = 0;
        loop {
            self.wait_for(method).await;
            match call().await {
                Err(SlackClientError::RateLimitError(e)) if retries < RETRIES => {
                    retries += 1;
                    let wait = e.retry_after.unwrap_or(DEFAULT_WAIT);
                    tracing::debug!(method, ?wait, retries, "Slack rate limit: waiting before sending again");
                    self.hold(method, Instant::now() + wait);
                }
                other => return other,
            }
        }
    }

    /// Waits until no 429's wait holds `method`.
    async fn wait_for(&self, method: &str) {
        loop {
            let until = self.held.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get(method).copied();
            match until {
                Some(until) if until > Instant::now() => tokio::time::sleep_until(until).await,
                _ => return,
            }
        }
    }

    fn hold(&self, method: &str, until: Instant) {
        let mut held = self.held.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let entry = held.entry(method.to_string()).or_insert(until);
        *entry = (*entry).max(until);
    }

    /// Posts text in a channel, or in a thread under `thread_ts`; the new
    /// message's ts.
    pub async fn post(&self, channel: &str, thread_ts: Option<&str>, text: &str) -> anyhow::Result<String> {
        self.post_content(channel, thread_ts, content(text)).await
    }

    pub async fn post_content(
        &self,
        channel: &str,
        thread_ts: Option<&str>,
        content: SlackMessageContent,
    ) -> anyhow::Result<String> {
        let mut request = SlackApiChatPostMessageRequest::new(channel.into(), content)
            .with_link_names(false)
            .with_unfurl_links(false)
            .with_unfurl_media(false);
        if let Some(ts) = thread_ts {
            request = request.with_thread_ts(ts.into());
        }
        let (session, request) = (&self.session(), &request);
        let posted = self
            .paced("chat.postMessage", move || session.chat_post_message(request))
            .await
            .map_err(|e| failed("chat.postMessage", e))?;
        Ok(posted.ts.to_string())
    }

    /// Replaces a message's text (and blocks) in place.
    pub async fn update(&self, channel: &str, ts: &str, content: SlackMessageContent) -> anyhow::Result<()> {
        let request = SlackApiChatUpdateRequest::new(channel.into(), content, ts.into()).with_link_names(false);
        let (session, request) = (&self.session(), &request);
        self.paced("chat.update", move || session.chat_update(request)).await.map_err(|e| failed("chat.update", e))?;
        Ok(())
    }

    pub async fn update_text(&self, channel: &str, ts: &str, text: &str) -> anyhow::Result<()> {
        self.update(channel, ts, content(text)).await
    }

    /// Deletes one of the bot's own messages.
    pub async fn delete(&self, channel: &str, ts: &str) -> anyhow::Result<()> {
        let request = SlackApiChatDeleteRequest::new(channel.into(), ts.into());
        let (session, request) = (&self.session(), &request);
        self.paced("chat.delete", move || session.chat_delete(request)).await.map_err(|e| failed("chat.delete", e))?;
        Ok(())
    }

    /// A message only `user` sees.
    pub async fn tell(&self, channel: &str, user: &str, thread_ts: Option<&str>, text: &str) -> anyhow::Result<()> {
        self.tell_content(channel, user, thread_ts, content(text)).await
    }

    /// A message with blocks only `user` sees.
    pub async fn tell_content(
        &self,
        channel: &str,
        user: &str,
        thread_ts: Option<&str>,
        content: SlackMessageContent,
    ) -> anyhow::Result<()> {
        let mut request = SlackApiChatPostEphemeralRequest::new(channel.into(), user.into(), content);
        if let Some(ts) = thread_ts {
            request = request.with_thread_ts(ts.into());
        }
        let (session, request) = (&self.session(), &request);
        self.paced("chat.postEphemeral", move || session.chat_post_ephemeral(request))
            .await
            .map_err(|e| failed("chat.postEphemeral", e))?;
        Ok(())
    }

    /// Shares a file in a channel or thread, with a comment: Slack's
    /// three steps (announce, upload the bytes, complete).
    pub async fn upload(
        &self,
        channel: &str,
        thread_ts: Option<&str>,
        name: &str,
        bytes: Vec<u8>,
        comment: &str,
    ) -> anyhow::Result<()> {
        let session = &self.session();
        let announce = &SlackApiFilesGetUploadUrlExternalRequest::new(name.to_string(), bytes.len());
        let target = self
            .paced("files.getUploadURLExternal", move || session.get_upload_url_external(announce))
            .await
            .map_err(|e| failed("files.getUploadURLExternal", e))?;
        let upload = SlackApiFilesUploadViaUrlRequest::new(target.upload_url, bytes, "text/markdown".into());
        session.files_upload_via_url(&upload).await.map_err(|e| failed("the file upload", e))?;
        let file = SlackApiFilesComplete::new(target.file_id).with_title(name.to_string());
        let mut complete = SlackApiFilesCompleteUploadExternalRequest::new(vec![file])
            .with_channel_id(channel.into())
            .with_initial_comment(comment.to_string());
        if let Some(ts) = thread_ts {
            complete = complete.with_thread_ts(ts.into());
        }
        let complete = &complete;
        self.paced("files.completeUploadExternal", move || session.files_complete_upload_external(complete))
            .await
            .map_err(|e| failed("files.completeUploadExternal", e))?;
        Ok(())
    }

    /// A user's display name (`users.info`): the profile's display name,
    /// else the real name, else the account name.
    pub async fn display_name(&self, user: &str) -> anyhow::Result<String> {
        let (session, request) = (&self.session(), &SlackApiUsersInfoRequest::new(user.into()));
        let info = self
            .paced("users.info", move || session.users_info(request))
            .await
            .map_err(|e| failed("users.info", e))?
            .user;
        let profile = info.profile.as_ref();
        let names = [
            profile.and_then(|p| p.display_name.clone()),
            profile.and_then(|p| p.real_name.clone()),
            info.real_name.clone(),
            info.name.clone(),
        ];
        names.into_iter().flatten().find(|n| !n.trim().is_empty()).context("the user has no name")
    }

    /// Members of a user group (`usergroups.users.list`).
    pub async fn group_members(&self, group: &str) -> anyhow::Result<Vec<String>> {
        let (session, request) = (&self.session(), &SlackApiUserGroupsUsersListRequest::new(group.into()));
        let members = self
            .paced("usergroups.users.list", move || session.usergroups_users_list(request))
            .await
            .map_err(|e| failed("usergroups.users.list", e))?;
        Ok(members.users.into_iter().map(|u| u.to_string()).collect())
    }
}
