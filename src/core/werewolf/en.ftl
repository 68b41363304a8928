# Werewolf's sentences in English (`say.rs` says them; zh.ftl has the same
# messages with the same variables).

title = 🐺 Werewolf
role = { $role ->
    [werewolf] Werewolf
    [seer] Seer
    [doctor] Doctor
    [witch] Witch
    [hunter] Hunter
   *[villager] Villager
 }
host-mark = host
out-mark = out
winner-mark = 🏆
lobby = { $title } · lobby · { $taken }/{ $max } seats: { $list }.
lobby-help = Join with `join`; `add-ai` seats an AI player; the host starts with `begin` (AI players fill the table to { $fill } seats).
begins = The game begins with { $seats } seats: { $cast }. Your role comes to you privately (`role` shows it again).
role-line = 🤫 You are { $seat }. Your role: **{ $role }**.
role-goal = { $role ->
    [werewolf] Each night choose a victim with the other werewolves (`kill <seat>`; `pack <text>` talks to them alone). You win when the werewolves are as many as the rest.
    [seer] Each night check one seat with `check <seat>`: you alone learn whether it is a werewolf. You win with the village.
    [doctor] Each night protect one seat with `protect <seat>` (yourself too, but not the same seat two nights running). You win with the village.
    [witch] You hold one cure and one poison for the whole game: at night, once you know the werewolves' victim, `save` cures it and `poison <seat>` kills. You win with the village.
    [hunter] If you die (not by poison) you shoot one seat with `shoot <seat>`. You win with the village.
   *[villager] You have no power at night: find the werewolves by what people say and how they vote. You win with the village.
 }
team-line = 🐺 The werewolves: { $list }.
night-falls = 🌙 **Night { $night }.** Everyone sleeps; the night roles act in secret ({ $seconds } s).
task-kill = 🐺 Night { $night }: vote for a victim with `kill <seat>`: { $choices }.
task-check = 🔮 Night { $night }: check a seat with `check <seat>`, or `pass`.
task-protect = 🩺 Night { $night }: protect a seat with `protect <seat>`, or `pass`.
task-protect-not = 🩺 Night { $night }: protect a seat with `protect <seat>` (not { $last } again), or `pass`.
witch-victim = 🧪 Night { $night }: the werewolves attack { $victim }.
witch-no-victim = 🧪 Night { $night }: the werewolves attack no one tonight.
witch-choices = Your potions: { $list }; `pass` does nothing.
potion-cure = the cure (`save`)
potion-poison = the poison (`poison <seat>`)
potions-none = none left
night-ack = 🌙 The night goes on.
kill-vote = 🐺 { $wolf } wants { $target }.
pack-said = 🐺 { $wolf }: “{ $text }”
wolves-chose = 🐺 The pack's choice: { $target }.
wolves-chose-tied = 🐺 The pack's choice, picked by the seed among equal votes: { $target }.
wolves-chose-none = 🐺 The pack chose no one tonight.
vision = 🔮 Night { $night }: { $target } is { $wolf ->
    [yes] **a werewolf**
   *[no] **not a werewolf**
 }.
protect-done = 🩺 Night { $night }: you protect { $target }.
cure-done = 🧪 Night { $night }: you cure { $target }.
poison-done = 🧪 Night { $night }: you poison { $target }.
passed-night = 🌙 You do nothing tonight.
missed-night = 🌙 The night ended before you acted.
night-reminder = 🌙 The night ends in { $seconds } s.
dawn-deaths = ☀️ **Day { $day }.** { $names } died in the night.
dawn-none = ☀️ **Day { $day }.** No one died in the night.
hunter-opens = 🏹 { $seat } was the Hunter and takes a shot: `shoot <seat>` or `pass` ({ $seconds } s).
hunter-shot = 💥 { $hunter } shoots { $target }.
hunter-no-shot = 🏹 { $hunter } lowers the gun.
debate-opens = 🗣️ Debate: speak with `speak <text>` ({ $limit } times at most), `pass` when you are done ({ $seconds } s).
spoke = { $seat }: “{ $text }”
passed-day = { $seat } is done speaking for today.
debate-reminder = ⏳ { $seconds } s left in the debate.
vote-opens = 🗳️ Vote now, in secret: `vote <seat>` or the buttons ({ $seconds } s).
runoff-opens = 🗳️ Run-off between { $list }: vote again ({ $seconds } s).
vote-in = Your vote for { $target } is in (you may change it until everyone has voted).
voted-count = { $cast }/{ $voters } have voted.
votes-heading = Day { $day } votes:
runoff-heading = Day { $day }, run-off:
abstained = Did not vote: { $list }
no-votes = No votes.
exiled = { $seat } is exiled ({ $votes ->
    [one] one vote
   *[other] { $votes } votes
 }).
