-- A player's chosen avatar (an id of static/js/avatars.js; NULL: none chosen).
ALTER TABLE players ADD COLUMN avatar TEXT;
