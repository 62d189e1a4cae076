-- A worker that is asked for a table another worker holds records when it asked (the holder hands
-- the table over when wanted > acquired).
ALTER TABLE leases ADD COLUMN wanted DOUBLE PRECISION;
