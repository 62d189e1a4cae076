"""``sgmahjong cluster up|down``: a local cluster from Debian's packages (``make cluster``).

``up`` starts PostgreSQL (a data folder under ``--data``, initialised the first time), ``--workers``
``sgmahjong serve`` processes on free ports sharing it, and HAProxy on ``--port`` routing each table
to one worker; it runs until Ctrl-C (or ``down``) and then stops them all. ``down`` stops a cluster
started in the background, by the process ids it recorded.
"""

from __future__ import annotations

import argparse
import signal
import time

from ..cli import CliError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=["up", "down"], help="start (in the foreground) or stop")
    parser.add_argument("--data", default="data/cluster",
                        help="folder for PostgreSQL and logs (default data/cluster)")
    parser.add_argument("--workers", type=int, default=2, help="server processes (default 2)")
    parser.add_argument("--port", type=int, default=8000, help="HAProxy's port (default 8000)")
    parser.add_argument("--host", default="127.0.0.1", help="HAProxy's address (default 127.0.0.1)")
    parser.add_argument("--database", default=None,
                        help="use this PostgreSQL URL instead of starting one under --data")


def run(args: argparse.Namespace) -> int:
    from ..server.cluster.local import ClusterError, LocalCluster, stop_recorded

    if args.action == "down":
        for line in stop_recorded(args.data) or ["no cluster was running"]:
            print(f"sgmahjong cluster: {line}")
        return 0
    if not 1 <= args.workers <= 64:
        raise CliError(f"--workers must be 1-64; got {args.workers}")
    cluster = LocalCluster(args.data, workers=args.workers, port=args.port, database=args.database,
                           bind=args.host)
    stopping = False

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        cluster.start()
    except ClusterError as exc:
        raise CliError(str(exc)) from None
    print(f"sgmahjong cluster: http://{args.host}:{args.port} -> HAProxy -> "
          + ", ".join(f"{w.name} ({w.url})" for w in cluster.workers)
          + f"; database {cluster.database}; logs in {cluster.folder}."
          " Ctrl-C (or make cluster-stop) stops it.", flush=True)
    exited: set[str] = set()
    try:
        while not stopping:
            for w in cluster.workers:
                if w.proc.poll() is not None and w.name not in exited:
                    exited.add(w.name)
                    print(f"sgmahjong cluster: worker {w.name} exited ({w.proc.returncode});"
                          f" see {w.log_path}", flush=True)
            time.sleep(0.5)
    finally:
        cluster.stop()
        print("sgmahjong cluster: stopped", flush=True)
    return 0
