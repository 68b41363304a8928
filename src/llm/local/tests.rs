use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::*;
use crate::core::llm::ChatMessage;
use crate::models::testing;

const ARCHITECTURES: [&str; 4] = ["llama", "qwen2", "qwen3", "gemma3"];

/// The small model, loaded once for all tests here.
fn engine() -> Option<Arc<Engine>> {
    static ENGINE: std::sync::OnceLock<Option<Arc<Engine>>> = std::sync::OnceLock::new();
    ENGINE
        .get_or_init(|| testing::small_chat().map(|path| Arc::new(Engine::load(&path).expect("the small model loads"))))
        .clone()
}

fn request(question: &str) -> ChatRequest {
    let mut request =
        ChatRequest::new(vec![ChatMessage::system("You answer in one short sentence."), ChatMessage::user(question)]);
    request.temperature = 0.0;
    request.max_tokens = 24;
    request
}

fn never() -> AtomicBool {
    AtomicBool::new(false)
}

/// Ids from llama.cpp's tokenizer for the same GGUF file.
#[test]
fn tokenizer_matches_the_reference_and_round_trips() {
    let Some(engine) = engine() else { return };
    let tokenizer = engine.tokenizer();
    let reference: [(&str, &[u32]); 3] = [
        ("Hello world", &[19556, 905]),
        ("Was the man related to Ana? 12345", &[29477, 260, 555, 2484, 288, 27699, 47, 216, 33, 34, 35, 36, 37]),
        ("<|im_start|>user\nHi<|im_end|>\n", &[1, 4093, 198, 26843, 2, 198]),
    ];
    for (text, ids) in reference {
        assert_eq!(tokenizer.encode(text).unwrap(), ids, "{text:?}");
    }
    for text in ["Ana's café — 你好!", "{\"kind\": \"question\", \"verdict\": \"YES_AND_NO\"}", "  two  spaces\n\ttab"]
    {
        let ids = tokenizer.encode(text).unwrap();
        assert_eq!(tokenizer.decode(&ids).unwrap(), text);
    }
    for special in ["<|im_start|>", "<|im_end|>", "<|endoftext|>"] {
        assert_eq!(tokenizer.encode(special).unwrap().len(), 1, "{special} is one token");
    }
}

#[test]
fn greedy_generation_is_repeatable_bounded_and_stops_cleanly() {
    let Some(engine) = engine() else { return };
    let first = engine.generate(&request("What colour is the sky?"), &never()).unwrap();
    let again = engine.generate(&request("What colour is the sky?"), &never()).unwrap();

    assert_eq!(first.text, again.text);
    assert!(!first.text.trim().is_empty());
    assert!(first.completion_tokens <= 24, "{}", first.completion_tokens);
    assert!(!first.text.contains("<|im_end|>") && !first.text.contains("<|im_start|>"), "{}", first.text);
    assert!(first.prompt_tokens > 10);

    let mut short = request("Tell me a long story about a dragon.");
    short.max_tokens = 5;
    assert!(engine.generate(&short, &never()).unwrap().completion_tokens <= 5);
}

#[test]
fn a_seed_makes_sampling_repeatable() {
    let Some(engine) = engine() else { return };
    let mut sampled = request("Name an animal.");
    sampled.temperature = 0.9;
    sampled.seed = Some(42);
    let a = engine.generate(&sampled, &never()).unwrap();
    let b = engine.generate(&sampled, &never()).unwrap();
    assert_eq!(a.text, b.text);
}

#[test]
fn a_schema_gives_json_of_that_shape() {
    let Some(engine) = engine() else { return };
    let mut judged = request("Is water wet?");
    judged.max_tokens = 64;
    judged.json_schema = Some(crate::core::soup::verdict::judgement_schema(None));
    let reply = engine.generate(&judged, &never()).unwrap();
    let value: serde_json::Value = serde_json::from_str(&reply.text).expect("valid JSON");
    assert!(["question", "guess", "chatter"].contains(&value["kind"].as_str().unwrap()), "{value}");
    assert!(crate::core::soup::verdict::Verdict::parse(value["verdict"].as_str().unwrap()).is_some(), "{value}");
    assert!(value["facts"].is_array(), "{value}");
}

