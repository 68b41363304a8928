use super::*;
use crate::core::fixtures::puzzle;
use crate::core::game::Game;
use crate::core::soup::SoupGame;
use crate::core::store::{NewSession, SessionRecord};

use crate::store::Backend;
use crate::store::sql::tests::{Fresh, fresh, on_both_backends};

on_both_backends!(
    config_defaults_then_round_trips,
    an_active_binding_refuses_a_second_game_until_it_ends,
    custom_puzzles_are_private_to_their_scope,
    built_in_puzzles_can_be_disabled_per_scope,
    the_next_puzzle_is_taken_once,
    custom_content_is_kept_per_scope_and_game,
);

async fn store_with_sessions(backend: Backend, ids: &[&str]) -> Fresh {
    let store = fresh(backend).await;
    let p = puzzle();
    for id in ids {
        let new = NewSession {
            id: id.to_string(),
            puzzle_id: p.id.clone(),
            language: Language::En,
            channel: "discord:t1".into(),
            canary: "CANARY-1".into(),
            snapshot: SoupGame::new(&p, 3).snapshot().unwrap(),
            created_ms: 1,
        };
        store.create_session(&new).await.unwrap();
    }
    store
}

fn binding(thread: &str, session: &str) -> ThreadBinding {
    ThreadBinding {
        thread: thread.into(),
        scope: "discord:g1".into(),
        session_id: session.into(),
        started_by: "discord:u1".into(),
        created_ms: 5,
        ended_ms: None,
    }
}

async fn config_defaults_then_round_trips(backend: Backend) {
    let store = store_with_sessions(backend, &[]).await;
    assert_eq!(store.guild_config("discord:g1").await.unwrap(), GuildConfig::default());
    let config = GuildConfig {
        language: Some(Language::Zh),
        hint_limit: Some(2),
        channel: Some("42".into()),
        model: Some("qwen2.5:7b".into()),
        mod_role: Some("7".into()),
    };
    store.set_guild_config("discord:g1", &config, 10).await.unwrap();
    assert_eq!(store.guild_config("discord:g1").await.unwrap(), config);
    let cleared = GuildConfig { model: None, ..config.clone() };
    store.set_guild_config("discord:g1", &cleared, 11).await.unwrap();
    assert_eq!(store.guild_config("discord:g1").await.unwrap(), cleared);
    assert_eq!(store.guild_config("discord:g2").await.unwrap(), GuildConfig::default());
}

async fn an_active_binding_refuses_a_second_game_until_it_ends(backend: Backend) {
    let store = store_with_sessions(backend, &["s1", "s2"]).await;
    store.bind_thread(&binding("discord:t1", "s1")).await.unwrap();
    let again = store.bind_thread(&binding("discord:t1", "s2")).await;
    assert!(matches!(again, Err(StoreError::Duplicate(_))), "{again:?}");
    assert_eq!(store.thread_binding("discord:t1").await.unwrap().unwrap().session_id, "s1");
    assert_eq!(store.active_bindings().await.unwrap().len(), 1);

    assert!(store.end_binding("discord:t1", 9).await.unwrap());
    assert!(!store.end_binding("discord:t1", 10).await.unwrap(), "ending twice is harmless");
    assert!(store.active_bindings().await.unwrap().is_empty());
    assert_eq!(store.thread_binding("discord:t1").await.unwrap().unwrap().ended_ms, Some(9));

    store.bind_thread(&binding("discord:t1", "s2")).await.unwrap();
    let now = store.thread_binding("discord:t1").await.unwrap().unwrap();
    assert_eq!((now.session_id.as_str(), now.is_active()), ("s2", true));
    assert_eq!(store.thread_binding("discord:nope").await.unwrap(), None);
}

