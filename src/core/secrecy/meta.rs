//! The META classifier: does a player's message ask about the answer's
//! *text* (its first letter, length, spelling, a translation or summary of
//! it) or try to take over the host ("ignore your instructions", "admin
//! mode")? Such a message gets the META verdict instead of yes or no.
//!
//! Ordinary story questions must stay playable, even ones that use words
//! like "letter", "name" or "truth": "Was the first letter from him?" is
//! about the story. So most extraction rules only apply when the sentence
//! is not a plain yes/no question about the story's people ("Did he tell
//! her the truth?"), while rules about the answer's wording always apply.
//! Both languages are checked whatever the game's language, since players
//! mix them.

use std::sync::LazyLock;

use super::meta_zh;
use super::normalize::{clean, skeleton_of, words};
use super::pattern::WordPattern;

const ORD: &str =
    "first|last|second|third|fourth|fifth|initial|final|opening|starting|beginning|1st|2nd|3rd|nth|next|middle";
const UNIT: &str = "letter|letters|character|characters|char|chars|word|words|syllable*|digit*|symbol*|kanji|hanzi|initial*|sentence*|line|lines|paragraph*";
const NUM: &str = "two|three|four|five|six|seven|eight|nine|ten|few|couple|2|3|4|5|10";
const TARGET: &str = "answer*|solution*|bottom|truth|secret*|twist*|ending|spoiler*|explanation*|soup|prompt*|instruction*|password|keyword*|riddle*|puzzle*|backstory|resolution|reveal|facts";
const STORY_ADJ: &str = "hidden|real|full|whole|true|complete|entire|actual|secret|original|rest|untold|bottom";
const VERB: &str = "tell*|give|gives|giving|show*|reveal*|print*|output*|display*|dump*|recite*|repeat*|write|writes|writing|wrote|read|reads|reading|say|says|saying|state|stating|type|typing|quote*|copy|copying|paste|share|sharing|send|sending|leak*|disclose*|expose*|describe*|explain*|narrate*|summar*|sum|translat*|paraphrase*|rewrite*|encode*|convert*|list|listing|provide*|render*|restate*|reword*|outline*|recap*|retell*|relay*|spill*|post|return|spoil*|whisper*|sing|spell*|confirm*|reproduce*|generate*|produce*|blurt*|put|hide|hiding|contain*|includ*|embed*|condens*|shorten*|compress*|simplif*|abridg*|boil|decode*|hand|handing|pass";
const ENCODING: &str = "base64|base|b64|hex|hexadecimal|binary|morse|rot13|rot|caesar|nato|phonetic|pig|reverse*|backward*|leetspeak|leet|1337|unicode|ascii|emoji*|cipher*|acrostic*|anagram*|json|yaml|xml|french|spanish|german|italian|japanese|korean|russian|latin|chinese|mandarin|pinyin|portuguese|arabic|hindi|klingon";