#[test]
fn a_cancelled_generation_stops() {
    let Some(engine) = engine() else { return };
    let cancelled = AtomicBool::new(true);
    let mut long = request("Count to one hundred.");
    long.max_tokens = 200;
    assert_eq!(engine.generate(&long, &cancelled).unwrap_err(), GenerateError::Cancelled);
}

/// Generation runs on the blocking pool: a single-threaded runtime keeps
/// ticking while the model works.
#[tokio::test(flavor = "current_thread")]
async fn generation_does_not_block_the_runtime() {
    let Some(engine) = engine() else { return };
    let client = LocalClient::from_engine(engine, Duration::from_secs(120));
    let mut long = request("Write a poem about the sea.");
    long.max_tokens = 48;
    let ticks = Arc::new(std::sync::atomic::AtomicU32::new(0));
    let counter = Arc::clone(&ticks);
    let ticker = tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_millis(5)).await;
            counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    });
    let started = std::time::Instant::now();
    client.chat(long).await.expect("generates");
    let took = started.elapsed();
    ticker.abort();
    let ticked = ticks.load(std::sync::atomic::Ordering::Relaxed);
    assert!(took < Duration::from_millis(50) || ticked >= 3, "{ticked} ticks in {took:?}: the runtime was blocked");
}

#[tokio::test]
async fn a_deadline_gives_a_timeout_error() {
    let Some(engine) = engine() else { return };
    let client = LocalClient::from_engine(engine, Duration::from_millis(1));
    let mut long = request("Count to one hundred.");
    long.max_tokens = 200;
    assert_eq!(client.chat(long).await.unwrap_err(), LlmError::Timeout);
}

#[tokio::test]
async fn a_missing_file_is_a_clear_config_error() {
    let dir = tempfile::tempdir().unwrap();
    let client = LocalClient::for_file(&dir.path().join("absent.gguf"), Duration::from_secs(5));
    let error = client.health().await.unwrap_err();
    assert!(
        matches!(&error, LlmError::Config(m) if m.contains("absent.gguf") && m.contains("echoes models fetch")),
        "{error}"
    );
}

#[test]
fn random_bytes_are_not_a_gguf_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("random.gguf");
    let bytes: Vec<u8> = (0..4096u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    std::fs::write(&path, bytes).unwrap();
    let why = Engine::load(&path).err().expect("refused");
    assert!(why.contains("not a valid GGUF"), "{why}");
    // Random bytes after a valid magic and version.
    let mut bytes = b"GGUF\x03\0\0\0".to_vec();
    bytes.extend((0..4096u32).map(|i| (i.wrapping_mul(40_503) >> 7) as u8));
    std::fs::write(&path, bytes).unwrap();
    assert!(Engine::load(&path).is_err());
    assert!(verify_gguf(&path).is_err());
}

#[test]
fn a_truncated_gguf_file_is_refused() {
    let Some(source) = testing::small_chat() else { return };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("truncated.gguf");
    let bytes = std::fs::read(&source).unwrap();
    for cut in [bytes.len() / 2, 3_000_000, 1000] {
        std::fs::write(&path, &bytes[..cut]).unwrap();
        let why = Engine::load(&path).err().expect("refused");
        assert!(why.contains("truncated") || why.contains("not a valid GGUF"), "{cut}: {why}");
        assert!(verify_gguf(&path).is_err());
    }
}

#[test]
fn chatml_is_rendered_with_the_reply_opened() {
    let messages = [ChatMessage::system("Rules."), ChatMessage::user("Hi?")];
    assert_eq!(
        template::ChatTemplate::ChatMl.render(&messages),
        "<|im_start|>system\nRules.<|im_end|>\n<|im_start|>user\nHi?<|im_end|>\n<|im_start|>assistant\n"
    );
    assert!(template::ChatTemplate::from_gguf(Some("{{ '<|start_header_id|>' }}")).is_err());
}

#[test]
fn sampling_is_greedy_at_zero_and_seeded_otherwise() {
    let logits = [0.1, 2.0, 1.9, -1.0];
    assert_eq!(sampler::Sampler::new(0.0, None).sample(&logits), 1);
    let draw = |seed| (0..20).map(|_| 0).scan(sampler::Sampler::new(1.0, Some(seed)), |s, _| Some(s.sample(&logits)));
    assert_eq!(draw(3).collect::<Vec<_>>(), draw(3).collect::<Vec<_>>());
    assert!((sampler::log_prob(&[0.0, 0.0], 1) - 0.5f32.ln()).abs() < 1e-6);
}

