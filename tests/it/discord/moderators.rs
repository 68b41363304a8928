//! Moderator verbs: refused for everyone else on every verb (the check
//! runs server-side, not just in the client's menu), accepted with Manage
//! Threads or the configured role; settings and custom puzzles persist per
//! server.

use echoes::core::guild::GuildStore;
use echoes::core::vocab::Language;
use echoes::discord::fake::{Opt, Who};
use echoes::store::SqlStore;

use super::{CHANNEL, PUZZLE, Rig, is_private};

/// Every `/soup-admin` verb with valid options.
fn every_admin_verb(rig: &Rig) -> Vec<(Vec<&'static str>, Vec<Opt>)> {
    let p = || Opt::Text("puzzle", PUZZLE.into());
    vec![
        (vec!["puzzle", "list"], vec![]),
        (vec!["puzzle", "add"], vec![rig.fake.host_file("en-x.toml", b"id = 1".to_vec())]),
        (vec!["puzzle", "remove"], vec![p()]),
        (vec!["puzzle", "enable"], vec![p()]),
        (vec!["puzzle", "disable"], vec![p()]),
        (vec!["puzzle", "next"], vec![p()]),
        (vec!["known", "add"], vec![Opt::Int("verdict", 1), p(), Opt::Text("question", "Was he alone?".into())]),
        (vec!["known", "list"], vec![]),
        (vec!["known", "remove"], vec![Opt::Text("id", "en-noon-gun#000000".into())]),
        (vec!["reveal"], vec![]),
        (vec!["end"], vec![]),
        (vec!["config", "language"], vec![Opt::Int("language", 1)]),
        (vec!["config", "hint-limit"], vec![Opt::Int("limit", 1)]),
        (vec!["config", "channel"], vec![Opt::Channel("channel", CHANNEL + 1)]),
        (vec!["config", "model"], vec![Opt::Text("model", "other:1b".into())]),
        (vec!["config", "mod-role"], vec![Opt::Role("role", 77)]),
    ]
}

#[tokio::test]
async fn a_non_moderator_is_refused_every_admin_verb() {
    let rig = Rig::start().await;
    let mallory = Who::player(666, "Mallory");
    let thread = rig.start_game(&Who::player(101, "Alice")).await;
    let verbs = every_admin_verb(&rig);
    assert_eq!(verbs.len(), 16, "one entry per catalogue moderator verb");
    for (path, options) in verbs {
        let id = rig.fake.slash(thread, &mallory, "soup-admin", &path, &options).unwrap();
        let reply = rig.reply_to(id).await;
        assert!(is_private(&reply), "{path:?}");
        assert!(reply.text().contains("Only moderators"), "{path:?}: {}", reply.text());
    }
    // Nothing changed: settings, puzzles, and the game goes on.
    let store = SqlStore::open(rig.database()).await.unwrap();
    assert_eq!(store.guild_config("discord:10").await.unwrap(), Default::default());
    assert!(store.scoped_puzzles("discord:10").await.unwrap().is_empty());
    assert!(store.custom_content("discord:10", "soup").await.unwrap().is_empty(), "no correction stored");
    assert!(store.thread_binding(&format!("discord:{thread}")).await.unwrap().unwrap().is_active());
    assert!(!rig.fake.calls().iter().any(|c| c.path == "/files/en-x.toml"), "the file was never fetched");
}

#[tokio::test]
async fn moderators_configure_the_server_and_its_language_applies() {
    let rig = Rig::start().await;
    let moderator = Who::moderator(201, "Mod");
    let id =
        rig.fake.slash(CHANNEL, &moderator, "soup-admin", &["config", "language"], &[Opt::Int("language", 1)]).unwrap();
    assert!(rig.reply_to(id).await.text().contains("language"), "confirmed");
    let id =
        rig.fake.slash(CHANNEL, &moderator, "soup-admin", &["config", "hint-limit"], &[Opt::Int("limit", 1)]).unwrap();
    rig.reply_to(id).await;
    let id =
        rig.fake.slash(CHANNEL, &moderator, "soup-admin", &["config", "mod-role"], &[Opt::Role("role", 77)]).unwrap();
    rig.reply_to(id).await;
    let store = SqlStore::open(rig.database()).await.unwrap();
    let config = store.guild_config("discord:10").await.unwrap();
    assert_eq!(
        (config.language, config.hint_limit, config.mod_role.as_deref()),
        (Some(Language::Zh), Some(1), Some("77"))
    );

    // The bot now speaks Chinese here, and a role member is a moderator.
    let alice = Who::player(101, "Alice");
    let help = rig.fake.slash(CHANNEL, &alice, "soup", &["help"], &[]).unwrap();
    assert!(rig.reply_to(help).await.text().contains("玩家"), "help in zh");
    let helper = Who::player(202, "Helper").with_role(77);
    let id = rig.fake.slash(CHANNEL, &helper, "soup-admin", &["puzzle", "list"], &[]).unwrap();
    let list = rig.reply_to(id).await;
    assert!(list.text().contains(PUZZLE) && is_private(&list), "{}", list.text());

    // Restricting games to another channel refuses starts here.
    let id = rig
        .fake
        .slash(CHANNEL, &moderator, "soup-admin", &["config", "channel"], &[Opt::Channel("channel", CHANNEL + 1)])
        .unwrap();
    rig.reply_to(id).await;
    let start = rig.fake.slash(CHANNEL, &alice, "soup", &["start"], &[]).unwrap();
    let refused = rig.reply_to(start).await;
    assert!(is_private(&refused) && refused.text().contains(&format!("<#{}>", CHANNEL + 1)), "{}", refused.text());
}

