-- The live club page (docs/clubs.md, "The live club page"): when each member last had the club's page
-- open (one row per club and member, written at most every few seconds), and the club's table
-- defaults (the owner's choice of rounds, turn time, pace and bot level, as JSON; '' for none).
CREATE TABLE club_presence (
    club_id INTEGER NOT NULL REFERENCES clubs(id),
    player_id INTEGER NOT NULL,
    seen REAL NOT NULL,
    PRIMARY KEY (club_id, player_id)
);
ALTER TABLE clubs ADD COLUMN table_defaults TEXT NOT NULL DEFAULT '';
