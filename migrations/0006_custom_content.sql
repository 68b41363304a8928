-- A server's own content for a seated game (issue 18: Undercover word
-- pairs a moderator adds), kept as the game's text and validated by the
-- game when added. Portable SQL (also PostgreSQL).
CREATE TABLE custom_content (
    scope           TEXT NOT NULL,
    game            TEXT NOT NULL,
    id              TEXT NOT NULL,
    language        TEXT NOT NULL,
    source          TEXT NOT NULL,
    added_by        TEXT NOT NULL,
    created_ms      BIGINT NOT NULL,
    PRIMARY KEY (scope, game, id)
);
