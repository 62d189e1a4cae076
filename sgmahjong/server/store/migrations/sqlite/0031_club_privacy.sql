-- A club table's privacy: public = 1 when the club's owner opened it to everyone (its summary,
-- results, replays with their chat, reviews and spectating); 0, the default: the members' alone.
ALTER TABLE club_tables ADD COLUMN public INTEGER NOT NULL DEFAULT 0;
-- The daily quotas of new clubs and invite links: one row per use and per person key (an identity's
-- or an address's, kept only as a hash), deleted once older than a day.
CREATE TABLE club_quota (
    kind TEXT NOT NULL,
    person TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX club_quota_by_person ON club_quota (kind, person, at);
CREATE INDEX club_quota_by_time ON club_quota (at);
