//! Secret Ballot on the engine: inputs become the game's events, each
//! change of state its public line and private messages, every message
//! gated for its audience; AI seats vote from their own view.

use async_trait::async_trait;
use minijinja::context;

use crate::core::game::table::{AgentMove, GameTable};
use crate::core::game::{
    Audience, Ballot, Game, Inbound, Message, Played, Points, Reply, ReplyKind, SeatView, Secret, SecretGates, Turn,
    TurnContext, TurnInput, TurnRecord,
};
use crate::core::llm::{ChatMessage, ChatRequest};
use crate::core::prompts::PublicTurn;
use crate::core::secrecy::Canary;
use crate::core::vocab::{Language, Player};

use super::{BallotGame, Event, Phase, RULES, VOTE_SECONDS};

/// The game on the engine.
pub struct BallotTable {
    pub game: BallotGame,
    history: Vec<PublicTurn>,
    canary: String,
    gates: SecretGates,
}

pub struct Next {
    game: BallotGame,
    public: Option<PublicTurn>,
}

fn gates_for(game: &BallotGame, canary: &str) -> SecretGates {
    let secrets: Vec<Secret> = game.phrases.iter().map(|(seat, p)| Secret::of_seat(seat.clone(), p.clone())).collect();
    SecretGates::new("Whom do you trust?", &secrets, Canary::parse(canary))
}

impl BallotTable {
    pub fn new(game: BallotGame, history: Vec<PublicTurn>, canary: &str) -> BallotTable {
        BallotTable { gates: gates_for(&game, canary), game, history, canary: canary.to_string() }
    }

    fn event_for(&self, inbound: &Inbound, now_ms: i64) -> Option<Event> {
        let who = inbound.player.clone();
        Some(match &inbound.input {
            TurnInput::Join => Event::Join(who),
            TurnInput::Leave => Event::Leave(who.id),
            TurnInput::AddAi => Event::AddAi,
            TurnInput::Begin => Event::Begin { by: who.id, moderator: inbound.moderator, now_ms },
            TurnInput::Vote(option) => Event::Vote { voter: who.id, option: option.clone() },
            TurnInput::Timer(tag) => Event::Close { tag: tag.clone() },
            _ => return None,
        })
    }

    /// The messages a change of state sends.
    fn messages(&self, before: &BallotGame, after: &BallotGame, who: &Player) -> (Reply, Vec<Message>) {
        let mut out = Vec::new();
        let reply = match (before.phase, after.phase) {
            (Phase::Lobby, Phase::Lobby) => Reply::new(
                ReplyKind::Lobby,
                format!("{} seats taken ({}–{}).", after.seats.len(), RULES.min, RULES.max),
            ),
            (Phase::Lobby, Phase::Voting) => {
                for (seat, phrase) in &after.phrases {
                    let text = format!("Your secret phrase: {phrase}");
                    out.push(Message::to(Audience::Seat(seat.clone()), ReplyKind::Private, text));
                }
                Reply::new(ReplyKind::Ballot, format!("Voting is open: whom do you trust? {VOTE_SECONDS} s."))
            }
            (_, Phase::Over) => Reply::new(ReplyKind::Ended, after.result.clone().unwrap_or_default()),
            _ => {
                let ballot = after.ballot.as_ref().map_or(0, Ballot::cast_count);
                out.push(Message::to(Audience::Seat(who.id.clone()), ReplyKind::Private, "Your vote is in."));
                Reply::new(ReplyKind::Ballot, format!("{ballot}/{} have voted.", after.seats.len()))
            }
        };
        (reply, out)
    }

    /// Every message passes the gate for its audience, the last turn's
    /// too.
    fn gated(&self, played: Played) -> Played {
        self.gates.gate(played, false, WITHHELD)
    }
}

/// What a message that would give a phrase away says instead.
const WITHHELD: &str = "(withheld)";

#[async_trait]
impl GameTable for BallotTable {
    type Game = BallotGame;
    type Next = Next;

    fn game(&self) -> &BallotGame {
        &self.game
    }

    fn language(&self) -> Language {
        Language::En
    }

    fn is_running(&self) -> bool {
        false
    }

