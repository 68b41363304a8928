//! The bots' fixed sentences in English, one function per section of
//! `Word` (see `Part`); `super::say` picks the language.

use super::{Markup, Nouns, Part, Word, bold, channel, percent};

/// `word` in English: one function per section of `Word`.
pub(super) fn say(markup: Markup, n: &Nouns, word: &Word<'_>) -> String {
    match Part::of(word) {
        Part::Start => start(markup, n, word),
        Part::Refusal => refusal(n, word),
        Part::Play => play(markup, n, word),
        Part::Moderation => moderation(n, word),
        Part::Lists => lists(markup, n, word),
    }
}

/// Starting and finding a game, and a seated game's lobby.
fn start(markup: Markup, n: &Nouns, word: &Word<'_>) -> String {
    match word {
        Word::NoGameHere => format!("There's no game in this {}. Start one with `/soup start`.", n.place),
        Word::AlreadyRunning => format!("This {} already has a game running: {}.", n.place, n.play_it),
        Word::WrongChannel(id) => format!("Games {} run in {}.", n.this_scope, channel(id)),
        Word::StartedIn { thread, title } => {
            format!("🐢 {} is on: join the game in {}.", bold(markup, title), channel(thread))
        }
        Word::NoPuzzleMatches => "No puzzle matches that; `/soup puzzles` lists them.".into(),
        Word::UnknownPuzzle { id, near: [] } => {
            format!("There is no puzzle `{id}` here; `/soup puzzles` lists them.")
        }
        Word::UnknownPuzzle { id, near } => {
            format!("There is no puzzle `{id}` here. Did you mean: {}?", near.join(", "))
        }
        Word::UnknownVerb(verb) => format!("I don't know `/soup {verb}`. `/soup help` lists the commands."),
        Word::NoTableHere { group } => {
            format!("There's no /{group} game in this {}. Open one with `/{group} start`.", n.place)
        }
        Word::LobbyOpen { group, thread } => {
            format!(
                "🎲 A {} lobby is open in {}: take a seat with `/{group} join`.",
                bold(markup, group),
                channel(thread)
            )
        }
        Word::DmsClosed { group, verb } => {
            format!("I could not send you a direct message. Use `/{group} {verb}` to see your secret privately.")
        }
        _ => unreachable!("{word:?} is not a start word"),
    }
}

/// Refusals and failures.
fn refusal(n: &Nouns, word: &Word<'_>) -> String {
    match word {
        Word::SlowDown(secs) => format!("Easy there! You can take another turn in {secs} s."),
        Word::NotModerator => format!("Only {} can do that.", n.who_moderates),
        Word::Oops => "Something went wrong on my side and nothing was counted. Please try again in a moment.".into(),
        Word::BadOption => "I couldn't read that option; please check it and try again.".into(),
        Word::GuildOnly => format!("Turtle Soup is played in {} channels, not in direct messages.", n.scope),
        Word::BadModel => "Model names are letters, digits and `:._/-`, at most 100 characters.".into(),
        _ => unreachable!("{word:?} is not a refusal word"),
    }
}

/// A game in play, and its end.
fn play(markup: Markup, n: &Nouns, word: &Word<'_>) -> String {
    match word {
        Word::Thinking => "_thinking…_".into(),
        Word::ButtonHint => "Hint".into(),
        Word::ButtonStatus => "Status".into(),
        Word::ButtonGiveUp => "Give up".into(),
        Word::ButtonJoin => "Join".into(),
        Word::ButtonLeave => "Leave".into(),
        Word::ButtonBegin => "Start".into(),
        Word::GameOver => "Game over".into(),
        Word::KeyFacts => "Key facts".into(),
        Word::FoundBy(name) => format!("found by {name}"),
        Word::NotFound => "not found".into(),
        Word::Scores => "Scores".into(),
        Word::NoPoints => "No points this time.".into(),
        Word::TranscriptAttached => "The full transcript is attached.".into(),
        Word::LastTurns => "Transcript (last turns)".into(),
        Word::TranscriptOf(title) => format!("The transcript of {}.", bold(markup, title)),
        Word::NoTranscriptYet(true) => {
            format!("The game in this {} is still on: its transcript is here once it ends.", n.place)
        }
        Word::NoTranscriptYet(false) => format!("No game has ended in this {} yet.", n.place),
        Word::FullTextAttached => "(The full text is attached.)".into(),
        Word::Cut => format!("(cut: the rest was too long for {})", n.platform),
        Word::EndedByModerator => format!("{} ended this game.", n.a_moderator),
        _ => unreachable!("{word:?} is not a play word"),
    }
}

