//! The moves AI seats owe, each built from that seat's own view and made
//! once (a move id per seat, phase and turn): night actions, the bid for
//! the floor in the debate (Werewolf Arena's urgency 0–4: every AI seat
//! still speaking bids, the most urgent speaks, all pass when none has
//! anything to add), the day vote and the Hunter's shot. A model answer
//! that breaks a rule, would let a secret out, or is missing falls back
//! to a safe move, counted.

use crate::core::game::table::AgentMove;
use crate::core::game::{Audience, SeatView, TurnContext, TurnInput, human_pace};
use crate::core::vocab::Player;

use super::agents::{self, Ask, Asker, Bid, Potion};
use super::table::WerewolfTable;
use super::verbs::WerewolfVerb;
use super::{Phase, Task, say, seat, splitmix};

/// An AI seat's move as the table reads it: the verb, its argument, a
/// line to the pack, its notes.
fn agent(verb: &str, arg: impl Into<String>, note: Option<String>, memo: Option<String>) -> TurnInput {
    WerewolfVerb::Agent(verb.to_string(), arg.into(), note.unwrap_or_default(), memo.unwrap_or_default()).into()
}

/// A seat's own facts, owned, for its `SeatView`.
struct Own {
    player: Player,
    lines: Vec<String>,
    label: String,
}

impl Own {
    fn view<'a>(&'a self, public: &'a [crate::core::prompts::PublicTurn]) -> SeatView<'a> {
        SeatView::new(&self.player, public, self.lines.iter().map(String::as_str).collect())
    }
}

impl WerewolfTable {
    /// Every move the AI seats owe now.
    pub(super) async fn owed_moves(&self, ctx: &TurnContext<'_>, seq: i64) -> Vec<AgentMove> {
        let g = &self.game;
        let mut moves = Vec::new();
        match &g.phase {
            Phase::Night { night } => {
                for (seat, task) in g.night_tasks().into_iter().filter(|(s, _)| g.is_ai(s)) {
                    let id = format!("agent:{seat}:{task:?}:{night}");
                    if self.agents.issue(&id) {
                        let input = self.night_move(ctx, &seat, task, seq).await;
                        moves.extend(self.agent_move(ctx, &seat, input, id));
                    }
                }
            }
            Phase::Debate { day } => moves.extend(self.floor(ctx, *day).await),
            Phase::Vote { day, runoff } => {
                let stage = if *runoff { "runoff" } else { "main" };
                let voters: Vec<String> = g
                    .living()
                    .into_iter()
                    .filter(|s| g.is_ai(s) && g.ballot.as_ref().is_some_and(|b| !b.has_voted(s)))
                    .collect();
                for seat in voters {
                    let id = format!("agent:{seat}:vote:{day}:{stage}");
                    if self.agents.issue(&id) {
                        let input = self.day_vote(ctx, &seat, seq).await;
                        moves.extend(self.agent_move(ctx, &seat, input, id));
                    }
                }
            }
            Phase::Hunter { day, seat, .. } if g.is_ai(seat) => {
                let id = format!("agent:{seat}:shot:{day}");
                if self.agents.issue(&id) {
                    let input = self.shot(ctx, seat).await;
                    moves.extend(self.agent_move(ctx, seat, input, id));
                }
            }
            _ => {}
        }
        moves
    }

    fn agent_move(&self, ctx: &TurnContext<'_>, seat: &str, input: TurnInput, id: String) -> Option<AgentMove> {
        let player = self.game.seats.seat(seat)?.player.clone();
        self.agents.made();
        let not_before_ms = self.human_pace(&id, &input).map(|ms| ctx.now_ms + ms);
        Some(AgentMove { seat: player, input, event_id: id, not_before_ms })
    }

    /// In anonymous mode an AI seat takes a human's time (an instant
    /// answer would give it away): 3 s to read, about a second per five
    /// characters typed, up to 20 s, varied by the move's id.
    fn human_pace(&self, move_id: &str, input: &TurnInput) -> Option<i64> {
        let typed = match input {
            TurnInput::Verb(v) => v.arg(1).chars().count(),
            _ => 1,
        };
        self.game.rules.anonymous.then(|| human_pace(self.game.seed, move_id, typed))
    }

    /// What a seat's prompt is built from: its private lines (`seat.rs`)
    /// and name; with the public record, its whole view.
    fn own(&self, seat: &str) -> Own {
        let g = &self.game;
        let player =
            g.seats.seat(seat).map_or_else(|| Player { id: seat.into(), name: seat.into() }, |s| s.player.clone());
        Own { player, lines: seat::private_lines(g, seat), label: g.label(seat) }
    }

