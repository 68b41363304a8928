use super::*;

fn entry(turn: u32, text: &str) -> Entry {
    Entry { turn, speaker: format!("p{turn}"), text: text.to_string() }
}

#[test]
fn coined_terms_are_capitalised_runs_and_quoted_chinese() {
    let found: Vec<String> = coined("We name the boat the Silver Heron. Tamsin laughs at Pell Vanter, then leaves.")
        .into_iter()
        .map(|(t, _)| t)
        .collect();
    assert!(found.contains(&"Silver Heron".to_string()), "{found:?}");
    assert!(found.contains(&"Pell Vanter".to_string()), "{found:?}");
    // One capitalised word opening a sentence is not a term.
    assert!(!found.contains(&"Tamsin".to_string()), "{found:?}");
    let zh: Vec<String> = coined("我们把这把刀叫作「断潮」。").into_iter().map(|(t, _)| t).collect();
    assert_eq!(zh, ["断潮"]);
    let (_, note) = &coined("Later. We call it the Brass Ear, a trumpet.")[0];
    assert_eq!(note, "We call it the Brass Ear, a trumpet.");
}

#[test]
fn the_book_keeps_a_bounded_window_and_a_glossary_of_new_terms() {
    let rules = BookRules { keep: 10, hot_turns: 1, summary_every: 1, ..BookRules::default() };
    let mut book = Book::default();
    for t in 1..=30 {
        let text = if t == 2 { "I hide the key in the Salt Cellar.".to_string() } else { format!("I wait, turn {t}.") };
        book.record(entry(t, &text), "the gull lamp", &rules);
    }
    // Nothing is summarised here, so up to twice the bound is kept.
    assert!((10..=20).contains(&book.recent.len()), "{}", book.recent.len());
    book.fold("all of it".into(), 28, &rules);
    book.record(entry(31, "I rest."), "", &rules);
    assert_eq!(book.recent.len(), 10, "summarised entries go first");
    assert_eq!(book.hot(&rules).iter().map(|e| e.turn).collect::<Vec<_>>(), [29, 30, 31], "all not summarised");
    assert_eq!(book.glossary.len(), 1);
    assert_eq!(book.terms_in("where is the salt cellar?")[0].term, "Salt Cellar");
    // Known words (the frozen text) are not coined again.
    book.record(entry(32, "The Gull Lamp burns."), "the gull lamp", &rules);
    assert_eq!(book.glossary.len(), 1);
}

#[test]
fn a_chapter_is_due_every_interval_and_the_hot_window_keeps_its_last_turns() {
    let rules = BookRules { keep: 30, hot_turns: 2, summary_every: 3, ..BookRules::default() };
    let mut book = Book::default();
    for t in 0..=3 {
        book.record(entry(t, "x."), "", &rules);
    }
    assert!(!book.summary_due(&rules));
    book.record(entry(4, "y."), "", &rules);
    assert!(book.summary_due(&rules), "2 hot turns + an interval of 3");
    // The opening (turn 0) is summarised like any turn.
    let pending: Vec<u32> = book.unsummarised(&rules).iter().map(|e| e.turn).collect();
    assert_eq!(pending, [0, 1, 2]);
    book.fold("so far".into(), 2, &rules);
    assert!(!book.summary_due(&rules));
    assert_eq!((book.summary_upto, book.summary_from), (2, 0));
    assert_eq!(book.hot(&rules).iter().map(|e| e.turn).collect::<Vec<_>>(), [3, 4]);
}

