//! Chat templates: how a list of messages becomes the prompt text a model
//! was trained on, and which tokens end its turn.
//!
//! Only ChatML (`<|im_start|>role ... <|im_end|>`, SmolLM2's and many other
//! small models' format) is implemented; a GGUF whose template is clearly
//! something else is refused rather than prompted in the wrong format.

use super::tokenizer::ChatTokenizer;
use crate::core::llm::{ChatMessage, ChatRole};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChatTemplate {
    ChatMl,
}

impl ChatTemplate {
    /// Picks the template from the GGUF's `tokenizer.chat_template` text.
    /// A file without one is assumed to be ChatML.
    pub fn from_gguf(template: Option<&str>) -> Result<Self, String> {
        match template {
            None => Ok(Self::ChatMl),
            Some(t) if t.contains("<|im_start|>") => Ok(Self::ChatMl),
            Some(_) => Err("its chat template is not ChatML (`<|im_start|>`), the only one supported".to_owned()),
        }
    }

    /// The prompt, ending where the assistant's reply starts.
    pub fn render(self, messages: &[ChatMessage]) -> String {
        match self {
            Self::ChatMl => {
                let mut out = String::new();
                for m in messages {
                    out.push_str("<|im_start|>");
                    out.push_str(role(m.role));
                    out.push('\n');
                    out.push_str(m.content.trim());
                    out.push_str("<|im_end|>\n");
                }
                out.push_str("<|im_start|>assistant\n");
                out
            }
        }
    }

    /// Token ids that end the assistant's turn.
    pub fn stop_ids(self, tokenizer: &ChatTokenizer) -> Vec<u32> {
        let names: &[&str] = match self {
            Self::ChatMl => &["<|im_end|>", "<|endoftext|>"],
        };
        let mut ids: Vec<u32> = names.iter().filter_map(|n| tokenizer.id(n)).collect();
        ids.extend(tokenizer.eos);
        ids.sort_unstable();
        ids.dedup();
        ids
    }
}

fn role(role: ChatRole) -> &'static str {
    match role {
        ChatRole::System => "system",
        ChatRole::User => "user",
        ChatRole::Assistant => "assistant",
    }
}
