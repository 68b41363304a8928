//! The engine under many games, exercised end to end by the test game
//! (`game.rs`): a lobby, a private message per seat, one secret vote with a
//! deadline, an AI seat moving from its own view, a restart between the
//! vote and its deadline, and a redelivered vote. Time is a manual clock:
//! deadlines pass when the test says so, never by sleeping.

mod crash;
pub mod game;
mod ops;
mod outage;
mod processes;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use echoes::core::actor::{Courier, Delivery, Engine, Inbound, SessionHandle};
use echoes::core::game::{Audience, Game, ReplyKind, TurnInput};
use echoes::core::llm::RoleModels;
use echoes::core::services::{Pipeline, PipelineSettings};
use echoes::core::store::Clock;
use echoes::core::vocab::Player;
use echoes::llm::ScriptedLlm;
use echoes::store::SqlStore;
use tokio::sync::{Notify, watch};

use game::{BallotGame, PHRASES};

/// Time moves only when the test advances it; deadlines wait on it.
pub struct ManualClock(watch::Sender<i64>);

impl ManualClock {
    pub fn starting_at(ms: i64) -> Arc<ManualClock> {
        Arc::new(ManualClock(watch::channel(ms).0))
    }

    pub fn advance_to(&self, ms: i64) {
        self.0.send_modify(|now| *now = ms);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> i64 {
        *self.0.borrow()
    }

    fn sleep_until(&self, at_ms: i64) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + '_>> {
        let mut now = self.0.subscribe();
        Box::pin(async move {
            while *now.borrow_and_update() < at_ms {
                if now.changed().await.is_err() {
                    return;
                }
            }
        })
    }
}

/// How a test courier reopens a session (as a bot resumes its thread).
type Reopen = Box<dyn Fn(String) + Send + Sync>;

/// Collects what the engine delivers on its own (timers, agents, inputs
/// handed over by another process), and reopens a session when asked.
#[derive(Default)]
struct Inbox {
    got: Mutex<Vec<Delivery>>,
    arrived: Notify,
    reopen: Mutex<Option<Reopen>>,
}

impl Courier for Inbox {
    fn deliver(&self, _session_id: &str, delivery: Delivery) {
        self.got.lock().unwrap().push(delivery);
        self.arrived.notify_waiters();
    }

    fn reopen(&self, session_id: &str) {
        if let Some(reopen) = self.reopen.lock().unwrap().as_ref() {
            reopen(session_id.to_string());
        }
    }
}

impl Inbox {
    /// Waits (at most 10 s of real time, a safety net) for a delivery
    /// that matches.
    async fn wait_for(&self, what: impl Fn(&Delivery) -> bool) -> Delivery {
        let wait = async {
            loop {
                let notified = self.arrived.notified();
                if let Some(d) = self.got.lock().unwrap().iter().find(|d| what(d)) {
                    return d.clone();
                }
                notified.await;
            }
        };
        tokio::time::timeout(Duration::from_secs(10), wait).await.expect("the engine delivered in time")
    }
}

struct Rig {
    engine: Arc<Engine>,
    inbox: Arc<Inbox>,
    agent: Arc<ScriptedLlm>,
}

async fn rig(store: SqlStore, clock: Arc<ManualClock>, agent_says: &str) -> Rig {
    rig_of(store, clock, agent_says, None).await
}

/// A rig whose engine holds leases under `owner` (one "process" of several).
async fn rig_of(store: SqlStore, clock: Arc<ManualClock>, agent_says: &str, owner: Option<&str>) -> Rig {
    let agent = Arc::new(ScriptedLlm::new([agent_says.into()]).cycling());
    let models = RoleModels { judge: agent.clone(), narrator: agent.clone() };
    let prompts = Arc::new(echoes::assets::load_prompts(None).unwrap());
    let pipeline = Pipeline::new(models, prompts, PipelineSettings::default());
    let mut engine = Engine::new(pipeline, Arc::new(store), clock, 0);
    if let Some(owner) = owner {
        engine = engine.owned_by(owner);
    }
    let engine = Arc::new(engine);
    let inbox = Arc::new(Inbox::default());
    engine.set_courier(inbox.clone());
    Rig { engine, inbox, agent }
}

fn who(id: &str) -> Player {
    Player { id: format!("t:{id}"), name: id.to_string() }
}

async fn send(h: &SessionHandle, player: &Player, input: TurnInput, event: &str) -> Delivery {
    h.send(Inbound::new(player.clone(), input).with_event(event)).await.unwrap()
}

async fn stored_game(engine: &Engine, id: &str) -> BallotGame {
    engine.store.load_session(id).await.unwrap().unwrap().game().unwrap()
}