    async fn play(&mut self, ctx: &TurnContext<'_>, inbound: &Inbound) -> Played {
        if inbound.input == TurnInput::Status {
            let text = format!("Secret Ballot · {} · {} seats", self.game.phase_name(), self.game.seats.len());
            return self.gated(Played::reply(Reply::new(ReplyKind::Status, text)));
        }
        if inbound.input == TurnInput::Whisper {
            let seat = &inbound.player.id;
            let Some(phrase) = self.game.phrases.get(seat) else { return Played::refused("You have no seat.") };
            let text = format!("Your secret phrase: {phrase}");
            return self.gated(Played::to_seat("Sent to you privately.", seat, text));
        }
        let Some(event) = self.event_for(inbound, ctx.now_ms) else { return Played::refused("Not in this game.") };
        let next = match self.game.apply(&event, &()) {
            Ok(next) => next,
            Err(r) => return Played::refused(format!("Refused: {r:?}")),
        };
        let (reply, messages) = self.messages(&self.game, &next, &inbound.player);
        let public =
            PublicTurn { player: inbound.player.name.clone(), text: reply.text.clone(), outcome: "move".into() };
        let points = match next.is_over() {
            true => next
                .seats
                .humans()
                .map(|s| Points { player: s.player.clone(), points: 1, solved: false, role: None })
                .collect(),
            false => Vec::new(),
        };
        let record = TurnRecord { public: Some(public.clone()), ..TurnRecord::default() };
        let choices = match (self.game.phase, next.phase, &next.ballot) {
            (Phase::Lobby, Phase::Voting, Some(ballot)) => ballot.options.clone(),
            _ => Vec::new(),
        };
        let turn = Turn { reply, messages, choices, record, points };
        match Played::moved(&next, turn, &self.gates, false, WITHHELD) {
            Ok(played) => played.adopting(Next { game: next, public: Some(public) }),
            Err(refusal) => *refusal,
        }
    }

    fn expire(&mut self, _: &TurnContext<'_>) -> Played {
        Played::refused("expired")
    }

    fn adopt(&mut self, next: Next) {
        if next.game.phrases != self.game.phrases {
            self.gates = gates_for(&next.game, &self.canary);
        }
        self.game = next.game;
        self.history.extend(next.public);
    }

    async fn agent_moves(&self, ctx: &TurnContext<'_>, seq: i64) -> Vec<AgentMove> {
        let Some(ballot) = self.game.ballot.as_ref().filter(|b| !b.closed) else { return Vec::new() };
        let mut moves = Vec::new();
        for seat in self.game.seats.agents().filter(|s| !ballot.has_voted(&s.player.id)) {
            let own: Vec<&str> = self.game.phrases.get(&seat.player.id).map(String::as_str).into_iter().collect();
            let view = SeatView::new(&seat.player, &self.history, own);
            let option = agent_vote(ctx, &view, ballot).await;
            let event_id = format!("agent:{}:{seq}", seat.player.id);
            moves.push(AgentMove {
                seat: seat.player.clone(),
                input: TurnInput::Vote(option),
                event_id,
                not_before_ms: None,
            });
        }
        moves
    }
}

/// The AI seat's choice from its own view (`prompts/ballot/`); garbage, a
/// failed call or a template that does not render falls back to the first
/// option that is not itself.
async fn agent_vote(ctx: &TurnContext<'_>, view: &SeatView<'_>, ballot: &Ballot) -> String {
    let ids: Vec<&str> = ballot.options.iter().map(|(id, _)| id.as_str()).collect();
    let prompts = &ctx.pipeline.prompts;
    let user = context! {
        name => view.seat.name, phrases => view.own.join(", "), happened => view.public_lines(12), ids => ids.join(", ")
    };
    let said = match (prompts.render("ballot/seat.system", context! {}), prompts.render("ballot/seat.user", user)) {
        (Ok(system), Ok(user)) => {
            let messages = vec![ChatMessage::system(system), ChatMessage::user(user)];
            let request = ChatRequest { messages, max_tokens: 16, temperature: 0.0, seed: None, json_schema: None };
            ctx.pipeline.models.narrator.chat(request).await.map(|r| r.text).unwrap_or_default()
        }
        (Err(e), _) | (_, Err(e)) => {
            tracing::warn!(error = %e, "a Secret Ballot prompt did not render");
            String::new()
        }
    };
    let fallback = ids.iter().find(|id| **id != view.seat.id).copied().unwrap_or_default();
    ids.iter().find(|id| said.trim() == **id).copied().unwrap_or(fallback).to_string()
}
