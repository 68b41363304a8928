//! One input for a session, parsed at the edge by a front end: the moves
//! every game shares (lobby, votes, "show me my secret", timers) and Turtle
//! Soup's own. A game answers an input it has no use for with a rejection.

/// A player's (or the engine's) input to a session.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum TurnInput {
    Start,
    /// Free text: in Turtle Soup the Judge decides whether it is a
    /// question, a guess or chatter; other games read it their own way.
    Say(String),
    Ask(String),
    Guess(String),
    Hint,
    Status,
    History,
    GiveUp,
    /// Moderator verb: end the game and show the story.
    Reveal,
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
    /// A deadline passed (the engine sends this; players cannot).
    Timer(String),
    /// Host or moderator: hold the game (no deadlines, no AI moves).
    Pause,
    Resume,
    /// Host or moderator: set the game's topic (the Arena).
    Topic(String),
    /// Words to someone in the game (the Lore RPG: `say <npc> <text>`).
    SayTo {
        to: String,
        text: String,
    },
    /// The standings so far (the Lore RPG: turns won and lost).
    Scores,
}

impl TurnInput {
    pub fn kind(&self) -> &'static str {
        match self {
            TurnInput::Start => "start",
            TurnInput::Say(_) => "say",
            TurnInput::Ask(_) => "ask",
            TurnInput::Guess(_) => "guess",
            TurnInput::Hint => "hint",
            TurnInput::Status => "status",
            TurnInput::History => "history",
            TurnInput::GiveUp => "giveup",
            TurnInput::Reveal => "reveal",
            TurnInput::Join => "join",
            TurnInput::Leave => "leave",
            TurnInput::Begin => "begin",
            TurnInput::AddAi => "add_ai",
            TurnInput::Vote(_) => "vote",
            TurnInput::Whisper => "whisper",
            TurnInput::Timer(_) => "timer",
            TurnInput::Pause => "pause",
            TurnInput::Resume => "resume",
            TurnInput::Topic(_) => "topic",
            TurnInput::SayTo { .. } => "say_to",
            TurnInput::Scores => "scores",
        }
    }

    /// The text stored as the turn's input. A vote's choice is not stored
    /// here (the ballot keeps it secret until the reveal).
    pub fn text(&self) -> &str {
        match self {
            TurnInput::Say(t)
            | TurnInput::Ask(t)
            | TurnInput::Guess(t)
            | TurnInput::Timer(t)
            | TurnInput::Topic(t)
            | TurnInput::SayTo { text: t, .. } => t,
            _ => "",
        }
    }
}