async fn custom_puzzles_are_private_to_their_scope(backend: Backend) {
    let store = store_with_sessions(backend, &[]).await;
    let new = |scope| NewCustomPuzzle { scope, id: "p1", source: "toml", added_by: "discord:u1", created_ms: 3 };
    store.add_custom_puzzle(&new("discord:g1")).await.unwrap();
    assert!(matches!(store.add_custom_puzzle(&new("discord:g1")).await, Err(StoreError::Duplicate(_))));
    store.add_custom_puzzle(&new("discord:g2")).await.unwrap();
    assert_eq!(store.scoped_puzzles("discord:g1").await.unwrap().len(), 1);

    store.set_puzzle_enabled("discord:g1", "p1", false).await.unwrap();
    assert!(!store.scoped_puzzles("discord:g1").await.unwrap()[0].enabled);
    assert!(store.scoped_puzzles("discord:g2").await.unwrap()[0].enabled);
    assert!(store.disabled_puzzles("discord:g1").await.unwrap().is_empty(), "custom state lives on the row");

    assert!(store.remove_custom_puzzle("discord:g1", "p1").await.unwrap());
    assert!(!store.remove_custom_puzzle("discord:g1", "p1").await.unwrap());
    assert!(store.scoped_puzzles("discord:g1").await.unwrap().is_empty());
}

async fn built_in_puzzles_can_be_disabled_per_scope(backend: Backend) {
    let store = store_with_sessions(backend, &[]).await;
    store.set_puzzle_enabled("discord:g1", "en-lighthouse", false).await.unwrap();
    store.set_puzzle_enabled("discord:g1", "en-lighthouse", false).await.unwrap();
    assert_eq!(store.disabled_puzzles("discord:g1").await.unwrap(), vec!["en-lighthouse".to_string()]);
    assert!(store.disabled_puzzles("discord:g2").await.unwrap().is_empty());
    store.set_puzzle_enabled("discord:g1", "en-lighthouse", true).await.unwrap();
    assert!(store.disabled_puzzles("discord:g1").await.unwrap().is_empty());
}

async fn the_next_puzzle_is_taken_once(backend: Backend) {
    let store = store_with_sessions(backend, &[]).await;
    assert_eq!(store.take_next_puzzle("discord:g1", "c1").await.unwrap(), None);
    store.set_next_puzzle("discord:g1", "c1", "a").await.unwrap();
    store.set_next_puzzle("discord:g1", "c1", "b").await.unwrap();
    assert_eq!(store.take_next_puzzle("discord:g1", "c2").await.unwrap(), None);
    assert_eq!(store.take_next_puzzle("discord:g1", "c1").await.unwrap(), Some("b".into()));
    assert_eq!(store.take_next_puzzle("discord:g1", "c1").await.unwrap(), None);
}

async fn custom_content_is_kept_per_scope_and_game(backend: Backend) {
    let store = store_with_sessions(backend, &[]).await;
    let item = |scope: &str, id: &str, at: i64| CustomContent {
        scope: scope.into(),
        game: "undercover".into(),
        id: id.into(),
        language: Language::Zh,
        source: format!("id = \"{id}\""),
        added_by: "discord:u1".into(),
        created_ms: at,
    };
    store.add_custom_content(&item("discord:g1", "b", 2)).await.unwrap();
    store.add_custom_content(&item("discord:g1", "a", 3)).await.unwrap();
    store.add_custom_content(&item("discord:g2", "a", 1)).await.unwrap();
    assert!(matches!(
        store.add_custom_content(&item("discord:g1", "a", 9)).await,
        Err(StoreError::Duplicate(id)) if id == "a"
    ));
    let mine = store.custom_content("discord:g1", "undercover").await.unwrap();
    assert_eq!(mine, vec![item("discord:g1", "b", 2), item("discord:g1", "a", 3)], "oldest first, this scope only");
    assert!(store.custom_content("discord:g1", "arena").await.unwrap().is_empty());
    assert!(store.remove_custom_content("discord:g1", "undercover", "b").await.unwrap());
    assert!(!store.remove_custom_content("discord:g1", "undercover", "b").await.unwrap());
    assert_eq!(store.custom_content("discord:g2", "undercover").await.unwrap().len(), 1);
}