const CUSTOM: &str = r#"
id = "en-guild-mirror"
title = "The Guild Mirror"
language = "en"
difficulty = "easy"
author = "a moderator"
license = "CC0"
surface = "A woman looked into a mirror every morning and smiled, until one day she screamed."
bottom = "She was a vampire hunter; the mirror in the antique shop showed no reflection of the new shopkeeper behind her."
hints = ["Think about who stood behind her.", "Some beings cast no reflection.", "She knew the legends well."]

[[facts]]
id = "f1"
text = "The shopkeeper behind her had no reflection."
required = true
"#;

#[tokio::test]
async fn custom_puzzles_are_validated_and_private_to_the_server() {
    let rig = Rig::start().await;
    let moderator = Who::moderator(201, "Mod");
    let add = |name: &str, text: &str| {
        let file = rig.fake.host_file(name, text.as_bytes().to_vec());
        rig.fake.slash(CHANNEL, &moderator, "soup-admin", &["puzzle", "add"], &[file]).unwrap()
    };
    let bad = rig.reply_to(add("en-broken.toml", "id = \"en-broken\"\ntitle = 3")).await;
    assert!(bad.text().contains("problems"), "{}", bad.text());
    let misnamed = rig.reply_to(add("other.toml", CUSTOM)).await;
    assert!(misnamed.text().contains("file is named"), "checked like `echoes puzzles check`: {}", misnamed.text());
    let ok = rig.reply_to(add("en-guild-mirror.toml", CUSTOM)).await;
    assert!(ok.text().contains("Added `en-guild-mirror`"), "{}", ok.text());
    let again = rig.reply_to(add("en-guild-mirror.toml", CUSTOM)).await;
    assert!(again.text().contains("already exists"), "{}", again.text());

    let store = SqlStore::open(rig.database()).await.unwrap();
    let stored = store.scoped_puzzles("discord:10").await.unwrap();
    assert_eq!((stored.len(), stored[0].enabled), (1, true));
    assert!(store.scoped_puzzles("discord:11").await.unwrap().is_empty());

    // Playable here: start a game on it; disabling removes it from the list.
    let alice = Who::player(101, "Alice");
    let start =
        rig.fake.slash(CHANNEL, &alice, "soup", &["start"], &[Opt::Text("puzzle", "en-guild-mirror".into())]).unwrap();
    assert!(rig.reply_to(start).await.text().contains("The Guild Mirror"));
    let off = rig
        .fake
        .slash(
            CHANNEL,
            &moderator,
            "soup-admin",
            &["puzzle", "disable"],
            &[Opt::Text("puzzle", "en-guild-mirror".into())],
        )
        .unwrap();
    rig.reply_to(off).await;
    let list = rig.fake.slash(CHANNEL, &alice, "soup", &["puzzles"], &[]).unwrap();
    let text = rig.replies_to(list, 1).await.iter().map(|c| c.text()).collect::<String>();
    assert!(!text.contains("en-guild-mirror") && text.contains(PUZZLE), "{text}");
}

