-- Bot front ends (issue 5): per-server settings, which thread plays which
-- session, built-in puzzles a server switched off, and the puzzle queued
-- for a channel's next game. Custom puzzles live in 0002's custom_puzzles
-- (scope "discord:<guild id>").

CREATE TABLE guild_config (
    scope           TEXT PRIMARY KEY,
    language        TEXT,
    hint_limit      INTEGER,
    channel         TEXT,
    model           TEXT,
    mod_role        TEXT,
    updated_ms      BIGINT NOT NULL
);

-- The binding survives restarts: a message in a bound thread resumes its session.
CREATE TABLE thread_bindings (
    thread          TEXT PRIMARY KEY,
    scope           TEXT NOT NULL,
    session_id      TEXT NOT NULL REFERENCES sessions (id),
    started_by      TEXT NOT NULL,
    created_ms      BIGINT NOT NULL,
    ended_ms        BIGINT
);
CREATE INDEX thread_bindings_active ON thread_bindings (ended_ms);

CREATE TABLE guild_disabled_puzzles (
    scope           TEXT NOT NULL,
    puzzle_id       TEXT NOT NULL,
    PRIMARY KEY (scope, puzzle_id)
);

CREATE TABLE guild_next_puzzle (
    scope           TEXT NOT NULL,
    channel         TEXT NOT NULL,
    puzzle_id       TEXT NOT NULL,
    PRIMARY KEY (scope, channel)
);
