//! One input for a session: the moves the engine itself understands
//! (opening, free text, the lobby, votes, "show me my secret", status,
//! timers, ending) and one `Verb` for a game's own verbs. A game declares
//! its verbs in its folder; the catalogue (`core::catalogue`) parses them
//! once for every front end, and the game reads a `Verb` into its own
//! closed enum. A game answers an input it has no use for with a
//! rejection.

use serde::{Deserialize, Serialize};

/// A player's (or the engine's) input to a session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "Wire")]
pub enum TurnInput {
    /// The session opens (its first input).
    Start,
    /// Free text: a plain message in a game's thread, or a verb the game
    /// declared as "say this" (`describe`, `act`); each game reads it its
    /// own way (Turtle Soup: a question, a guess or chatter).
    Say(String),
    /// Take a seat in the lobby.
    Join,
    /// Leave the lobby (or the game, where the game allows it).
    Leave,
    /// Start now: the host or a moderator, with at least the minimum seats.
    Begin,
    /// Fill a free seat with an AI agent.
    AddAi,
    /// A secret choice in the open ballot (an option's id).
    Vote(String),
    /// "Show me my secret again": answered privately to the sender.
    Whisper,
    /// Where the game stands.
    Status,
    /// A deadline passed (the engine sends this; players cannot).
    Timer(String),
    /// Host or moderator: end the game now and show everything.
    End,
    /// One of the game's own verbs, as its declaration parsed it.
    Verb(Verb),
}

/// A game's own verb: its declared name and its arguments in the order
/// the declaration lists its options (an absent optional one is left out
/// at the end, or empty).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verb {
    pub name: String,
    #[serde(default)]
    pub args: Vec<String>,
}

impl Verb {
    pub fn new(name: impl Into<String>, args: impl IntoIterator<Item = String>) -> Verb {
        Verb { name: name.into(), args: args.into_iter().collect() }
    }

    /// The argument at `i`, trimmed; empty when absent.
    pub fn arg(&self, i: usize) -> &str {
        self.args.get(i).map_or("", |a| a.trim())
    }
}

/// One verb of a game's closed enum as the enum spells it: its name, the
/// other names it reads it by, its arguments' names in order. One test
/// holds every game's against its declaration (`commands/<game>.toml`: the same
/// verbs, aliases and option names), so a misspelt name fails the suite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VerbNames {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    pub args: &'static [&'static str],
}

/// A game's own verbs as a closed enum, read from the engine's `Verb`
/// and turned back into a `TurnInput`: each variant names its verb (and
/// older names it still reads) and its arguments in declaration order.
///
/// ```ignore
/// game_verbs! {
///     pub enum SoupVerb {
///         Ask(question) = "ask",
///         Hint = "hint",
///     }
/// }
/// ```
#[macro_export]
macro_rules! game_verbs {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident $(( $($arg:ident),+ ))? = $verb:literal $(| $alias:literal)* ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant $(( $( $crate::game_verbs!(@string $arg) ),+ ))? ),+
        }

        impl $name {
            /// Every verb it reads, as spelt here (`VerbNames`).
            pub const NAMES: &'static [$crate::core::game::input::VerbNames] = &[
                $( $crate::core::game::input::VerbNames {
                    name: $verb,
                    aliases: &[$($alias),*],
                    args: &[$($(stringify!($arg)),+)?],
                } ),+
            ];

            /// The verb as this game reads it; `None`: not one of its verbs.
            pub fn read(verb: &$crate::core::game::input::Verb) -> Option<$name> {
                #[allow(unused_mut, unused_variables)]
                let mut args = verb.args.iter().map(|a| a.trim().to_string());
                match verb.name.as_str() {
                    $( $verb $(| $alias)* => Some($name::$variant $(( $( { let $arg = args.next().unwrap_or_default(); $arg } ),+ ))?), )+
                    _ => None,
                }
            }

            /// Reads `input` when it is one of this game's verbs.
            pub fn of(input: &$crate::core::game::TurnInput) -> Option<$name> {
                match input {
                    $crate::core::game::TurnInput::Verb(verb) => $name::read(verb),
                    _ => None,
                }
            }
        }

        impl From<$name> for $crate::core::game::TurnInput {
            fn from(verb: $name) -> Self {
                let (name, args): (&str, Vec<String>) = match verb {
                    $( $name::$variant $(( $($arg),+ ))? => ($verb, vec![$($($arg),+)?]), )+
                };
                $crate::core::game::TurnInput::Verb($crate::core::game::input::Verb::new(name, args))
            }
        }
    };
    (@string $arg:ident) => { String };
}