#[tokio::test]
async fn reveal_shows_the_story_and_end_does_not() {
    let rig = Rig::start().await;
    let moderator = Who::moderator(201, "Mod");
    let alice = Who::player(101, "Alice");
    let first = rig.start_game(&alice).await;
    let second = rig.start_game(&alice).await;

    let from = rig.fake.call_count();
    let id = rig.fake.slash(first, &moderator, "soup-admin", &["reveal"], &[]).unwrap();
    assert!(is_private(&rig.reply_to(id).await));
    let posts = rig.wait_posts(first, from, 2).await;
    assert!(posts[0].text().contains("The story is revealed") && posts[0].text().contains("chronometer"));
    assert!(!posts[1].files.is_empty(), "the transcript follows the reveal");

    let from = rig.fake.call_count();
    let id = rig.fake.slash(second, &moderator, "soup-admin", &["end"], &[]).unwrap();
    assert!(is_private(&rig.reply_to(id).await));
    let posts = rig.wait_posts(second, from, 1).await;
    assert!(posts[0].text().contains("A moderator ended this game"));
    let everything: String = rig.fake.calls_since(from).iter().map(|c| c.text()).collect();
    assert!(!everything.contains("chronometer"), "end keeps the story hidden");
    let store = SqlStore::open(rig.database()).await.unwrap();
    for thread in [first, second] {
        assert!(!store.thread_binding(&format!("discord:{thread}")).await.unwrap().unwrap().is_active());
    }
}

/// "That answer was wrong: it should be YES AND NO": in the game's
/// thread a moderator gives the right verdict to the question last answered
/// there, for this server's copy of the puzzle; games that start afterwards
/// answer it so, other servers keep the puzzle's own answer, and removing
/// the correction brings it back.
#[tokio::test]
async fn a_moderators_correction_answers_the_question_in_later_games_here() {
    let rig = Rig::start().await;
    let moderator = Who::moderator(201, "Mod");
    let alice = Who::player(101, "Alice");
    let ask = |thread: u64| {
        let from = rig.fake.call_count();
        rig.fake.say(thread, &alice, "was the gunner alone").unwrap();
        from
    };
    let known = |place: u64, path: &str, options: &[Opt]| {
        rig.fake.slash(place, &moderator, "soup-admin", &["known", path], options).unwrap()
    };
    let thread = rig.start_game(&alice).await;
    let first = rig.wait_posts(thread, ask(thread), 1).await;
    assert!(first[0].text().starts_with("NO"), "before: {}", first[0].text());

    // Outside any game, naming nothing: which question?
    let which = rig.reply_to(known(CHANNEL, "add", &[Opt::Int("verdict", 2)])).await;
    assert!(is_private(&which) && which.text().contains("Name the puzzle and the question"), "{}", which.text());
    // Refused with a reason: no such puzzle; a NO to what a key fact states.
    let question = || Opt::Text("question", "Was the gunner alone?".into());
    let nope = Opt::Text("puzzle", "en-nope".into());
    let unknown = rig.reply_to(known(CHANNEL, "add", &[Opt::Int("verdict", 0), nope, question()])).await;
    assert!(unknown.text().contains("en-nope"), "{}", unknown.text());
    let fact = Opt::Text("question", "Did the captain set his ship's chronometer by the noon gun?".into());
    let puzzle = Opt::Text("puzzle", PUZZLE.into());
    let refused = rig.reply_to(known(CHANNEL, "add", &[Opt::Int("verdict", 1), puzzle.clone(), fact])).await;
    assert!(refused.text().contains("Not stored") && refused.text().contains("key fact"), "{}", refused.text());

    // In the game's thread, naming nothing: the question last answered there.
    let added = rig.reply_to(known(thread, "add", &[Opt::Int("verdict", 2)])).await;
    assert!(is_private(&added) && added.text().contains("YES AND NO · was the gunner alone"), "{}", added.text());
    let id = added.text().split('`').nth(1).expect("the correction's id").to_string();
    assert!(id.starts_with("en-noon-gun#"), "{id}");
    let list = rig.reply_to(known(CHANNEL, "list", &[puzzle])).await;
    assert!(list.text().contains(&id), "{}", list.text());

    // A game that starts now takes the correction.
    let thread = rig.start_game(&alice).await;
    let after = rig.wait_posts(thread, ask(thread), 1).await;
    assert!(after[0].text().starts_with("YES AND NO"), "after: {}", after[0].text());

    // Stored for this server only.
    let store = SqlStore::open(rig.database()).await.unwrap();
    assert_eq!(store.custom_content("discord:10", "soup").await.unwrap().len(), 1);
    assert!(store.custom_content("discord:11", "soup").await.unwrap().is_empty());

    // Removed: the next game has the puzzle's own answer back.
    let removed = rig.reply_to(known(CHANNEL, "remove", &[Opt::Text("id", id.clone())])).await;
    assert!(removed.text().contains(&format!("Removed `{id}`")), "{}", removed.text());
    let gone = rig.reply_to(known(CHANNEL, "remove", &[Opt::Text("id", id.clone())])).await;
    assert!(gone.text().contains("There is no"), "{}", gone.text());
    let thread = rig.start_game(&alice).await;
    let back = rig.wait_posts(thread, ask(thread), 1).await;
    assert!(back[0].text().starts_with("NO"), "removed: {}", back[0].text());
}
