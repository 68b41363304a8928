//! What one seat knows, and nothing more: its private lines (its role,
//! the werewolves' roster for a werewolf, the Seer's visions, the Doctor's
//! and the Witch's receipts, the pack's choices and channel for the
//! werewolves), the secrets the gate holds (each such line, owned by its
//! seat; a werewolf's by every werewolf), and an AI seat's own facts for
//! its `SeatView`. The messages that tell a seat these things are built
//! from the same functions, so the gate holds exactly what was sent.

use crate::core::game::Secret;
use crate::core::vocab::Language;

use super::{Role, WerewolfGame, say};

/// `#1 Alice, #5 Eve`: every werewolf dealt.
pub fn team_list(game: &WerewolfGame) -> String {
    game.seats_with(Role::Werewolf).iter().map(|s| game.label(s)).collect::<Vec<_>>().join(", ")
}

/// What every player knows: the title, the roles and what each does.
pub fn public_context(lang: Language) -> String {
    let mut lines = vec![say::title(lang)];
    for role in Role::ALL {
        lines.push(say::role(lang, role));
        lines.push(say::role_line(lang, "", role));
    }
    lines.join("\n")
}

/// A seat's lines that only it (or its pack) was told, in the order
/// they came: its role, its team, and night by night what it did and
/// learned.
pub fn private_lines(game: &WerewolfGame, seat: &str) -> Vec<String> {
    let Some(role) = game.role(seat) else { return Vec::new() };
    let mut lines = vec![say::role_line(game.language, &game.label(seat), role)];
    if role.is_wolf() {
        lines.push(say::team_line(game.language, &team_list(game)));
    }
    for night in 1..=game.nights.len() as u32 {
        lines.extend(night_lines(game, seat, night));
    }
    lines
}

/// What `seat` did and learned on night `night` (a werewolf: the pack's
/// votes, its channel and its choice).
pub fn night_lines(game: &WerewolfGame, seat: &str, night: u32) -> Vec<String> {
    let (mut own, pack) = night_parts(game, seat, night);
    own.extend(pack);
    own
}

/// A night's lines of one seat: (its own, the pack's: every werewolf's).
fn night_parts(game: &WerewolfGame, seat: &str, night: u32) -> (Vec<String>, Vec<String>) {
    let lang = game.language;
    let Some(record) = game.nights.iter().find(|n| n.night == night) else { return (Vec::new(), Vec::new()) };
    let label = |s: &str| game.label(s);
    let (mut own, mut pack) = (Vec::new(), Vec::new());
    match game.role(seat) {
        Some(Role::Werewolf) => {
            for (wolf, target) in &record.wolf_votes {
                pack.push(say::kill_vote(lang, &label(wolf), &label(target)));
            }
            for line in game.pack.iter().filter(|p| p.night == night) {
                pack.push(say::pack_said(lang, &label(&line.seat), &line.text));
            }
            if record.wolves_done {
                pack.push(say::wolves_chose(lang, record.victim.as_deref().map(label).as_deref(), record.random));
            }
        }
        Some(Role::Seer) => {
            if let Some(target) = &record.check {
                let wolf = game.role(target).is_some_and(Role::is_wolf);
                own.push(say::vision(lang, night, &label(target), wolf));
            }
        }
        Some(Role::Doctor) => {
            if let Some(target) = &record.protect {
                own.push(say::protect_done(lang, night, &label(target)));
            }
        }
        Some(Role::Witch) => {
            if record.wolves_done {
                own.push(say::witch_victim(lang, night, record.victim.as_deref().map(label).as_deref()));
            }
            if let Some(victim) = record.victim.as_ref().filter(|_| record.cured) {
                own.push(say::cure_done(lang, night, &label(victim)));
            }
            if let Some(target) = &record.poison {
                own.push(say::poison_done(lang, night, &label(target)));
            }
        }
        _ => {}
    }
    (own, pack)
}

/// The secrets the gate holds while the game is on: each seat's own
/// lines as one secret it owns, and the pack's lines (its roster, votes
/// and choices; not its free talk) as one secret every werewolf owns.
/// One secret per owner keeps the gate's cut small.
pub fn secrets(game: &WerewolfGame) -> Vec<Secret> {
    let lang = game.language;
    let talk: Vec<String> = game.pack.iter().map(|p| say::pack_said(lang, &game.label(&p.seat), &p.text)).collect();
    let mut secrets = Vec::new();
    for (seat, role) in &game.roles {
        let mut own = vec![say::role_line(lang, &game.label(seat), *role)];
        let mut pack = Vec::new();
        if role.is_wolf() {
            pack.push(say::team_line(lang, &team_list(game)));
        }
        for night in 1..=game.nights.len() as u32 {
            let (o, p) = night_parts(game, seat, night);
            own.extend(o);
            pack.extend(p.into_iter().filter(|l| !talk.contains(l)));
        }
        secrets.push(Secret::of_seat(seat.clone(), own.join("\n")));
        if !pack.is_empty() {
            secrets.push(Secret::of_seat(seat.clone(), pack.join("\n")));
        }
    }
    secrets
}
