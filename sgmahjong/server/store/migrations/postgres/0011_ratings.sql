-- Ratings and ranks (docs/accounts.md): one row per account and season ('all' = all time), updated
-- once per finished ranked match (rated_matches: a match is rated at most once), and each match's
-- result for the chart of rating over time.
CREATE TABLE ratings (
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    season TEXT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    matches INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    points INTEGER NOT NULL,
    updated DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (account_id, season)
);
CREATE INDEX ratings_by_season ON ratings (season);
CREATE TABLE rated_matches (
    table_id INTEGER PRIMARY KEY REFERENCES tables(id),
    rated DOUBLE PRECISION NOT NULL,
    season TEXT NOT NULL
);
CREATE TABLE rating_history (
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    table_id INTEGER NOT NULL REFERENCES tables(id),
    season TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    place INTEGER NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    matches INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    points INTEGER NOT NULL,
    PRIMARY KEY (account_id, table_id, season)
);
