-- The schema as it was before migrations were recorded (IF NOT EXISTS: older files already have it).
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    code TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    private INTEGER NOT NULL,
    rules TEXT NOT NULL,
    options TEXT NOT NULL,
    status TEXT NOT NULL,
    first_wall TEXT,
    first_seed INTEGER,
    match_seed INTEGER,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    name TEXT,
    bot_level TEXT,
    token_hash TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS hands (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,
    seed TEXT NOT NULL,
    wall_hash TEXT,
    started REAL NOT NULL,
    ended REAL,
    result TEXT,
    PRIMARY KEY (table_id, number)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    hand INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    version INTEGER NOT NULL,
    source TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, hand, seq)
);
CREATE TABLE IF NOT EXISTS events (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    hand INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (table_id, hand, seq)
);
