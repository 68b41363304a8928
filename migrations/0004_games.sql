-- One engine, many games (issue 17): a session names its game and the
-- version of its snapshot, and keeps its phase's deadline so timers fire
-- after a restart; an outbox row names its audience (everyone, one seat,
-- moderators) so a private message is never posted in public.
-- Every existing session is Turtle Soup with the version-1 snapshot, and
-- every existing outbox row was public: the defaults say exactly that.
-- Portable: plain ADD COLUMN with constant defaults (SQLite and Postgres).

ALTER TABLE sessions ADD COLUMN game_kind TEXT NOT NULL DEFAULT 'soup';
ALTER TABLE sessions ADD COLUMN snapshot_version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE sessions ADD COLUMN deadline_ms BIGINT;
CREATE INDEX sessions_deadline ON sessions (deadline_ms);

ALTER TABLE outbox ADD COLUMN audience TEXT NOT NULL DEFAULT 'everyone';
ALTER TABLE outbox ADD COLUMN recipient TEXT;
