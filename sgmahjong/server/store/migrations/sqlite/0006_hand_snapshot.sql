-- The match's state at each hand's start (JSON: round, dealer, hand number, ledger, history;
-- game.match_snapshot), so a restart rebuilds a live table from its last hand alone. NULL for hands
-- stored before this column (they are replayed from the match's first hand).
ALTER TABLE hands ADD COLUMN snapshot TEXT;
