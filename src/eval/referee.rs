//! `echoes eval referee [WORLD]`: the Lore RPG's referee measured on the
//! worlds' own probes (`data/rpg/<id>/probes.toml`: an action and the
//! verdict a correct referee reaches). Each probe is ruled on a fresh
//! session through the real steps of a turn (retrieval, recall, the
//! referee's prompt, its parser and fallback, the planner's route); prints
//! accuracy, the confusion table (expected consistent / contradicts ×
//! ruled narrate / npc / disqualify) and the parse rate, as text and JSON;
//! and, for the probes whose action establishes something (`notes`),
//! whether the ruling's facts hold it (the facts layer keeps what the
//! referee notes, so a model that notes nothing gives the session no
//! long-range memory beyond its summary).

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::json;

use crate::core::game::TurnContext;
use crate::core::rpg::agents::Plan;
use crate::core::rpg::{LoreGame, LoreTable, World};
use crate::core::services::{Pipeline, Progress};
use crate::core::vocab::Player;

/// The columns of the confusion table.
pub const RULED: [&str; 3] = ["narrate", "npc", "disqualify"];

/// One probe, ruled.
#[derive(Debug, Clone)]
pub struct Ruled {
    pub world: String,
    pub text: String,
    /// "consistent" or "contradicts".
    pub expected: String,
    /// One of `RULED`, or "failed" when the model failed.
    pub ruled: String,
    /// Whether the referee's answer parsed (JSON or a verdict word).
    pub parsed: bool,
    /// For a probe with `notes`: whether one of the ruling's facts holds
    /// every note.
    pub noted: Option<bool>,
}

impl Ruled {
    pub fn right(&self) -> bool {
        match self.expected.as_str() {
            "contradicts" => self.ruled == "disqualify",
            _ => self.ruled == "narrate" || self.ruled == "npc",
        }
    }
}

