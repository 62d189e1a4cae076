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


def tune_gc(young_objects: int) -> None:
    """Garbage collection that does not pause the tables every few seconds.

    The server's steady play makes no cyclic garbage (a table's states, views and messages are freed
    by reference counting the moment they are replaced; checked with ``gc.DEBUG_SAVEALL`` over minutes
    of play), so the collector's passes find next to nothing, yet each one walks every young object
    still alive: with the default thresholds, or (5000, 10, 100), at 1,000 tables that is a pass of
    10-70 ms every few hundred steps, a pass of the middle generation (100-150 ms) every ten of them
    and full passes of 0.2-0.5 s, each stopping every table. So a pass starts only after
    ``young_objects`` more tracked objects were made than freed (``SGMAHJONG_GC_YOUNG_OBJECTS``, the
    first gc threshold): in steady play that is rarely (one pass of about 0.2 s every few minutes at
    1,000 tables), and cyclic garbage (from errors, closed sockets) is still collected within that
    bound. What exists after start-up (modules, settings) is left out of every pass."""
    from ..server.metrics import track_gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(young_objects, 10, 10)
    track_gc()


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from ..server import create_app
    from ..server.guard import uvicorn_options
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
    app = create_app(db, settings=settings)
    tune_gc(settings.gc_young_objects)
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    print(f"sgmahjong: serving on http://{shown}:{args.port}  (database {describe_url(db)})", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, **uvicorn_options(settings))
    return 0
