use super::*;

fn settings(dir: &Path, chat_model: &str) -> LocalSettings {
    LocalSettings {
        models_dir: dir.display().to_string(),
        chat_model: chat_model.to_owned(),
        ..LocalSettings::default()
    }
}

#[test]
fn the_configured_directory_wins_over_the_cache_directory() {
    assert_eq!(resolve_dir(" /srv/models "), PathBuf::from("/srv/models"));
    assert!(resolve_dir("").ends_with("echoes/models"));
}

#[test]
fn auto_prefers_the_large_model_and_falls_back_to_the_small_one() {
    let dir = tempfile::tempdir().unwrap();
    let models = ModelDir::new(&settings(dir.path(), "auto"));
    let missing = models.chat_model().unwrap_err();
    assert!(missing.to_string().contains("echoes models fetch"), "{missing}");

    std::fs::write(models.small_chat(), b"x").unwrap();
    assert_eq!(models.chat_model().unwrap(), ChatChoice { path: models.small_chat(), small: true });
    std::fs::write(models.large_chat(), b"x").unwrap();
    assert_eq!(models.chat_model().unwrap(), ChatChoice { path: models.large_chat(), small: false });
    let small = ModelDir::new(&settings(dir.path(), "small"));
    assert!(small.chat_model().unwrap().small);
}

#[test]
fn a_path_names_its_own_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mine.gguf");
    let models = ModelDir::new(&settings(dir.path(), file.to_str().unwrap()));
    assert!(matches!(models.chat_model(), Err(ModelError::Missing { .. })));
    std::fs::write(&file, b"x").unwrap();
    assert_eq!(models.chat_model().unwrap().path, file);
}

#[test]
fn the_embedder_needs_all_its_files_and_the_list_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let models = ModelDir::new(&settings(dir.path(), "auto"));
    std::fs::create_dir_all(models.embedder()).unwrap();
    std::fs::write(models.embedder().join("config.json"), b"{}").unwrap();
    assert!(models.embedder_files().unwrap_err().to_string().contains("tokenizer.json"));
    let listing = models.list().join("\n");
    assert_eq!(listing.matches("missing").count(), 4, "{listing}");
}

#[test]
fn the_embedder_gguf_is_the_converted_one_unless_a_path_is_set() {
    let dir = tempfile::tempdir().unwrap();
    let models = ModelDir::new(&settings(dir.path(), "auto"));
    assert_eq!(models.embedder_gguf_path(), models.embedder().join(EMBEDDER_GGUF));
    std::fs::create_dir_all(models.embedder()).unwrap();
    for file in EMBEDDER_SOURCES {
        std::fs::write(models.embedder().join(file), b"{}").unwrap();
    }
    assert!(models.embedder_sources().is_ok());
    let missing = models.embedder_files().unwrap_err().to_string();
    assert!(missing.contains(EMBEDDER_GGUF) && missing.contains("echoes models fetch"), "{missing}");

    for file in EMBEDDER_FILES {
        std::fs::write(models.embedder().join(file), b"{}").unwrap();
    }
    assert_eq!(models.embedder_files().unwrap(), models.embedder());

    let own = dir.path().join("mine.gguf");
    let mine =
        ModelDir::new(&LocalSettings { embedder_gguf: format!(" {} ", own.display()), ..settings(dir.path(), "auto") });
    assert_eq!(mine.embedder_gguf_path(), own);
    assert!(mine.embedder_gguf().is_err());
    std::fs::write(&own, b"GGUF").unwrap();
    assert_eq!(mine.embedder_gguf().unwrap(), own);
    assert_eq!(mine.embedder_files().unwrap(), mine.embedder());
}