    /// The seat asking: its view, its notes; nothing another seat knows.
    fn asker<'a>(&'a self, own: &'a Own, view: &'a SeatView<'a>) -> Asker<'a> {
        let g = &self.game;
        Asker {
            view,
            label: &own.label,
            lang: g.language,
            seats: g.seats.len(),
            day: g.day(),
            canary: &self.canary,
            memo: g.memos.get(&own.player.id).map(String::as_str),
        }
    }

    /// `(number, label)` for each seat in `seats`.
    fn options(&self, seats: impl IntoIterator<Item = String>) -> Vec<(String, String)> {
        let g = &self.game;
        seats.into_iter().map(|s| (g.number(&s).unwrap_or(0).to_string(), g.label(&s))).collect()
    }

    /// A pick from the seed among `options`, for a move that fell back.
    fn seeded_pick(&self, seat: &str, seq: i64, options: &[(String, String)]) -> Option<String> {
        let salt = seq as u64 ^ (self.game.number(seat).unwrap_or(0) as u64).wrapping_mul(0x9E37);
        let n = options.len().max(1) as u64;
        options.get((splitmix(self.game.seed ^ salt) % n) as usize).map(|(id, _)| id.clone())
    }

    /// The choices a night task offers the seat.
    fn night_options(&self, seat: &str, task: Task) -> Vec<(String, String)> {
        let g = &self.game;
        let others = g.living().into_iter().filter(|s| s != seat);
        match task {
            Task::Kill => self.options(g.ballot.iter().flat_map(|b| b.options.iter().map(|(id, _)| id.clone()))),
            Task::Protect => {
                let last = g.last_protected().map(str::to_string);
                self.options(g.living().into_iter().filter(|s| Some(s) != last.as_ref()))
            }
            Task::Check | Task::Potion => self.options(others),
        }
    }

    async fn night_move(&self, ctx: &TurnContext<'_>, seat: &str, task: Task, seq: i64) -> TurnInput {
        let g = &self.game;
        let lang = g.language;
        let options = self.night_options(seat, task);
        let victim = g.tonight().and_then(|n| n.victim.as_deref()).map(|v| g.label(v));
        let witch_text = say::witch_victim(lang, g.day(), victim.as_deref());
        let potions = say::witch_choices(lang, !g.cure_used && victim.is_some(), !g.poison_used);
        let ask = match task {
            Task::Kill => Ask::Kill,
            Task::Check => Ask::Check,
            Task::Protect => Ask::Protect,
            Task::Potion => Ask::Potion,
        };
        let own = self.own(seat);
        let view = own.view(&self.history);
        let choice = agents::choose(ctx, &self.asker(&own, &view), ask, &options, (&witch_text, &potions)).await;
        if task == Task::Potion {
            return self.potion(choice);
        }
        let verb = match task {
            Task::Kill => "kill",
            Task::Check => "check",
            _ => "protect",
        };
        let memo = choice.as_ref().and_then(|c| c.memo.clone());
        let note = choice.as_ref().and_then(|c| c.note.clone()).filter(|n| self.may_tell_pack(seat, n));
        match choice.and_then(|c| c.target) {
            Some(target) => agent(verb, target, note, memo),
            None => {
                self.agents.fell_back();
                agent(verb, self.seeded_pick(seat, seq, &options).unwrap_or_default(), None, memo)
            }
        }
    }

    /// The Witch's answer as a move: a cure only when there is a victim and
    /// a cure, a poison only at a seat she may poison; else a pass.
    fn potion(&self, choice: Option<agents::Choice>) -> TurnInput {
        let g = &self.game;
        let Some(choice) = choice else {
            self.agents.fell_back();
            return agent("pass", "", None, None);
        };
        let victim = g.tonight().is_some_and(|n| n.victim.is_some());
        let memo = choice.memo.clone();
        match (choice.potion, choice.target) {
            (Potion::Save, _) if victim && !g.cure_used => agent("save", "", None, memo),
            (Potion::Poison, Some(target)) if !g.poison_used => agent("poison", target, None, memo),
            (Potion::None, _) if choice.clean => agent("pass", "", None, memo),
            _ => {
                self.agents.fell_back();
                agent("pass", "", None, memo)
            }
        }
    }

    /// A line to the pack passes the gate for a werewolf's eyes.
    fn may_tell_pack(&self, seat: &str, note: &str) -> bool {
        self.gate_check(&Audience::Seat(seat.to_string()), note).is_none()
    }

