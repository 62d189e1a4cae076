-- Players (browser-held identities, the secret stored only hashed), whose seat is whose, and each
-- ended hand of a player's seat (what /me lists and totals).
CREATE TABLE players (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    secret_hash TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE seat_players (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE player_hands (
    player_id INTEGER NOT NULL REFERENCES players(id),
    table_id INTEGER NOT NULL REFERENCES tables(id),
    hand INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    ended REAL NOT NULL,
    won INTEGER NOT NULL,
    dealt_in INTEGER NOT NULL,
    drawn INTEGER NOT NULL,
    tai INTEGER NOT NULL,
    net INTEGER NOT NULL,
    PRIMARY KEY (player_id, table_id, hand)
);
CREATE INDEX player_hands_by_time ON player_hands (player_id, ended);
