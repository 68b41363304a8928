use super::*;
use crate::core::embed::cosine;
use crate::models::testing;

/// Sentences, their word pieces and their vectors from
/// `scripts/embed-reference.py`: all-MiniLM-L6-v2 in numpy (float64, erf
/// GELU), tokenized as the Hugging Face tokenizer does.
const REFERENCE: &str = include_str!("../../../tests/data/embed/reference.json");

struct Reference {
    text: String,
    ids: Vec<i32>,
    vector: Vec<f32>,
}

fn reference() -> Vec<Reference> {
    let json: serde_json::Value = serde_json::from_str(REFERENCE).expect("reference.json parses");
    assert_eq!(json["max_tokens"], MAX_TOKENS, "the reference was cut where the embedder cuts");
    let items = json["items"].as_array().expect("items").iter();
    items
        .map(|item| Reference {
            text: item["text"].as_str().expect("text").to_owned(),
            ids: item["ids"].as_array().expect("ids").iter().map(|v| v.as_i64().unwrap() as i32).collect(),
            vector: item["vector"].as_array().expect("vector").iter().map(|v| v.as_f64().unwrap() as f32).collect(),
        })
        .collect()
}

async fn embedder() -> Option<LlamaEmbedder> {
    let path = testing::embedder_gguf()?;
    Some(LlamaEmbedder::open(&path).await.expect("the embedder's GGUF loads"))
}

fn texts(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

#[test]
fn calls_hold_at_most_their_texts_and_tokens() {
    assert!(calls(&[]).is_empty());
    assert_eq!(calls(&[10; 70]), [0..32, 32..64, 64..70]);
    assert_eq!(calls(&[256, 256, 1]), [0..2, 2..3]);
    assert_eq!(calls(&[256, 200, 100, 2]), [0..2, 2..4]);
    assert_eq!(calls(&[512, 512]), [0..1, 1..2]);
}

#[test]
fn vectors_are_scaled_to_length_one() {
    let v = normalised(&[3.0, 4.0]);
    assert!((v[0] - 0.6).abs() < 1e-6 && (v[1] - 0.8).abs() < 1e-6);
    assert_eq!(normalised(&[0.0, 0.0]), [0.0f32, 0.0]);
}

#[tokio::test]
async fn the_word_pieces_are_the_reference_tokenizer_s() {
    let Some(embedder) = embedder().await else { return };
    for item in reference() {
        let ids: Vec<i32> = embedder.model.tokenize(&item.text).iter().map(|t| t.0).collect();
        assert_eq!(ids, item.ids, "{:?}", item.text);
    }
}

#[tokio::test]
async fn vectors_match_the_numpy_reference() {
    let Some(embedder) = embedder().await else { return };
    assert_eq!(embedder.dimensions(), 384);
    assert_eq!(embedder.describe(), "local:all-MiniLM-L6-v2");
    let items = reference();
    let all: Vec<String> = items.iter().map(|i| i.text.clone()).collect();
    let vectors = embedder.embed(&all).await.unwrap();
    assert_eq!(vectors.len(), items.len());
    for (item, v) in items.iter().zip(&vectors) {
        assert_eq!(v.len(), 384);
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-4, "norm {norm} for {:?}", item.text);
        let similarity = cosine(v, &item.vector);
        assert!(similarity >= 0.999, "cosine {similarity} for {:?}", item.text);
    }
}

#[tokio::test]
async fn empty_and_overlong_texts_give_sane_vectors() {
    let Some(embedder) = embedder().await else { return };
    let long = reference().pop().expect("the long reference text").text;
    assert_eq!(embedder.model.tokenize(&long).len(), MAX_TOKENS);
    let longer = format!("{long} {long} {long}");
    let v = embedder.embed(&texts(&["", long.as_str(), longer.as_str()])).await.unwrap();
    for vector in &v {
        assert!(vector.iter().all(|x| x.is_finite()));
        let norm = vector.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-4, "norm {norm}");
    }
    assert!(cosine(&v[1], &v[2]) > 0.9999, "both are cut to the same first {MAX_TOKENS} pieces");
    assert!(embedder.embed(&[]).await.unwrap().is_empty());
}

#[tokio::test]
async fn a_text_embeds_the_same_alone_or_in_a_batch() {
    let Some(embedder) = embedder().await else { return };
    let alone = embedder.embed(&texts(&["Hi"])).await.unwrap();
    let many: Vec<String> = (0..40).map(|i| format!("Sentence number {i} about the sea and ships.")).collect();
    let batch = embedder.embed(&[texts(&["Hi"]), many].concat()).await.unwrap();
    assert_eq!(batch.len(), 41);
    assert!(cosine(&alone[0], &batch[0]) > 0.9999);
    let again = embedder.embed(&texts(&["Sentence number 39 about the sea and ships."])).await.unwrap();
    assert!(cosine(&again[0], &batch[40]) > 0.9999, "a text in the second call");
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
async fn the_chat_model_and_the_embedder_share_llama_cpp() {
    let Some(gguf) = testing::embedder_gguf() else { return };
    let Some(chat) = testing::small_chat() else { return };
    let chat = tokio::task::spawn_blocking(move || crate::llm::local::Engine::load(&chat)).await.unwrap();
    assert!(chat.is_ok(), "the chat model loads");
    assert!(LlamaEmbedder::open(&gguf).await.is_ok(), "and the embedder beside it");
}

#[tokio::test]
async fn missing_or_broken_files_are_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let missing = LlamaEmbedder::open(&dir.path().join("model.gguf")).await.err().expect("no file");
    assert!(matches!(&missing, EmbedError::Unavailable(m) if m.contains("echoes models fetch")), "{missing}");

    let broken = dir.path().join("broken.gguf");
    std::fs::write(&broken, b"GGUF\x03\0\0\0garbage").unwrap();
    let error = LlamaEmbedder::open(&broken).await.err().expect("not a GGUF");
    assert!(matches!(&error, EmbedError::Unavailable(m) if m.contains("not usable")), "{error}");

    let settings = LocalSettings { embedder_gguf: broken.display().to_string(), ..LocalSettings::default() };
    let error = LlamaEmbedder::from_settings(&settings).await.err().expect("the configured file is broken");
    assert!(error.to_string().contains("broken.gguf"), "{error}");
}
