//! `/soup admin …`: the moderators' verbs. Who may run them is checked on
//! every call, before anything is parsed further: a user listed in
//! `[slack] admins`, or a member of the configured user group or of the
//! workspace's own group (`config mod-role`). Settings and custom puzzles
//! are stored per workspace (`slack:<team>`).

use crate::bot::words::Markup;
use crate::core::actor::Inbound;
use crate::core::game::TurnInput;
use crate::core::guild::{GuildConfig, NewCustomPuzzle};
use crate::core::soup::puzzle::Puzzle;
use crate::core::store::StoreError;

use super::command::AdminCommand;
use super::ingress::CommandIn;
use super::play::{Turn, player_of};
use super::render::neutralise;
use super::words::{Word, say};
use super::{SlackBot, scope_of, thread_ts_of};

/// Largest pasted puzzle, in bytes.
const MAX_PUZZLE_BYTES: usize = 64 * 1024;

impl SlackBot {
    /// Whether `user` may run admin verbs in the workspace `scope`.
    pub async fn is_admin(&self, scope: &str, user: &str) -> anyhow::Result<bool> {
        if self.settings.admins.iter().any(|a| a == user) {
            return Ok(true);
        }
        let config = self.guilds.guild_config(scope).await?;
        for group in [self.settings.admin_group.as_deref(), config.mod_role.as_deref()].into_iter().flatten() {
            if self.group_members(group).await?.iter().any(|m| m == user) {
                return Ok(true);
            }
        }
        Ok(false)
    }

    pub(super) async fn admin(&self, c: &CommandIn, command: AdminCommand) -> anyhow::Result<()> {
        let scope = scope_of(&c.team);
        let config = self.guilds.guild_config(&scope).await?;
        let lang = self.language_of(&config);
        if !self.is_admin(&scope, &c.user).await? {
            tracing::info!(user = %c.user, scope, "admin verb refused");
            return self.tell(&c.channel, &c.user, None, &say(lang, &Word::NotModerator)).await;
        }
        let text = match command {
            AdminCommand::Reveal => return self.end_here(c, true).await,
            AdminCommand::End => return self.end_here(c, false).await,
            AdminCommand::PuzzleList => self.admin_list(&scope).await?,
            AdminCommand::PuzzleAdd(source) => self.add_puzzle(&scope, &c.user, &source).await?,
            AdminCommand::PuzzleRemove(id) => {
                let removed = self.guilds.remove_custom_puzzle(&scope, &id).await?;
                say(lang, &if removed { Word::PuzzleRemoved(&id) } else { Word::NotCustom(&id) })
            }
            AdminCommand::PuzzleEnable(id) => self.set_enabled(&scope, &id, true).await?,
            AdminCommand::PuzzleDisable(id) => self.set_enabled(&scope, &id, false).await?,
            AdminCommand::KnownAdd { puzzle, verdict, question } => {
                let key = self.channel_thread(&c.channel).await?;
                let place = format!("slack:{}", c.channel);
                match self.which_question(key.as_deref(), &place, puzzle, question).await? {
                    Some((puzzle, question)) => {
                        let by = player_of(&c.user).id;
                        self.add_correction(&scope, &puzzle, &question, &verdict, &by, Markup::Slack).await?
                    }
                    None => say(lang, &Word::KnownWhich),
                }
            }
            AdminCommand::KnownList(puzzle) => self.list_corrections(&scope, puzzle.as_deref(), Markup::Slack).await?,
            AdminCommand::KnownRemove(id) => self.remove_correction(&scope, &id, Markup::Slack).await?,
            AdminCommand::PuzzleNext(id) => {
                if !self.playable_puzzles(&scope).await?.iter().any(|p| p.id == id) {
                    say(lang, &Word::UnknownPuzzle { id: &neutralise(&id), near: &[] })
                } else {
                    self.guilds.set_next_puzzle(&scope, &c.channel, &id).await?;
                    say(lang, &Word::NextPuzzle(&id))
                }
            }
            setting => self.configure(&scope, config, setting).await?,
        };
        self.tell(&c.channel, &c.user, None, &text).await
    }

    async fn set_enabled(&self, scope: &str, id: &str, enabled: bool) -> anyhow::Result<String> {
        let lang = self.scope_language(scope).await;
        if self.find_puzzle(scope, id).await?.is_none() {
            return Ok(say(lang, &Word::UnknownPuzzle { id: &neutralise(id), near: &[] }));
        }
        self.guilds.set_puzzle_enabled(scope, id, enabled).await?;
        Ok(say(lang, &if enabled { Word::PuzzleEnabled(id) } else { Word::PuzzleDisabled(id) }))
    }

