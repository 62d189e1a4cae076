"""One live table (``table.Table``) and its parts: seats, connections and the fan-out, deadlines, the
bot driver, the claim-window pause and the seats' hints, with the server's narrow use of the game
engine (``engine``).

May import the core (``sgmahjong.game``, ``rules``, ``hints``, ...; bots only through ``engine``), the
store, and the server's settings, options, protocol and metrics; never ``http`` or ``cluster``.
"""