#[test]
fn schemas_become_shapes_in_required_order() {
    let shape = structured::Shape::of(&crate::core::soup::verdict::judgement_schema(None)).expect("flat object");
    let names: Vec<&str> = shape.fields.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["kind", "verdict", "facts"]);
    assert!(matches!(&shape.fields[1].1, structured::Field::Enum(v) if v.len() == 5));
    assert_eq!(shape.fields[2].1, structured::Field::List(None));
    assert!(structured::Shape::of(&serde_json::json!({"type": "array"})).is_none());
    let nested = serde_json::json!({"type": "object", "properties": {"a": {"type": "object"}}});
    assert!(structured::Shape::of(&nested).is_none());
}

#[test]
fn lists_keep_quoted_allowed_items_once() {
    let allowed = ["f1".to_owned(), "f2".to_owned()];
    assert_eq!(structured::list(r#""f1", "f3", "f1", "f2"] junk"#, Some(&allowed)), r#"["f1", "f2"]"#);
    assert_eq!(structured::list("]", None), "[]");
}

/// Each architecture, from a tiny file in its real layout: llama.cpp
/// loads it, it names itself, generates within budget, the same request
/// gives the same reply (the prefix cache changes nothing), and it still
/// gives JSON of the schema's shape.
#[test]
fn each_architecture_loads_and_generates_from_a_tiny_file() {
    let dir = tempfile::tempdir().unwrap();
    for arch in ARCHITECTURES {
        let path = dir.path().join(format!("tiny-{arch}.gguf"));
        tiny::write(arch, &path);
        assert_eq!(verify_gguf(&path).unwrap(), format!("tiny-{arch}"));
        let engine = Engine::load(&path).unwrap_or_else(|why| panic!("{arch}: {why}"));
        assert_eq!(engine.info.architecture, arch);
        assert_eq!(engine.info.context_tokens, 4096, "{arch}: capped below the trained {}", tiny::TRAINED_CONTEXT);

        let mut free = request("你好, is it raining? 42");
        free.max_tokens = 6;
        let first = engine.generate(&free, &never()).unwrap_or_else(|e| panic!("{arch}: {e:?}"));
        assert!(first.completion_tokens <= 6 && first.prompt_tokens > 20, "{arch}: {first:?}");
        let again = engine.generate(&free, &never()).unwrap();
        assert_eq!(first.text, again.text, "{arch}: the second generation saw the first one's tokens");
        let whole_blocks = (again.prompt_tokens - 1) / super::cache::BLOCK * super::cache::BLOCK;
        assert_eq!(again.cached_tokens, whole_blocks, "{arch}: the prompt came from the cache");

        let mut judged = request("Is water wet?");
        judged.max_tokens = 48;
        judged.json_schema = Some(crate::core::soup::verdict::judgement_schema(None));
        let reply = engine.generate(&judged, &never()).unwrap();
        let value: serde_json::Value =
            serde_json::from_str(&reply.text).unwrap_or_else(|e| panic!("{arch}: {e}: {}", reply.text));
        assert!(
            crate::core::soup::verdict::Verdict::parse(value["verdict"].as_str().unwrap()).is_some(),
            "{arch}: {value}"
        );

        let tokenizer = engine.tokenizer();
        for special in tiny::specials(arch) {
            assert_eq!(tokenizer.encode(special).unwrap().len(), 1, "{arch}: {special}");
        }
        for text in ["YES, it's 12 o'clock.\n\n  Done", "汤底: 她认出了自己的名字。"] {
            assert_eq!(tokenizer.decode(&tokenizer.encode(text).unwrap()).unwrap(), text, "{arch}");
        }
        assert_eq!(tokenizer.encode("YES").unwrap().len(), 1, "{arch}: the merges apply");
    }
}

#[test]
fn an_unsupported_architecture_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("mamba.gguf");
    tiny::write_labelled("qwen2", "mamba", &other);
    let why = Engine::load(&other).err().expect("refused");
    assert!(why.contains("`mamba`") && why.contains("`qwen2`"), "{why}");
}

/// A model of a family the engine writes no format for is laid out by its
/// own chat template as llama.cpp applies it (here Llama 3's), and stops
/// on the tokens its vocabulary marks as ending a turn; a template
/// llama.cpp does not know either is refused at load, by name.
#[test]
fn another_family_plays_on_its_own_template_through_llama_cpp() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tiny-llama3.gguf");
    let llama3 = "{% for m in messages %}<|start_header_id|>{{ m.role }}<|end_header_id|>\n\n{{ m.content }}<|eot_id|>{% endfor %}";
    tiny::write_with_template("llama", llama3, &path);
    let engine = Engine::load(&path).expect("llama.cpp knows Llama 3's template");
    let prompt = engine.render(&request("Is water wet?")).unwrap();
    assert!(prompt.contains("<|start_header_id|>user<|end_header_id|>\n\nIs water wet?<|eot_id|>"), "{prompt}");
    assert!(prompt.ends_with("<|start_header_id|>assistant<|end_header_id|>\n\n"), "{prompt}");
    let reply = engine.generate(&request("Is water wet?"), &never()).unwrap();
    assert!(reply.completion_tokens <= 24, "{reply:?}");

    let odd = dir.path().join("tiny-odd.gguf");
    tiny::write_with_template("llama", "{{ nothing anyone recognises }}", &odd);
    let why = Engine::load(&odd).err().expect("refused");
    assert!(why.contains("chat template"), "{why}");
}