impl TurnInput {
    /// The input's name as stored with its turn (`join`, a verb's name).
    pub fn kind(&self) -> &str {
        match self {
            TurnInput::Start => "start",
            TurnInput::Say(_) => "say",
            TurnInput::Join => "join",
            TurnInput::Leave => "leave",
            TurnInput::Begin => "begin",
            TurnInput::AddAi => "add_ai",
            TurnInput::Vote(_) => "vote",
            TurnInput::Whisper => "whisper",
            TurnInput::Status => "status",
            TurnInput::Timer(_) => "timer",
            TurnInput::End => "reveal",
            TurnInput::Verb(v) => &v.name,
        }
    }

    /// The same input with its words (free text, a verb's arguments) passed
    /// through `f`: a front end's unescaping or neutralising.
    pub fn map_text(self, f: impl Fn(&str) -> String) -> TurnInput {
        match self {
            TurnInput::Say(text) => TurnInput::Say(f(&text)),
            TurnInput::Verb(mut verb) => {
                verb.args = verb.args.iter().map(|a| f(a)).collect();
                TurnInput::Verb(verb)
            }
            other => other,
        }
    }

    /// The text stored as the turn's input: free text, a timer's tag, a
    /// verb's first argument. A vote's choice is not stored here (the
    /// ballot keeps it secret until the reveal).
    pub fn text(&self) -> &str {
        match self {
            TurnInput::Say(t) | TurnInput::Timer(t) => t,
            TurnInput::Verb(v) => v.args.first().map_or("", String::as_str),
            _ => "",
        }
    }
}

/// What a stored input may look like: today's form, or one written before
/// games owned their verbs (a hand-over queued by an older process). An
/// older game verb becomes a `Verb` of the same name.
#[derive(Deserialize)]
enum Wire {
    Start,
    Say(String),
    Join,
    Leave,
    Begin,
    AddAi,
    Vote(String),
    Whisper,
    Status,
    Timer(String),
    End,
    Verb(Verb),
    // Before verbs belonged to games:
    Reveal,
    Ask(String),
    Guess(String),
    Hint,
    History,
    GiveUp,
    Pause,
    Resume,
    Topic(String),
    SayTo { to: String, text: String },
    Scores,
}

impl From<Wire> for TurnInput {
    fn from(wire: Wire) -> TurnInput {
        let verb = |name: &str, args: Vec<String>| TurnInput::Verb(Verb::new(name, args));
        match wire {
            Wire::Start => TurnInput::Start,
            Wire::Say(t) => TurnInput::Say(t),
            Wire::Join => TurnInput::Join,
            Wire::Leave => TurnInput::Leave,
            Wire::Begin => TurnInput::Begin,
            Wire::AddAi => TurnInput::AddAi,
            Wire::Vote(o) => TurnInput::Vote(o),
            Wire::Whisper => TurnInput::Whisper,
            Wire::Status => TurnInput::Status,
            Wire::Timer(t) => TurnInput::Timer(t),
            Wire::End | Wire::Reveal => TurnInput::End,
            Wire::Verb(v) => TurnInput::Verb(v),
            Wire::Ask(t) => verb("ask", vec![t]),
            Wire::Guess(t) => verb("guess", vec![t]),
            Wire::Hint => verb("hint", vec![]),
            Wire::History => verb("history", vec![]),
            Wire::GiveUp => verb("giveup", vec![]),
            Wire::Pause => verb("pause", vec![]),
            Wire::Resume => verb("resume", vec![]),
            Wire::Topic(t) => verb("topic", vec![t]),
            Wire::SayTo { to, text } => verb("say", vec![text, to]),
            Wire::Scores => verb("scores", vec![]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hand_over_written_before_games_owned_their_verbs_still_reads() {
        let read = |json: &str| serde_json::from_str::<TurnInput>(json).unwrap();
        assert_eq!(read(r#"{"Ask":"was it night?"}"#), TurnInput::Verb(Verb::new("ask", ["was it night?".into()])));
        assert_eq!(read(r#""Reveal""#), TurnInput::End);
        assert_eq!(
            read(r#"{"SayTo":{"to":"Mira","text":"hello"}}"#),
            TurnInput::Verb(Verb::new("say", ["hello".into(), "Mira".into()]))
        );
        let now = TurnInput::Verb(Verb::new("topic", ["tides".into()]));
        assert_eq!(read(&serde_json::to_string(&now).unwrap()), now);
        assert_eq!(read(&serde_json::to_string(&TurnInput::Vote("3".into())).unwrap()), TurnInput::Vote("3".into()));
    }
}
