use super::*;
use crate::core::embed::cosine;
use crate::models::testing;

async fn embedder() -> Option<LocalEmbedder> {
    let dir = testing::embedder()?;
    Some(LocalEmbedder::open(&dir).await.expect("the embedder loads"))
}

fn texts(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

#[tokio::test]
async fn vectors_are_384_wide_and_normalised() {
    let Some(embedder) = embedder().await else { return };
    assert_eq!(embedder.dimensions(), 384);
    let vectors =
        embedder.embed(&texts(&["A short one.", "A somewhat longer sentence about the sea and ships."])).await.unwrap();
    assert_eq!(vectors.len(), 2);
    for v in &vectors {
        assert_eq!(v.len(), 384);
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-4, "norm {norm}");
    }
    assert!(embedder.embed(&[]).await.unwrap().is_empty());
}

#[tokio::test]
async fn paraphrases_score_closer_than_unrelated_sentences() {
    let Some(embedder) = embedder().await else { return };
    let v = embedder
        .embed(&texts(&[
            "Was the old man her father?",
            "Is the elderly man Ana's dad?",
            "Does the weather matter in this story?",
        ]))
        .await
        .unwrap();
    let paraphrase = cosine(&v[0], &v[1]);
    let unrelated = cosine(&v[0], &v[2]);
    assert!(paraphrase > unrelated + 0.1, "paraphrase {paraphrase} vs unrelated {unrelated}");
}

#[tokio::test]
async fn a_text_embeds_the_same_alone_or_in_a_padded_batch() {
    let Some(embedder) = embedder().await else { return };
    let alone = embedder.embed(&texts(&["Hi"])).await.unwrap();
    let batch =
        embedder.embed(&texts(&["Hi", "A much longer sentence that forces padding of the first one."])).await.unwrap();
    assert!(cosine(&alone[0], &batch[0]) > 0.9999);
}

#[tokio::test]
async fn broken_files_are_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let missing = LocalEmbedder::open(dir.path()).await.err().expect("no files");
    assert!(matches!(&missing, EmbedError::Unavailable(m) if m.contains("echoes models fetch")), "{missing}");

    let Some(real) = testing::embedder() else { return };
    for f in ["config.json", "tokenizer.json"] {
        std::fs::copy(real.join(f), dir.path().join(f)).unwrap();
    }
    std::fs::write(dir.path().join("model.safetensors"), b"\x10\0\0\0\0\0\0\0{\"a\":").unwrap();
    let broken = LocalEmbedder::open(dir.path()).await.err().expect("truncated weights");
    assert!(broken.to_string().contains("model.safetensors"), "{broken}");
}
