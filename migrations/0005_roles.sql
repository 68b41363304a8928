-- Seated games (issue 18): the role a player had in a finished game
-- (Undercover: civilian, undercover, blank), for wins per role. Portable
-- SQL: plain ADD COLUMN, as on PostgreSQL.
ALTER TABLE scores ADD COLUMN role TEXT;
