use super::*;

const MARKUPS: [Markup; 2] = [Markup::Discord, Markup::Slack];

/// One of each variant (two of `UnknownPuzzle`: with and without
/// suggestions); a new variant belongs here too.
fn samples(near: &[String]) -> Vec<Word<'_>> {
    vec![
        Word::NoGameHere,
        Word::AlreadyRunning,
        Word::WrongChannel("C42"),
        Word::StartedIn { thread: 1, title: "T" },
        Word::NoPuzzleMatches,
        Word::UnknownPuzzle { id: "x", near: &near[..0] },
        Word::UnknownPuzzle { id: "x", near },
        Word::UnknownVerb("dance"),
        Word::SlowDown(3),
        Word::NotModerator,
        Word::Oops,
        Word::DatabaseAway,
        Word::BadOption,
        Word::GuildOnly,
        Word::BadModel,
        Word::Thinking,
        Word::ButtonJoin,
        Word::ButtonLeave,
        Word::ButtonBegin,
        Word::GameOver,
        Word::KeyFacts,
        Word::FoundBy("Alice"),
        Word::NotFound,
        Word::Scores,
        Word::NoPoints,
        Word::TranscriptAttached,
        Word::LastTurns,
        Word::FullTextAttached,
        Word::Cut,
        Word::EndedByModerator,
        Word::Done,
        Word::ConfigSet { what: "hint-limit", value: "5" },
        Word::PuzzleAdded { id: "p", title: "P" },
        Word::PuzzleInvalid("• bad"),
        Word::PuzzleExists("p"),
        Word::PuzzleUnreadable,
        Word::PuzzleRemoved("p"),
        Word::NotCustom("p"),
        Word::PuzzleEnabled("p"),
        Word::PuzzleDisabled("p"),
        Word::NextPuzzle("p"),
        Word::ContentAdded { id: "p", shown: "a / b" },
        Word::ContentExists("p"),
        Word::ContentRemoved("p"),
        Word::NoSuchContent { id: "p", group: "undercover" },
        Word::NoContent { group: "undercover" },
        Word::ContentHeading { group: "undercover" },
        Word::KnownAdded { id: "p#abc123", puzzle: "p", shown: "NO · Was it a ghost?" },
        Word::KnownRefused("• says NO to what the key fact f1 states"),
        Word::KnownBadQuestion,
        Word::KnownBadVerdict,
        Word::KnownWhich,
        Word::KnownNone,
        Word::KnownHeading,
        Word::KnownNoSuch("p#abc123"),
        Word::Players,
        Word::Moderators,
        Word::Leaderboard { global: false },
        Word::Leaderboard { global: true },
        Word::SoupStats { name: "Ann", games: 3, solves: 1, per_solve: "9.0", facts: 4, hints: 2, favourite: "easy" },
        Word::NoStats("Ann"),
        Word::ForgetConfirm,
        Word::ForgetButton,
        Word::Forgotten(3),
        Word::NoScores,
        Word::Puzzles,
        Word::Custom,
        Word::Disabled,
        Word::OtherGames,
    ]
}

#[test]
fn every_word_has_text_in_both_languages_for_both_platforms() {
    let near = ["a".to_string()];
    for markup in MARKUPS {
        for word in &samples(&near) {
            let (en, zh) = (say(Language::En, markup, word), say(Language::Zh, markup, word));
            assert!(!en.is_empty() && !zh.is_empty() && en != zh, "{markup:?} {word:?}");
        }
    }
}

#[test]
fn no_sentence_pings_everyone() {
    let near = ["a".to_string()];
    for (markup, lang) in MARKUPS.into_iter().flat_map(|m| [(m, Language::En), (m, Language::Zh)]) {
        for word in &samples(&near) {
            let text = say(lang, markup, word);
            assert!(!text.contains("@everyone") && !text.contains("@here"), "{markup:?} {word:?}: {text}");
        }
    }
}

#[test]
fn bold_follows_the_platform() {
    assert_eq!(bold(Markup::Discord, "T"), "**T**");
    assert_eq!(bold(Markup::Slack, "T"), "*T*");
    let started = Word::StartedIn { thread: 7, title: "T" };
    assert_eq!(say(Language::En, Markup::Discord, &started), "🐢 **T** is on: join the game in <#7>.");
    assert_eq!(say(Language::En, Markup::Slack, &started), "🐢 *T* is on: join the game in <#7>.");
}

fn check(markup: Markup, word: Word<'_>, expected: &str) {
    assert_eq!(say(Language::En, markup, &word), expected);
}

/// The sentences the integration tests look for, on the platform that
/// looks for them.
#[test]
fn each_platform_keeps_its_own_nouns() {
    check(Markup::Discord, Word::NoGameHere, "There's no game in this thread. Start one with `/soup start`.");
    check(Markup::Slack, Word::NoGameHere, "There's no game in this channel. Start one with `/soup start`.");
    check(Markup::Discord, Word::NotModerator, "Only moderators (Manage Threads, or the moderator role) can do that.");
    check(Markup::Slack, Word::NotModerator, "Only the workspace's Turtle Soup admins can do that.");
    check(Markup::Discord, Word::EndedByModerator, "A moderator ended this game.");
    check(Markup::Slack, Word::EndedByModerator, "An admin ended this game.");
    check(Markup::Discord, Word::WrongChannel("9"), "Games on this server run in <#9>.");
    check(Markup::Slack, Word::WrongChannel("C9"), "Games in this workspace run in <#C9>.");
    check(Markup::Slack, Word::Cut, "(cut: the rest was too long for Slack)");
    check(Markup::Slack, Word::Thinking, "_thinking…_");
    assert_eq!(say(Language::Zh, Markup::Discord, &Word::NotCustom("p")), "`p` 不是本服务器的自定义谜题。");
}
