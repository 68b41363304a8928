//! The Web API calls the bot makes: post (in a thread or not), update a
//! message in place, delete one, answer one user privately, share a file. Text reaching here is
//! already neutralised (`render.rs`); links and names are never expanded.

use anyhow::Context as _;
use slack_morphism::prelude::*;

use super::SlackBot;

fn content(text: &str) -> SlackMessageContent {
    SlackMessageContent::new().with_text(text.to_string())
}

fn failed(what: &str, e: impl std::fmt::Display) -> anyhow::Error {
    anyhow::anyhow!("Slack {what} failed: {e}")
}

impl SlackBot {
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
        let posted = self.session().chat_post_message(&request).await.map_err(|e| failed("chat.postMessage", e))?;
        Ok(posted.ts.to_string())
    }

    /// Replaces a message's text (and blocks) in place.
    pub async fn update(&self, channel: &str, ts: &str, content: SlackMessageContent) -> anyhow::Result<()> {
        let request = SlackApiChatUpdateRequest::new(channel.into(), content, ts.into()).with_link_names(false);
        self.session().chat_update(&request).await.map_err(|e| failed("chat.update", e))?;
        Ok(())
    }

    pub async fn update_text(&self, channel: &str, ts: &str, text: &str) -> anyhow::Result<()> {
        self.update(channel, ts, content(text)).await
    }

    /// Deletes one of the bot's own messages.
    pub async fn delete(&self, channel: &str, ts: &str) -> anyhow::Result<()> {
        let request = SlackApiChatDeleteRequest::new(channel.into(), ts.into());
        self.session().chat_delete(&request).await.map_err(|e| failed("chat.delete", e))?;
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
        self.session().chat_post_ephemeral(&request).await.map_err(|e| failed("chat.postEphemeral", e))?;
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
        let session = self.session();
        let announce = SlackApiFilesGetUploadUrlExternalRequest::new(name.to_string(), bytes.len());
        let target =
            session.get_upload_url_external(&announce).await.map_err(|e| failed("files.getUploadURLExternal", e))?;
        let upload = SlackApiFilesUploadViaUrlRequest::new(target.upload_url, bytes, "text/markdown".into());
        session.files_upload_via_url(&upload).await.map_err(|e| failed("the file upload", e))?;
        let file = SlackApiFilesComplete::new(target.file_id).with_title(name.to_string());
        let mut complete = SlackApiFilesCompleteUploadExternalRequest::new(vec![file])
            .with_channel_id(channel.into())
            .with_initial_comment(comment.to_string());
        if let Some(ts) = thread_ts {
            complete = complete.with_thread_ts(ts.into());
        }
        session
            .files_complete_upload_external(&complete)
            .await
            .map_err(|e| failed("files.completeUploadExternal", e))?;
        Ok(())
    }

    /// A user's display name (`users.info`): the profile's display name,
    /// else the real name, else the account name.
    pub async fn display_name(&self, user: &str) -> anyhow::Result<String> {
        let request = SlackApiUsersInfoRequest::new(user.into());
        let info = self.session().users_info(&request).await.map_err(|e| failed("users.info", e))?.user;
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
        let request = SlackApiUserGroupsUsersListRequest::new(group.into());
        let members =
            self.session().usergroups_users_list(&request).await.map_err(|e| failed("usergroups.users.list", e))?;
        Ok(members.users.into_iter().map(|u| u.to_string()).collect())
    }
}
