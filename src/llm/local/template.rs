//! Chat templates: how a list of messages becomes the prompt text a model
//! was trained on, and which tokens end its turn.
//!
//! Three formats: ChatML (`<|im_start|>role ... <|im_end|>`: SmolLM2,
//! Qwen2.5), ChatML with Qwen3's thinking switched off (an empty
//! `<think></think>` opens the reply, as Qwen3's own template does when
//! thinking is disabled), and Gemma's turns (`<start_of_turn>user ...`, no
//! system role: the system text opens the first user turn). Written here,
//! not left to llama.cpp, because llama.cpp's built-in ChatML cannot switch
//! Qwen3's thinking off; a GGUF whose template is none of these is laid
//! out by its own template as llama.cpp applies it (`engine`'s `Format`).

use super::tokenizer::ChatTokenizer;
use crate::core::llm::{ChatMessage, ChatRole};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChatTemplate {
    ChatMl,
    /// ChatML, the reply opened with an empty thought (Qwen3).
    ChatMlNoThinking,
    Gemma,
}

impl ChatTemplate {
    /// Picks the template from the GGUF's `tokenizer.chat_template` text.
    /// A file without one is assumed to be ChatML.
    pub fn from_gguf(template: Option<&str>) -> Result<Self, String> {
        match template {
            None => Ok(Self::ChatMl),
            Some(t) if t.contains("<|im_start|>") && t.contains("<think>") => Ok(Self::ChatMlNoThinking),
            Some(t) if t.contains("<|im_start|>") => Ok(Self::ChatMl),
            Some(t) if t.contains("<start_of_turn>") => Ok(Self::Gemma),
            Some(_) => Err(
                "its chat template is neither ChatML (`<|im_start|>`) nor Gemma's (`<start_of_turn>`), the ones supported"
                    .to_owned(),
            ),
        }
    }

    /// The prompt, ending where the assistant's reply starts.
    pub fn render(self, messages: &[ChatMessage]) -> String {
        let mut out = String::new();
        match self {
            Self::ChatMl | Self::ChatMlNoThinking => {
                for m in messages {
                    out.push_str(&format!("<|im_start|>{}\n{}<|im_end|>\n", chatml_role(m.role), m.content.trim()));
                }
                out.push_str("<|im_start|>assistant\n");
                if self == Self::ChatMlNoThinking {
                    out.push_str("<think>\n\n</think>\n\n");
                }
            }
            Self::Gemma => {
                out.push_str("<bos>");
                let mut system = String::new();
                for m in messages {
                    let text = m.content.trim();
                    match m.role {
                        ChatRole::System => {
                            system.push_str(text);
                            system.push_str("\n\n");
                        }
                        ChatRole::User => {
                            out.push_str(&format!("<start_of_turn>user\n{system}{text}<end_of_turn>\n"));
                            system.clear();
                        }
                        ChatRole::Assistant => out.push_str(&format!("<start_of_turn>model\n{text}<end_of_turn>\n")),
                    }
                }
                if !system.is_empty() {
                    out.push_str(&format!("<start_of_turn>user\n{}<end_of_turn>\n", system.trim_end()));
                }
                out.push_str("<start_of_turn>model\n");
            }
        }
        out
    }

    /// Token ids that end the assistant's turn.
    pub fn stop_ids(self, tokenizer: &ChatTokenizer) -> Vec<u32> {
        let names: &[&str] = match self {
            Self::ChatMl | Self::ChatMlNoThinking => &["<|im_end|>", "<|endoftext|>"],
            Self::Gemma => &["<end_of_turn>", "<eos>"],
        };
        let mut ids: Vec<u32> = names.iter().filter_map(|n| tokenizer.id(n)).collect();
        ids.extend(tokenizer.eos);
        ids.sort_unstable();
        ids.dedup();
        ids
    }
}

fn chatml_role(role: ChatRole) -> &'static str {
    match role {
        ChatRole::System => "system",
        ChatRole::User => "user",
        ChatRole::Assistant => "assistant",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chat() -> Vec<ChatMessage> {
        vec![ChatMessage::system("Be brief."), ChatMessage::user("Is it raining?")]
    }

    #[test]
    fn the_template_follows_the_file_and_ends_where_the_reply_starts() {
        let qwen3 = "{%- if enable_thinking %}<think>{% endif %}<|im_start|>assistant";
        assert_eq!(ChatTemplate::from_gguf(Some(qwen3)), Ok(ChatTemplate::ChatMlNoThinking));
        assert_eq!(ChatTemplate::from_gguf(Some("{{ '<|im_start|>' + role }}")), Ok(ChatTemplate::ChatMl));
        assert_eq!(ChatTemplate::from_gguf(Some("{{ bos_token }}<start_of_turn>user")), Ok(ChatTemplate::Gemma));
        assert!(ChatTemplate::from_gguf(Some("[INST] {{ content }} [/INST]")).unwrap_err().contains("neither ChatML"));

        assert!(
            ChatTemplate::ChatMlNoThinking.render(&chat()).ends_with("<|im_start|>assistant\n<think>\n\n</think>\n\n")
        );
        assert_eq!(
            ChatTemplate::Gemma.render(&chat()),
            "<bos><start_of_turn>user\nBe brief.\n\nIs it raining?<end_of_turn>\n<start_of_turn>model\n"
        );
    }
}
