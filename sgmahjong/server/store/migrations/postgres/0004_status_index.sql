-- the live tables (neither finished nor closed) are found by status at startup
CREATE INDEX IF NOT EXISTS tables_status ON tables (status);
