-- PostgreSQL's copy of migrations/0008_memory_feed.sql: seq is a BIGSERIAL.
-- Player memory's record (issue 33): every memory written or erased, in
-- commit order. Each process keeps its own vector index (LanceDB) and
-- catches up from this feed, so what one process learns every process
-- recalls, and an erased player is erased in all of them. A memory written
-- again replaces its earlier row; erasing a namespace deletes its rows and
-- leaves one 'forget' row for the indexes that still hold them.
CREATE TABLE memory_feed (
    seq             BIGSERIAL PRIMARY KEY,
    op              TEXT NOT NULL,
    item_id         TEXT NOT NULL,
    namespace       TEXT NOT NULL,
    kind            TEXT NOT NULL,
    text            TEXT NOT NULL,
    updated_ms      BIGINT NOT NULL
);
CREATE INDEX memory_feed_item ON memory_feed (item_id);
CREATE INDEX memory_feed_namespace ON memory_feed (namespace);
