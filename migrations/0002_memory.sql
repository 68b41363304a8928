-- Knowledge and memory (issue 4): a public summary per finished game, a
-- per-player "memory erased" mark, and custom puzzles per guild/workspace.

ALTER TABLE sessions ADD COLUMN summary TEXT;
ALTER TABLE players ADD COLUMN memory_erased_ms BIGINT NOT NULL DEFAULT 0;

CREATE TABLE custom_puzzles (
    scope           TEXT NOT NULL,
    id              TEXT NOT NULL,
    source          TEXT NOT NULL,
    enabled         INTEGER NOT NULL DEFAULT 1,
    added_by        TEXT NOT NULL,
    created_ms      BIGINT NOT NULL,
    PRIMARY KEY (scope, id)
);
