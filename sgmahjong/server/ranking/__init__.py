"""Ratings, ranks and seasons (docs/accounts.md): the pure ladder (``ladder.py``), which matches are
ranked and the write that rates one when it finishes (``record.py``). The rows and their SQL are
server/store/ratings.py; the leaderboard and rating routes server/http/ranking.py."""
