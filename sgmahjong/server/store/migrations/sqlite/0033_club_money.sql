-- Points first: a club's ledger is in points unless its owner opted in to money (money = 1), having
-- confirmed the notice of the law on social gambling; money_at is when they last did (NULL: never).
ALTER TABLE clubs ADD COLUMN money INTEGER NOT NULL DEFAULT 0;
ALTER TABLE clubs ADD COLUMN money_at DOUBLE PRECISION;
