# The Lore RPG: every fixed sentence, in English.

title = Lore RPG
gm = Game master

## Opening and status

opening =
    📜 **{ $world }** · a Lore RPG
    { $premise }

    { $opening }

    Every message in this thread is your action. Stay true to the world: an action the lore forbids loses the turn; catch the game master contradicting the lore and you win it. People you can address: { $npcs }.
status =
    📜 { $world } · turn { $turn }
    In the scene: { $scene }
    People met: { $met }
    People you can address: { $npcs }
nobody = nobody yet

## What the game master is doing (shown while a turn is worked out)

step-retrieving = Searching the lore for your action
step-validating = Validating your action against the lore
step-planning = Planning the scene
step-persona = Extracting persona for { $name }
step-npc = { $name } is answering
step-narrating = The game master is narrating the scene
step-disqualifying = Your action breaks the lore: writing the ruling
step-checking = Checking the reply against the lore
step-correcting = The reply broke the lore: writing the correction
step-summary = Writing the story so far

## Rulings

# The passages a turn drew on, joined.
sources = _Sources: { $titles }_
disqualified = ✗ { $player } loses this turn: the action breaks the lore ({ $reason }).
corrected = ✓ { $player } wins this turn: the reply broke the lore ({ $reason }) and is corrected.
suggestions = Try instead: { $list }
stock-disqualify = The world will not bend that way: { $reason }
# `first`: the passage's first sentence.
stock-correction = Let the record be straight — { $title }: { $first }
quiet-scene = The moment passes; the world waits for what you do next.
npc-silent = { $name } looks at you for a long moment and says nothing.
withheld = The game master falls silent: that reply would have given away a secret of this world.
model-down = The game master could not answer just now; nothing happened. Try your action again.

## Refusals

empty = Say what you do (an action, or a line to someone).
too-long = That is too long for one turn: at most { $max } characters.
no-such-npc = Nobody called "{ $name }" is here to talk to. People you can address: { $npcs }.
over = This session has ended. Start a new one with `/rpg start`.
only-host-ends = Only the host or a moderator can end the session.
everyone-plays = There are no seats: everyone in the thread plays. Just say what you do.
not-a-verb = The Lore RPG knows: act, say <npc> <text>, status, scores, recap, end.

## Scores and recap

tally-line = { $name } · { $wins } won · { $losses } lost · { $turns } turns
scores-heading = Turns won (the game master broke the lore) and lost (the action did):
no-scores = Nobody has played a turn yet.
recap-heading = The story so far:
recap-recent = Lately:
nothing-yet = Nothing has happened yet: the story starts with your first action.
secrets-heading = What the game master knew:

## The end, and a server's own worlds

ended = 📜 The session in { $world } has ended.
ended-idle = The session sat idle too long and has ended.
world-taken = A bundled world is called "{ $id }": give yours another id.
# `problems`: one a line.
world-refused =
    That world can't be added:
    { $problems }

# The frozen layer of a prompt (seed 004): who plays, whom they met, how the story began.
frozen-party = The party: { $names }
frozen-met = Characters met: { $names }
frozen-world = The world: { $premise }
frozen-hook = The story began: { $opening }
