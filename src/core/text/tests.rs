use super::*;

#[test]
fn clean_input_rules() {
    let check = |raw: &str, expect: Result<&str, InputProblem>| {
        assert_eq!(clean_input(raw, 20), expect.map(str::to_string), "{raw:?}");
    };
    check("  Was he   alone? ", Ok("Was he alone?"));
    check("line\nbreak\ttab", Ok("line break tab"));
    check("bell\u{7}zero\u{200B}width", Ok("bellzerowidth"));
    check("ｆｕｌｌ width", Ok("full width"));
    check("", Err(InputProblem::Empty));
    check(" \n\t\u{200B} ", Err(InputProblem::Empty));
    check(&"a".repeat(21), Err(InputProblem::TooLong { chars: 21, max: 20 }));
    check(&"猫".repeat(20), Ok(&"猫".repeat(20)));
}

#[test]
fn ten_thousand_characters_are_refused_with_their_length() {
    let long = "why? ".repeat(2_000);
    assert_eq!(clean_input(&long, MAX_INPUT_CHARS), Err(InputProblem::TooLong { chars: 9_999, max: MAX_INPUT_CHARS }));
}

#[test]
fn questions_normalise_to_one_ledger_key() {
    let key = normalize_question("Was he alone?");
    for same in ["was he alone", "  WAS HE ALONE ??", "Was he, alone!", "ｗａｓ ｈｅ ａｌｏｎｅ"] {
        assert_eq!(normalize_question(same), key, "{same:?}");
    }
    assert_ne!(normalize_question("Was he with someone?"), key);
    assert_eq!(normalize_question("他是一个人吗？"), normalize_question("他是 一个人 吗"));
}

#[test]
fn runs_find_shared_phrases_in_both_languages() {
    let runs = distinct_runs("The ship struck the rocks and sank", Language::En, 4);
    assert!(shares_run("then THE SHIP, struck the rocks!", Language::En, 4, &runs));
    assert!(!shares_run("the ship was fine", Language::En, 4, &runs));
    let zh = distinct_runs("儿子先用蜡烛测试是否缺氧", Language::Zh, 6);
    assert!(shares_run("他用蜡烛测试是否缺氧了", Language::Zh, 6, &zh));
    assert!(!shares_run("蜡烛很亮", Language::Zh, 6, &zh));
}

#[test]
fn truncation_keeps_short_text_and_marks_cuts() {
    assert_eq!(truncate_chars("short", 10), "short");
    let cut = truncate_chars("one two three four five six", 12);
    assert!(cut.ends_with('…') && cut.chars().count() <= 12, "{cut}");
}

#[test]
fn contrast_words_separate_near_misses_from_paraphrases() {
    let key = |s: &str| normalize_question(s);
    assert!(differ_by_contrast(&key("Was the lamp switched off?"), &key("Was the lamp switched on?")));
    assert!(differ_by_contrast(&key("Was he alone?"), &key("Was he with someone?")));
    assert!(differ_by_contrast(&key("Did she die?"), &key("Didn't she die?")));
    assert!(differ_by_contrast(&key("他死了吗"), &key("他没死吗")));
    assert!(!differ_by_contrast(&key("Was she afraid?"), &key("Was she scared?")));
    assert!(!differ_by_contrast(&key("Is the ship important?"), &key("Does the ship matter?")));
}

#[test]
fn the_form_tells_questions_from_guesses_where_it_is_clear() {
    use super::{Form, form_of};
    let questions = [
        "Was the man related to Ana?",
        "was he alone",
        "Did she know him before",
        "Is it about money.",
        "他是不是她的父亲",
        "她认识那个老人吗",
        "这和钱有关？",
        "Why did she hold up her own name",
    ];
    for q in questions {
        assert_eq!(form_of(q), Some(Form::Question), "{q}");
    }
    let guesses = [
        "Her birth father had never seen her face, so she held up her own name for him to find her.",
        "I think the old man was her father and they had never met",
        "The man was a lighthouse keeper. He turned off the light and a ship sank because of it.",
        "我猜老人是她的亲生父亲",
        "她是被收养的，因为亲生父亲从没见过她的样子，所以她举着自己的名字等他。",
    ];
    for g in guesses {
        assert_eq!(form_of(g), Some(Form::Guess), "{g}");
    }
    for open in ["He was alone", "money", "她的父亲", "The sign", ""] {
        assert_eq!(form_of(open), None, "{open}");
    }
}
