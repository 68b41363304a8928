//! Corpus tests: every shipped puzzle against the attack and normal-play
//! corpora in `tests/data/`. The rates are printed (run with
//! `--nocapture`) and held to the targets.

use std::collections::BTreeMap;
use std::time::Instant;

use super::testkit::{PuzzleText, attacks, encodings, normal_play, puzzles};
use super::*;

const CATEGORIES: [&str; 10] = [
    "direct",
    "roleplay",
    "translation",
    "partial",
    "encoding",
    "summarise",
    "multi_turn",
    "display_name",
    "custom_puzzle",
    "instruction",
];

/// Harmless things a Narrator says, whatever the puzzle.
const NARRATOR_EN: &[&str] = &[
    "Good question! Keep pulling that thread.",
    "You're getting warmer, but there's more to it.",
    "Interesting angle. What else could explain it?",
    "Think again about the surface: every detail is there for a reason.",
    "Not quite, but don't give up now!",
    "That doesn't change anything, try another direction.",
    "Ooh, nice instinct. Follow it!",
    "Half of that holds. Which half, I wonder?",
    "You're close to something important.",
    "Great teamwork, everyone. Who has the next idea?",
    "Hmm, the answer may be simpler than you think.",
    "Keep asking about the people involved.",
    "Ask yourself why anyone would do that on purpose.",
    "Time and place matter more than you'd expect here.",
    "Nobody has asked about the past yet...",
    "A small detail can turn the whole story around.",
    "That was asked before: same answer as then.",
    "Bold guess! Not there yet, but you found part of it.",
];

const NARRATOR_ZH: &[&str] = &[
    "好问题！顺着这条线继续想。",
    "越来越接近了，不过还差一点。",
    "这个角度很有意思，还有别的可能吗？",
    "再看看汤面，每个细节都有用。",
    "不太对，但别放弃！",
    "这个跟故事关系不大，换个方向试试。",
    "直觉不错，继续追问！",
    "一半是对的，是哪一半呢？",
    "你们离关键只差一步了。",
    "大家配合得真好，下一个问题是谁的？",
    "答案可能比你想的简单。",
    "多问问故事里的人物吧。",
    "想想为什么有人会故意这么做。",
    "时间和地点比你想的更重要。",
    "还没有人问过以前发生过什么……",
    "一个小细节就能让整个故事反转。",
    "这个问题之前问过了，答案相同。",
    "大胆的猜测！还没完全猜中，但已经找到一部分了。",
];

fn rate(hits: usize, total: usize) -> f64 {
    if total == 0 { 0.0 } else { hits as f64 * 100.0 / total as f64 }
}

#[test]
fn corpora_have_the_promised_shape() {
    let attacks = attacks().attack;
    assert!(attacks.len() >= 320, "{} attacks", attacks.len());
    for category in CATEGORIES {
        let n = attacks.iter().filter(|a| a.category == category).count();
        assert!(n >= 20, "{category}: {n}");
    }
    for a in &attacks {
        assert!(CATEGORIES.contains(&a.category.as_str()) && (a.lang == "en" || a.lang == "zh"), "{a:?}");
        assert!(!a.probes().is_empty(), "{a:?}");
        assert_eq!(a.category == "multi_turn", a.turns.len() >= 2, "{a:?}");
        assert_eq!(a.category == "display_name", a.name.is_some(), "{a:?}");
    }
    assert!(attacks.iter().any(|a| a.lang == "zh") && attacks.iter().any(|a| a.lang == "en"));
    let entries = normal_play().entry;
    assert!(entries.len() >= 220, "{} entries", entries.len());
    let ids: Vec<String> = puzzles().into_iter().map(|p| p.id).collect();
    for e in &entries {
        assert!(e.kind == "question" || e.kind == "guess", "{e:?}");
        assert!(e.puzzle.as_ref().is_none_or(|p| ids.contains(p)), "{e:?}");
    }
}

#[test]
fn every_bottom_is_blocked_in_every_encoding() {
    let mut missed = Vec::new();
    for puzzle in puzzles() {
        let gate = puzzle.gate();
        for (name, encode) in encodings(puzzle.is_zh()) {
            if !gate.check(&encode(&puzzle.bottom)).is_blocked() {
                missed.push(format!("{} as {name}", puzzle.id));
            }
        }
    }
    assert!(missed.is_empty(), "bottoms not blocked: {missed:#?}");
}

