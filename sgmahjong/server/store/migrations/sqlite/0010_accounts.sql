-- Accounts without passwords (docs/accounts.md): an account owns the browser identities (players)
-- that signed in to it, so its history is theirs; it signs in by passkey (WebAuthn) or by a one-time
-- device link code. Session ids and link codes are stored only hashed (SHA-256).
CREATE TABLE accounts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    handle TEXT NOT NULL UNIQUE,
    created REAL NOT NULL
);
ALTER TABLE players ADD COLUMN account_id INTEGER REFERENCES accounts(id);
CREATE INDEX players_by_account ON players (account_id);
CREATE TABLE sessions (
    id_hash TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    created REAL NOT NULL,
    expires REAL NOT NULL,
    last_seen REAL NOT NULL,
    label TEXT NOT NULL
);
CREATE INDEX sessions_by_account ON sessions (account_id);
CREATE TABLE passkeys (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    credential_id TEXT NOT NULL UNIQUE,
    public_key TEXT NOT NULL,
    sign_count BIGINT NOT NULL,
    created REAL NOT NULL,
    last_used REAL,
    label TEXT NOT NULL
);
CREATE INDEX passkeys_by_account ON passkeys (account_id);
CREATE TABLE link_codes (
    code_hash TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    created REAL NOT NULL,
    expires REAL NOT NULL,
    used REAL
);
CREATE INDEX link_codes_by_account ON link_codes (account_id);
-- a WebAuthn ceremony in progress (its challenge), so that any worker can finish it
CREATE TABLE auth_flows (
    id_hash TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    challenge TEXT NOT NULL,
    account_id INTEGER REFERENCES accounts(id),
    name TEXT,
    handle TEXT,
    expires REAL NOT NULL
);
