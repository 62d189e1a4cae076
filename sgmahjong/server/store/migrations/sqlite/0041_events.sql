-- Events (docs/events.md): a competition of rounds (Swiss, round robin or duplicate) with its entrants,
-- the tables of each round, and a duplicate round's walls: one secret per hand shared by the round's
-- tables, its commitment (wall_hash) published from the start of the round, the secret shown only once
-- the round has ended. status: open (taking entrants), running, finished; round: the round under way
-- or last played (0: none yet); options: the table options of its tables (JSON: timers, pace, bots).
-- The tables are named "tournament...": "events" holds each hand's events.
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    code TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    owner INTEGER NOT NULL REFERENCES players(id),
    format TEXT NOT NULL,
    rounds INTEGER NOT NULL,
    hands INTEGER NOT NULL,
    absent TEXT NOT NULL,
    preset TEXT NOT NULL,
    options TEXT NOT NULL,
    status TEXT NOT NULL,
    round INTEGER NOT NULL DEFAULT 0,
    created DOUBLE PRECISION NOT NULL
);
CREATE TABLE tournament_entrants (
    event_id INTEGER NOT NULL REFERENCES tournaments(id),
    player_id INTEGER NOT NULL REFERENCES players(id),
    entered DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (event_id, player_id)
);
CREATE TABLE tournament_tables (
    event_id INTEGER NOT NULL REFERENCES tournaments(id),
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    table_id INTEGER NOT NULL UNIQUE REFERENCES tables(id),
    PRIMARY KEY (event_id, round, table_no)
);
CREATE TABLE tournament_walls (
    event_id INTEGER NOT NULL REFERENCES tournaments(id),
    round INTEGER NOT NULL,
    hand INTEGER NOT NULL,
    secret TEXT NOT NULL,
    wall_hash TEXT NOT NULL,
    PRIMARY KEY (event_id, round, hand)
);
