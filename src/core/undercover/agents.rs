//! The AI seats' model calls (seed 002's PlayerAgent): describe its own
//! word without saying it, vote from the public descriptions, and (as the
//! blank, voted out) guess the civilians' word. Each prompt is built from
//! a `SeatView`: the public record of the game and the seat's own word,
//! nothing else. Every answer is parsed into a move; `None` means the
//! caller falls back to a safe move (the model failed, or said garbage).

use crate::core::game::{SeatView, TurnContext};
use crate::core::llm::echo::Instructions;
use crate::core::llm::{ChatMessage, ChatRequest};
use crate::core::vocab::Language;

/// Public turns an AI seat reads.
const MEMORY: usize = 40;
/// Longest description an AI seat may post, in characters.
const MAX_SAID: usize = 160;

fn rules(lang: Language) -> &'static str {
    match lang {
        Language::En => {
            "You are a player in the party game \"Who is the Undercover\". Most players share one secret word; \
             one or two have a similar but different word; there may be a blank player with no word. Players \
             take turns describing their word in one short line without saying it, then everyone votes out \
             the player they think holds a different word. You do not know whether your own word is the \
             majority's. Never say your word, a part of it, a translation of it or its spelling."
        }
        Language::Zh => {
            "你在玩派对游戏“谁是卧底”。大多数玩家拿到同一个秘密词，一两个人拿到相近但不同的词，可能还有一个没有词的白板。\
             玩家轮流用一句话描述自己的词但不能说出它，然后大家投票淘汰认为拿着不同词的人。你不知道自己的词是不是多数人的。\
             绝不能说出你的词、词的一部分、翻译或拼写。"
        }
    }
}

fn request(lang: Language, user: String, max_tokens: u32) -> ChatRequest {
    ChatRequest {
        messages: vec![ChatMessage::system(rules(lang)), ChatMessage::user(user)],
        max_tokens,
        temperature: 0.7,
        seed: None,
        json_schema: None,
    }
}

async fn ask(ctx: &TurnContext<'_>, request: ChatRequest) -> Option<String> {
    match ctx.pipeline.models.narrator.chat(request).await {
        Ok(reply) => Some(reply.text),
        Err(e) => {
            tracing::info!(error = %e, "an AI seat's model call failed; it falls back to a safe move");
            None
        }
    }
}

fn own_word<'a>(view: &'a SeatView<'a>) -> Option<&'a str> {
    view.own.first().copied()
}

/// The describe prompt: who the seat is, its word (none for the blank),
/// and what was said.
pub fn describe_prompt(lang: Language, name: &str, word: Option<&str>, heard: &str) -> String {
    let body = match (lang, word) {
        (Language::En, Some(word)) => format!(
            "Your word: {word}\nWhat was said so far:\n{heard}\nWrite ONE short line (at most 12 words) that describes \
             your word without saying it and without repeating what others said. Reply with the line only."
        ),
        (Language::En, None) => format!(
            "You are the blank: you have no word. What was said so far:\n{heard}\nGuess what the others' word may be \
             and write ONE short, vague line (at most 12 words) that would fit it. Reply with the line only."
        ),
        (Language::Zh, Some(word)) => format!(
            "你的词：{word}\n目前的发言：\n{heard}\n用一句话（不超过 20 个字）描述你的词，不能说出它，也不要重复别人的话。只回复这句话。"
        ),
        (Language::Zh, None) => format!(
            "你是白板，没有词。目前的发言：\n{heard}\n猜一猜大家的词，写一句含糊但贴切的描述（不超过 20 个字）。只回复这句话。"
        ),
    };
    format!("{}{body}", you_are(lang, name))
}

/// The vote prompt: the seat, its word, what happened, the choices.
pub fn vote_prompt(lang: Language, name: &str, word: Option<&str>, heard: &str, choices: &[String]) -> String {
    let word = word.unwrap_or("-");
    match lang {
        Language::En => format!(
            "Your word: {word}\n{}What happened so far:\n{heard}\nYou may vote for: {}.\nWhich player most likely holds \
             a different word? Answer with their seat number only (e.g. 3).",
            you_are(lang, name),
            choices.join(", ")
        ),
        Language::Zh => format!(
            "你的词：{word}\n{}目前的经过：\n{heard}\n可以投给：{}。\n谁最可能拿着不同的词？只回答座位号（例如 3）。",
            you_are(lang, name),
            choices.join("，")
        ),
    }
}

