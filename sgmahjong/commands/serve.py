"""``sgmahjong serve``: run the web server (uvicorn, one process)."""

from __future__ import annotations

import argparse
import gc

from ..cli import CliError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument(
        "--database",
        default=None,
        help="SQLite URL or file, or a postgresql:// URL"
        " (default $DATABASE_URL, else ./data/sgmahjong.sqlite3)",
    )
    parser.add_argument("--log-level", default="warning", help="uvicorn log level (default warning)")


def tune_gc(interval: float) -> None:
    """Garbage collection that does not pause the tables every few seconds.

    Steady play makes no cyclic garbage (a table's states, views, messages and commits are freed by
    reference counting the moment they are replaced: tests/test_server_gc.py), so the collector's
    passes find nothing, yet each walks every young object still alive, and a table's state is
    renewed at each of its steps: at 1,000 tables, with the default thresholds or (5000, 10, 100),
    passes of 10-70 ms every few hundred steps, of 100-150 ms every ten of them and full passes of
    0.2-0.5 s, each stopping every table; with one pass per 200,000 new objects, a 0.25-0.5 s pass
    every few minutes. So automatic collection is off, and the app makes one full pass every
    ``interval`` seconds (``SGMAHJONG_GC_INTERVAL_SECONDS``, default 600: cyclic garbage from errors
    or closed sockets lives at most that long; ``memory.collect_garbage``); 0 keeps Python's
    automatic passes. What exists after start-up (modules, settings) is left out of every pass."""
    from ..server.metrics import track_gc

    gc.collect()
    gc.freeze()
    if interval > 0:
        gc.disable()
    track_gc()


def log_with_levels() -> None:
    """The server's log lines (not the JSON event lines) on stderr with their level and logger, e.g.
    ``WARNING sgmahjong.server: storage unavailable: ...``: an ERROR line is an error of the code, a
    WARNING one a fault around it that the server handled (a database down, a disk full)."""
    import logging
    import sys

    server_log = logging.getLogger("sgmahjong")
    if not server_log.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        server_log.addHandler(handler)
        server_log.setLevel(logging.WARNING)


LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def passkeys_note(host: str, rp_id: str, origins: tuple[str, ...]) -> str | None:
    """The one line said at start when the server listens beyond this machine and passkeys are off
    (``SGMAHJONG_WEBAUTHN_RP_ID`` or ``..._ORIGINS`` unset: see http/passkeys.offered), else None."""
    if host in LOCAL_HOSTS or (rp_id and origins):
        return None
    return (f"passkeys are off for every host but localhost until SGMAHJONG_WEBAUTHN_RP_ID and"
            f" SGMAHJONG_WEBAUTHN_ORIGINS are set (serving on {host}); devices sign in with link codes")


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from ..server import create_app
    from ..server.http.guard import uvicorn_options
    from ..server.settings import ServerSettings, SettingsError
    from ..server.store import StoreError, check_url, describe_url, open_store

    if not 0 < args.port < 65536:
        raise CliError(f"port must be 1-65535; got {args.port}")
    try:
        db = check_url(args.database)
        open_store(db).close()  # reachable, and its schema migrated, before the server starts
    except (ValueError, StoreError) as exc:
        raise CliError(str(exc)) from None
    from ..server import events

    try:
        settings = ServerSettings.from_env()
    except SettingsError as exc:
        raise CliError(str(exc)) from None
    events.setup()
    log_with_levels()
    note = passkeys_note(args.host, settings.webauthn_rp_id, settings.webauthn_origins)
    if note is not None:
        import logging

        logging.getLogger("sgmahjong.server").warning(note)
    app = create_app(db, settings=settings)
    tune_gc(settings.gc_interval_seconds)
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    print(f"sgmahjong: serving on http://{shown}:{args.port}  (database {describe_url(db)})", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, **uvicorn_options(settings))
    return 0
