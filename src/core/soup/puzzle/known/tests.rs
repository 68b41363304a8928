use super::*;
use crate::core::fixtures::LIGHTHOUSE;

fn lighthouse() -> Puzzle {
    let known = r#"
[[known]]
question = "Did someone die?"
verdict = "YES"

[[known]]
question = "Was the keeper's brother on the ship?"
verdict = "YES"

[[known]]
question = "Was it a ghost?"
verdict = "NO"

[[known]]
question = "Does the weather matter?"
verdict = "IRRELEVANT"
"#;
    lighthouse_with(known)
}

/// The lighthouse puzzle with `known` (TOML) after its facts.
fn lighthouse_with(known: &str) -> Puzzle {
    Puzzle::from_toml(&format!("{LIGHTHOUSE}{known}"), Some("en-test-lighthouse"), None).unwrap()
}

fn zh() -> Puzzle {
    let source = r#"
id = "zh-test-deng"
title = "灯塔"
language = "zh"
difficulty = "easy"
tags = ["sea"]
author = "tests"
license = "CC0"
surface = "灯塔看守人关掉了灯。第二天早上他看了报纸，哭了起来。"
bottom = "看守人的哥哥那天夜里坐货船回家。因为灯塔没亮，船撞上礁石沉没了。报纸上的遇难船员名单里有他哥哥。"
hints = ["想想那天夜里谁在海上。", "看守人有亲人在船上。", "灯塔是用来警告船只的。"]

[[facts]]
id = "f1"
text = "灯灭了，船撞上礁石沉没。"
required = true

[[facts]]
id = "f2"
text = "看守人的哥哥在船上遇难。"
required = true

[[known]]
question = "有人死了吗？"
verdict = "YES"

[[known]]
question = "船沉了吗？"
verdict = "YES"

[[known]]
question = "是鬼干的吗？"
verdict = "NO"
"#;
    Puzzle::from_toml(source, Some("zh-test-deng"), None).unwrap()
}

fn recall(puzzle: &Puzzle, question: &str) -> Option<Verdict> {
    Known::new(puzzle).recall(question, None).map(|r| r.verdict)
}

#[test]
fn a_known_question_asked_as_players_type_it_gets_its_verdict() {
    let p = lighthouse();
    assert_eq!(recall(&p, "Did someone die?"), Some(Verdict::Yes));
    assert_eq!(recall(&p, "did somone die"), Some(Verdict::Yes), "a typo, no capitals, no question mark");
    assert_eq!(recall(&p, "was his brother on that ship?"), Some(Verdict::Yes));
    assert_eq!(recall(&p, "was it a ghost"), Some(Verdict::No));
}

#[test]
fn a_negated_question_takes_the_opposite_verdict() {
    let p = lighthouse();
    assert_eq!(recall(&p, "Did nobody die?"), Some(Verdict::No));
    assert_eq!(recall(&p, "Wasn't it a ghost?"), Some(Verdict::Yes));
    let r = Known::new(&p).recall("Did no one die?", None).unwrap();
    assert!(r.flipped, "{r:?}");
}

#[test]
fn a_negation_the_words_do_not_bear_out_neither_answers_nor_stands_in_the_way() {
    let extra = r#"
[[known]]
question = "Was the lamp not on?"
verdict = "YES"

[[known]]
question = "Was the lamp switched off that night?"
verdict = "YES"
"#;
    let p = lighthouse_with(extra);
    // "not on" read as the negation of "off" would answer NO, close enough
    // to block the plain match; it is passed over instead.
    let r = Known::new(&p).recall("was the lamp off", None).unwrap();
    assert_eq!(
        (r.verdict, r.flipped, r.question.as_str()),
        (Verdict::Yes, false, "Was the lamp switched off that night?")
    );
    assert_eq!(recall(&p, "Was the lamp on?"), Some(Verdict::No), "a negation the words bear out still flips");
}

