-- A finished hand reviewed for one seat (mode "expert": priced by the expert's search at ``deals``
-- deals per decision), stored so it is computed once. body: the review's JSON.
CREATE TABLE reviews (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    hand INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    mode TEXT NOT NULL,
    deals INTEGER NOT NULL,
    body TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, hand, seat, mode, deals)
);
