-- When an event starts and who may enter it (docs/events.md): starts, the time its first round begins
-- by itself (seconds since the epoch; NULL: when the organiser starts it) and the zone it was set in;
-- entry: open (any player with a name), club (the members of club_id) or code (whoever has the join
-- code: only its SHA-256, join_hash, is kept).
ALTER TABLE tournaments ADD COLUMN starts DOUBLE PRECISION;
ALTER TABLE tournaments ADD COLUMN zone TEXT NOT NULL DEFAULT 'Asia/Singapore';
ALTER TABLE tournaments ADD COLUMN entry TEXT NOT NULL DEFAULT 'open';
ALTER TABLE tournaments ADD COLUMN club_id INTEGER REFERENCES clubs(id);
ALTER TABLE tournaments ADD COLUMN join_hash TEXT;