    async fn day_vote(&self, ctx: &TurnContext<'_>, seat: &str, seq: i64) -> TurnInput {
        let g = &self.game;
        let own = g.number(seat).unwrap_or(0).to_string();
        let options: Vec<(String, String)> =
            g.ballot.iter().flat_map(|b| b.options.iter()).filter(|(id, _)| *id != own).cloned().collect();
        let own = self.own(seat);
        let view = own.view(&self.history);
        let choice = agents::choose(ctx, &self.asker(&own, &view), Ask::Vote, &options, ("", "")).await;
        let memo = choice.as_ref().and_then(|c| c.memo.clone());
        match choice.and_then(|c| c.target) {
            Some(target) => agent("vote", target, None, memo),
            None => {
                self.agents.fell_back();
                agent("vote", self.seeded_pick(seat, seq, &options).unwrap_or_default(), None, memo)
            }
        }
    }

    /// The dead Hunter's shot: a seat it names, or no shot.
    async fn shot(&self, ctx: &TurnContext<'_>, seat: &str) -> TurnInput {
        let options = self.options(self.game.living());
        let own = self.own(seat);
        let view = own.view(&self.history);
        let choice = agents::choose(ctx, &self.asker(&own, &view), Ask::Shoot, &options, ("", "")).await;
        match choice {
            Some(c) => match c.target {
                Some(target) => agent("shoot", target, None, c.memo),
                None => {
                    if !c.clean {
                        self.agents.fell_back();
                    }
                    agent("pass", "", None, c.memo)
                }
            },
            None => {
                self.agents.fell_back();
                agent("pass", "", None, None)
            }
        }
    }

    /// The floor in the debate: every AI seat still speaking bids; the
    /// most urgent speaks (a tie: the seat the last speech named, then the
    /// one that spoke least today, then seating order); when none bids
    /// above 0, or the AI seats have spoken as often as there are living
    /// seats today, they all pass.
    async fn floor(&self, ctx: &TurnContext<'_>, day: u32) -> Vec<AgentMove> {
        let g = &self.game;
        let spoken = g.said.iter().filter(|s| s.day == day).count();
        let bidders: Vec<String> =
            g.living().into_iter().filter(|s| g.is_ai(s) && !g.passed.contains(s) && g.speeches_left(s) > 0).collect();
        if bidders.is_empty() || !self.agents.issue(&format!("floor:{day}:{spoken}:{}", g.passed.len())) {
            return Vec::new();
        }
        let ai_spoken = g.said.iter().filter(|s| s.day == day && g.is_ai(&s.seat)).count();
        let mut bids: Vec<(String, Bid)> = Vec::new();
        if ai_spoken < g.living().len() {
            for seat in &bidders {
                let own = self.own(seat);
                let view = own.view(&self.history);
                let bid = agents::bid(ctx, &self.asker(&own, &view)).await;
                let bid = bid.unwrap_or(Bid { urgency: 1, speech: None, memo: None, clean: false });
                bids.push((seat.clone(), bid));
            }
        }
        let last = g.said.last().filter(|s| s.day == day).map(|s| s.text.to_lowercase()).unwrap_or_default();
        let named = |seat: &str| {
            let number = format!("#{}", g.number(seat).unwrap_or(0));
            last.contains(&number) || last.contains(&g.seats.name_of(seat).unwrap_or("?").to_lowercase())
        };
        let best = bids.into_iter().filter(|(_, b)| b.urgency > 0).max_by_key(|(s, b)| {
            (b.urgency, named(s), std::cmp::Reverse(g.speeches_today(s)), std::cmp::Reverse(g.number(s)))
        });
        match best {
            Some((seat, bid)) => {
                let id = format!("agent:{seat}:speak:{day}:{spoken}");
                let speech = bid.speech.filter(|t| self.gate_check(&Audience::Everyone, t).is_none());
                let text = speech.unwrap_or_else(|| {
                    self.agents.fell_back();
                    say::stock_speech(g.language, g.number(&seat).unwrap_or(0) + spoken)
                });
                let input = agent("speak", text, None, bid.memo);
                self.agents.issue(&id);
                self.agent_move(ctx, &seat, input, id).into_iter().collect()
            }
            None => bidders
                .iter()
                .filter_map(|seat| {
                    let id = format!("agent:{seat}:pass:{day}:{spoken}");
                    self.agents
                        .issue(&id)
                        .then(|| self.agent_move(ctx, seat, agent("pass", "", None, None), id))
                        .flatten()
                })
                .collect(),
        }
    }
}
