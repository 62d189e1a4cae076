"""Clubs: a regular group's season ledger and settle-up (docs/talk.md). So far the pure parts:
:mod:`.ledger` (members' nets from their matches' payments) and :mod:`.settle` (the fewest transfers
that settle a ledger)."""