/// The moderators' commands.
fn moderation(n: &Nouns, word: &Word<'_>) -> String {
    match word {
        Word::Done => "Done.".into(),
        Word::ConfigSet { what, value } => format!("Done: {what} is now {value}."),
        Word::PuzzleAdded { id, title } => format!("Added `{id}` ({title}); it is enabled {} only.", n.this_scope),
        Word::PuzzleInvalid(problems) => format!("That puzzle has problems:\n{problems}"),
        Word::PuzzleExists(id) => format!("A puzzle `{id}` already exists; remove it first or choose another id."),
        Word::PuzzleUnreadable => "Attach the puzzle as a UTF-8 TOML file of at most 64 KiB.".into(),
        Word::FileUnreadable { max_kib } => format!("Attach a UTF-8 TOML file of at most {max_kib} KiB."),
        Word::PuzzleRemoved(id) => format!("Removed `{id}`."),
        Word::NotCustom(id) => format!("`{id}` is not one of this {}'s custom puzzles.", n.scope),
        Word::PuzzleEnabled(id) => format!("`{id}` is enabled here."),
        Word::PuzzleDisabled(id) => format!("`{id}` is disabled here."),
        Word::NextPuzzle(id) => format!("The next game in this channel will use `{id}`."),
        Word::ContentAdded { id, shown } => format!("Added `{id}`: {shown}. It is played {} only.", n.this_scope),
        Word::ContentExists(id) => format!("`{id}` is here already."),
        Word::ContentRemoved(id) => format!("Removed `{id}`."),
        Word::NoSuchContent { id, group } => {
            format!("There is no `{id}` here; `/{group} pairs list` shows what this {} added.", n.scope)
        }
        Word::NoContent { group } => format!("Nothing added {} yet: `/{group} pairs add` adds a pair.", n.this_scope),
        Word::ContentHeading { group } => format!("/{group}: added {}", n.this_scope),
        _ => unreachable!("{word:?} is not a moderation word"),
    }
}

/// Headings and tags of lists, a player's record, and forgetting one.
fn lists(markup: Markup, n: &Nouns, word: &Word<'_>) -> String {
    match word {
        Word::Players => "Players".into(),
        Word::Moderators => n.moderators.into(),
        Word::Leaderboard { global: false } => format!("🏆 Leaderboard · {}", n.this_scope),
        Word::Leaderboard { global: true } => "🏆 Leaderboard · everywhere".into(),
        Word::SoupStats { name, games, solves, per_solve, facts, hints, favourite } => format!(
            "{}: {games} game{} finished {}, {solves} solved ({}%) · {per_solve} questions per solve · {facts} key facts found · {hints} hints · most played: {favourite}",
            bold(markup, name),
            if *games == 1 { "" } else { "s" },
            n.this_scope,
            percent(*solves, *games)
        ),
        Word::NoStats(name) => {
            format!("{} has not finished a Turtle Soup game {} yet.", bold(markup, name), n.this_scope)
        }
        Word::ForgetConfirm => "This erases what I remember about you (your past games, your profile) and starts your stats and leaderboard points afresh, everywhere. It can't be undone. Press the button to confirm.".into(),
        Word::ForgetButton => "Forget me".into(),
        Word::Forgotten(n) => format!("Done: {n} memories erased, and your record starts afresh."),
        Word::NoScores => "No scores yet: solve a puzzle to get on the board.".into(),
        Word::Puzzles => "Puzzles".into(),
        Word::Custom => "custom".into(),
        Word::Disabled => "disabled".into(),
        Word::OtherGames => "Other games".into(),
        _ => unreachable!("{word:?} is not a lists word"),
    }
}
