-- Clubs (docs/clubs.md): a regular group's club with its members (a member is a browser identity,
-- the players row /me keys; an account's identities are one member), invite links (the code stored
-- only hashed), seasons and settle-up periods (history kept), and the club's tables.
-- stake: cents a point of the payment chart is worth; preset: the club tables' house rules.
CREATE TABLE clubs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    code TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    stake INTEGER NOT NULL,
    preset TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE club_members (
    club_id INTEGER NOT NULL REFERENCES clubs(id),
    player_id INTEGER NOT NULL REFERENCES players(id),
    role TEXT NOT NULL,
    joined REAL NOT NULL,
    PRIMARY KEY (club_id, player_id)
);
CREATE INDEX club_members_by_player ON club_members (player_id);
CREATE TABLE club_invites (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    club_id INTEGER NOT NULL REFERENCES clubs(id),
    code_hash TEXT NOT NULL UNIQUE,
    created REAL NOT NULL,
    expires REAL,
    revoked REAL
);
CREATE INDEX club_invites_by_club ON club_invites (club_id);
CREATE TABLE club_seasons (
    club_id INTEGER NOT NULL REFERENCES clubs(id),
    number INTEGER NOT NULL,
    started REAL NOT NULL,
    PRIMARY KEY (club_id, number)
);
-- a settle-up period: open while ended is NULL; settled = 1 when the owner marked it settled
CREATE TABLE club_periods (
    club_id INTEGER NOT NULL REFERENCES clubs(id),
    number INTEGER NOT NULL,
    season INTEGER NOT NULL,
    started REAL NOT NULL,
    ended REAL,
    settled INTEGER NOT NULL,
    PRIMARY KEY (club_id, number)
);
CREATE TABLE club_tables (
    table_id INTEGER PRIMARY KEY REFERENCES tables(id),
    club_id INTEGER NOT NULL REFERENCES clubs(id),
    created REAL NOT NULL
);
CREATE INDEX club_tables_by_club ON club_tables (club_id, created);
