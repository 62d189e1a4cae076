"""``sgmahjong serve``: run the web server (uvicorn, one process)."""

from __future__ import annotations

import argparse
import gc

from ..cli import CliError

GC_THRESHOLDS = (5_000, 10, 100)  # gc.set_threshold for the server process (default 700, 10, 10)


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


def tune_gc() -> None:
    """The server allocates many short-lived objects (views, deltas, messages) and keeps many long-lived
    ones (every table's states): with the default thresholds the collector promotes a table's states
    to the oldest generation within milliseconds, and the full collections that follow pause every
    table (about 0.1 s at 300 tables). Young collections are made rarer, so most states die before
    they are promoted, while each pass stays short (in-process at 300 tables, passes of at most
    ~50 ms; larger thresholds gave fewer but longer ones); what exists after start-up (modules,
    settings) is left out of every collection."""
    from ..server.metrics import track_gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_THRESHOLDS[0], GC_THRESHOLDS[1], GC_THRESHOLDS[2])
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
    tune_gc()
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    print(f"sgmahjong: serving on http://{shown}:{args.port}  (database {describe_url(db)})", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, **uvicorn_options(settings))
    return 0