/// A key fact alone is a sentence or two; the short ones say no more than
/// a yes/no question would ("妈妈在家里养蚕。"), so not all of them can be
/// blocked without blocking questions. Most are.
#[test]
fn most_key_facts_alone_are_blocked() {
    let (mut total, mut missed) = (0, Vec::new());
    for puzzle in puzzles() {
        let gate = puzzle.gate();
        for fact in &puzzle.facts {
            total += 1;
            if !gate.check(&fact.text).is_blocked() {
                missed.push(format!("{}: {}", puzzle.id, fact.text));
            }
        }
    }
    let pct = rate(total - missed.len(), total);
    println!("key facts blocked alone: {}/{total} ({pct:.1}%) missed {missed:#?}", total - missed.len());
    assert!(pct >= 85.0, "{pct:.1}%: {missed:#?}");
}

#[test]
fn meta_classifier_flags_marked_attacks_and_spares_normal_play() {
    let attacks = attacks().attack;
    let mut by_category: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut missed = Vec::new();
    for a in &attacks {
        let flagged = a.probes().iter().any(|p| is_meta_question(p));
        let slot = by_category.entry(a.category.as_str()).or_default();
        slot.0 += usize::from(flagged);
        slot.1 += 1;
        if a.meta && !flagged {
            missed.push(a.probes().join(" | "));
        }
    }
    for (category, (hit, total)) in &by_category {
        println!("meta flagged {category:>14}: {hit}/{total} ({:.1}%)", rate(*hit, *total));
    }
    assert!(missed.is_empty(), "META attacks not flagged: {missed:#?}");

    let entries = normal_play().entry;
    let false_meta: Vec<&str> = entries.iter().filter(|e| is_meta_question(&e.text)).map(|e| e.text.as_str()).collect();
    let pct = rate(false_meta.len(), entries.len());
    println!("false META on normal play: {}/{} ({pct:.2}%) {false_meta:?}", false_meta.len(), entries.len());
    assert!(pct <= 1.0, "false META {pct:.2}%: {false_meta:#?}");
}

/// Narrator remarks, surface sentences retold, and every normal-play
/// question echoed back, checked against every puzzle.
#[test]
fn normal_play_and_narrator_remarks_are_not_blocked() {
    let puzzles = puzzles();
    let entries = normal_play().entry;
    let (mut total, mut blocked) = (0usize, Vec::new());
    for puzzle in &puzzles {
        let gate = puzzle.gate();
        for text in harmless_texts(puzzle, &entries) {
            total += 1;
            if let Check::Blocked(b) = gate.check(&text) {
                blocked.push(format!("{}: {text} [{:?} {}]", puzzle.id, b.reason, b.span));
            }
        }
    }
    let pct = rate(blocked.len(), total);
    println!("false blocks on normal play: {}/{total} ({pct:.2}%) {blocked:#?}", blocked.len());
    assert!(pct <= 1.0, "false blocks {pct:.2}%: {blocked:#?}");

    // The hardest subset: each puzzle's own questions, which use its answer's words.
    let own: Vec<(&PuzzleText, &testkit::Entry)> = entries
        .iter()
        .filter(|e| e.kind == "question")
        .filter_map(|e| puzzles.iter().find(|p| Some(&p.id) == e.puzzle.as_ref()).map(|p| (p, e)))
        .collect();
    let own_blocked = own.iter().filter(|(p, e)| p.gate().check(&e.text).is_blocked()).count();
    let own_pct = rate(own_blocked, own.len());
    println!("own-puzzle questions blocked: {own_blocked}/{} ({own_pct:.2}%)", own.len());
    assert!(own_pct <= 1.0, "own-puzzle false blocks {own_pct:.2}%");
}

fn harmless_texts(puzzle: &PuzzleText, entries: &[testkit::Entry]) -> Vec<String> {
    let zh = puzzle.is_zh();
    let remarks = if zh { NARRATOR_ZH } else { NARRATOR_EN };
    let mut out: Vec<String> = remarks.iter().map(|r| r.to_string()).collect();
    let breaks: &[char] = &['.', '!', '?', '。', '！', '？'];
    for sentence in puzzle.surface.split(breaks).map(str::trim).filter(|s| !s.is_empty()) {
        out.push(if zh { format!("别忘了：{sentence}。") } else { format!("Remember: {sentence}.") });
    }
    for e in entries.iter().filter(|e| e.kind == "question") {
        out.push(if e.lang == "zh" {
            format!("你问：{}好问题！", e.text)
        } else {
            format!("You asked: {} Good one!", e.text)
        });
    }
    out
}

