use super::*;
use crate::core::fixtures::puzzle;

fn prompts() -> Prompts {
    crate::assets::load_prompts(None).expect("embedded prompts")
}

fn history() -> Vec<PublicTurn> {
    vec![PublicTurn { player: "Alice".into(), text: "Was anyone at sea?".into(), outcome: "YES".into() }]
}

#[test]
fn judge_prompts_render() {
    let p = puzzle();
    let h = history();
    let view = JudgeView {
        public: PublicView::of(&p, &h),
        bottom: &p.bottom,
        facts: &p.facts,
        passages: &[],
        canary: "CANARY-test",
    };
    let prompts = prompts();
    insta::assert_snapshot!("judge_system_auto", prompts.judge_system(&view, JudgeMode::Auto).unwrap());
    insta::assert_snapshot!("judge_system_guess", prompts.judge_system(&view, JudgeMode::Guess).unwrap());
    insta::assert_snapshot!(
        "judge_user",
        prompts.judge_user("Was his brother on the ship?", JudgeMode::Question, p.language).unwrap()
    );
}

#[test]
fn narrator_prompts_render_without_any_secret() {
    let p = puzzle();
    let h = history();
    let prompts = prompts();
    let system = prompts.narrator_system(&PublicView::of(&p, &h)).unwrap();
    let user = prompts.narrator_user("Did a ship sink?", "YES", p.language).unwrap();
    for secret in
        [p.bottom.as_str(), "brother", "drowned", "CANARY"].into_iter().chain(p.facts.iter().map(|f| f.text.as_str()))
    {
        assert!(!system.contains(secret) && !user.contains(secret), "narrator prompt holds {secret:?}");
    }
    insta::assert_snapshot!("narrator_system", system);
    insta::assert_snapshot!("narrator_user", user);
}

#[test]
fn a_prompt_set_missing_a_template_is_refused() {
    let incomplete = |sources: [(String, String); 1]| Prompts::from_sources(sources)?.requiring(TEMPLATES);
    let err = incomplete([("soup/judge.system".to_string(), "x".to_string())]).expect_err("incomplete");
    assert!(err.to_string().contains("missing"), "{err}");
    let err = incomplete([("soup/judge.system".to_string(), "{% if %}".to_string())]).expect_err("syntax");
    assert!(err.to_string().contains("does not compile"), "{err}");
}
