use super::*;

fn set(sources: &[(&str, &str)]) -> Result<Prompts, PromptError> {
    Prompts::from_sources(sources.iter().map(|(n, s)| (n.to_string(), s.to_string())))
}

#[test]
fn a_template_renders_by_name_from_any_serialisable_context() {
    let prompts = set(&[("game/hello", "Hello {{ who }}{% if loud %}!{% endif %}")]).unwrap();
    #[derive(Serialize)]
    struct Ctx<'a> {
        who: &'a str,
        loud: bool,
    }
    assert_eq!(prompts.render("game/hello", Ctx { who: "Ana", loud: true }).unwrap(), "Hello Ana!");
    assert_eq!(prompts.render("game/hello", minijinja::context! { who => "Bo" }).unwrap(), "Hello Bo");
    let missing = prompts.render("game/bye", ()).expect_err("no such template");
    assert!(missing.to_string().contains("missing"), "{missing}");
}

#[test]
fn a_broken_or_incomplete_set_is_refused_by_name() {
    let syntax = set(&[("game/a", "{% if %}")]).expect_err("syntax");
    assert!(syntax.to_string().contains("\"game/a\" does not compile"), "{syntax}");
    let incomplete = set(&[("game/a", "a")]).unwrap().requiring(["game/a", "game/b"]).expect_err("incomplete");
    assert!(incomplete.to_string().contains("\"game/b\" is missing"), "{incomplete}");
}
