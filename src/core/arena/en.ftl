# The Arena: every fixed sentence, in English. Players read these, the
# contributions, and the narrator's lines (model text, checked by the gate
# like everything else while the game is on).

title = 🏟️ The Arena

## Stages, score dimensions, marks and headings

stage-early = early
stage-middle = middle
stage-late = late
dimension-novelty = novelty
dimension-building = builds on others
dimension-solving = solves the problem
dimension-radical = radical thinking
dimension-manipulation = manipulation
# Short column heads of the score table, in the order above.
dimension-heads = Nov Bld Sol Rad Man
round-row-head = { dimension-heads }  round  total
skipped-mark = (skipped)
strategies-heading = The hidden strategies:
standings-heading = Final standings:
history-heading = Score history (round scores):
out-mark = { $left ->
       *[no] out in round { $round }
        [yes] left in round { $round }
    }

## The lobby and the opening

lobby =
    { title } · lobby · topic: { $topic }
    { $count }/{ $max } contestants: { $list }.
    Join with `join`; `add-ai` seats an AI character; the host starts with `begin` ({ $min } at least). Anyone else in the thread watches and may react once per round.
begins =
    The Arena opens: { $contestants } contestants, at most { $max_turns } turns.
    Topic: { $topic }
    Every contribution is scored on novelty, building on others, solving the problem, radical thinking and manipulation; from the middle stage the round's weakest may be eliminated.

## Turns and rounds

next-speaker = { $timed ->
        [yes] Turn { $turn } · { $stage } · { $who }, your turn: `say` your contribution ({ $seconds } s).
       *[no] Turn { $turn } · { $stage } · { $who } speaks.
    }
skipped = { $who } did not speak in time and is skipped.
# A contribution addressed a contestant: they may answer first.
may-reply = ↪️ { $who } was addressed and has a right of reply.
reply-turn = { $timed ->
        [yes] Turn { $turn } · { $stage } · { $who }, your reply to { $from }: `say` it, briefly ({ $seconds } s).
       *[no] Turn { $turn } · { $stage } · { $who } replies to { $from }.
    }
reply-too-long = A reply is short: { $max } characters at most; nothing was posted.
reply-mark = ↩
## The host's rules, checked when the Arena opens
bad-rule = “{ $value }” is not a valid { $rule }: { $expected }.
rule-threshold = a number from 0 to 10
rule-elimination = below (the lowest goes out only under the threshold) or lowest (the lowest always goes out)
rule-turns = a turn number from 1 to { $max }
rule-stages = early_until must come before middle_until
rule-turn-seconds = a number of seconds from { $min } to { $max }
rules-line = Rules: eliminations from turn { $from }, { $elimination ->
        [lowest] the lowest goes out every round
       *[below] the lowest goes out under { $threshold }
    }; the late stage from turn { $late }.
round-heading = 📊 Round { $round } ({ $stage })
# The score is written with one decimal.
eliminated = ❌ { $who } is eliminated (round score { $score }).
nobody-out = Nobody is eliminated this round.
# The narrator's line when its model gave nothing usable.
narrator-quiet = …makes a note and says nothing yet.
react-prompt = Spectators: react once this round for the contestant you like (the buttons, or `react <seat>`).
reaction-in = Your reaction for { $who } is in.
reacted = 👏 A spectator reacted ({ $count } this round).
paused = ⏸️ The Arena is paused; `resume` goes on.
resumed = ▶️ The Arena goes on.
topic-set = The topic is now: { $topic }
left = { $who } left the Arena.

## The end

winner = 🏆 { $who } wins with { $total } points.
game-over = 🏁 The Arena closes.
ended-by = 🏁 The host ended the Arena early; no winner.
abandoned = 🏁 Everyone left the Arena.
ended-idle = The Arena sat idle too long and has closed.

## Status and reminders

status =
    { title } · { $phase } · turn { $turn }/{ $max_turns }
    Topic: { $topic }
    In the ring: { $living }{ $waiting }
phase = { $name ->
        [lobby] lobby
        [turn] turn
        [paused] paused
        [over] over
       *[other] { $name }
    }
# Follows the status on a line of its own.
now-speaking = Now speaking: { $who }
reminder = ⏳ { $seconds } s left for { $who } to speak (`say …`).

## Refusals, said to whoever made the move

empty = Say something: an empty contribution counts for nothing.
too-long = That is too long: { $max } characters at most.
gives-away = That contribution repeats a contestant's private notes; say it another way.
withheld = (withheld: it would have revealed a secret)
not-a-verb = The Arena's verbs: join, leave, add-ai, begin, say, react, status, pause, resume, topic, end.
refusal-already-seated = You are in already.
refusal-not-contestant = You are not a contestant.
refusal-full = The Arena is full ({ $max } contestants).
refusal-no-ai-seats = No more AI characters ({ $max } at most).
refusal-not-host-start = Only the host or a moderator can start.
refusal-too-few = { $min } contestants are needed; { $seated } so far.
refusal-started = The Arena has started; watch and react instead.
refusal-not-running = Nothing is being played right now.
refusal-out = You are out of the Arena; watch the rest.
refusal-not-your-turn = It is { $speaker }'s turn to speak.
refusal-paused = The Arena is paused.
refusal-not-paused = The Arena is not paused.
refusal-not-host = Only the host or a moderator can do that.
refusal-contestant = Contestants don't react; spectators do.
refusal-already-reacted = You reacted this round already.
refusal-unknown-option = React with a contestant's seat number.
refusal-stale-timer = That deadline has passed already.
refusal-over = The Arena has closed.
refusal-in-lobby = The Arena has not started yet.

## AI contestants

# Contributions for an AI contestant whose own broke a rule or failed,
# one a line.
stock-lines =
    Let me build on the last idea: test it small, for one month, and measure what changes.
    We keep arguing about the goal; I say we pick the cheapest step that helps someone tomorrow.
    Here is the risk nobody named yet: who pays when this goes wrong? Answer that and I'm in.
    I'd flip it: instead of fixing the problem, make it useful to somebody.