#[tokio::test]
async fn a_lobby_deals_private_secrets_and_a_secret_vote_reveals_at_once() {
    let clock = ManualClock::starting_at(1_000);
    let rig = rig(SqlStore::in_memory().await.unwrap(), clock.clone(), "t:bob").await;
    let (alice, bob, carol) = (who("alice"), who("bob"), who("carol"));
    let h = game::open_lobby(&rig.engine, &alice).await.unwrap();

    let joined = send(&h, &bob, TurnInput::Join, "j1").await;
    assert_eq!(joined.reply.kind, ReplyKind::Lobby);
    let early = send(&h, &alice, TurnInput::Begin, "b0").await;
    assert_eq!(early.reply.kind, ReplyKind::Rejected, "two seats are too few: {}", early.reply.text);
    send(&h, &bob, TurnInput::AddAi, "ai1").await;
    let not_host = send(&h, &bob, TurnInput::Begin, "b1").await;
    assert_eq!(not_host.reply.kind, ReplyKind::Rejected, "only the host or a moderator starts");

    let begun = send(&h, &alice, TurnInput::Begin, "b2").await;
    assert_eq!(begun.reply.kind, ReplyKind::Ballot);
    let game = stored_game(&rig.engine, &h.id).await;
    assert_eq!(game.seats.len(), 3);
    // One private message per seat, each with that seat's phrase only.
    assert_eq!(begun.messages.len(), 3);
    for (seat, phrase) in game.seats.seats.iter().zip(PHRASES) {
        let m = begun.messages.iter().find(|m| m.audience == Audience::Seat(seat.player.id.clone())).unwrap();
        assert!(m.reply.text.contains(phrase), "{} gets {phrase}: {}", seat.player.id, m.reply.text);
        assert!(m.outbox_id.is_some(), "committed as an outbox row");
        for other in PHRASES.iter().filter(|p| **p != phrase) {
            assert!(!m.reply.text.contains(other));
        }
    }
    assert!(PHRASES.iter().all(|p| !begun.reply.text.contains(p)), "the public reply names no phrase");

    // The AI seat votes on its own, from its own view.
    let ai_vote = rig.inbox.wait_for(|d| d.reply.kind == ReplyKind::Ballot).await;
    assert_eq!(ai_vote.reply.text, "1/3 have voted.");
    let prompts: Vec<String> =
        rig.agent.requests().iter().map(|r| r.messages.iter().map(|m| m.content.clone()).collect()).collect();
    assert_eq!(prompts.len(), 1, "one agent move");
    assert!(prompts[0].contains(PHRASES[2]), "the AI seat knows its own phrase");
    assert!(!prompts[0].contains(PHRASES[0]) && !prompts[0].contains(PHRASES[1]), "and nobody else's");

    let stranger = send(&h, &carol, TurnInput::Vote("t:alice".into()), "v0").await;
    assert_eq!(stranger.reply.kind, ReplyKind::Rejected, "no seat, no vote");

    let alice_votes = send(&h, &alice, TurnInput::Vote("t:bob".into()), "v1").await;
    assert_eq!(alice_votes.reply.text, "2/3 have voted.");
    assert!(!alice_votes.reply.text.contains("bob"), "a vote stays secret until the reveal");
    assert_eq!(alice_votes.messages[0].audience, Audience::Seat("t:alice".into()));
    let again = send(&h, &alice, TurnInput::Vote("ai:1".into()), "v2").await;
    assert_eq!(again.reply.text, "2/3 have voted.", "a changed vote replaces the earlier one");

    let redelivered = send(&h, &alice, TurnInput::Vote("t:bob".into()), "v1").await;
    assert!(redelivered.duplicate, "the same event is answered once");
    let game = stored_game(&rig.engine, &h.id).await;
    assert_eq!(game.ballot.as_ref().unwrap().cast_count(), 2);

    let last = send(&h, &bob, TurnInput::Vote("t:alice".into()), "v3").await;
    assert_eq!(last.reply.kind, ReplyKind::Ended);
    assert!(last.over);
    assert!(last.reply.text.contains("alice → AI 1"), "every vote is revealed at once: {}", last.reply.text);
    let game = stored_game(&rig.engine, &h.id).await;
    assert!(game.is_over());
}

#[tokio::test]
async fn private_messages_stay_private_in_the_outbox() {
    let clock = ManualClock::starting_at(1_000);
    let rig = rig(SqlStore::in_memory().await.unwrap(), clock, "?").await;
    let (alice, bob, carol) = (who("alice"), who("bob"), who("carol"));
    let h = game::open_lobby(&rig.engine, &alice).await.unwrap();
    send(&h, &bob, TurnInput::Join, "j1").await;
    send(&h, &carol, TurnInput::Join, "j2").await;
    send(&h, &alice, TurnInput::Begin, "b").await;
    let unsent = rig.engine.store.unsent(&h.id).await.unwrap();
    let private: Vec<_> = unsent.iter().filter(|i| i.audience.is_private()).collect();
    assert_eq!(private.len(), 3);
    for item in private {
        let Audience::Seat(seat) = &item.audience else { panic!("a seat's message") };
        let n = ["t:alice", "t:bob", "t:carol"].iter().position(|s| s == seat).unwrap();
        assert!(item.body.contains(PHRASES[n]));
    }
    for item in unsent.iter().filter(|i| i.audience == Audience::Everyone) {
        assert!(PHRASES.iter().all(|p| !item.body.contains(p)), "a public row names no phrase: {}", item.body);
    }
    let whisper = send(&h, &bob, TurnInput::Whisper, "w1").await;
    assert_eq!(whisper.messages[0].audience, Audience::Seat("t:bob".into()));
    assert!(whisper.messages[0].reply.text.contains(PHRASES[1]));
    assert!(!whisper.reply.text.contains(PHRASES[1]), "the public acknowledgement does not carry it");
}

