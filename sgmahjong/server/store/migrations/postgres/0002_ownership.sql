-- Which worker applied each action, under which lease; the current owner of each table.
-- (The guard itself is a session advisory lock per table, see postgres.py; this is its record.)
ALTER TABLE actions ADD COLUMN worker TEXT NOT NULL DEFAULT '';
ALTER TABLE actions ADD COLUMN lease INTEGER NOT NULL DEFAULT 0;
CREATE TABLE leases (
    table_id INTEGER PRIMARY KEY REFERENCES tables(id),
    worker TEXT NOT NULL,
    epoch INTEGER NOT NULL,
    acquired DOUBLE PRECISION NOT NULL
);