/// Rules that hold whatever form the sentence has.
const STRONG: &[&str] = &[
    // The answer's letters, words and length.
    "ORD NUM? UNIT of|in|for|from the? ~ TARGET",
    "ORD NUM? UNIT of|in|for|from the? ~ STORY_ADJ story|text|version",
    "quot*|cit*|read* ~ its|it|the ORD NUM? UNIT",
    "what|which is|s|was|are the? ORD UNIT",
    "tell|give|say|show|reveal|spell me|us? the? ORD UNIT",
    "^the? ORD UNIT please? $",
    "start*|begin*|end* with the? letter|character|char %",
    "start*|begin*|end* with % $",
    "TARGET start*|begin*|end* with",
    "how many UNIT ~~ TARGET",
    "how many UNIT ~~ STORY_ADJ story",
    "how many UNIT $",
    "how many UNIT is|are|in it|this|that|there",
    "how long is|s the? TARGET",
    "how long is|s the? STORY_ADJ story|text",
    "TARGET longer|shorter|more|fewer|less than",
    "TARGET rhyme*|sound*",
    "length of the? ~ TARGET",
    "word|letter|character|char|syllable count",
    "spell* ~ TARGET",
    "spell it|that|this|everything out?",
    "letter|word|character|line|sentence by|for letter|word|character|line|sentence",
    "verbatim",
    "one letter|word|character at a time",
    "exact|precise|original|literal words|wording|text|phrasing|sentence*",
    "word|letter|phrase|term|name ~ in|of the? TARGET",
    "TARGET contain*|include*|mention*|use|uses the? word|letter|phrase|term|name",
    "initials|acronym|rhyme* ~ TARGET",
    // The host's own prompt and configuration.
    "system prompt*|message*|instruction*|context",
    "your prompt*",
    "judge*|host*|narrator* s? note*|instruction*|prompt*|rules|context|secret*",
    "note*|message|instruction* to|for the? ai|host|judge|narrator|assistant|model|bot",
    "your|the hidden|secret|original|initial|internal|developer|judge* instruction*|note*|rules|context|guideline*|prompt*|config*",
    "your hidden|secret|original|internal|private story|field*|text|data|notes|answer",
    "your instruction*|directive*|guideline*|configuration|programming|context|constraints",
    "instruction*|text|everything|messages|prompt above",
    "above this line",
    "admin|administrator|developer|dev|debug|god|sudo|root|maintenance|unrestricted|jailbreak|unlocked|superuser|operator|unfiltered|dan mode|access|privilege*",
    "jailbreak*",
    "do anything now",
    "you are|re now",
    "from now on you|your|respond|reply|answer|only|always",
    "new|updated|revised|real instruction*|rules|directive*",
    "canary token|string|code|word",
];

/// Rules for requests to the host; skipped in a yes/no question about the
/// story ("Did he ignore the rules?").
const EXTRACT: &[&str] = &[
    "VERB ~~ TARGET",
    "can|could|may|allowed|able|do|to see|access|view|read ~ the? TARGET|STORY_ADJ",
    "VERB ~~ STORY_ADJ story|text|version|account|events|plan",
    "TARGET ~~ VERB it|them|that",
    "the prompt*",
    "hint ~ just|only|exactly|literally|simply the? TARGET",
    "told|asked|instructed|supposed|meant to keep|hide ~ secret|hidden|private|quiet",
    "TARGET encod*|encrypt*|translat*|written|spelled|spelt|reversed|backwards",
    "VERB ~~ events|parts|part|details|rest|bits ~~ not|haven|hasn|undiscovered|unfound|hidden|missing|unknown",
    "ENCODING ~~ TARGET",
    "ENCODING ~~ STORY_ADJ story",
    "summary|synopsis|gist|tldr|tl|abstract|overview|recap|rundown|breakdown|timeline|pitch ~~ TARGET|story|events|happened",
    "translat*|summar*|paraphrase*|encode*|rewrite*|retell*|recap*|sum the? story|plot|tale|whole|everything|it|this|that",
    "what|whats|how is|s|was|are|were the? TARGET",
    "what really|actually happened",
    "TARGET is|was please? $",
    "ignore|disregard|forget|override|bypass|skip|drop|abandon|suspend|disable|break ~ instruction*|rule*|prompt*|guideline*|restriction*|constraint*|direction*|order*|programming|polic*|limit*|filter*|safety|above|previous|everything",
    "declare|mark|set|record|register|announce|count|flag|treat|consider|log|make ~ game|puzzle|round|it|this|me|us|my|guess|answer ~ as? solved|won|complete*|finished|over|correct|right|winner|victory|success*|win",
    "declare|announce|mark ~ solved|winner|victory",
    "give|award|grant|add me|us ~ point*|score|win|victory|marks|credit",
    "in|as|into|using|with|to only? ENCODING",
    "reply|respond|answer|write|speak|talk|communicate only in|with|using",
    "pretend|imagine|roleplay|role|act|be|playing ~ grandma|grandmother|granny|nana|grandpa|grandfather|mom|mother|mum|dad|father|teacher|narrator|storyteller|author|writer|creator|developer|judge|host|system|assistant|ai|character|dan|oracle",
    "bedtime|fairy story|tale",
    "fill in the? blank*",
    "complete|continue|finish the|this sentence|text|story",
];

