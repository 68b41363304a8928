# Turtle Soup: every fixed sentence the game says to players, in English.
# Fixed text is the safe path: it is written here, not by a model, so it
# can never carry the answer.

## The puzzle, the answers and the guesses

intro =
    🐢 { $title } ({ $difficulty ->
        [easy] easy
        [medium] medium
       *[hard] hard
    })

    { $surface }

    Ask yes/no questions about the story, or state your guess at what really happened. You have { $limit } hints. Type /help for commands.
verdict-yes = YES
verdict-no = NO
verdict-yes-and-no = YES AND NO
verdict-irrelevant = IRRELEVANT
verdict-meta = NOT A YES/NO QUESTION
repeat = (asked before: same answer as then)
guess-not-quite = Not quite. That guess states { $stated } of { $facts } key facts; { $found } of { $facts } found so far.
solved =
    🎉 Solved by { $name }! Score: { $score }.

    The full story:
    { $bottom }
hint = 💡 Hint { $n }/{ $limit }: { $text }
chatter = (not counted: ask a yes/no question, or start a guess with /guess)
unclear = The judge couldn't make sense of that. Try rephrasing it as a yes/no question.
# The Judge cannot tell (too small a model, no known answer close).
cant-tell = I can't tell from that — ask it another way (this one doesn't count).
# A reply the secrecy gate stopped.
withheld = (the host keeps that to itself: it would give the story away)
model-down = The game master's model isn't answering right now. Your message wasn't counted; please try again in a moment.

## Refusals

not-started = The game hasn't started yet.
already-started = A game is already running here.
game-over = This game is over ({ $phase }). Start a new one to keep playing.
no-hints-left = No hints left: this game allows { $limit }.
input-empty = That message was empty: ask a yes/no question or make a guess.
input-too-long = That message is too long ({ $chars } characters; the limit is { $max }). Please shorten it.
# A move this game does not have (a vote in Turtle Soup).
not-in-this-game = That move is not part of this game.

## The end

gave-up =
    You gave up. Here is the story:
    { $bottom }
revealed =
    The story is revealed:
    { $bottom }
expired = This game expired after a long silence. Here is how it ended.
phase-lobby = not started
phase-in-progress = in progress
phase-solved = solved
phase-gave-up = given up
phase-revealed = revealed
phase-expired = expired

## Remarks when the Narrator is off or failed, one a line; the game
## varies them.

remarks-yes =
    Good question.
    You're onto something.
    Keep pulling that thread.
remarks-no =
    Try another angle.
    Not that way.
    Think again about the surface.
remarks-yes-and-no =
    Partly right: it depends on how you look at it.
    Half of that holds.
remarks-irrelevant =
    That doesn't matter to the story.
    Doesn't change anything.
remarks-meta = Ask about what happened, not about the answer's wording.
