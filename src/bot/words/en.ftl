# Every fixed sentence the chat bots themselves say, in English (game text
# comes from each game's own files). Every message is given `$platform`
# (`discord` or `slack`): the platform's own nouns below select on it, so a
# sentence names them as `{ place }`, `{ this-scope }` and so on. Bold
# values arrive already in the platform's markup.

## How each platform names its own things

platform = { $platform ->
        [discord] Discord
       *[slack] Slack
    }
# Who shares settings and custom puzzles.
scope = { $platform ->
        [discord] server
       *[slack] workspace
    }
# This scope, as a place.
this-scope = { $platform ->
        [discord] on this server
       *[slack] in this workspace
    }
# How a moderator's verb is typed.
admin-verb = { $platform ->
        [discord] /soup-admin{" "}
       *[slack] /soup admin{" "}
    }
# Where a game is played.
place = { $platform ->
        [discord] thread
       *[slack] channel
    }
# Where to go when the place already has a game.
play-it = { $platform ->
        [discord] play it, or start another in a channel
       *[slack] play it in its thread
    }
# The moderators, as a heading.
moderators = { $platform ->
        [discord] Moderators
       *[slack] Admins
    }
# One moderator, opening a sentence.
a-moderator = { $platform ->
        [discord] A moderator
       *[slack] An admin
    }
# Who may run the moderators' commands.
who-moderates = { $platform ->
        [discord] moderators (Manage Threads, or the moderator role)
       *[slack] the workspace's Turtle Soup admins
    }

## Starting and finding a game, and a seated game's lobby

no-game-here = There's no game in this { place }. Start one with `/soup start`.
already-running = This { place } already has a game running: { play-it }.
wrong-channel = Games { this-scope } run in { $channel }.
started-in = 🐢 { $title } is on: join the game in { $channel }.
no-puzzle-matches = No puzzle matches that; `/soup puzzles` lists them.
unknown-puzzle = { $suggested ->
       *[no] There is no puzzle `{ $id }` here; `/soup puzzles` lists them.
        [yes] There is no puzzle `{ $id }` here. Did you mean: { $near }?
    }
near-separator = {", "}
unknown-verb = I don't know `/soup { $verb }`. `/soup help` lists the commands.
no-table-here = There's no /{ $group } game in this { place }. Open one with `/{ $group } start`.
lobby-open = 🎲 A { $bold_group } lobby is open in { $channel }: take a seat with `/{ $group } join`.
# `verb`: the group's "show me my secret" verb (`whisper`, `word`).
dms-closed = I could not send you a direct message. Use `/{ $group } { $verb }` to see your secret privately.

## Refusals and failures

slow-down = Easy there! You can take another turn in { $seconds } s.
not-moderator = Only { who-moderates } can do that.
oops = Something went wrong on my side and nothing was counted. Please try again in a moment.
database-away = The game's record can't be reached just now, so nothing was played. Please send that again in a moment.
bad-option = I couldn't read that option; please check it and try again.
guild-only = Turtle Soup is played in { scope } channels, not in direct messages.
bad-model = Model names are letters, digits and `:._/-`, at most 100 characters.

## A game in play, and its end

thinking = _thinking…_
button-join = Join
button-leave = Leave
button-begin = Start
game-over = Game over
key-facts = Key facts
found-by = found by { $name }
not-found = not found
scores = Scores
no-points = No points this time.
transcript-attached = The full transcript is attached.
last-turns = Transcript (last turns)
transcript-of = The transcript of { $title }.
no-transcript-yet = { $running ->
        [yes] The game in this { place } is still on: its transcript is here once it ends.
       *[no] No game has ended in this { place } yet.
    }
full-text-attached = (The full text is attached.)
cut = (cut: the rest was too long for { platform })
ended-by-moderator = { a-moderator } ended this game.

## The moderators' commands

done = Done.
config-set = Done: { $what } is now { $value }.
puzzle-added = Added `{ $id }` ({ $title }); it is enabled { this-scope } only.
puzzle-invalid =
    That puzzle has problems:
    { $problems }
puzzle-exists = A puzzle `{ $id }` already exists; remove it first or choose another id.
puzzle-unreadable = Attach the puzzle as a UTF-8 TOML file of at most 64 KiB.
file-unreadable = Attach a UTF-8 TOML file of at most { $max_kib } KiB.
puzzle-removed = Removed `{ $id }`.
not-custom = `{ $id }` is not one of this { scope }'s custom puzzles.
puzzle-enabled = `{ $id }` is enabled here.
puzzle-disabled = `{ $id }` is disabled here.
next-puzzle = The next game in this channel will use `{ $id }`.
content-added = Added `{ $id }`: { $shown }. It is played { this-scope } only.
content-exists = `{ $id }` is here already.
content-removed = Removed `{ $id }`.
no-such-content = There is no `{ $id }` here; `/{ $group } pairs list` shows what this { scope } added.
no-content = Nothing added { this-scope } yet: `/{ $group } pairs add` adds a pair.
content-heading = /{ $group }: added { this-scope }
known-added = Stored `{ $id }` for `{ $puzzle }` (games of it that start { this-scope } from now answer so): { $shown }
known-refused =
    Not stored: the puzzle's check refuses it.
    { $reasons }
known-bad-question = The question must be 1 to 300 characters.
known-bad-verdict = The verdict must be YES, NO, YES AND NO or IRRELEVANT.
known-which = Name the puzzle and the question, or run this in the { place } of the game where it was asked (the last question answered there is taken).
known-none = No corrected answers { this-scope } yet: `{ admin-verb }known add` stores one.
known-heading = Corrected answers { this-scope }
known-no-such = There is no `{ $id }` here; `{ admin-verb }known list` shows this { scope }'s corrected answers.

## Headings and tags of lists, a player's record, and forgetting one

players = Players
leaderboard = { $global ->
        [yes] 🏆 Leaderboard · everywhere
       *[no] 🏆 Leaderboard · { this-scope }
    }
# `per_solve`: questions per solve, written out (`9.5`, or `–`);
# `favourite`: the difficulty played most, in this language.
soup-stats = { $name }: { $games } { $games ->
        [one] game
       *[other] games
    } finished { this-scope }, { $solves } solved ({ $percent }%) · { $per_solve } questions per solve · { $facts } key facts found · { $hints } hints · most played: { $favourite }
no-stats = { $name } has not finished a Turtle Soup game { this-scope } yet.
forget-confirm = This erases what I remember about you (your past games, your profile) and starts your stats and leaderboard points afresh, everywhere. It can't be undone. Press the button to confirm.
forget-button = Forget me
forgotten = Done: { $count } memories erased, and your record starts afresh.
no-scores = No scores yet: solve a puzzle to get on the board.
puzzles = Puzzles
custom = custom
disabled = disabled
other-games = Other games
