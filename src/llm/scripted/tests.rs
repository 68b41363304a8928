use super::*;
use crate::core::llm::ChatMessage;

fn ask(question: &str) -> ChatRequest {
    ChatRequest::new(vec![ChatMessage::system("secret: the soup was albatross"), ChatMessage::user(question)])
}

async fn texts(model: &ScriptedLlm, calls: usize) -> Vec<Result<String, LlmError>> {
    let mut replies = Vec::new();
    for call in 0..calls {
        replies.push(model.chat(ask(&format!("question {call}"))).await.map(|reply| reply.text));
    }
    replies
}

#[tokio::test]
async fn replays_replies_in_order_then_fails_clearly() {
    let model = ScriptedLlm::from_texts(["yes", "no"]);

    let replies = texts(&model, 3).await;

    assert_eq!(replies[..2], [Ok("yes".to_owned()), Ok("no".to_owned())]);
    let error = replies[2].clone().expect_err("script exhausted");
    assert!(matches!(error, LlmError::Config(ref m) if m.contains("2 replies") && m.contains("3 times")), "{error:?}");
}

#[tokio::test]
async fn cycling_script_starts_over() {
    let model = ScriptedLlm::from_texts(["yes", "no"]).cycling();

    let replies = texts(&model, 5).await;

    let expected: Vec<Result<String, LlmError>> =
        ["yes", "no", "yes", "no", "yes"].map(|text| Ok(text.to_owned())).into();
    assert_eq!(replies, expected);
}

#[tokio::test]
async fn empty_script_errors_instead_of_panicking_even_when_cycling() {
    let model = ScriptedLlm::new(Vec::new()).cycling();

    assert!(matches!(model.chat(ask("anyone?")).await, Err(LlmError::Config(_))));
}

#[tokio::test]
async fn records_every_request_including_failed_ones() {
    let model = ScriptedLlm::from_texts(["yes"]);

    texts(&model, 2).await;

    let requests = model.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0].messages[1].content, "question 0");
    assert_eq!(requests[1].messages[1].content, "question 1");
    assert!(requests[0].messages[0].content.contains("albatross"), "prompts are inspectable");
}

#[tokio::test]
async fn scripted_errors_are_returned_as_given() {
    let model = ScriptedLlm::new([ScriptedReply::Error(LlmError::Timeout), "recovered".into()]);

    assert_eq!(model.chat(ask("first")).await, Err(LlmError::Timeout));
    assert_eq!(model.chat(ask("second")).await.map(|reply| reply.text), Ok("recovered".to_owned()));
}

#[tokio::test]
async fn delays_let_callers_exercise_their_deadlines() {
    let slow = ScriptedReply::delayed(Duration::from_secs(5), ScriptedReply::text("too late"));
    let quick = ScriptedReply::delayed(Duration::from_millis(1), ScriptedReply::Error(LlmError::Timeout));
    let model = ScriptedLlm::new([slow, quick]);

    let first = tokio::time::timeout(Duration::from_millis(20), model.chat(ask("slow"))).await;
    let second = tokio::time::timeout(Duration::from_secs(1), model.chat(ask("quick"))).await;

    assert!(first.is_err(), "the caller's deadline fires first");
    assert_eq!(second.expect("finishes in time"), Err(LlmError::Timeout));
}

#[tokio::test]
async fn is_always_healthy_and_describes_itself() {
    let model = ScriptedLlm::from_texts(["yes"]);

    assert_eq!(model.health().await, Ok(()));
    assert_eq!(model.describe(), "scripted");
    assert!(model.requests().is_empty(), "health is not a chat request");
}
