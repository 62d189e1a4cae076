-- Notifications and the group's evening (docs/clubs.md, "Evenings and notifications").
-- The server's VAPID key pair for Web Push, made once by the first server to need it (id is always 1:
-- a second worker making one at the same time keeps the first): the private key as PEM, the public key
-- as the base64url of its uncompressed point (what browsers take as applicationServerKey).
CREATE TABLE push_keys (
    id INTEGER PRIMARY KEY,
    private_pem TEXT NOT NULL,
    public_key TEXT NOT NULL,
    created REAL NOT NULL
);
-- A player's push subscriptions (one per browser): the push service's endpoint and the browser's keys,
-- with the page's language (the notifications' words). Removed when the push service answers 404 or
-- 410, when the player signs out everywhere or is deleted.
CREATE TABLE push_subscriptions (
    endpoint TEXT PRIMARY KEY,
    player_id INTEGER NOT NULL,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    lang TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE INDEX push_subscriptions_by_player ON push_subscriptions (player_id, created);
-- The clubs a member asked to be told about.
CREATE TABLE push_clubs (
    club_id INTEGER NOT NULL,
    player_id INTEGER NOT NULL,
    PRIMARY KEY (club_id, player_id)
);
-- A proposed evening of a club: when it starts (UTC seconds) and the club's zone it was said in, how
-- many players it needs; cancelled when the owner called it off; reminded when a server claimed its
-- reminder (set once: the reminder is sent once); table_code: the table opened for it.
CREATE TABLE club_sessions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    club_id INTEGER NOT NULL,
    proposer INTEGER NOT NULL,
    starts REAL NOT NULL,
    zone TEXT NOT NULL,
    needed INTEGER NOT NULL,
    created REAL NOT NULL,
    cancelled REAL,
    reminded REAL,
    table_code TEXT
);
CREATE INDEX club_sessions_by_club ON club_sessions (club_id, starts);
CREATE INDEX club_sessions_due ON club_sessions (starts);
-- Each member's answer to an evening: in, maybe or out (the latest kept).
CREATE TABLE club_rsvps (
    session_id INTEGER NOT NULL,
    player_id INTEGER NOT NULL,
    answer TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (session_id, player_id)
);
