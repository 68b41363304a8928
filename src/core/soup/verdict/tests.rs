use super::*;
use crate::core::fixtures::puzzle;

fn check(raw: &str, expected: Option<Intent>, want: &str) {
    let got = match parse_judgement(raw, expected, &puzzle()) {
        Parsed::Clean(j) => format!("clean {}", show(&j)),
        Parsed::Salvaged(j) => format!("salvaged {}", show(&j)),
        Parsed::Unusable => "unusable".to_string(),
    };
    assert_eq!(got, want, "parsing {raw:?}");
}

fn show(j: &Judgement) -> String {
    let verdict = j.verdict.map_or("-", Verdict::as_str);
    format!("{:?} {verdict} [{}]", j.intent, j.facts.join(","))
}

#[test]
fn clean_json_in_every_shape() {
    check(r#"{"kind":"question","verdict":"YES","facts":[]}"#, None, "clean Question YES []");
    check(r#"{"kind":"question","verdict":"YES_AND_NO","facts":[]}"#, None, "clean Question YES_AND_NO []");
    check(r#"{"kind":"guess","verdict":"IRRELEVANT","facts":["f2","f1"]}"#, None, "clean Guess - [f2,f1]");
    check(r#"{"kind":"chatter","verdict":"IRRELEVANT","facts":[]}"#, None, "clean Chatter - []");
    check("```json\n{\"kind\":\"question\",\"verdict\":\"meta\",\"facts\":[]}\n```", None, "clean Question META []");
}

#[test]
fn loose_output_is_salvaged() {
    check(r#"Sure! {"verdict": "no"} Hope that helps."#, None, "salvaged Question NO []");
    check(r#"{"verdict":"Yes and no"}"#, Some(Intent::Question), "clean Question YES_AND_NO []");
    check("Yes.", None, "salvaged Question YES []");
    check("  **No**, he was not.", None, "salvaged Question NO []");
    check("Verdict: irrelevant", None, "salvaged Question IRRELEVANT []");
    check("YES AND NO", None, "salvaged Question YES_AND_NO []");
    check("是的，他认识她。", None, "salvaged Question YES []");
    check("不是", None, "salvaged Question NO []");
}

#[test]
fn guesses_keep_only_real_fact_ids() {
    check(r#"{"kind":"guess","facts":["f1","f9","f1",2,"bottom"]}"#, Some(Intent::Guess), "clean Guess - [f1,f2]");
    check(r#"{"facts":[]}"#, Some(Intent::Guess), "clean Guess - []");
}

#[test]
fn garbage_is_unusable_not_guessed() {
    check("", None, "unusable");
    check("I think the answer might be", None, "unusable");
    check("Nothing to say", None, "unusable");
    check("{not json", None, "unusable");
    check(r#"{"kind":"question","verdict":"PERHAPS"}"#, None, "unusable");
    check("yes", Some(Intent::Guess), "unusable");
    // A verdict word buried in prose is not an answer (the parrot model's case).
    check("You are the JUDGE ... reply YES or NO", None, "unusable");
}

#[test]
fn verdict_spellings() {
    for (word, v) in [("yes", Verdict::Yes), ("YES-AND-NO", Verdict::YesAndNo), ("Irrelevant.", Verdict::Irrelevant)] {
        assert_eq!(Verdict::parse(word), Some(v), "{word}");
    }
    assert_eq!(Verdict::parse("maybe"), None);
}

#[test]
fn the_schema_lists_every_verdict() {
    let schema = judgement_schema(None).to_string();
    for v in Verdict::ALL {
        assert!(schema.contains(v.as_str()));
    }
}