/// Plays a book the way a table does (a chapter when due, the index
/// catching up after each turn) and checks after every turn that every
/// turn so far is in exactly one tier, and the hot window holds at least
/// the last `hot_turns` turns verbatim.
fn no_blind_spot(turns: u32, hot_turns: usize, every: usize, summary_tokens: usize) {
    let rules = BookRules { keep: 12, hot_turns, summary_every: every, summary_tokens, ..BookRules::default() };
    let mut book = Book::default();
    for t in 0..=turns {
        book.record(entry(t, &format!("I do thing {t}.")), "", &rules);
        book.record(Entry { turn: t, speaker: "GM".into(), text: format!("Thing {t} happens.") }, "", &rules);
        if book.summary_due(&rules) {
            let pending = book.unsummarised(&rules);
            let upto = pending.iter().map(|e| e.turn).max().unwrap();
            let text = extract_summary("", &pending, rules.summary_words, Language::En);
            book.fold(text, upto, &rules);
        }
        // The index takes what is not in it yet (as the table does).
        book.archived_upto = book.to_archive().iter().map(|e| e.turn).max().unwrap_or(book.archived_upto);
        book.indexed = true;
        for u in 0..=t {
            let tier = book.tier(u);
            assert!(tier.is_some(), "turn {u} is in no tier after turn {t} ({turns}, {hot_turns}, {every})");
        }
        let hot: std::collections::BTreeSet<u32> = book.hot(&rules).iter().map(|e| e.turn).collect();
        let want = (t + 1).min(hot_turns as u32);
        assert!((t + 1 - want..=t).all(|u| hot.contains(&u)), "the last {want} turns are hot after turn {t}: {hot:?}");
        assert!(hot.len() < hot_turns + every.max(1), "the hot window is bounded: {hot:?}");
        // Exactly one: a hot turn is not summarised, a summarised one is
        // either kept in a chapter or left for recall.
        for u in 0..=t {
            let places = [hot.contains(&u), book.is_summarised(u) && u >= book.summary_from, u < book.summary_from];
            assert_eq!(places.iter().filter(|p| **p).count(), 1, "turn {u} after turn {t}: {places:?}");
        }
    }
}

#[test]
fn every_turn_is_in_exactly_one_tier_for_any_length_window_and_interval() {
    // Exhaustive over small shapes rather than sampled (no property-test
    // crate here): every turn count up to 60 is visited by each run.
    for hot_turns in 1..=7 {
        for every in 1..=6 {
            for summary_tokens in [20, 400] {
                no_blind_spot(60, hot_turns, every, summary_tokens);
            }
        }
    }
}

#[test]
fn kept_chapters_fit_their_share_and_older_ones_leave_for_recall() {
    let rules = BookRules { summary_tokens: 30, ..BookRules::default() };
    let mut book = Book::default();
    for (i, upto) in [3_u32, 7, 11, 15].into_iter().enumerate() {
        book.fold(format!("Chapter {i}: a dozen words about what the party did in these four turns."), upto, &rules);
    }
    assert!(estimate_tokens(&book.summary) <= 30 + 2, "{}", book.summary);
    assert!(book.summary.contains("Chapter 3") && !book.summary.contains("Chapter 0"));
    assert!(book.summary_from > 0);
    book.indexed = true;
    book.archived_upto = 15;
    assert_eq!(book.tier(0), Some(Tier::Recall));
    assert_eq!(book.tier(15), Some(Tier::Summary));
}

#[test]
fn shares_follow_the_model_window() {
    assert_eq!(Shares::for_window(128_000, 1_000), Shares::TOP);
    let small = Shares::for_window(2_048, 700);
    assert!(small.total() <= 2_048 - 700, "{small:?}");
    assert!(small.recent > small.summary && small.summary >= small.glossary, "{small:?}");
    let mid = Shares::for_window(4_096, 700);
    assert!(mid.recent >= Shares::LOW.recent && mid.recent <= Shares::TOP.recent, "{mid:?}");
    assert!(mid.total() <= 4_096 - 700);
}

#[test]
fn flags_are_kept_apart_from_the_prose_and_shown_whole() {
    let rules = BookRules::default();
    let mut book = Book::default();
    book.flag("Gate opened", true);
    book.fold("The party reached the gate.".into(), 0, &rules);
    assert_eq!(book.flags.get("gate_opened"), Some(&true));
    assert!(!book.summary.contains("gate_opened"));
    let layers = Layers::from_book(&book, &rules, View::Public, "", Vec::new());
    let count = |t: &str| estimate_tokens(t);
    let (text, _) = layers.fit_shares(Language::En, &Shares::TOP, &count);
    assert!(text.contains("Flags set at this table:\ngate_opened = true"), "{text}");
}

