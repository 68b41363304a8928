use super::*;
use crate::core::llm::ChatMessage;

#[tokio::test]
async fn repeats_every_message_joined_by_newlines() {
    let request = ChatRequest::new(vec![
        ChatMessage::system("The answer is: the man was a lighthouse keeper."),
        ChatMessage::user("Was it an accident?"),
    ]);

    let reply = ParrotLlm.chat(request).await.expect("parrot never fails");

    assert_eq!(reply.text, "The answer is: the man was a lighthouse keeper.\nWas it an accident?");
}

#[tokio::test]
async fn empty_prompt_gives_empty_reply_and_health_is_ok() {
    let reply = ParrotLlm.chat(ChatRequest::new(Vec::new())).await.expect("parrot never fails");

    assert_eq!(reply.text, "");
    assert_eq!(ParrotLlm.health().await, Ok(()));
    assert_eq!(ParrotLlm.describe(), "parrot");
}