#[test]
fn an_unrelated_question_is_not_answered_from_memory() {
    let p = lighthouse();
    assert_eq!(recall(&p, "Was the newspaper printed in colour?"), None);
    assert_eq!(recall(&p, "Is the keeper left-handed?"), None);
}

#[test]
fn chinese_questions_match_by_character_pairs_and_plain_asks_are_not_negations() {
    let p = zh();
    assert_eq!(recall(&p, "有人死吗"), Some(Verdict::Yes));
    assert_eq!(recall(&p, "船是不是沉了？"), Some(Verdict::Yes), "是不是 asks plainly");
    assert_eq!(recall(&p, "船没沉吗？"), Some(Verdict::No), "没 negates");
    assert_eq!(recall(&p, "看守人是左撇子吗"), None);
}

#[test]
fn a_guess_states_the_facts_it_covers() {
    let p = lighthouse();
    let known = Known::new(&p);
    let stated = known
        .facts_stated("The lamp was off so a ship hit the rocks and wrecked, and his brother drowned aboard.", &[]);
    assert!(stated.contains(&"f1".to_string()) && stated.contains(&"f2".to_string()), "{stated:?}");
    assert!(known.facts_stated("He was a ghost who hated newspapers.", &[]).is_empty());
    let zh = Known::new(&zh());
    let stated = zh.facts_stated("灯灭了所以船撞上礁石沉没了，他哥哥在船上遇难了", &[]);
    assert_eq!(stated, ["f1", "f2"]);
}

#[test]
fn a_fact_said_another_way_is_found_through_its_also() {
    let mut p = lighthouse();
    let guess = "The beacon was dark, so a freighter ran aground.";
    assert!(!Known::new(&p).facts_stated(guess, &[]).contains(&"f1".to_string()), "no shared words without also");
    p.facts[0].also = vec!["The beacon went dark and a freighter ran aground.".into()];
    assert!(Known::new(&p).facts_stated(guess, &[]).contains(&"f1".to_string()));
    let round_trip: Puzzle = serde_json::from_str(&serde_json::to_string(&p).unwrap()).unwrap();
    assert_eq!(round_trip.facts[0].also, p.facts[0].also, "also survives a custom puzzle's save");
}

#[test]
fn a_chinese_word_that_only_contains_a_negation_does_not_negate() {
    for (text, negated) in [
        ("小孙女运气特别好吗", false),
        ("是别人做的吗", false),
        ("他们差不多大吗", false),
        ("他不是一个人吗", true),
        ("船没沉吗", true),
        ("难道不是他干的吗", false),
        ("他成绩不错吗", false),
    ] {
        assert_eq!(features(text, Language::Zh).negated, negated, "{text}");
    }
}

#[test]
fn chat_around_an_ask_is_not_matched_as_its_words() {
    let p = zh();
    assert_eq!(recall(&p, "船沉了马"), Some(Verdict::Yes), "吗 typed as 马");
    assert_eq!(recall(&p, "等等，所以说船沉了对吧"), Some(Verdict::Yes));
    assert_eq!(recall(&p, "船沉了，对吗"), Some(Verdict::Yes));
    assert!(features("他猜对吧", Language::Zh).grams.contains(&"猜对".to_string()), "对 of 猜对 is a word");
    assert_eq!(recall(&p, "难道是鬼干的"), Some(Verdict::No));
    assert_eq!(features("嗯…难道船沉了嘛", Language::Zh), features("船沉了吗", Language::Zh));
    assert_eq!(
        features("omg ok so maybe the ship sank", Language::En).grams,
        features("the ship sank", Language::En).grams
    );
}

#[test]
fn a_word_with_a_prefix_in_front_is_another_word_not_a_typo() {
    let extra = r#"
[[known]]
question = "Did the shadow move clockwise?"
verdict = "NO"

[[known]]
question = "Did the shadow move anticlockwise?"
verdict = "YES"
"#;
    let p = lighthouse_with(extra);
    // Read as a typo of each other, the two would tie and block each other.
    assert_eq!(recall(&p, "did the shadow move clockwise"), Some(Verdict::No));
    assert_eq!(recall(&p, "did the shadow move anticlockwise"), Some(Verdict::Yes));
    assert_eq!(recall(&p, "did the shadow move clokwise"), Some(Verdict::No), "a typo still matches");
}

