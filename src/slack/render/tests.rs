use super::*;

#[test]
fn special_tokens_and_mentions_become_plain_text() {
    for token in ["<!channel>", "<!here>", "<!everyone>", "<@U123>", "<#C42|general>", "<!subteam^S1|admins>"] {
        let out = neutralise(&format!("hey {token} look"));
        assert!(!out.contains('<') && !out.contains('>'), "{token} survived: {out}");
    }
    assert_eq!(neutralise("a & b"), "a &amp; b");
    assert!(neutralise("@channel").starts_with("@\u{200B}"));
    assert_eq!(neutralise("bell\u{7}\nline"), "bell\nline");
}

#[test]
fn long_replies_are_split_and_cut() {
    let reply = Reply { kind: crate::core::game::ReplyKind::History, text: "line\n".repeat(5_000), verdict: None };
    let pieces = plan(&reply, Language::En, 2);
    assert_eq!(pieces.len(), 2);
    assert!(pieces.iter().all(|p| p.chars().count() <= MAX_MESSAGE_CHARS + 80));
    assert!(pieces[1].ends_with(&say(Language::En, &Word::Cut)));
}

#[test]
fn the_intro_has_three_buttons() {
    let (library, _) = crate::puzzles::PuzzleLibrary::load(None);
    let puzzle = library.get("en-noon-gun").unwrap();
    let intro = Reply { kind: crate::core::game::ReplyKind::Intro, text: "A surface".into(), verdict: None };
    let buttons = crate::assets::catalogue().buttons(crate::core::catalogue::Frontend::Slack, "soup", puzzle.language);
    let blocks = serde_json::to_value(intro_blocks(&puzzle, &intro, &buttons)).unwrap();
    let text = blocks.to_string();
    assert_eq!(blocks.as_array().unwrap().len(), 3, "{text}");
    for id in ["soup:hint", "soup:status", "soup:giveup"] {
        assert!(text.contains(id), "{text}");
    }
}
