//! Layered configuration with figment: built-in `config/default.toml`, then
//! `config/local.toml` (git-ignored) when present, then a `--config` file,
//! then `ECHOES__SECTION__KEY` environment variables. Secrets are never read
//! from files: the API key comes from the variable `llm.api_key_env` names.

use std::path::{Path, PathBuf};

use anyhow::Context;
use figment::Figment;
use figment::providers::{Env, Format, Toml};
use serde::Deserialize;

use crate::assets::DEFAULT_CONFIG;
use crate::core::services::PipelineSettings;
use crate::core::vocab::Language;
use crate::llm::LlmSettings;

const LOCAL_CONFIG: &str = "config/local.toml";

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub storage: StorageSettings,
    pub game: GameSettings,
    pub prompts: PromptSettings,
    pub knowledge: KnowledgeSettings,
    pub llm: LlmSettings,
    /// `[slack]`: the Slack front end (tokens come from the environment).
    #[serde(default)]
    pub slack: crate::slack::SlackSettings,
    /// `[discord]`: the Discord front end (the token comes from the environment).
    #[serde(default)]
    pub discord: crate::discord::config::DiscordSettings,
    /// `[ops]`: the operator's endpoint of `echoes serve`.
    #[serde(default)]
    pub ops: OpsSettings,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OpsSettings {
    /// Where `GET /metrics`, `/livez`, `/healthz` and `/readyz` listen,
    /// e.g. `127.0.0.1:9464` ("" = not served).
    pub bind: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnowledgeSettings {
    /// "auto" (the default) or "llama": the sentence model on llama.cpp;
    /// "hashing": no model (word hashing, for tests and tiny machines).
    pub embedder: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StorageSettings {
    /// A SQLite file (a path, or `sqlite:PATH`) or a PostgreSQL server
    /// (`postgres://…`): see `database()`.
    pub database: String,
    /// This process's name as the holder of its games' leases (PostgreSQL,
    /// several processes). "" = the host name and process id. A name that
    /// stays the same across restarts (a container's or pod's) lets a
    /// restarted process take its games back at once instead of after the
    /// 30-second lease of the process that died.
    #[serde(default)]
    pub instance: String,
    pub data_dir: PathBuf,
    pub vector_dir: PathBuf,
}

impl StorageSettings {
    /// The games' database this setting names.
    pub fn database(&self) -> crate::store::Database {
        crate::store::Database::parse(&self.database)
    }

    /// The folder of a SQLite database's file as the setting names it
    /// (empty for a bare file name: the working directory); `None` for a
    /// server. Files kept beside the games' record (the terminal's
    /// transcripts) go there.
    pub fn database_folder(&self) -> Option<PathBuf> {
        match self.database() {
            crate::store::Database::Sqlite(path) => Some(path.parent().unwrap_or(Path::new(".")).to_path_buf()),
            crate::store::Database::Postgres(_) => None,
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameSettings {
    pub language: String,
    pub hint_limit: u32,
    pub expire_after_minutes: u64,
    pub narrator: Remarks,
    /// Let the Judge model decide what the puzzle's known answers do not
    /// cover (false: "can't tell" instead; "auto": yes, unless the Judge
    /// is the small packaged in-process model, too small to judge).
    #[serde(default = "auto_word")]
    pub judge: Remarks,
    /// Answer from the puzzles' known answers before asking the Judge.
    #[serde(default = "yes")]
    pub known_answers: bool,
    pub max_input_chars: usize,
    pub ledger_threshold: f32,
    #[serde(default)]
    pub seed: Option<u64>,
    /// `[game.start.<group>]`: a seated game's start options when `start`
    /// does not give them (`[game.start.arena] threshold = 4`,
    /// `[game.start.undercover] difficulty = "hard"`), checked by the game
    /// like options typed in chat.
    #[serde(default)]
    pub start: std::collections::BTreeMap<String, std::collections::BTreeMap<String, StartValue>>,
}

/// A start option's value as configured: text, a number or yes/no.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum StartValue {
    Flag(bool),
    Whole(i64),
    Number(f64),
    Text(String),
}

impl std::fmt::Display for StartValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartValue::Flag(b) => f.write_str(if *b { "yes" } else { "no" }),
            StartValue::Whole(n) => write!(f, "{n}"),
            StartValue::Number(n) => write!(f, "{n}"),
            StartValue::Text(t) => f.write_str(t),
        }
    }
}

/// Whether the Narrator model writes a remark under each verdict: `true`,
/// `false`, or `"auto"`: yes, unless the Narrator is the small packaged
/// in-process model, whose remarks are nonsense (players then get fixed
/// remarks, and a question costs one model call instead of two).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum Remarks {
    Set(bool),
    Auto(AutoWord),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AutoWord {
    Auto,
}

fn yes() -> bool {
    true
}

fn auto_word() -> Remarks {
    Remarks::Auto(AutoWord::Auto)
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PromptSettings {
    pub dir: String,
}

impl Settings {
    /// The lease holder this process plays as: `[storage] instance`; else,
    /// on SQLite (one machine's file), the same name for every process, so
    /// a game resumed after a crash plays at once; on PostgreSQL the host
    /// name and process id, unique among the processes sharing it.
    pub fn instance(&self) -> String {
        if !self.storage.instance.trim().is_empty() {
            return self.storage.instance.trim().to_string();
        }
        match self.storage.database().backend() {
            crate::store::Backend::Sqlite => "local".to_string(),
            crate::store::Backend::Postgres => {
                let host = std::env::var("HOSTNAME")
                    .ok()
                    .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
                    .map(|h| h.trim().to_string())
                    .filter(|h| !h.is_empty())
                    .unwrap_or_else(|| "echoes".to_string());
                format!("{host}:{}", std::process::id())
            }
        }
    }

    /// Loads the layers; `extra` is a `--config` file.
    pub fn load(extra: Option<&Path>) -> anyhow::Result<Settings> {
        let mut figment = Figment::new().merge(Toml::string(DEFAULT_CONFIG));
        if Path::new(LOCAL_CONFIG).is_file() {
            figment = figment.merge(Toml::file(LOCAL_CONFIG));
        }
        if let Some(path) = extra {
            anyhow::ensure!(path.is_file(), "config file {} does not exist", path.display());
            figment = figment.merge(Toml::file(path));
        }
        figment = figment.merge(Env::prefixed("ECHOES__").split("__"));
        let settings: Settings = figment.extract().context("reading configuration")?;
        settings.validate()?;
        Ok(settings)
    }

    fn validate(&self) -> anyhow::Result<()> {
        anyhow::ensure!(
            Language::parse(&self.game.language).is_some(),
            "game.language must be \"en\" or \"zh\", not {:?}",
            self.game.language
        );
        anyhow::ensure!((20..=4000).contains(&self.game.max_input_chars), "game.max_input_chars must be 20..=4000");
        anyhow::ensure!(
            matches!(self.knowledge.embedder.as_str(), "auto" | "llama" | "hashing"),
            "knowledge.embedder must be \"auto\", \"llama\" or \"hashing\", not {:?}",
            self.knowledge.embedder
        );
        anyhow::ensure!(self.game.hint_limit <= 20, "game.hint_limit must be at most 20");
        anyhow::ensure!(
            (0.5..=1.0).contains(&self.game.ledger_threshold),
            "game.ledger_threshold must be between 0.5 and 1.0"
        );
        Ok(())
    }

    pub fn language(&self) -> Language {
        Language::parse(&self.game.language).unwrap_or(Language::En)
    }

    /// Every seated game's configured start options (`[game.start.<group>]`),
    /// as text by group.
    pub fn start_defaults(&self) -> crate::core::game::StartDefaults {
        let groups = self.game.start.iter();
        crate::core::game::StartDefaults(
            groups
                .map(|(g, opts)| (g.clone(), opts.iter().map(|(k, v)| (k.clone(), v.to_string())).collect()))
                .collect(),
        )
    }

    pub fn puzzle_dir(&self) -> PathBuf {
        self.storage.data_dir.join("puzzles")
    }

    pub fn prompt_dir(&self) -> Option<&Path> {
        Some(Path::new(&self.prompts.dir)).filter(|p| !p.as_os_str().is_empty())
    }

    /// Whether the Narrator model writes remarks (`game.narrator`).
    pub fn narrator_remarks(&self) -> bool {
        match self.game.narrator {
            Remarks::Set(on) => on,
            Remarks::Auto(_) => !self.small_local_narrator(),
        }
    }

    /// Whether the Judge model decides what the known answers do not cover.
    pub fn judge_model(&self) -> bool {
        match self.game.judge {
            Remarks::Set(on) => on,
            Remarks::Auto(_) => !self.small_local_role(self.llm.judge.provider),
        }
    }

    /// Whether a role is played by the small packaged in-process model.
    fn small_local_role(&self, role_provider: Option<crate::llm::ProviderKind>) -> bool {
        let provider = role_provider.unwrap_or(self.llm.provider);
        provider == crate::llm::ProviderKind::Local
            && crate::models::ModelDir::new(&self.llm.local).chat_model().is_ok_and(|c| c.small)
    }

    /// Whether the Narrator role is played by the small packaged
    /// in-process model.
    pub fn small_local_narrator(&self) -> bool {
        self.small_local_role(self.llm.narrator.provider)
    }

    pub fn pipeline(&self) -> PipelineSettings {
        PipelineSettings {
            narrator: self.narrator_remarks(),
            judge_model: self.judge_model(),
            known_answers: self.game.known_answers,
            max_input_chars: self.game.max_input_chars,
            seed: self.game.seed,
            ledger_threshold: self.game.ledger_threshold,
            ..PipelineSettings::default()
        }
    }

    pub fn expire_after_ms(&self) -> i64 {
        (self.game.expire_after_minutes as i64).saturating_mul(60_000)
    }
}

#[cfg(test)]
#[allow(clippy::result_large_err)] // figment::Jail's closure signature, not ours
mod tests {
    use super::*;

    #[test]
    fn defaults_load_and_env_overrides_apply() {
        figment::Jail::expect_with(|jail| {
            jail.set_env("ECHOES__LLM__MODEL", "llama3.2");
            jail.set_env("ECHOES__GAME__HINT_LIMIT", "5");
            let s = Settings::load(None).expect("settings");
            assert_eq!(s.llm.model, "llama3.2");
            assert_eq!(s.game.hint_limit, 5);
            assert_eq!(s.language(), Language::En);
            Ok(())
        });
    }

    #[test]
    fn discord_ops_and_a_postgres_database_are_configurable() {
        figment::Jail::expect_with(|jail| {
            jail.create_file(
                "server.toml",
                "[storage]\ndatabase = \"postgres://bot:pw@db/echoes\"\n[discord]\nshards = \"2-3/4\"\nmessage_content = false\n[ops]\nbind = \"0.0.0.0:9464\"\n",
            )?;
            let s = Settings::load(Some(std::path::Path::new("server.toml"))).expect("settings");
            assert_eq!(s.storage.database().backend(), crate::store::Backend::Postgres);
            let shards = s.discord.shards.expect("a shard range");
            assert_eq!((shards.first, shards.last, shards.total, s.discord.message_content), (2, 3, 4, false));
            assert_eq!(s.ops.bind, "0.0.0.0:9464");
            jail.set_env("ECHOES__DISCORD__SHARDS", "9-1/4");
            assert!(Settings::load(Some(std::path::Path::new("server.toml"))).is_err(), "a bad range is refused");
            Ok(())
        });
    }

    #[test]
    fn remarks_are_off_by_default_only_for_the_small_packaged_model() {
        figment::Jail::expect_with(|jail| {
            let models = jail.directory().join("models");
            std::fs::create_dir_all(&models).unwrap();
            std::fs::write(models.join(crate::models::SMALL_CHAT_FILE), b"gguf").unwrap();
            jail.set_env("ECHOES__LLM__LOCAL__MODELS_DIR", models.display().to_string());
            jail.set_env("ECHOES__LLM__LOCAL__CHAT_MODEL", "small");
            let mut s = Settings::load(None).expect("settings");
            assert_eq!(s.game.narrator, Remarks::Auto(AutoWord::Auto));
            s.llm.provider = crate::llm::ProviderKind::Ollama;
            assert!(s.narrator_remarks(), "a served model writes remarks");
            s.llm.provider = crate::llm::ProviderKind::Local;
            assert!(!s.narrator_remarks(), "the small packaged model does not");
            s.game.narrator = Remarks::Set(true);
            assert!(s.narrator_remarks(), "unless the config says so");
            jail.set_env("ECHOES__GAME__NARRATOR", "false");
            assert_eq!(Settings::load(None).expect("settings").game.narrator, Remarks::Set(false));
            Ok(())
        });
    }

    #[test]
    fn bad_values_are_refused_with_the_key() {
        figment::Jail::expect_with(|jail| {
            jail.set_env("ECHOES__GAME__LANGUAGE", "klingon");
            let err = Settings::load(None).expect_err("bad language");
            assert!(err.to_string().contains("game.language"), "{err}");
            Ok(())
        });
    }
}
