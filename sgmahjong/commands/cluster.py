"""``sgmahjong cluster up|down``: a local cluster from Debian's packages (``make cluster``).

``up`` starts PostgreSQL (a data folder under ``--data``, initialised the first time), ``--workers``
``sgmahjong serve`` processes sharing it, and HAProxy on ``--port`` routing each table to one worker;
it starts again a worker that exits, and runs until Ctrl-C (or ``down``), then stops them all. The
workers and PostgreSQL take free ports unless ``--worker-ports`` / ``--postgres-port`` (or
``SGMAHJONG_CLUSTER_WORKER_PORTS`` / ``SGMAHJONG_CLUSTER_POSTGRES_PORT``) fix them; a port that is taken
is refused in one line before anything starts. HAProxy's limits are ``SGMAHJONG_PROXY_*``
(sgmahjong/server/cluster/haproxy.py). ``down`` stops a cluster started in the background, by the
process ids it recorded.
"""

from __future__ import annotations

import argparse
import signal
import time

from ..cli import CliError


def _ports(text: str) -> list[int]:
    try:
        return [int(p) for p in text.split(",") if p.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"ports are whole numbers, comma-separated; got {text!r}") from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=["up", "down"], help="start (in the foreground) or stop")
    parser.add_argument("--data", default="data/cluster",
                        help="folder for PostgreSQL and logs (default data/cluster)")
    parser.add_argument("--workers", type=int, default=2, help="server processes (default 2)")
    parser.add_argument("--port", type=int, default=None,
                        help="HAProxy's port (default $SGMAHJONG_CLUSTER_PORT, else 8000)")
    parser.add_argument("--host", default="127.0.0.1", help="HAProxy's address (default 127.0.0.1)")
    parser.add_argument("--worker-ports", type=_ports, default=None, metavar="P1,P2,...",
                        help="each worker's port, in order (default $SGMAHJONG_CLUSTER_WORKER_PORTS,"
                             " else free ports)")
    parser.add_argument("--postgres-port", type=int, default=None,
                        help="PostgreSQL's port (default $SGMAHJONG_CLUSTER_POSTGRES_PORT, else a free one)")
    parser.add_argument("--database", default=None,
                        help="use this PostgreSQL URL instead of starting one under --data")


def run(args: argparse.Namespace) -> int:
    from ..server.cluster.haproxy import ProxySettings
    from ..server.cluster.local import ClusterError, ClusterPorts, LocalCluster, stop_recorded
    from ..server.settings import SettingsError

    if args.action == "down":
        for line in stop_recorded(args.data) or ["no cluster was running"]:
            print(f"sgmahjong cluster: {line}")
        return 0
    if not 1 <= args.workers <= 64:
        raise CliError(f"--workers must be 1-64; got {args.workers}")
    given = {k: v for k, v in (("port", args.port), ("postgres_port", args.postgres_port),
                               ("worker_ports", args.worker_ports)) if v is not None}
    try:
        ports = ClusterPorts.from_env(**given)
        proxy = ProxySettings.from_env()
        cluster = LocalCluster(args.data, workers=args.workers, port=ports.port, database=args.database,
                               bind=args.host, worker_ports=tuple(ports.worker_ports),
                               postgres_port=ports.postgres_port, proxy=proxy)
    except (SettingsError, ClusterError) as exc:
        raise CliError(str(exc)) from None
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
    print(f"sgmahjong cluster: http://{args.host}:{cluster.port} -> HAProxy -> "
          + ", ".join(f"{w.name} ({w.url})" for w in cluster.workers)
          + f"; database {cluster.database}; logs in {cluster.folder}."
          " Ctrl-C (or make cluster-stop) stops it.", flush=True)
    try:
        while not stopping:
            cluster.supervise(say=lambda line: print(f"sgmahjong cluster: {line}", flush=True))
            time.sleep(0.5)
    finally:
        cluster.stop()
        print("sgmahjong cluster: stopped", flush=True)
    return 0