exiled-role = They were the **{ $role }**.
tie = Equal votes for { $list }: a run-off.
no-exile = A tie again: no one is exiled today.
no-exile-empty = No one voted: no one is exiled today.
vote-reminder = ⏳ { $seconds } s left to vote: { $names }.
hunter-reminder = ⏳ { $seconds } s left for { $names } to shoot.
left-game = { $seat } left the game.
outcome = { $outcome ->
    [villagers] 🏆 The villagers win: no werewolf is left.
    [werewolves] 🐺 The werewolves win: they are as many as the rest.
   *[ended] The game was ended.
 }
ended-idle = The game sat idle and ended.
roles-heading = Roles:
night-heading = Night { $night }:
sum-wolves = 🐺 the werewolves ({ $votes }) chose { $target }
sum-wolves-tied = 🐺 the werewolves ({ $votes }) tied; the seed picked { $target }
sum-wolves-none = 🐺 the werewolves chose no one
sum-check = 🔮 the Seer checked { $target }: { $wolf ->
    [yes] a werewolf
   *[no] not a werewolf
 }
sum-protect = 🩺 the Doctor protected { $target }
sum-cure = 🧪 the Witch cured { $target }
sum-poison = 🧪 the Witch poisoned { $target }
sum-died = 💀 died: { $names }
sum-nobody = 💀 no one died
shots-heading = Shots:
status = { $title } · { $phase } · day { $day } · alive: { $living }
waiting-for = Waiting for: { $names }
phase = { $phase ->
    [lobby] lobby
    [night] night
    [hunter] the Hunter's shot
    [debate] debate
    [vote] vote
    [guess_ai] guessing the AI
   *[over] over
 }
refusal = { $why ->
    [not-now] That can't be done now.
    [not-seated] You have no seat in this game.
    [dead] You are out of the game.
    [not-your-role] That is not yours to do.
    [done] You have already done that tonight.
    [not-a-target] Not a seat you can choose.
    [yourself] Not yourself.
    [same-protect] Not the same seat two nights running.
    [no-potion] That potion is used up.
    [no-victim] Nobody to cure tonight.
    [spoken-out] You have no speeches left today.
    [not-host] Only the host or a moderator may end the game.
    [already-seated] You already have a seat.
    [full] The table is full.
    [no-ai] No more AI seats.
    [not-host-start] Only the host or a moderator may start.
    [started] The game has already started.
   *[stale] That has already passed.
 }
not-a-verb = That is not a move in this game; try `status` or `role`.
speech-empty = Say something.
speech-too-long = At most { $max } characters.
sent-privately = Sent to you privately.
withheld = (withheld: it would have given a secret away)
unknown-seat = No seat “{ $typed }”.
guess-ai-opens = 🤖 Who were the AI players? Every human may name them: `guess 2 5` ({ $seconds } s).
ai-were = 🤖 The AI players were: { $list }.
ai-score = { $right }/{ $total } found, { $wrong } wrongly named
ai-guess-in = Your guess is in.
ai-guesses-count = { $guessed }/{ $humans } have guessed.
stock-speech = { $n ->
    [0] I am listening closely; let's hear everyone before we vote.
    [1] Nothing is certain yet. Watch who pushes hardest for a quick exile.
    [2] I have no proof against anyone; I will vote with the clearest reasons.
   *[other] Let's compare how people voted yesterday before deciding.
 }
stock-pack = Let's keep it quiet and vote the same way.
