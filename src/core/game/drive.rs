//! A table played with no front end, store or timers (self-play, tests):
//! AI seats' moves in order, and a phase's deadline played as if it had
//! passed whenever no seat owes a move.

use super::{Inbound, engine_player};
use crate::core::services::{Pipeline, Progress};
use crate::core::vocab::Player;

use super::{Played, Table, TurnContext, TurnInput};

/// Plays `table` from `first`'s `begin` until it is over or `max_steps`
/// inputs were played; `observe` sees the table before each input is
/// adopted, and what the input did. Returns how many deadlines passed.
pub async fn drive<T: Table>(
    pipeline: &Pipeline,
    table: &mut T,
    first: Player,
    max_steps: usize,
    observe: &mut (dyn FnMut(&T, &Played) + Send),
) -> usize {
    let noop = |_: Progress| {};
    let mut now_ms = 0_i64;
    let mut timeouts = 0;
    let mut inputs: Vec<(Player, TurnInput)> = vec![(first, TurnInput::Begin)];
    for step in 0..max_steps {
        let ctx = TurnContext { pipeline, now_ms, progress: &noop };
        if inputs.is_empty() {
            inputs = table.agent_moves(&ctx, step as i64).await.into_iter().map(|m| (m.seat, m.input)).collect();
        }
        if inputs.is_empty() {
            match table.deadline() {
                Some(deadline) if !table.is_over() => {
                    timeouts += 1;
                    now_ms = deadline.at_ms;
                    inputs.push((engine_player(), TurnInput::Timer(deadline.tag)));
                }
                _ => break,
            }
        }
        let (player, input) = inputs.remove(0);
        let mut inbound = Inbound::new(player, input);
        inbound.moderator = true;
        let ctx = TurnContext { pipeline, now_ms, progress: &noop };
        let played = table.play(&ctx, &inbound).await;
        observe(table, &played);
        table.adopt(played);
        now_ms += 1000;
        if table.is_over() {
            break;
        }
    }
    timeouts
}