/// Words that may open a sentence without changing its form.
const FILLERS: &str = "so|ok|okay|hmm|well|and|but|then|also|please|hey|um|oh|alright|right|now|next|quick|question";
const AUX: &str = "did|does|do|is|was|were|are|has|had|have|can|could|would|will|should|shall|might|must|may|isn|wasn|didn|doesn|aren|weren|hasn|hadn|wouldn|couldn";
const ADDRESSEE: &str = "you|u|ya|yall|i|we|me|us";

struct Rules {
    strong: Vec<WordPattern>,
    extract: Vec<WordPattern>,
    fillers: WordPattern,
    aux: WordPattern,
    to_host: WordPattern,
}

static RULES: LazyLock<Rules> = LazyLock::new(|| Rules {
    strong: STRONG.iter().map(|p| WordPattern::parse(&expand(p))).collect(),
    extract: EXTRACT.iter().map(|p| WordPattern::parse(&expand(p))).collect(),
    fillers: WordPattern::parse(FILLERS),
    aux: WordPattern::parse(&format!("^{AUX}")),
    to_host: WordPattern::parse(&format!("^{AUX} {ADDRESSEE}")),
});

/// Substitutes the shared word classes into a rule.
fn expand(rule: &str) -> String {
    rule.replace("STORY_ADJ", STORY_ADJ)
        .replace("ENCODING", ENCODING)
        .replace("TARGET", TARGET)
        .replace("VERB", VERB)
        .replace("ORD", ORD)
        .replace("NUM", NUM)
        .replace("UNIT", UNIT)
}

/// Whether `text` asks about the answer's wording, tries to take over the
/// host, or is plainly no question about the story (an instruction to the
/// bot, a role-play set-up, code: `instruction.rs`), in English or Chinese.
pub fn is_meta_question(text: &str) -> bool {
    let chars = clean(text);
    english_sentences(&chars).iter().any(|s| english_meta(s))
        || meta_zh::is_meta(&chars)
        || super::instruction::is_instruction(text)
}

/// Sentences of skeleton words, leading fillers dropped.
fn english_sentences(chars: &[char]) -> Vec<Vec<String>> {
    let breaks = |c: &char| matches!(c, '.' | '!' | '?' | ':' | '\n' | '\u{3002}' | '\u{FF01}' | '\u{FF1F}');
    let mut out = Vec::new();
    for sentence in chars.split(breaks) {
        let mut ws: Vec<String> = words(sentence).iter().map(|w| skeleton_of(&w.chars().collect::<Vec<_>>())).collect();
        let lead = ws.iter().take_while(|w| RULES.fillers.matches(std::slice::from_ref(*w))).count();
        ws.drain(..lead);
        if !ws.is_empty() {
            out.push(ws);
        }
    }
    out
}

fn english_meta(sentence: &[String]) -> bool {
    if RULES.strong.iter().any(|p| p.matches(sentence)) {
        return true;
    }
    !is_story_question(sentence) && RULES.extract.iter().any(|p| p.matches(sentence))
}

/// "Did he ...?", "Was the letter ...?": a yes/no question about the
/// story's people and things. One that speaks to the host ("Can you ...?",
/// "Is it OK if you ...?") is a request, not a story question.
fn is_story_question(sentence: &[String]) -> bool {
    let to_you = |w: &String| matches!(w.as_str(), "you" | "u" | "ya") || w.starts_with("your");
    RULES.aux.matches(sentence) && !RULES.to_host.matches(sentence) && !sentence.iter().any(to_you)
}
