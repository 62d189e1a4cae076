"""Several workers sharing one PostgreSQL database: which worker serves which table and the hand-over
between them (``ownership``), and the local cluster launcher (``local``: PostgreSQL, workers, HAProxy).

May import the table package, the store and the server's settings and metrics; never ``http``.
"""