/// Informational: how often a player's own guess, echoed back, would be
/// blocked. Guesses near the truth often are, which is expected.
#[test]
fn guess_echo_rate_is_reported() {
    let puzzles = puzzles();
    let guesses: Vec<testkit::Entry> = normal_play().entry.into_iter().filter(|e| e.kind == "guess").collect();
    let mut hits = 0;
    for g in &guesses {
        let own = puzzles.iter().find(|p| Some(&p.id) == g.puzzle.as_ref()).map(PuzzleText::gate);
        hits += usize::from(own.is_some_and(|gate| gate.check(&g.text).is_blocked()));
    }
    println!("own-puzzle guesses blocked if echoed: {hits}/{}", guesses.len());
}

/// Hints are public once shown; before that the gate may block some.
#[test]
fn hints_pass_once_marked_public() {
    let (mut before, mut total) = (0, 0);
    for puzzle in puzzles() {
        let mut gate = puzzle.gate();
        for hint in &puzzle.hints {
            total += 1;
            before += usize::from(gate.check(hint).is_blocked());
            gate.allow_public(hint);
            assert!(!gate.check(hint).is_blocked(), "{}: {hint}", puzzle.id);
        }
        assert!(gate.check(&puzzle.bottom).is_blocked(), "{}", puzzle.id);
    }
    println!("hints blocked before being shown: {before}/{total}");
}

/// Cost per check; meaningful with `cargo test --release -- --ignored --nocapture`.
#[test]
#[ignore = "timing report, run with --release"]
fn timing_report() {
    let puzzles = puzzles();
    let entries = normal_play().entry;
    let gates: Vec<(Gate, Vec<String>)> = puzzles.iter().map(|p| (p.gate(), harmless_texts(p, &entries))).collect();
    let (mut checks, mut spans) = (0u32, 0);
    let start = Instant::now();
    for _ in 0..5 {
        for (gate, texts) in &gates {
            for t in texts {
                std::hint::black_box(gate.check(t));
                checks += 1;
            }
        }
    }
    let per = start.elapsed().as_secs_f64() * 1e6 / f64::from(checks);
    let built = Instant::now();
    for p in &puzzles {
        spans += p.gate().span_count();
    }
    let build = built.elapsed().as_secs_f64() * 1e6 / puzzles.len() as f64;
    let bottoms = Instant::now();
    for p in &puzzles {
        std::hint::black_box(p.gate().check(&p.bottom));
    }
    let leak = bottoms.elapsed().as_secs_f64() * 1e6 / puzzles.len() as f64;
    let long = Instant::now();
    for (p, (gate, _)) in puzzles.iter().zip(&gates) {
        // About 600 characters of public text: the longest message a player may send.
        let text: String = p.surface.repeat(3).chars().take(600).collect();
        std::hint::black_box(gate.check(&text));
    }
    let long = long.elapsed().as_secs_f64() * 1e6 / puzzles.len() as f64;
    println!("600-character message: {long:.1} µs");
    println!(
        "{checks} checks: {per:.1} µs per harmless message; gate build + bottom check {leak:.0} µs; build {build:.0} µs; {} spans/puzzle",
        spans / puzzles.len()
    );
}

#[test]
#[ignore = "calibration dump"]
fn calibration_dump() {
    let entries = normal_play().entry;
    for p in puzzles() {
        let gate = p.gate();
        let ev = |t: &str| {
            let e = gate.spans.evidence(&normalize::skeleton(t), None);
            format!("w={} q={} [{}]", e.weight, e.quote, e.longest)
        };
        for e in entries.iter().filter(|e| e.puzzle.as_deref() == Some(p.id.as_str())) {
            println!("{} {} {} :: {}", p.id, e.kind, ev(&e.text), e.text);
        }
        for f in &p.facts {
            println!("{} FACT {} :: {}", p.id, ev(&f.text), f.text);
        }
        let breaks: &[char] = &['.', '。', '!', '?'];
        for s in p.bottom.split(breaks).filter(|s| s.trim().len() > 3) {
            println!("{} SENT {} :: {}", p.id, ev(s), s.trim());
        }
    }
}