#[test]
fn a_question_that_joins_two_asks_is_split_at_its_joint() {
    let split = two_asks;
    let pair = |a: &str, b: &str| Some((a.to_string(), b.to_string()));
    assert_eq!(split("Was grandpa ill and did he lose on purpose?"), pair("was grandpa ill", "did he lose on purpose"));
    assert_eq!(
        split("was he awake at 2, and in bed"),
        pair("was he awake at 2", "was in bed"),
        "borrows the question word"
    );
    assert_eq!(split("did it sink, and also did he cry"), pair("did it sink", "did he cry"));
    assert_eq!(split("老李是缺氧晕倒的，而且已经死了吗"), pair("老李是缺氧晕倒的", "已经死了吗"));
    assert_eq!(split("Did he buy bread and butter?"), None, "\"and\" inside one ask");
    assert_eq!(split("Did someone die?"), None);
    assert_eq!(split(", and did he"), None, "nothing before the joint");
    assert!(asks_two("was it real and did the rival copy it"));
}

#[test]
fn two_parts_agree_or_differ() {
    use Verdict::{Irrelevant, No, Yes, YesAndNo};
    assert_eq!(joined(Yes, Yes), Some(Yes));
    assert_eq!(joined(No, No), Some(No));
    assert_eq!(joined(Yes, No), Some(YesAndNo));
    assert_eq!(joined(No, YesAndNo), Some(YesAndNo));
    assert_eq!(joined(Yes, Irrelevant), None, "a part that does not bear on the story settles nothing");
}

#[test]
fn a_two_part_question_is_answered_from_both_parts_known_answers() {
    let (p, z) = (Known::new(&lighthouse()), Known::new(&zh()));
    let two = |k: &Known, q: &str| {
        let (a, b) = two_asks(q)?;
        k.recall_two((&a, None), (&b, None))
    };
    assert_eq!(recall(&lighthouse(), "did someone die, and was it a ghost"), None, "one known answer asks one thing");
    assert_eq!(two(&p, "did someone die, and was it a ghost"), Some(Verdict::YesAndNo));
    assert_eq!(two(&p, "did somone die and was his brother on that ship"), Some(Verdict::Yes));
    assert_eq!(two(&p, "was it a ghost and did nobody die"), Some(Verdict::No), "each part's negation counts");
    assert_eq!(two(&p, "did someone die and is the keeper left-handed"), None, "a part no known answer settles");
    assert_eq!(two(&z, "船沉了，而且有人死了吗"), Some(Verdict::Yes));
    assert_eq!(two(&z, "船沉了，而且是鬼干的吗"), Some(Verdict::YesAndNo));
}

/// A vector per text from its bytes (the same text, the same vector);
/// counts the texts it embeds, and fails when told to.
#[derive(Default)]
struct CountingEmbedder {
    embedded: Mutex<usize>,
    broken: bool,
}

#[async_trait::async_trait]
impl Embedder for CountingEmbedder {
    fn describe(&self) -> String {
        "counting".into()
    }
    fn dimensions(&self) -> usize {
        4
    }
    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, crate::core::embed::EmbedError> {
        if self.broken {
            return Err(crate::core::embed::EmbedError::Failed("down".into()));
        }
        *self.embedded.lock().unwrap() += texts.len();
        let vector = |t: &String| {
            let h = fingerprint([t.as_str()]);
            let raw: Vec<f32> = (0..4).map(|i| ((h >> (i * 16)) & 0xffff) as f32 + 1.0).collect();
            let norm = raw.iter().map(|x| x * x).sum::<f32>().sqrt();
            raw.iter().map(|x| x / norm).collect()
        };
        Ok(texts.iter().map(vector).collect())
    }
}