#[tokio::test]
async fn the_deadline_closes_the_vote_after_a_restart_and_fires_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("echoes.db");
    let clock = ManualClock::starting_at(1_000);
    let (alice, bob, carol) = (who("alice"), who("bob"), who("carol"));
    let session = {
        let rig = rig(SqlStore::open(&path).await.unwrap(), clock.clone(), "?").await;
        let h = game::open_lobby(&rig.engine, &alice).await.unwrap();
        send(&h, &bob, TurnInput::Join, "j1").await;
        send(&h, &carol, TurnInput::Join, "j2").await;
        send(&h, &alice, TurnInput::Begin, "b").await;
        send(&h, &alice, TurnInput::Vote("t:carol".into()), "v-alice").await;
        h.id.clone()
        // The process "dies" here: the engine and its actor are dropped
        // between the vote and the deadline.
    };
    clock.advance_to(20_000);
    let rig = rig(SqlStore::open(&path).await.unwrap(), clock.clone(), "?").await;
    let pending = rig.engine.store.pending_deadlines().await.unwrap();
    assert_eq!(pending, vec![(session.clone(), 46_000)], "the deadline survived the restart");
    let h = game::resume(&rig.engine, &session).await;
    let redelivered = send(&h, &alice, TurnInput::Vote("t:carol".into()), "v-alice").await;
    assert!(redelivered.duplicate, "a vote redelivered after the restart counts once");
    send(&h, &bob, TurnInput::Vote("t:alice".into()), "v-bob").await;
    assert!(rig.inbox.got.lock().unwrap().is_empty(), "nothing fires before the deadline");

    clock.advance_to(46_000);
    let reveal = rig.inbox.wait_for(|d| d.reply.kind == ReplyKind::Ended).await;
    assert!(reveal.over);
    assert!(reveal.reply.text.contains("carol did not vote"), "{}", reveal.reply.text);
    assert!(reveal.reply.text.contains("alice → carol") && reveal.reply.text.contains("bob → alice"));
    assert!(rig.engine.store.pending_deadlines().await.unwrap().is_empty(), "no deadline after the reveal");

    // The timer's event again (a second process, a late wake-up): once only.
    let timer = Inbound::new(echoes::core::actor::engine_player(), TurnInput::Timer("vote:1".into()))
        .with_event("timer:vote:1:46000");
    assert!(h.send(timer).await.unwrap().duplicate);
    let turns = rig.engine.store.load_session(&session).await.unwrap().unwrap().turns;
    assert_eq!(turns.iter().filter(|t| t.kind == "timer").count(), 1);
}

#[tokio::test]
async fn the_terminal_prints_only_what_the_human_may_read() {
    use echoes::console::table::{TableVerbs, TerminalCourier, play_lines, show};
    let verbs = TableVerbs::new(
        echoes::core::catalogue::Catalogue::parse(game::CATALOGUE).unwrap(),
        "ballot",
        echoes::core::vocab::Language::En,
    );
    let clock = ManualClock::starting_at(1_000);
    let agent = Arc::new(ScriptedLlm::new(["?".into()]).cycling());
    let models = RoleModels { judge: agent.clone(), narrator: agent };
    let prompts = Arc::new(echoes::assets::load_prompts(None).unwrap());
    let pipeline = Pipeline::new(models, prompts, PipelineSettings::default());
    let store = SqlStore::in_memory().await.unwrap();
    let engine = Arc::new(Engine::new(pipeline, Arc::new(store), clock, 0));
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    engine.set_courier(Arc::new(TerminalCourier(tx)));
    let ann = Player { id: "console:ann".into(), name: "Ann".into() };
    let h = game::open_lobby(&engine, &ann).await.unwrap();

    let mut printed = Vec::new();
    let lines = ["/add-ai", "/add-ai", "/begin", "/whisper", "/dance", "/vote ai:1"].map(String::from);
    let mut over = play_lines(&verbs, &h, &ann, lines, &mut rx, &mut |t| printed.push(t.to_string())).await.unwrap();
    while !over {
        let got = tokio::time::timeout(Duration::from_secs(10), rx.recv()).await;
        let delivery = got.unwrap_or_else(|_| panic!("the game did not end; printed: {printed:#?}")).unwrap();
        over = show(&h, &ann, &delivery, &mut |t| printed.push(t.to_string())).await.unwrap();
    }
    let all = printed.join("\n");
    assert!(all.contains(PHRASES[0]), "Ann reads her own phrase: {all}");
    assert!(!all.contains(PHRASES[1]) && !all.contains(PHRASES[2]), "and never an AI seat's: {all}");
    assert!(all.contains("Unknown command /dance"));
    assert!(all.contains("Ann → AI 1"), "the reveal: {all}");
}
