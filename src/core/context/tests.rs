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
    let rules = BookRules { keep: 10, hot_turns: 3, summary_every: 4, ..BookRules::default() };
    let mut book = Book::default();
    for t in 1..=30 {
        let text = if t == 2 { "I hide the key in the Salt Cellar.".to_string() } else { format!("I wait, turn {t}.") };
        book.record(entry(t, &text), "the gull lamp", &rules);
    }
    // Nothing is summarised here, so up to twice the bound is kept.
    assert!((10..=20).contains(&book.recent.len()), "{}", book.recent.len());
    book.fold("all of it".into(), 30);
    book.record(entry(31, "I rest."), "", &rules);
    assert_eq!(book.recent.len(), 10, "summarised entries go first");
    assert_eq!(book.hot(&rules).iter().map(|e| e.turn).collect::<Vec<_>>(), [29, 30, 31]);
    assert_eq!(book.glossary.len(), 1);
    assert_eq!(book.terms_in("where is the salt cellar?")[0].term, "Salt Cellar");
    // Known words (the frozen text) are not coined again.
    book.record(entry(32, "The Gull Lamp burns."), "the gull lamp", &rules);
    assert_eq!(book.glossary.len(), 1);
}

#[test]
fn the_summary_is_due_every_k_turns_out_of_the_hot_window() {
    let rules = BookRules { keep: 30, hot_turns: 2, summary_every: 3, ..BookRules::default() };
    let mut book = Book::default();
    for t in 1..=4 {
        book.record(entry(t, "x."), "", &rules);
    }
    assert!(!book.summary_due(&rules));
    book.record(entry(5, "y."), "", &rules);
    assert!(book.summary_due(&rules));
    let pending: Vec<u32> = book.unsummarised(&rules).iter().map(|e| e.turn).collect();
    assert_eq!(pending, [1, 2, 3]);
    book.fold("so far".into(), 3);
    assert!(!book.summary_due(&rules));
    assert_eq!(book.summary_upto, 3);
}

#[test]
fn a_fitted_block_stays_within_its_budget_and_drops_the_oldest_hot_turns() {
    let layers = Layers {
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
