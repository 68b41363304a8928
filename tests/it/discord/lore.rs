//! The Lore RPG on Discord through the fake with a rule-based model:
//! `/rpg start world:`, plain thread messages as actions (the steps shown
//! in one message edited as the turn goes, then removed), `/rpg say` to an
//! NPC, a disqualified action, a restart, a corrected reply won by another
//! player, the scores, and the end (refused to a non-host, then shown with
//! the world's secrets).

use echoes::bot::instant::InstantModel;
use echoes::discord::fake::{CHANNEL, Call, Opt, Who};

use super::{Rig, WAIT};
use crate::engine::ManualClock;
use crate::lore::{lore_rules, rule_refs};

fn lore_model() -> InstantModel {
    InstantModel::new(&[]).with_others(&rule_refs(&lore_rules("Ana")))
}

#[tokio::test]
async fn a_lore_rpg_session_plays_on_discord_by_messages_and_verbs_across_a_restart() {
    let clock = ManualClock::starting_at(9_000_000);
    let mut rig = Rig::with_tables(lore_model(), clock.clone()).await;
    let (ana, bo) = (Who::player(501, "Ana"), Who::player(502, "Bo"));

    let before = rig.fake.threads().len();
    let id = rig.fake.slash(CHANNEL, &ana, "rpg", &["start"], &[Opt::Text("world", "hollowtide".into())]).unwrap();
    rig.reply_to(id).await;
    let thread = rig.fake.threads()[before];
    rig.fake.wait_for(|c| c.text().contains("📜 **Hollowtide**"), WAIT).await.unwrap();

    // A plain message is an action; its steps show in one message, edited
    // as the turn goes and removed when the reply is posted.
    let from = rig.fake.call_count();
    rig.fake.say(thread, &ana, "I walk down to the Crescent Harbour.").unwrap();
    rig.fake.wait_for(|c| c.text().contains("**Game master**: Salt wind"), WAIT).await.unwrap();
    let calls = rig.fake.calls_since(from);
    let in_thread = |c: &&Call| c.path.starts_with(&format!("/channels/{thread}/messages"));
    assert!(
        calls.iter().filter(in_thread).any(|c| c.text().starts_with("⏳ ") && c.text().ends_with("…")),
        "a step was shown: {calls:#?}"
    );
    let removed = calls.iter().filter(in_thread).any(|c| c.method == "DELETE");
    assert!(removed, "the step message is removed after the reply");

    let id = rig
        .fake
        .slash(
            thread,
            &ana,
            "rpg",
            &["say"],
            &[Opt::Text("npc", "Tamsin".into()), Opt::Text("text", "Who lit the lamp tonight?".into())],
        )
        .unwrap();
    assert!(rig.reply_to(id).await.text().contains("**Tamsin Rook**: *trims the wick*"));

    rig.fake.say(thread, &ana, "I fly over the Landgate to Gull Head.").unwrap();
    let lost = rig.fake.wait_for(|c| c.text().contains("Ana loses this turn"), WAIT).await.unwrap();
    assert!(lost.text().contains("Try instead: Cross the Long Stones"), "{}", lost.text());

    rig.restart().await;
    rig.fake.say(thread, &bo, "I look up at the Gull Lamp.").unwrap();
    let won = rig.fake.wait_for(|c| c.text().contains("Bo wins this turn"), WAIT).await.unwrap();
    assert!(won.text().contains("No dragon: only gulls") && !won.text().contains("A dragon circles"), "{}", won.text());

    let id = rig.fake.slash(thread, &bo, "rpg", &["scores"], &[]).unwrap();
    let scores = rig.reply_to(id).await.text();
    assert!(scores.contains("Bo · 1 won · 0 lost") && scores.contains("Ana · 0 won · 1 lost"), "{scores}");
    let id = rig.fake.slash(thread, &bo, "rpg", &["recap"], &[]).unwrap();
    assert!(rig.reply_to(id).await.text().contains("I look up at the Gull Lamp"));

    let id = rig.fake.slash(thread, &bo, "rpg", &["end"], &[]).unwrap();
    assert!(rig.reply_to(id).await.text().contains("Only the host or a moderator"));
    let id = rig.fake.slash(thread, &ana, "rpg", &["end"], &[]).unwrap();
    let end = rig.reply_to(id).await.text();
    assert!(end.contains("has ended") && end.contains("What the game master knew:"), "{end}");
    // The thread no longer plays: a message there gets no answer.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let from = rig.fake.call_count();
    rig.fake.say(thread, &ana, "I walk on.").unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(rig.posts_in(thread, from).is_empty());
}

const SERVER_WORLD: &str = r#"
id = "gullrock"
language = "en"
title = "Gullrock"
premise = "A fishing rock with one lamp and a keeper called Mira Vell."
opening = "Fog over Gullrock. The lamp turns. Where do you go?"
rules = ["Nobody can fly."]

[[passage]]
id = "lamp"
title = "The Lamp"
kind = "place"
visibility = "public"
text = "The lamp on Gullrock is a tall stone tower with a brass lens that turns all night, tended by one keeper who climbs ninety steps every dusk."

[[passage]]
id = "mira"
title = "Mira Vell"
kind = "person"
visibility = "public"
text = "Mira Vell is the keeper of the lamp, a wiry woman of fifty who speaks in short sentences and trusts nobody from the mainland."

[[passage]]
id = "gm-wreck"
title = "The Drowned Captain"
kind = "history"
visibility = "gm"
text = "GM ONLY. Mira Vell darkened the lamp on purpose the night the Saltmoth struck the rock, for the Ninefold Debt."

[[npc]]
id = "mira"
name = "Mira Vell"
passages = ["mira", "lamp"]
gm_passages = ["gm-wreck"]
"#;

#[tokio::test]
async fn a_moderator_adds_a_world_for_the_server_and_a_session_plays_in_it() {
    let clock = ManualClock::starting_at(9_000_000);
    let rig = Rig::with_tables(lore_model(), clock).await;
    let (moderator, player) = (Who::moderator(601, "Mo"), Who::player(602, "Pia"));
    let file = rig.fake.host_file("gullrock.toml", SERVER_WORLD.as_bytes().to_vec());
    let id = rig.fake.slash(CHANNEL, &player, "rpg", &["worlds", "add"], std::slice::from_ref(&file)).unwrap();
    assert!(rig.reply_to(id).await.text().contains("moderator"), "only moderators add worlds");
    let id = rig.fake.slash(CHANNEL, &moderator, "rpg", &["worlds", "add"], &[file]).unwrap();
    let added = rig.reply_to(id).await.text();
    assert!(added.contains("gullrock") && added.contains("Gullrock (en)"), "{added}");
    let id = rig.fake.slash(CHANNEL, &moderator, "rpg", &["worlds", "list"], &[]).unwrap();
    assert!(rig.reply_to(id).await.text().contains("gullrock"));

    let before = rig.fake.threads().len();
    let id = rig.fake.slash(CHANNEL, &player, "rpg", &["start"], &[Opt::Text("world", "gullrock".into())]).unwrap();
    rig.reply_to(id).await;
    let thread = rig.fake.threads()[before];
    rig.fake.wait_for(|c| c.text().contains("📜 **Gullrock**") && c.text().contains("Mira Vell"), WAIT).await.unwrap();
    rig.fake.say(thread, &player, "I climb the tower.").unwrap();
    rig.fake.wait_for(|c| c.text().contains("**Game master**: Salt wind"), WAIT).await.unwrap();
}
