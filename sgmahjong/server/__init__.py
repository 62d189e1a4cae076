"""The web server (issue 4): lobby, tables over WebSockets, persistence, timers and bots.

``create_app(database=None, test_hooks=None)`` builds the Starlette application; ``sgmahjong serve``
runs it with uvicorn. The protocol is documented in ``docs/protocol.md``.
"""

from __future__ import annotations

from .http.app import create_app
from .protocol import MAX_FRAME, PROTOCOL_VERSION

__all__ = ["MAX_FRAME", "PROTOCOL_VERSION", "create_app"]
