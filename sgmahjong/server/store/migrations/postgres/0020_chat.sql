-- Chat at a table: each message with the hand it was said in and the number of that hand's actions
-- applied by then (``step``, the replay's step); seat NULL: a spectator. kind: text, phrase or emote.
CREATE TABLE chat (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    hand INTEGER NOT NULL,
    step INTEGER NOT NULL,
    seat INTEGER,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE INDEX chat_hand ON chat (table_id, hand, step);