    async fn configure(&self, scope: &str, mut config: GuildConfig, setting: AdminCommand) -> anyhow::Result<String> {
        let (what, value) = match setting {
            AdminCommand::Language(l) => {
                config.language = Some(l);
                ("language", l.code().to_string())
            }
            AdminCommand::HintLimit(n) => {
                config.hint_limit = Some(n);
                ("hint-limit", n.to_string())
            }
            AdminCommand::Channel(channel) => {
                config.channel = Some(channel.clone());
                ("channel", format!("<#{channel}>"))
            }
            AdminCommand::Model(model) => {
                config.model = Some(model.clone());
                ("model", format!("`{}`", neutralise(&model)))
            }
            AdminCommand::ModRole(group) => {
                config.mod_role = Some(group.clone());
                ("mod-role", format!("`{group}`"))
            }
            _ => return Ok(String::new()),
        };
        self.guilds.set_guild_config(scope, &config, self.now_ms()).await?;
        Ok(say(self.language_of(&config), &Word::ConfigSet { what, value: &value }))
    }

    async fn admin_list(&self, scope: &str) -> anyhow::Result<String> {
        let disabled = self.guilds.disabled_puzzles(scope).await?;
        let mut lines: Vec<String> = self
            .library
            .all()
            .iter()
            .map(|p| {
                format!("`{}` · {}{}", p.id, p.language.code(), if disabled.contains(&p.id) { " (off)" } else { "" })
            })
            .collect();
        for custom in self.guilds.scoped_puzzles(scope).await? {
            lines.push(format!("`{}` · custom{}", custom.id, if custom.enabled { "" } else { " (off)" }));
        }
        Ok(lines.join("\n"))
    }

    async fn add_puzzle(&self, scope: &str, user: &str, source: &str) -> anyhow::Result<String> {
        let lang = self.scope_language(scope).await;
        let puzzle = match Puzzle::from_toml(source, None, None).ok().filter(|_| source.len() <= MAX_PUZZLE_BYTES) {
            Some(p) => p,
            None => {
                let problems = Puzzle::from_toml(source, None, None).err().unwrap_or_default();
                let list: Vec<String> =
                    problems.iter().take(10).map(|p| format!("• {}", neutralise(&p.to_string()))).collect();
                return Ok(say(lang, &Word::PuzzleInvalid(&list.join("\n"))));
            }
        };
        if self.library.get(&puzzle.id).is_some() {
            return Ok(say(lang, &Word::PuzzleExists(&puzzle.id)));
        }
        let added_by = player_of(user).id;
        let new = NewCustomPuzzle { scope, id: &puzzle.id, source, added_by: &added_by, created_ms: self.now_ms() };
        match self.guilds.add_custom_puzzle(&new).await {
            Ok(()) => Ok(say(lang, &Word::PuzzleAdded { id: &puzzle.id, title: &neutralise(&puzzle.title) })),
            Err(StoreError::Duplicate(_)) => Ok(say(lang, &Word::PuzzleExists(&puzzle.id))),
            Err(e) => Err(e.into()),
        }
    }

    /// `reveal` ends the channel's game and shows the story; `end` ends it
    /// without showing it.
    async fn end_here(&self, c: &CommandIn, reveal: bool) -> anyhow::Result<()> {
        let lang = self.scope_language(&scope_of(&c.team)).await;
        let Some((key, found)) = self.channel_game(&c.channel).await? else {
            return self.tell(&c.channel, &c.user, None, &say(lang, &Word::NoGameHere)).await;
        };
        let player = self.player(&c.user).await;
        let event_id = c.trigger_id.clone();
        if reveal {
            let turn = Turn { channel: &c.channel, thread: &key, found, player, input: TurnInput::End, event_id };
            self.take_turn(turn).await?;
        } else {
            let inbound =
                Inbound { event_id: Some(event_id), player, input: TurnInput::End, progress: None, moderator: true };
            let delivery = found.handle.send(inbound).await?;
            // The story stays hidden: the thread hears only that the game ended.
            let notice = say(found.game.puzzle.language, &Word::EndedByModerator);
            self.post(&c.channel, thread_ts_of(&key), &notice).await?;
            found.handle.delivered(&delivery).await?;
            self.close(&key).await?;
        }
        self.tell(&c.channel, &c.user, None, &say(lang, &Word::Done)).await
    }
}