/// Two sessions' turns, interleaved, each turn's history grown by the
/// last reply: what a bot serving two games sends its model.
fn interleaved_turns() -> Vec<ChatRequest> {
    let mut turns = Vec::new();
    let mut histories = [Vec::new(), Vec::new()];
    let questions = ["Was it raining?", "Did she know him?", "Is the dog important?", "Was it at night?"];
    for (i, question) in questions.iter().enumerate() {
        for (s, history) in histories.iter_mut().enumerate() {
            let mut messages = vec![ChatMessage::system(format!(
                "You are the judge of puzzle {s}. The rules are long and the same every turn. {}",
                "Answer YES or NO. ".repeat(20)
            ))];
            messages.extend(history.iter().cloned());
            messages.push(ChatMessage::user(format!("{question} ({i})")));
            let mut request = ChatRequest::new(messages);
            request.max_tokens = 8;
            request.temperature = if s == 0 { 0.0 } else { 0.8 };
            request.seed = Some(11 + i as u64);
            turns.push(request);
            history.push(ChatMessage::user(format!("{question} ({i})")));
            history.push(ChatMessage {
                role: crate::core::llm::ChatRole::Assistant,
                content: format!("Answer {i} for session {s}."),
            });
        }
    }
    turns
}

/// The prefix cache changes speed only: the same turns (greedy and seeded
/// sampling, two sessions interleaved, a small budget that evicts) give
/// the same replies as an engine that processes every prompt whole, and
/// later turns take most of their prompt from the cache.
#[test]
fn the_prefix_cache_gives_the_same_replies_as_none() {
    let dir = tempfile::tempdir().unwrap();
    for arch in ARCHITECTURES {
        let path = dir.path().join(format!("tiny-{arch}.gguf"));
        tiny::write(arch, &path);
        let plain = Engine::load_with(&path, 0).unwrap();
        let cached = Engine::load_with(&path, 64 << 20).unwrap();
        let small = Engine::load_with(&path, 1).unwrap();
        let mut reused = 0;
        for (turn, request) in interleaved_turns().iter().enumerate() {
            let expected = plain.generate(request, &never()).unwrap();
            assert_eq!(expected.cached_tokens, 0, "{arch}: no cache, nothing reused");
            let got = cached.generate(request, &never()).unwrap();
            assert_eq!(got.text, expected.text, "{arch}, turn {turn}: the cache changed the reply");
            assert_eq!(small.generate(request, &never()).unwrap().text, expected.text, "{arch}, turn {turn}");
            if turn >= 2 {
                // Reused in whole blocks: at most a block short of all but the new turn.
                assert!(got.cached_tokens * 4 >= got.prompt_tokens * 3, "{arch}, turn {turn}: {got:?}");
            }
            reused += got.cached_tokens;
        }
        let (bytes, states) = cached.prefix_cache_use();
        assert!(reused > 0 && bytes > 0 && states >= 1, "{arch}: {bytes} bytes in {states} states");
        assert!(bytes <= 64 << 20);
        assert_eq!(small.prefix_cache_use(), (0, 0), "{arch}: nothing fits one byte");
    }
}
