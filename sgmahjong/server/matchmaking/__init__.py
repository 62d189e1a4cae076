"""Ranked matchmaking (docs/accounts.md, "Ranked play"): the queue lives in the store
(server/store/queue.py) so that every worker of a cluster matches from it; ``matcher.py`` runs the
matching on each worker and opens the tables; the routes are server/http/ranked.py."""
