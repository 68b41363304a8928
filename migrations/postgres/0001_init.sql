-- Sessions, players, turns, inbox, outbox and scores.
-- PostgreSQL's copy of migrations/0001_init.sql: the same tables; only the
-- outbox id differs (BIGSERIAL for SQLite's INTEGER PRIMARY KEY AUTOINCREMENT).
-- BIGINT millisecond times,
-- TEXT ids, no SQLite-only functions.

CREATE TABLE sessions (
    id              TEXT PRIMARY KEY,
    puzzle_id       TEXT NOT NULL,
    language        TEXT NOT NULL,
    channel         TEXT NOT NULL,
    canary          TEXT NOT NULL,
    phase           TEXT NOT NULL,
    questions       INTEGER NOT NULL DEFAULT 0,
    snapshot        TEXT NOT NULL,
    created_ms      BIGINT NOT NULL,
    last_activity_ms BIGINT NOT NULL
);
CREATE INDEX sessions_channel ON sessions (channel);

CREATE TABLE players (
    id              TEXT PRIMARY KEY,
    name            TEXT NOT NULL,
    first_seen_ms   BIGINT NOT NULL,
    last_seen_ms    BIGINT NOT NULL
);

CREATE TABLE turns (
    session_id      TEXT NOT NULL REFERENCES sessions (id),
    seq             INTEGER NOT NULL,
    event_id        TEXT,
    player_id       TEXT NOT NULL REFERENCES players (id),
    kind            TEXT NOT NULL,
    input           TEXT NOT NULL,
    intent          TEXT,
    verdict         TEXT,
    facts           TEXT NOT NULL,
    reply_kind      TEXT NOT NULL,
    reply           TEXT NOT NULL,
    public_outcome  TEXT,
    public_text     TEXT,
    model_calls     INTEGER NOT NULL,
    prompt_tokens   INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    judge_parse     TEXT NOT NULL,
    created_ms      BIGINT NOT NULL,
    PRIMARY KEY (session_id, seq)
);

-- One row per processed platform event: the "at most once" record.
CREATE TABLE inbox (
    session_id      TEXT NOT NULL REFERENCES sessions (id),
    event_id        TEXT NOT NULL,
    seq             INTEGER NOT NULL,
    PRIMARY KEY (session_id, event_id)
);

CREATE TABLE outbox (
    id              BIGSERIAL PRIMARY KEY,
    session_id      TEXT NOT NULL REFERENCES sessions (id),
    seq             INTEGER NOT NULL,
    kind            TEXT NOT NULL,
    body            TEXT NOT NULL,
    created_ms      BIGINT NOT NULL,
    sent_ms         BIGINT
);
CREATE INDEX outbox_unsent ON outbox (session_id, sent_ms);

CREATE TABLE scores (
    session_id      TEXT NOT NULL REFERENCES sessions (id),
    player_id       TEXT NOT NULL REFERENCES players (id),
    points          INTEGER NOT NULL,
    solved          INTEGER NOT NULL,
    created_ms      BIGINT NOT NULL,
    PRIMARY KEY (session_id, player_id)
);
