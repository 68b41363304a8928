//! Werewolf on Discord, a whole game through the fake: three humans (the
//! werewolf, the Doctor, the Seer) and three AI villagers. Roles come
//! privately (an ephemeral follow-up to the host, DMs to the others);
//! night moves are answered privately and leave one neutral line in the
//! thread; a night kill, the Seer's check, a debate with the AI seats
//! bidding for the floor, a tied vote and its run-off, a restart in the
//! middle of the second night, the Doctor's save, and the end with every
//! role, night action and vote.

use echoes::bot::instant::InstantModel;
use echoes::core::werewolf::Role;
use echoes::discord::fake::{APP, CHANNEL, Call, Opt, Who};

use super::{Rig, WAIT, is_private, rules};
use crate::engine::ManualClock;
use crate::werewolf::seed_for;

/// AI seats debate with one harmless line; on day 1 they vote for seat 6,
/// on day 2 for seat 1.
pub fn seat_model() -> InstantModel {
    rules().with_others(&[
        ("Day 1, the vote", r#"{"beliefs": [{"seat": 6, "belief": "too sure of herself"}], "target": 6}"#),
        ("Day 2, the vote", r#"{"beliefs": [], "target": 1}"#),
        ("the debate", r#"{"beliefs": [], "urgency": 1, "speech": "I keep my eyes open."}"#),
    ])
}

fn texts(calls: &[Call]) -> String {
    calls.iter().map(Call::text).collect::<Vec<_>>().join("\n---\n")
}

/// The follow-up to interaction `id` that says `needle`, asserted private.
async fn told(rig: &Rig, id: u64, needle: &str) -> String {
    let path = format!("/webhooks/{APP}/tok{id}");
    let call = rig.fake.wait_for(|c| c.method == "POST" && c.path == path && c.text().contains(needle), WAIT).await;
    let call = call.unwrap_or_else(|_| {
        let answers: Vec<Call> =
            rig.fake.calls().into_iter().filter(|c| c.path.contains(&format!("tok{id}"))).collect();
        panic!("{needle:?} in a follow-up to {id}: {}", texts(&answers))
    });
    assert!(is_private(&call), "{needle:?} is ephemeral: {:?}", call.body);
    call.text()
}

/// Whether a call shows text in the thread: a post there, or a public
/// answer to a command (a follow-up that is not ephemeral).
fn in_thread(call: &Call, thread: u64) -> bool {
    let channel = format!("/channels/{thread}/messages");
    call.method == "POST" && (call.path == channel || (call.path.starts_with("/webhooks/") && !is_private(call)))
}

/// Waits until the thread shows `needle`.
async fn posted(rig: &Rig, thread: u64, needle: &str) -> String {
    let call = rig.fake.wait_for(|c| in_thread(c, thread) && c.text().contains(needle), WAIT).await;
    call.unwrap_or_else(|_| panic!("{needle:?} in the thread: {}", texts(&rig.fake.calls()))).text()
}

/// Waits until the thread has shown `needle` `n` times.
async fn posted_n(rig: &Rig, thread: u64, needle: &str, n: usize) {
    let found = rig.fake.wait_for_count(|c| in_thread(c, thread) && c.text().contains(needle), n, WAIT).await;
    found.unwrap_or_else(|_| panic!("{needle:?} {n} times in the thread: {}", texts(&rig.fake.calls())));
}

/// Everything the thread showed since call `from`.
fn shown_since(rig: &Rig, thread: u64, from: usize) -> String {
    let calls: Vec<Call> = rig.fake.calls_since(from).into_iter().filter(|c| in_thread(c, thread)).collect();
    texts(&calls)
}

async fn verb(rig: &Rig, thread: u64, who: &Who, path: &[&str], options: &[Opt]) -> u64 {
    rig.fake.slash(thread, who, "werewolf", path, options).unwrap()
}

fn seat(n: &str) -> Vec<Opt> {
    vec![Opt::Text("seat", n.into())]
}

#[tokio::test]
async fn werewolf_plays_on_discord_with_ai_seats_a_runoff_a_save_and_a_restart_at_night() {
    use Role::*;
    let seed = seed_for(&[Werewolf, Villager, Villager, Villager, Doctor, Seer]);
    let clock = ManualClock::starting_at(9_000_000);
    let mut rig = Rig::with_tables(seat_model(), clock.clone()).await;
    let (alice, bob, carol) = (Who::player(401, "Alice"), Who::player(402, "Bob"), Who::player(403, "Carol"));

    let before = rig.fake.threads().len();
    let start = [Opt::Int("ai_seats", 3), Opt::Int("seed", seed as i64)];
    let id = rig.fake.slash(CHANNEL, &alice, "werewolf", &["start"], &start).unwrap();
    assert!(rig.reply_to(id).await.text().contains("lobby is open"));
    let thread = rig.fake.threads()[before];
    for who in [&bob, &carol] {
        let id = verb(&rig, thread, who, &["join"], &[]).await;
        rig.reply_to(id).await;
    }
    let id = verb(&rig, thread, &bob, &["status"], &[]).await;
    let lobby = rig.reply_to(id).await.text();
    assert!(lobby.contains("6/12 seats") && lobby.contains("#2 AI 1 🤖") && lobby.contains("#6 Carol"), "{lobby}");

    // The roles, privately: the host's as an ephemeral follow-up, DMs to Bob and Carol.
    let from = rig.fake.call_count();
    let id = verb(&rig, thread, &alice, &["begin"], &[]).await;
    let hers = told(&rig, id, "Your role: **Werewolf**").await;
    assert!(hers.contains("You are #1 Alice"), "{hers}");
    told(&rig, id, "The werewolves: #1 Alice").await;
    rig.fake.wait_for(|c| c.text().contains("Your role: **Seer**"), WAIT).await.unwrap();
    let to_bob = texts(&rig.fake.dms_to(bob.id, from));
    assert!(to_bob.contains("Your role: **Doctor**") && to_bob.contains("`protect <seat>`"), "{to_bob}");
    assert!(!to_bob.contains("Seer**") && !to_bob.contains("werewolves:"), "{to_bob}");
    assert!(texts(&rig.fake.dms_to(carol.id, from)).contains("Your role: **Seer**"));
    let opening = posted(&rig, thread, "Night 1").await;
    assert!(opening.contains("Werewolf ×1") && opening.contains("⏳ <t:9090:R>"), "{opening}");

    // Night 1: Alice kills AI 1, Carol checks Alice, Bob protects Carol.
    let id = verb(&rig, thread, &alice, &["kill"], &seat("2")).await;
    told(&rig, id, "#1 Alice wants #2 AI 1 🤖").await;
    told(&rig, id, "The pack's choice: #2 AI 1 🤖").await;
    posted(&rig, thread, "The night goes on").await;
    let id = verb(&rig, thread, &carol, &["check"], &seat("Alice")).await;
    told(&rig, id, "#1 Alice is **a werewolf**").await;
    let refused = verb(&rig, thread, &alice, &["protect"], &seat("3")).await;
    assert!(rig.reply_to(refused).await.text().contains("not yours to do"));
    let id = verb(&rig, thread, &bob, &["protect"], &seat("6")).await;
    told(&rig, id, "you protect #6 Carol").await;
    let dawn = posted(&rig, thread, "Day 1.").await;
    assert!(dawn.contains("#2 AI 1 🤖 died in the night") && dawn.contains("Debate"), "the night kill: {dawn}");

    // The debate: the AI seats bid and speak; the humans pass.
    posted(&rig, thread, "#3 AI 2 🤖: “I keep my eyes open.”").await;
    for who in [&alice, &bob, &carol] {
        let id = verb(&rig, thread, who, &["pass"], &[]).await;
        rig.replies_to(id, 1).await;
    }
    let ballot = posted(&rig, thread, "Vote now").await;
    assert!(!ballot.contains("Werewolf") && !ballot.contains("Seer"), "{ballot}");

    // The AI seats vote for Carol, Bob and Carol for Alice, Alice for Bob: a tie.
    rig.fake.wait_for(|c| c.text().contains("2/5 have voted"), WAIT).await.unwrap();
    for (who, target) in [(&bob, "1"), (&carol, "1"), (&alice, "5")] {
        let id = rig.fake.slash(thread, who, "werewolf", &["vote"], &[Opt::Text("choice", target.into())]).unwrap();
        told(&rig, id, "Your vote for").await;
    }
    let runoff = posted(&rig, thread, "Run-off between").await;
    assert!(runoff.contains("Equal votes for #1 Alice, #6 Carol"), "{runoff}");
    // The run-off: the AI seats for Carol again, and Alice; Bob and Carol for Alice.
    rig.fake.wait_for_count(|c| c.text().contains("2/5 have voted"), 2, WAIT).await.unwrap();
    for (who, target) in [(&alice, "6"), (&bob, "1"), (&carol, "1")] {
        let id = rig.fake.slash(thread, who, "werewolf", &["vote"], &[Opt::Text("choice", target.into())]).unwrap();
        told(&rig, id, "Your vote for").await;
    }
    let exiled = posted(&rig, thread, "#6 Carol is exiled").await;
    assert!(exiled.contains("They were the **Seer**") && exiled.contains("Night 2"), "{exiled}");

    // Night 2 (half a minute later: each player's commands are rate-limited
    // per 30 s): Alice goes for Bob; the bot restarts; Bob protects himself.
    clock.advance_to(9_031_000);
    let id = verb(&rig, thread, &alice, &["kill"], &seat("Bob")).await;
    told(&rig, id, "The pack's choice: #5 Bob").await;
    rig.restart().await;
    let id = verb(&rig, thread, &bob, &["protect"], &seat("6")).await;
    assert!(rig.reply_to(id).await.text().contains("Not a seat you can choose"), "Carol is out");
    let id = verb(&rig, thread, &bob, &["protect"], &seat("5")).await;
    told(&rig, id, "you protect #5 Bob").await;
    let dawn = posted(&rig, thread, "Day 2.").await;
    assert!(dawn.contains("No one died in the night"), "the Doctor's save: {dawn}");

    // Day 2: everyone done talking; the AI seats and Bob exile Alice.
    for who in [&alice, &bob] {
        let id = verb(&rig, thread, who, &["pass"], &[]).await;
        rig.replies_to(id, 1).await;
    }
    posted_n(&rig, thread, "Vote now", 2).await;
    let from = rig.fake.call_count();
    for (who, target) in [(&bob, "1"), (&alice, "5")] {
        let id = rig.fake.slash(thread, who, "werewolf", &["vote"], &[Opt::Text("choice", target.into())]).unwrap();
        told(&rig, id, "Your vote for").await;
    }
    posted(&rig, thread, "The villagers win").await;
    posted(&rig, thread, "Day 2 votes:").await;
    let end = shown_since(&rig, thread, from);
    assert!(end.contains("#1 Alice is exiled") && end.contains("They were the **Werewolf**"), "{end}");
    for line in ["#1 Alice · Werewolf · out", "#5 Bob · Doctor", "#6 Carol · Seer · out", "#3 AI 2 🤖 · Villager"]
    {
        assert!(end.contains(line), "{line:?} in {end}");
    }
    for line in [
        "the werewolves (#1 Alice → #2 AI 1 🤖) chose #2 AI 1 🤖",
        "the Seer checked #1 Alice: a werewolf",
        "the Doctor protected #5 Bob",
        "Day 1, run-off:",
        "Day 2 votes:",
    ] {
        assert!(end.contains(line), "{line:?} in {end}");
    }
}
