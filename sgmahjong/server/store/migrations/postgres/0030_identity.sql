-- One identity for every visitor (docs/security.md). A session belongs to a player: a guest is a player
-- without an account; signing in gives the session's player to the account. A session carries its
-- device's lineage (kept when the session is replaced at sign-in and sign-out), and the address it
-- was last used from. Every account keeps at least one player.
INSERT INTO players (secret_hash, name, created, account_id)
    SELECT 'account:' || a.id, a.name, a.created, a.id FROM accounts a
    WHERE NOT EXISTS (SELECT 1 FROM players p WHERE p.account_id = a.id);
CREATE TABLE sessions_v2 (
    id_hash TEXT PRIMARY KEY,
    player_id INTEGER NOT NULL REFERENCES players(id),
    account_id INTEGER REFERENCES accounts(id),
    lineage TEXT NOT NULL,
    address TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    expires DOUBLE PRECISION NOT NULL,
    last_seen DOUBLE PRECISION NOT NULL,
    label TEXT NOT NULL
);
INSERT INTO sessions_v2 (id_hash, player_id, account_id, lineage, address, created, expires, last_seen, label)
    SELECT s.id_hash, (SELECT MIN(p.id) FROM players p WHERE p.account_id = s.account_id), s.account_id,
           s.id_hash, '', s.created, s.expires, s.last_seen, s.label
    FROM sessions s;
DROP TABLE sessions;
ALTER TABLE sessions_v2 RENAME TO sessions;
CREATE INDEX sessions_by_account ON sessions (account_id);
CREATE INDEX sessions_by_player ON sessions (player_id);
-- a deleted player or account keeps its row (so a table's and a match's records still hold), anonymised
ALTER TABLE players ADD COLUMN deleted DOUBLE PRECISION;
ALTER TABLE accounts ADD COLUMN deleted DOUBLE PRECISION;
-- the devices (session lineages, hashed) and addresses each account was seen from, for the ranked
-- queue's rule on accounts of one person and for the operator's view
CREATE TABLE account_sightings (
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    kind TEXT NOT NULL,
    value TEXT NOT NULL,
    first_seen DOUBLE PRECISION NOT NULL,
    last_seen DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (account_id, kind, value)
);
CREATE INDEX account_sightings_by_value ON account_sightings (kind, value, last_seen);
-- only the matches of the tables the ranked queue opened are rated (accounts: JSON, each seat's)
CREATE TABLE ranked_tables (
    table_id INTEGER PRIMARY KEY REFERENCES tables(id),
    accounts TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL
);
-- what a rated match was rated from (JSON: each seat's account, place and whether it left), so every
-- rating can be computed again from the record; a voided match counts for nobody
ALTER TABLE rated_matches ADD COLUMN record TEXT;
ALTER TABLE rated_matches ADD COLUMN voided DOUBLE PRECISION;
