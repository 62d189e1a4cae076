-- A transfer of a club's settle-up ticked as paid by its payer or its payee (docs/clubs.md): scope is
-- "period:N" (since the last settle-up) or "tonight:T" (the evening that began at T); payer, payee and
-- ticked_by are members (players ids); points is the transfer's amount when it was ticked (a tick holds
-- only while the transfer still has that amount).
CREATE TABLE club_ticks (
    club_id INTEGER NOT NULL REFERENCES clubs(id),
    scope TEXT NOT NULL,
    payer INTEGER NOT NULL,
    payee INTEGER NOT NULL,
    points INTEGER NOT NULL,
    ticked_by INTEGER NOT NULL,
    ticked_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (club_id, scope, payer, payee)
);
