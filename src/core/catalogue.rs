//! The command catalogue (`commands/catalogue.toml`): every verb, its
//! options, help text in each language and who may use it. Front ends build
//! their command lists from this, so terminal, Discord and Slack agree.

use serde::Deserialize;

use super::puzzle::Language;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Frontend {
    Terminal,
    Discord,
    Slack,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Who {
    Player,
    Moderator,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VerbOption {
    pub name: String,
    pub kind: String,
    #[serde(default)]
    pub required: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Help {
    pub en: String,
    pub zh: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Verb {
    pub group: String,
    pub name: String,
    pub who: Who,
    pub frontends: Vec<Frontend>,
    #[serde(default)]
    pub options: Vec<VerbOption>,
    pub help: Help,
}

impl Verb {
    pub fn help(&self, lang: Language) -> &str {
        match lang {
            Language::En => &self.help.en,
            Language::Zh => &self.help.zh,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Catalogue {
    #[serde(rename = "verb")]
    pub verbs: Vec<Verb>,
}

impl Catalogue {
    pub fn parse(source: &str) -> Result<Catalogue, String> {
        let catalogue: Catalogue = toml::from_str(source).map_err(|e| e.to_string())?;
        let mut names: Vec<(&str, &str)> =
            catalogue.verbs.iter().map(|v| (v.group.as_str(), v.name.as_str())).collect();
        names.sort_unstable();
        if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!("verb {} {} is listed twice", w[0].0, w[0].1));
        }
        Ok(catalogue)
    }

    /// Verbs a front end must offer, in catalogue order.
    pub fn for_frontend(&self, frontend: Frontend) -> impl Iterator<Item = &Verb> {
        self.verbs.iter().filter(move |v| v.frontends.contains(&frontend))
    }

    /// A help listing for one front end, e.g. `/ask <question>  Ask …`.
    pub fn help_text(&self, frontend: Frontend, lang: Language, prefix: &str) -> String {
        Self::lines(self.for_frontend(frontend), lang, prefix)
    }

    /// The help listing of one group's verbs, each after `prefix`
    /// (`/undercover `).
    pub fn group_help(&self, frontend: Frontend, lang: Language, group: &str, prefix: &str) -> String {
        Self::lines(self.for_frontend(frontend).filter(|v| v.group == group), lang, prefix)
    }

    fn lines<'a>(verbs: impl Iterator<Item = &'a Verb>, lang: Language, prefix: &str) -> String {
        verbs
            .map(|v| {
                let opts: String = v
                    .options
                    .iter()
                    .map(|o| if o.required { format!(" <{}>", o.name) } else { format!(" [{}]", o.name) })
                    .collect();
                format!("{prefix}{}{opts}  {}", v.name, v.help(lang))
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}
