-- Several bot processes on one database (issue 21). The process that runs
-- a session's actor holds the session's lease: renewed while the actor
-- lives and by every turn it commits, which commits only while the lease
-- is still its own. An event that reaches a process without the lease is
-- handed to the holder through `handoff`, which every process polls for
-- the sessions it holds. Portable SQL (SQLite and PostgreSQL).
CREATE TABLE session_leases (
    session_id      TEXT PRIMARY KEY REFERENCES sessions (id),
    owner           TEXT NOT NULL,
    expires_ms      BIGINT NOT NULL
);

CREATE TABLE handoff (
    session_id      TEXT NOT NULL REFERENCES sessions (id),
    event_id        TEXT NOT NULL,
    inbound         TEXT NOT NULL,
    created_ms      BIGINT NOT NULL,
    PRIMARY KEY (session_id, event_id)
);
