-- Invite links told apart: the owner's label of each link ("for Mei Ling", plain text; '' for none)
-- and the player who made it (NULL for a link made before: the invite page then names the owner).
ALTER TABLE club_invites ADD COLUMN label TEXT NOT NULL DEFAULT '';
ALTER TABLE club_invites ADD COLUMN maker INTEGER REFERENCES players(id);
