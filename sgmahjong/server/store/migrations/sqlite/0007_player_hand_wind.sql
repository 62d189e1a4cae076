-- The wind a player's seat held in each recorded hand (0 East .. 3 North; the dealer is East), so /me
-- names the seat as the table did. NULL for hands recorded before this column.
ALTER TABLE player_hands ADD COLUMN wind INTEGER;