#[test]
fn a_fitted_block_stays_within_its_budget_and_drops_the_oldest_hot_turns() {
    let layers = Layers {
        flags: Vec::new(),
        facts: vec!["Ada's ring: in the herring barrel".into()],
        summary: "They came to town.".into(),
        gm: vec!["[3] referee: disqualified".into()],
        glossary: vec!["Silver Heron — the boat".into()],
        recalled: vec!["[2] p2: I hide the key.".into()],
        hot: (1..=40).map(|t| format!("[{t}] p: a line of some length for turn {t}")).collect(),
    };
    let count = |t: &str| estimate_tokens(t);
    let (text, fitted) = layers.fit(Language::En, 200, &count);
    assert!(estimate_tokens(&text) <= 200 + 8, "{}", estimate_tokens(&text));
    assert!(fitted.dropped > 0);
    assert!(text.contains("[40]") && !text.contains("[1] p:"));
    assert!(text.contains("Silver Heron") && text.contains("hide the key") && text.contains("They came"));
    assert!(text.contains("herring barrel"));
}

#[test]
fn facts_are_set_by_subject_forgotten_when_emptied_and_kept_within_their_share() {
    let rules = BookRules { facts: 30, ..BookRules::default() };
    let mut book = Book::default();
    book.establish("Ada's mule", "Pepper Quill, at the well", 3, &rules);
    book.establish("  ADA'S MULE ", "sold to the cooper", 9, &rules);
    assert_eq!(book.facts.len(), 1, "one line per subject: {:?}", book.facts);
    assert_eq!(book.facts[0].text, "sold to the cooper");
    book.establish("Ada's mule", "", 10, &rules);
    assert!(book.facts.is_empty(), "an empty text forgets the subject");
    book.establish("", "no subject", 10, &rules);
    book.establish("x", &"long ".repeat(100), 10, &rules);
    assert!(book.facts.len() == 1 && book.facts[0].text.chars().count() <= Fact::TEXT_CHARS);
    for i in 0..50 {
        book.establish(&format!("thing {i}"), &format!("kept at place {i}"), 20 + i, &rules);
    }
    assert_eq!(book.facts.len(), 30, "the least recently set go first");
    assert_eq!(book.facts[0].subject, "thing 20");
    // Always shown: the ones that come up first, then the newest, in the share.
    let layers = Layers::from_book(&book, &rules, View::Public, "Where is thing 21 now?", Vec::new());
    assert!(layers.facts[0].starts_with("thing 21:") || layers.facts[0].starts_with("thing 49:"), "{:?}", layers.facts);
    let count = |t: &str| estimate_tokens(t);
    let shares = Shares { facts: 60, ..Shares::TOP };
    let (text, fitted) = layers.fit_shares(Language::En, &shares, &count);
    assert!(text.contains("What this table has established:\nthing 49: kept at place 49"), "{text}");
    assert!(fitted.facts <= 60 && !text.contains("thing 20:"), "{text}");
}

#[test]
fn the_public_view_has_no_gm_notes() {
    let rules = BookRules::default();
    let mut book = Book::default();
    book.record(entry(1, "I look around."), "", &rules);
    book.note(entry(1, "approved: consistent with the causeway passage"), &rules);
    let public = Layers::from_book(&book, &rules, View::Public, "", Vec::new());
    let gm = Layers::from_book(&book, &rules, View::Gm, "", Vec::new());
    assert!(public.gm.is_empty());
    assert_eq!(gm.gm.len(), 1);
}

#[test]
fn the_extracted_summary_is_bounded() {
    let entries: Vec<Entry> = (1..=50).map(|t| entry(t, &format!("I do thing number {t}. And more."))).collect();
    let refs: Vec<&Entry> = entries.iter().collect();
    let s = extract_summary("Earlier.", &refs, 30, Language::En);
    assert!(s.split_whitespace().count() <= 30);
    assert!(s.contains("number 50"));
}