/// A cache in memory, as a later process would find LanceDB's.
#[derive(Default)]
struct MemoryCache(Mutex<HashMap<String, Vec<Vec<f32>>>>);

#[async_trait::async_trait]
impl VectorCache for MemoryCache {
    async fn load(&self, key: &str) -> Option<Vec<Vec<f32>>> {
        self.0.lock().unwrap().get(key).cloned()
    }
    async fn save(&self, key: &str, vectors: &[Vec<f32>]) {
        self.0.lock().unwrap().insert(key.to_string(), vectors.to_vec());
    }
}

#[tokio::test]
async fn a_puzzles_vectors_are_embedded_once_and_read_back_after() {
    let puzzle = lighthouse();
    let texts = Known::texts(&puzzle);
    assert_eq!(texts.len(), puzzle.known.len() + puzzle.facts.iter().flat_map(Fact::statements).count());
    let (embedder, cache) = (CountingEmbedder::default(), MemoryCache::default());
    let first = vectors_for(&puzzle.id, &texts, &embedder, Some(&cache)).await.unwrap();
    assert_eq!(*embedder.embedded.lock().unwrap(), texts.len());
    let again = vectors_for(&puzzle.id, &texts, &embedder, Some(&cache)).await.unwrap();
    assert_eq!(again, first);
    assert_eq!(*embedder.embedded.lock().unwrap(), texts.len(), "the second process embeds nothing");

    // An edited known answer is another set of texts: embedded afresh.
    let mut edited = texts.clone();
    edited[0] = "did anyone drown".into();
    vectors_for(&puzzle.id, &edited, &embedder, Some(&cache)).await.unwrap();
    assert_eq!(*embedder.embedded.lock().unwrap(), 2 * texts.len());
}

#[tokio::test]
async fn a_cache_that_does_not_fit_the_texts_is_passed_over_and_mended() {
    let puzzle = lighthouse();
    let texts = Known::texts(&puzzle);
    let (embedder, cache) = (CountingEmbedder::default(), MemoryCache::default());
    let right = vectors_for(&puzzle.id, &texts, &embedder, Some(&cache)).await.unwrap();
    let key = cache.0.lock().unwrap().keys().next().cloned().unwrap();
    for wrong in [right[1..].to_vec(), right.iter().map(|v| v[1..].to_vec()).collect()] {
        cache.0.lock().unwrap().insert(key.clone(), wrong);
        assert_eq!(vectors_for(&puzzle.id, &texts, &embedder, Some(&cache)).await.unwrap(), right);
        assert_eq!(cache.0.lock().unwrap()[&key], right, "stored again whole");
    }
    let down = CountingEmbedder { broken: true, ..CountingEmbedder::default() };
    let other = MemoryCache::default();
    assert_eq!(vectors_for(&puzzle.id, &texts, &down, Some(&other)).await, None);
    assert!(other.0.lock().unwrap().is_empty(), "nothing stored from a failed embedding");
}

#[tokio::test]
async fn each_known_question_and_fact_statement_gets_its_own_vector() {
    let puzzle = lighthouse();
    let embedder = CountingEmbedder::default();
    let texts = Known::texts(&puzzle);
    let known = Known::new(&puzzle).with_vectors(vectors_for(&puzzle.id, &texts, &embedder, None).await.unwrap());
    for k in &puzzle.known {
        let own = embedder.embed(&[normalize_question(&k.question)]).await.unwrap().remove(0);
        let scores = known.scores(&k.question, Some(&own));
        let (best, _, semantic) = &scores[0];
        assert_eq!(best.question, k.question);
        assert!((semantic.unwrap() - 1.0).abs() < 1e-4, "{}: its own vector", k.question);
    }
    for (fact, statement) in puzzle.facts.iter().zip(&known.facts) {
        let own = embedder.embed(&[fact.statements().next().unwrap().to_string()]).await.unwrap();
        assert_eq!(statement.statements[0].1.as_ref(), own.first(), "{}", fact.id);
    }
}
