-- The ranked queue (docs/accounts.md, "Ranked play"): one entry per waiting account, matched by any
-- worker (on PostgreSQL each worker takes the rows it matches with FOR UPDATE SKIP LOCKED, so no two
-- seat one player). The ticket (the player's seat token once seated) is stored only hashed.
CREATE TABLE queue_entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    ticket_hash TEXT NOT NULL UNIQUE,
    account_id INTEGER NOT NULL UNIQUE REFERENCES accounts(id),
    player_id INTEGER NOT NULL REFERENCES players(id),
    name TEXT NOT NULL,
    rating REAL NOT NULL,
    joined REAL NOT NULL,
    heartbeat REAL NOT NULL,
    status TEXT NOT NULL,
    worker TEXT,
    matched_at REAL,
    table_code TEXT,
    seat INTEGER
);
CREATE INDEX queue_entries_by_status ON queue_entries (status, joined);