/// Rules every probe of `worlds`, in order.
pub async fn run(pipeline: &Pipeline, worlds: &[Arc<World>]) -> Vec<Ruled> {
    let player = Player { id: "eval:referee".into(), name: "Ada".into() };
    let noop = |_: Progress| {};
    let mut out = Vec::new();
    // A small local model takes many seconds a probe: show how far it is
    // (on a terminal; nothing is drawn into a log).
    let total: usize = worlds.iter().map(|w| w.probes.len()).sum();
    let bar = indicatif::ProgressBar::new(total as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template("{msg} {pos}/{len} probes, {elapsed} (about {eta} left)")
    {
        bar.set_style(style);
    }
    for world in worlds {
        bar.set_message(format!("referee on {}", world.id));
        for (i, probe) in world.probes.iter().enumerate() {
            let game = LoreGame::new(world, &player);
            let session = format!("eval-referee-{}-{i}", world.id);
            let table = LoreTable::new(game, world.clone(), &session, &crate::core::actor::new_canary());
            let ctx = TurnContext { pipeline, now_ms: 0, progress: &noop };
            let (ruled, ruling) = match table.ruling_for(&ctx, &player.name, &probe.text).await {
                Some((ruling, plan)) => {
                    let ruled = match plan {
                        Plan::Narrate => "narrate",
                        Plan::Npc(_) => "npc",
                        Plan::Disqualify => "disqualify",
                    };
                    (ruled, ruling)
                }
                None => ("failed", None),
            };
            let noted =
                (!probe.notes.is_empty()).then(|| ruling.as_ref().is_some_and(|r| holds(&r.facts, &probe.notes)));
            let parsed = ruling.is_some();
            out.push(Ruled {
                world: world.id.clone(),
                text: probe.text.clone(),
                expected: probe.verdict.clone(),
                ruled: ruled.to_string(),
                parsed,
                noted,
            });
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    out
}

/// Whether one of `facts` (subject and text) holds every note, in any case.
pub fn holds(facts: &[(String, String)], notes: &[String]) -> bool {
    facts.iter().any(|(subject, text)| {
        let fact = format!("{subject} {text}").to_lowercase();
        notes.iter().all(|n| fact.contains(&n.to_lowercase()))
    })
}

/// The report, as text and as JSON.
pub fn report(model: &str, ruled: &[Ruled]) -> (String, serde_json::Value) {
    let pct = |a: usize, b: usize| if b == 0 { 0.0 } else { 100.0 * a as f64 / b as f64 };
    let right = ruled.iter().filter(|r| r.right()).count();
    let parsed = ruled.iter().filter(|r| r.parsed).count();
    let failed = ruled.iter().filter(|r| r.ruled == "failed").count();
    let worlds: Vec<&str> = {
        let mut w: Vec<&str> = ruled.iter().map(|r| r.world.as_str()).collect();
        w.dedup();
        w
    };
    let mut matrix: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for r in ruled {
        *matrix.entry((r.expected.as_str(), r.ruled.as_str())).or_default() += 1;
    }
    let mut text = format!(
        "referee · {model} · {} · {} probes · accuracy {right}/{} ({:.1}%) · parsed {parsed}/{} ({:.1}%){}\n",
        worlds.join(", "),
        ruled.len(),
        ruled.len(),
        pct(right, ruled.len()),
        ruled.len(),
        pct(parsed, ruled.len()),
        if failed > 0 { format!(" · model failed {failed}") } else { String::new() }
    );
    text.push_str("\nexpected \\ ruled   approve:narrate  approve:npc  disqualify\n");
    for want in ["consistent", "contradicts"] {
        let cell = |got: &str| matrix.get(&(want, got)).copied().unwrap_or(0);
        text.push_str(&format!("{want:<18} {:>15} {:>12} {:>11}\n", cell("narrate"), cell("npc"), cell("disqualify")));
    }
    for world in &worlds {
        let mine: Vec<&Ruled> = ruled.iter().filter(|r| r.world == *world).collect();
        let ok = mine.iter().filter(|r| r.right()).count();
        text.push_str(&format!("  {world}: {ok}/{} right ({:.1}%)\n", mine.len(), pct(ok, mine.len())));
    }
    let misses: Vec<String> = ruled
        .iter()
        .filter(|r| !r.right())
        .take(10)
        .map(|r| format!("  {} · expected {} · ruled {}: {}", r.world, r.expected, r.ruled, r.text))
        .collect();
    if !misses.is_empty() {
        text.push_str(&format!("first misses:\n{}\n", misses.join("\n")));
    }
    let fact_probes = ruled.iter().filter(|r| r.noted.is_some()).count();
    let noted = ruled.iter().filter(|r| r.noted == Some(true)).count();
    if fact_probes > 0 {
        text.push_str(&format!(
            "facts noted: {noted}/{fact_probes} ({:.1}%) of the probes whose action establishes something\n",
            pct(noted, fact_probes)
        ));
    }
    let json = json!({
        "model": model,
        "worlds": worlds,
        "probes": ruled.len(),
        "right": right,
        "accuracy": pct(right, ruled.len()) / 100.0,
        "parse_rate": pct(parsed, ruled.len()) / 100.0,
        "failed": failed,
        "fact_probes": fact_probes,
        "facts_noted": noted,
        "confusion": matrix.iter().map(|((e, g), n)| json!({"expected": e, "ruled": g, "count": n})).collect::<Vec<_>>(),
    });
    (text, json)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ruled(expected: &str, got: &str, parsed: bool) -> Ruled {
        Ruled { world: "w".into(), text: "t".into(), expected: expected.into(), ruled: got.into(), parsed, noted: None }
    }

    #[test]
    fn a_fact_probe_counts_when_one_fact_holds_every_note() {
        let facts = vec![("Ada's lantern-pass".to_string(), "bought from the Council".to_string())];
        assert!(holds(&facts, &["Lantern-Pass".into()]));
        assert!(holds(&facts, &["lantern-pass".into(), "council".into()]));
        assert!(!holds(&facts, &["knife".into()]));
        assert!(!holds(&[], &["knife".into()]));
        let mut all = vec![ruled("consistent", "narrate", true), ruled("consistent", "narrate", true)];
        all[0].noted = Some(true);
        all[1].noted = Some(false);
        let (text, json) = report("test", &all);
        assert_eq!((json["fact_probes"].clone(), json["facts_noted"].clone()), (2.into(), 1.into()));
        assert!(text.contains("facts noted: 1/2 (50.0%)"), "{text}");
    }

    #[test]
    fn the_report_counts_right_rulings_by_verdict() {
        let all = [
            ruled("contradicts", "disqualify", true),
            ruled("contradicts", "narrate", false),
            ruled("consistent", "npc", true),
            ruled("consistent", "disqualify", true),
        ];
        let (text, json) = report("test", &all);
        assert_eq!(json["right"], 2);
        assert_eq!(json["parse_rate"], 0.75);
        assert!(text.contains("accuracy 2/4 (50.0%)"), "{text}");
        let row: Vec<&str> = text.lines().find(|l| l.starts_with("contradicts")).unwrap().split_whitespace().collect();
        assert_eq!(row, ["contradicts", "1", "0", "1"], "{text}");
    }
}