/// The blank's last-guess prompt.
pub fn guess_prompt(lang: Language, name: &str, heard: &str) -> String {
    let body = match lang {
        Language::En => format!(
            "You were the blank and were voted out. What was said:\n{heard}\nWhat is the majority's word? Answer with \
             the word only."
        ),
        Language::Zh => format!("你是白板，被投出了。大家的发言：\n{heard}\n多数人的词是什么？只回答这个词。"),
    };
    format!("{}{body}", you_are(lang, name))
}

fn you_are(lang: Language, name: &str) -> String {
    match lang {
        Language::En => format!("You are {name}.\n"),
        Language::Zh => format!("你是 {name}。\n"),
    }
}

/// Every fixed word an AI seat's prompts hold, for the word-pair check (a
/// secret word there would be in every prompt).
pub fn prompt_frames(lang: Language) -> String {
    [
        rules(lang).to_string(),
        describe_prompt(lang, "", Some(""), ""),
        describe_prompt(lang, "", None, ""),
        vote_prompt(lang, "", None, "", &[]),
        guess_prompt(lang, "", ""),
    ]
    .join("\n")
}

/// One short line describing the seat's word (or, for the blank, a line
/// that blends in); the caller checks it against every secret word.
pub async fn describe(ctx: &TurnContext<'_>, view: &SeatView<'_>, lang: Language) -> Option<String> {
    let heard = view.public_lines(MEMORY);
    let req = request(lang, describe_prompt(lang, &view.seat.name, own_word(view), &heard), 48);
    let instructions = Instructions::of(&req.messages, &heard, lang);
    let said = ask(ctx, req).await?;
    // The engine's guard: a line that repeats the seat's instructions is
    // no description (the caller's safe move instead).
    clean_line(&said).filter(|line| !instructions.echoed_by(line))
}

/// The seat number to vote for, among `options` (id, label).
pub async fn vote(
    ctx: &TurnContext<'_>,
    view: &SeatView<'_>,
    lang: Language,
    options: &[(String, String)],
) -> Option<String> {
    let list: Vec<String> = options.iter().map(|(_, label)| label.clone()).collect();
    let prompt = vote_prompt(lang, &view.seat.name, own_word(view), &view.public_lines(MEMORY), &list);
    let said = ask(ctx, request(lang, prompt, 12)).await?;
    parse_vote(&said, options)
}

/// The blank seat's guess at the civilians' word.
pub async fn guess(ctx: &TurnContext<'_>, view: &SeatView<'_>, lang: Language) -> Option<String> {
    let prompt = guess_prompt(lang, &view.seat.name, &view.public_lines(MEMORY));
    let said = ask(ctx, request(lang, prompt, 12)).await?;
    clean_line(&said).map(|l| l.trim_end_matches(['.', '。', '!', '！']).to_string())
}

/// The first non-empty line without quotes or a speaker label, cut short;
/// `None` for nothing usable.
pub fn clean_line(said: &str) -> Option<String> {
    let line = said.lines().map(str::trim).find(|l| !l.is_empty())?;
    let line = match line.split_once([':', '：']) {
        Some((head, rest)) if head.chars().count() <= 24 && !rest.trim().is_empty() => rest.trim(),
        _ => line,
    };
    let line =
        line.trim_matches(|c: char| matches!(c, '"' | '“' | '”' | '\'' | '「' | '」' | '*' | '`') || c.is_whitespace());
    if line.is_empty() {
        return None;
    }
    Some(line.chars().take(MAX_SAID).collect())
}

/// The first seat number in `said` that is one of the options.
pub fn parse_vote(said: &str, options: &[(String, String)]) -> Option<String> {
    let mut digits = String::new();
    for c in said.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() {
            digits.push(c);
        } else if !digits.is_empty() {
            if options.iter().any(|(id, _)| *id == digits) {
                return Some(digits);
            }
            digits.clear();
        }
    }
    None
}
