-- The address a passkey ceremony was begun from (its SHA-256), so that one address keeps only a few
-- live ceremonies (the oldest dropped beyond), and an index on their expiry, so that expired
-- ceremonies and the oldest beyond the cap in all are found without reading the table.
ALTER TABLE auth_flows ADD COLUMN owner TEXT;
CREATE INDEX auth_flows_by_owner ON auth_flows (owner, expires);
CREATE INDEX auth_flows_by_expiry ON auth_flows (expires);
