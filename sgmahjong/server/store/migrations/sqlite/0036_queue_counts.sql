-- The ranked queue's counts (http/ranked.py, QueueCounts): accounts online are the sessions used
-- lately, and the wait to expect is read from the entries matched lately; both read by time.
CREATE INDEX sessions_by_last_seen ON sessions (last_seen);
CREATE INDEX queue_entries_by_matched ON queue_entries (matched_at);
