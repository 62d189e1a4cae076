"""The web server (issue 4): lobby, tables over WebSockets, persistence, timers and bots.

``create_app(database=None, test_hooks=None)`` builds the Starlette application; ``sgmahjong serve``
runs it with uvicorn. The protocol is documented in ``docs/protocol.md``; the folders and what each
may import in ``docs/ARCHITECTURE.md``: ``http/`` (the edge: routes, middleware) over ``tables.py``
and ``matchflow.py``, over ``cluster/`` and ``table/`` (a live table and its parts), over ``store/``.
The server imports the rules core and the bots (through ``table/engine.py``), never the commands.
"""

from __future__ import annotations

from .http.app import create_app
from .protocol import MAX_FRAME, PROTOCOL_VERSION

__all__ = ["MAX_FRAME", "PROTOCOL_VERSION", "create_app"]
