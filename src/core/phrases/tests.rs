//! The phrasebooks: every sentence file has its other language with the
//! same messages and variables, and a message is said with its values,
//! its plurals, or lent once said when it has none.

use std::path::{Path, PathBuf};

use super::*;

fn english_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            english_files(&path, found);
        } else if path.file_name().is_some_and(|name| name == "en.ftl") {
            found.push(path);
        }
    }
}

/// Every sentence file has its other language, with the same messages
/// and each message with the same variables.
#[test]
fn every_sentence_is_in_both_languages_with_the_same_variables() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    english_files(&src, &mut files);
    for book in ["core/undercover", "core/arena", "core/rpg", "core/soup", "bot/words"] {
        assert!(files.contains(&src.join(book).join("en.ftl")), "no sentences found in src/{book}: {files:?}");
    }
    for en_path in files {
        let zh_path = en_path.with_file_name("zh.ftl");
        let read = |path: &Path| std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        let en = messages(&read(&en_path)).unwrap_or_else(|e| panic!("{en_path:?}: {e}"));
        let zh = messages(&read(&zh_path)).unwrap_or_else(|e| panic!("{zh_path:?}: {e}"));
        let en_ids: Vec<_> = en.keys().collect();
        let zh_ids: Vec<_> = zh.keys().collect();
        assert_eq!(en_ids, zh_ids, "{en_path:?} and its zh.ftl name different messages");
        for (id, variables) in &en {
            assert_eq!(Some(variables), zh.get(id), "{en_path:?}: `{id}` has other variables in zh");
        }
    }
}

#[test]
fn a_sentence_without_variables_is_lent_for_good() {
    let en = "title = Seats\nseats = { $count } seats\nheading = { title }:\nsep = {\"; \"}\n";
    let zh = "title = 座位\nseats = { $count } 个座位\nheading = { title }：\nsep = ；\n";
    let book: &'static Phrasebook = Box::leak(Box::new(Phrasebook::new("test", en, zh).unwrap()));
    assert_eq!(book.fixed(Language::En, "heading"), "Seats:");
    assert_eq!(book.fixed(Language::Zh, "title"), "座位");
    assert_eq!(book.fixed(Language::En, "sep"), "; ");
    assert_eq!(crate::phrase!(book, Language::Zh, "seats", count = 2), "2 个座位");
}

#[test]
fn a_sentence_is_said_with_its_values_and_plurals() {
    let en = "seats = { $count ->\n    [one] one seat\n   *[other] { $count } seats\n } for { $name }\n";
    let zh = "seats = { $name } 的 { $count } 个座位\n";
    let book = Phrasebook::new("test", en, zh).unwrap();
    assert_eq!(book.say(Language::En, "seats", &[("count", 1.into()), ("name", "Mira".into())]), "one seat for Mira");
    assert_eq!(crate::phrase!(book, Language::En, "seats", count = 3, name = "Mira"), "3 seats for Mira");
    assert_eq!(crate::phrase!(book, Language::Zh, "seats", count = 3, name = "Mira"), "Mira 的 3 个座位");
    assert_eq!(messages(en).unwrap()["seats"], vec!["count".to_owned(), "name".to_owned()]);
}
