# Who is the Undercover: every fixed sentence, in English. Players read
# these (and other players' descriptions); a model's words reach them only
# as an AI seat's description, after the same checks as a human's.

title = 🕵️ Who is the Undercover

## Roles, phases and marks

role-civilian = civilian
role-undercover = undercover
role-blank = blank
phase-lobby = lobby
phase-describe = describing
phase-vote = voting
phase-last-guess = the blank's guess
phase-guess-ai = guess the AI
phase-over = over
host-mark = host
out-mark = out
winner-mark = 🏆
roles-heading = Seats:

## The lobby and the deal

lobby =
    { title } · lobby · { $count }/{ $max } seats: { $list }.
    Join with `join`; `add-ai` seats an AI player; the host starts with `begin` ({ $min } seats at least).
begins = The game begins: { $seats } seats, { $undercovers } { $undercovers ->
        [one] undercover
       *[other] undercovers
    }{ $blank ->
        [yes] {" "}and one blank seat
       *[no] {""}
    }. Your word comes to you privately (`word` shows it again).
your-word = 🤫 Your word: **{ $word }**. Describe it in one short line without saying it.
you-are-blank = 🤫 You are the **blank**: you have no word. Listen to the others, blend in, and don't get caught. If you are voted out you get one guess at the civilians' word.
sent-privately = Sent to you privately.

## Describing

round-opens = **Round { $round }.** Order: { $order }.
    { $speaker }, describe your word ({ $seconds } s).
described = { $who }: “{ $text }”
next-speaker = Next: { $speaker } ({ $seconds } s).
skipped = { $who } did not describe in time and is skipped this round.
description-gives-away = That description is too close to a secret word (or a form or translation of one). Describe it another way; nothing was posted.
description-empty = Describe your word in one short line: `describe <text>`.
description-too-long = Keep it to one short line ({ $max } characters at most); nothing was posted.
withheld = (withheld: that would give a secret word away)

## Voting

vote-opens = { $runoff ->
       *[no] Everyone has spoken. **Vote now** in secret: who is the undercover? ({ $seconds } s, `vote <seat number>` or a button)
        [yes] **Deciding vote** between them only ({ $seconds } s).
    }
tie = Equal votes for { $tied }.
voted-count = 🗳️ { $cast }/{ $of } have voted.
vote-in = Your vote for { $target } is in (you may change it until the vote closes).
did-not-vote = Did not vote: { $list }.
votes-heading = { $runoff ->
       *[no] Round { $round } votes:
        [yes] Round { $round }, deciding vote:
    }
eliminated = { $random ->
       *[no] **{ $who } is out** ({ $votes } { $votes ->
            [one] vote
           *[other] votes
        }). { $who } was a **{ $role }**.
        [yes] Equal again: the recorded seed picks **{ $who }**, who is out. { $who } was a **{ $role }**.
    }
left-game = { $who } left the game.

## The blank's last guess

last-guess-opens = { $who } gets one private guess at the civilians' word ({ $seconds } s).
guess-prompt = You were voted out as the blank. Guess the civilians' word with `guess <word>`: if you are right, you win alone.
guess-result = { $right ->
        [yes] { $who } guessed the civilians' word!
       *[no] { $who } guessed wrong.
    }
guess-missed = { $who } made no guess in time.

## The end

outcome = { $outcome ->
        [civilians] 🎉 **The civilians win!**
        [undercover] 🎭 **The undercover wins!**
        [blank] 🃏 **The blank wins alone!**
       *[ended] The game was ended before anyone won.
    }
words-reveal = Words: civilians **{ $civilian }** · undercover **{ $undercover }**.
ended-idle = The game sat idle too long and was ended.
reasons-heading = 🧠 Why each AI voted as it did:
reason-line = Round { $round }{ $runoff ->
        [yes] {" "}(deciding vote)
       *[no] {""}
    } · { $who } → { $target }: believed it was { $believes }{ $reasoned ->
        [yes] {" "}({ $why }).
       *[no] .
    }
reason-reads = {"    "}Reads: { $reads }
believes-unsure = unsure

## Guess the AI

guess-ai-opens = 🤖 **Guess the AI**: some seats were played by AI. Name them with `guess <seat numbers>` (e.g. `guess 2 5`), { $seconds } s.
ai-guess-in = Your guess is in.
ai-guesses-count = 🤖 { $guessed }/{ $of } have guessed.
ai-were = 🤖 The AI seats were: { $seats }.
ai-score = found { $right } of { $of } AI seats, { $wrong } wrongly named

## Status and reminders

status =
    { title } · { $phase } · round { $round }
    In the game: { $living }
    { $waiting }
waiting-for = Waiting for: { $who }
# Before a deadline: who the phase still waits for.
reminder = ⏳ { $seconds } s left { $phase ->
        [describe] to describe
        [last_guess] to guess
        [guess_ai] to name the AI seats
       *[other] to vote
    }. Waiting for: { $who }

## Refusals, said to whoever made the move

refusal-already-seated = You already have a seat.
refusal-not-seated = You have no seat here.
refusal-full = The table is full ({ $max } seats).
refusal-no-ai-seats = No more AI seats ({ $max } at most).
refusal-not-host-start = Only the host or a moderator may start.
refusal-too-few = { $min } seats are needed to start; { $seated } are taken. Invite people or use `add-ai`.
refusal-not-now = That can't be done at this point of the game.
refusal-no-seat = You have no seat in this game.
refusal-out = You are out of this game; watch the rest!
refusal-not-your-turn = It's { $speaker }'s turn.
refusal-not-an-option = No such seat on this ballot: vote with a seat number from the list.
refusal-own-vote = You can't vote for yourself.
refusal-too-few-for-blank = A blank seat needs { $min } seats at least.
refusal-not-host-end = Only the host or a moderator may end the game.
refusal-stale-timer = That deadline has passed already.
refusal-too-few-for-undercovers = { $undercovers } undercovers need { $seats } seats at least, so that the civilians stay the majority.
unknown-difficulty = “{ $typed }” is not a difficulty: choose easy, medium or hard.
bad-undercovers = “{ $typed }” is not a number of undercovers: give 1 or more.
too-many-undercovers = { $undercovers } undercovers need { $needed } seats at least, so that the civilians stay the majority; there are { $seats } seats.
not-a-verb = Undercover verbs: join, leave, begin, add-ai, describe <text>, vote <seat>, word, guess <word>, status, end.
# Why a moderator's pair was not added: the problems, joined.
pair-refused = That pair was not added: { $problems }.
problems-separator = {"; "}

## AI seats

# Safe descriptions an AI seat falls back to when its own broke a rule,
# one a line.
stock-descriptions =
    Most people have come across it at some point.
    I'd say it's more common than you'd think.
    You can find it in many homes.
    Some people like it a lot, others don't care.
    It comes in more than one kind.
    I've seen it often enough.
