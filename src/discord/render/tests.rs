use super::*;
use crate::core::fixtures::puzzle;
use crate::core::soup::SoupEvent;
use crate::core::vocab::Player;

#[test]
fn mentions_and_control_characters_are_neutralised() {
    let check = |input: &str, expect: &str| assert_eq!(neutralise(input), expect, "{input:?}");
    check("@everyone look", "@\u{200B}everyone look");
    check("hi @here", "hi @\u{200B}here");
    check("<@123> and <@!456>", "<@\u{200B}123> and <@\u{200B}!456>");
    check("<@&789> role", "<@\u{200B}&789> role");
    check("bell\u{7}\u{1b}[31m", "bell[31m");
    check("line\nnext\ttab", "line\nnext\ttab");
    check("full-width ＠everyone", "full-width ＠\u{200B}everyone");
}

#[test]
fn names_are_escaped_and_bounded() {
    assert_eq!(safe_name("**bold** _x_"), "\\*\\*bold\\*\\* \\_x\\_");
    assert_eq!(safe_name("a\nb"), "ab");
    assert_eq!(safe_name("   "), "player");
    assert_eq!(safe_name(&"x".repeat(100)).chars().count(), 64);
}

#[test]
fn long_text_splits_at_lines_and_never_exceeds_the_limit() {
    let text = (0..300).map(|i| format!("line {i} of the story")).collect::<Vec<_>>().join("\n");
    let pieces = chunks(&text, MAX_MESSAGE_CHARS);
    assert!(pieces.len() > 1);
    assert!(pieces.iter().all(|p| p.chars().count() <= MAX_MESSAGE_CHARS));
    assert_eq!(pieces.concat(), text);
    let one_line = "字".repeat(4_500);
    let pieces = chunks(&one_line, MAX_MESSAGE_CHARS);
    assert_eq!(pieces.len(), 3);
    assert!(pieces.iter().all(|p| p.chars().count() <= MAX_MESSAGE_CHARS));
}

#[test]
fn very_long_replies_are_filed() {
    let reply = Reply { kind: ReplyKind::History, text: "q?\n".repeat(5_000), verdict: None };
    let planned = plan(&reply, Language::En, 3);
    assert_eq!(planned.len(), 1);
    let (name, bytes) = planned[0].file.clone().expect("a file");
    assert_eq!(name, "history.md");
    assert_eq!(bytes.len(), 15_000);
    assert!(planned[0].text.chars().count() <= MAX_MESSAGE_CHARS);
    assert!(planned[0].text.ends_with("(The full text is attached.)"));
    let short = Reply { kind: ReplyKind::Verdict, text: "YES: indeed".into(), verdict: Some(Verdict::Yes) };
    assert_eq!(
        plan(&short, Language::En, 3),
        vec![Outgoing { text: "YES: indeed".into(), colour: 0x2E_CC71, file: None }]
    );
}

#[test]
fn verdicts_have_distinct_colours() {
    let verdicts = [Verdict::Yes, Verdict::No, Verdict::YesAndNo, Verdict::Irrelevant, Verdict::Meta];
    let mut colours: Vec<u32> = verdicts
        .iter()
        .map(|v| colour(&Reply { kind: ReplyKind::Verdict, text: String::new(), verdict: Some(*v) }))
        .collect();
    colours.sort_unstable();
    colours.dedup();
    assert_eq!(colours.len(), verdicts.len());
}

#[test]
fn the_summary_says_who_found_which_fact_and_the_scores() {
    let p = puzzle();
    let alice = Player { id: "discord:1".into(), name: "Alice @everyone".into() };
    let game = SoupGame::new(&p, 3).apply(&SoupEvent::Start, &p).unwrap();
    let facts = vec!["f1".to_string(), "f2".to_string()];
    let game = game.apply(&SoupEvent::Guessed { player: alice, facts }, &p).unwrap();
    let text = summary(&p, &game, Language::En);
    assert!(text.contains("✅ A ship wrecked because the lamp was off. · found by Alice @\u{200B}everyone"), "{text}");
    assert!(text.contains("▫️ He learned of it from the newspaper. · not found"), "{text}");
    assert!(text.contains("Alice @\u{200B}everyone: 110"), "{text}");
    let zh = summary(&p, &game, Language::Zh);
    assert!(zh.contains("关键事实") && zh.contains("得分"), "{zh}");
}
