"""HAProxy as the front door (issue 23), a real cluster: two workers on PostgreSQL behind the proxy that
``sgmahjong cluster up`` generates. A slowloris of 4,000 half-sent requests from one address does not
stop a player at another address; behind the proxy each worker's per-address WebSocket cap applies
again (the workers believe the proxy's X-Forwarded-For). And ``cluster up`` takes fixed ports, and
refuses a taken one in one line before starting anything.

Every client here is on loopback: the attacker's sockets are bound to 127.0.0.2 and 127.0.0.3, the
players' to 127.0.0.1 (the whole 127.0.0.0/8 is this machine).
"""

from __future__ import annotations

import contextlib
import os
import resource
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from sgmahjong.server.cluster.local import LocalCluster
from sgmahjong.server.settings import ServerSettings
from tests.conftest import FAST_OPTIONS, free_port, remember_seat
from tests.test_cluster import Player, _play

ROOT = Path(__file__).resolve().parents[1]
ATTACKS = 4000


@pytest.fixture(scope="module")
def cluster(postgres: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = ATTACKS + 2000
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))
    url = postgres.create_database(f"frontdoor_{free_port()}")
    c = LocalCluster(tmp_path_factory.mktemp("frontdoor") / "cluster", workers=2, port=free_port(),
                     database=url)
    c.start()
    try:
        yield c
    finally:
        c.stop()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def from_address(address: str, port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((address, 0))
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    return sock


def closed(sock: socket.socket) -> bool:
    """Whether the peer has closed ``sock`` (it reads EOF or a reset), without waiting."""
    sock.setblocking(False)
    try:
        return sock.recv(4096) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def test_a_slowloris_from_one_address_does_not_stop_another_client_playing(cluster: LocalCluster) -> None:
    attack: list[socket.socket] = []
    reset = 0  # refused while connecting
    try:
        for _ in range(ATTACKS):  # half-sent requests: the headers never end
            try:
                sock = from_address("127.0.0.2", cluster.port)
            except ConnectionResetError:
                reset += 1
                continue
            attack.append(sock)
            with contextlib.suppress(OSError):  # the proxy may have closed it already
                sock.send(b"GET /api/tables HTTP/1.1\r\nHost: sgmahjong\r\nX-Slow: ")
        # meanwhile a player at another address creates a table, seats four and plays
        with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.1"), timeout=10) as web:
            r = web.post(cluster.url + "/api/tables", json={"name": "Busy night", "options": FAST_OPTIONS})
            assert r.status_code == 201, r.text
            code = r.json()["code"]
            players = []
            for seat, name in enumerate(("Ann", "Bob", "Cat", "Dan")):  # four players: four browsers
                j = httpx.post(f"{cluster.url}/api/tables/{code}/join", json={"name": name, "seat": seat},
                               timeout=10)
                assert j.status_code == 200, j.text
                remember_seat(j)
                players.append(Player(f"ws://127.0.0.1:{cluster.port}/ws/{code}", j.json()["token"], seat))
        for p in players:
            assert p.connect()
        assert players[0].ws is not None
        players[0].ws.send({"type": "start"})
        _play(players, 12)
        # the proxy turned the attack away: all but its per-client share of connections were closed
        cut = reset + sum(closed(s) for s in attack)
        print(f"\n{cut} of {ATTACKS} half-sent requests closed by the proxy while a table played")
        assert cut >= ATTACKS - cluster.proxy_settings.client_connections
    finally:
        for s in attack:
            s.close()


def test_behind_the_proxy_the_per_address_websocket_cap_applies(cluster: LocalCluster) -> None:
    code = httpx.post(cluster.url + "/api/tables", json={"name": "Idle", "options": FAST_OPTIONS},
                      timeout=10).json()["code"]
    admitted: list[Any] = []
    refused = 0
    for _ in range(300):  # idle sockets (no hello) from one address, to one table (so one worker)
        try:
            sock = from_address("127.0.0.3", cluster.port)
            ws = connect(f"ws://127.0.0.1:{cluster.port}/ws/{code}", sock=sock, open_timeout=10,
                         proxy=None, legacy=True)
        except Exception:
            refused += 1  # refused at the handshake (the worker's per-address connection cap)
            continue
        try:
            ws.recv(timeout=0.5)  # an admitted spectator is sent nothing before its hello ...
            refused += 1  # ... a refused one its reason (too_many), then the close
            with contextlib.suppress(Exception):
                ws.close()
        except TimeoutError:
            admitted.append(ws)
    for ws in admitted:
        ws.close()
    cap = ServerSettings().spectators_per_address
    print(f"\n{len(admitted)} of 300 idle WebSockets from one address admitted (spectators per address"
          f" {cap}, proxy cap {cluster.proxy_settings.client_connections})")
    assert 0 < len(admitted) <= cap < cluster.proxy_settings.client_connections
    assert refused == 300 - len(admitted)


def cluster_up(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "sgmahjong", "cluster", "up", *args], capture_output=True,
                          text=True, timeout=60, env=env, check=False)


def test_cluster_up_refuses_a_taken_port_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        data = str(tmp_path / "c")
        runs = {
            f"port {port} for worker w2 is in use": ["--worker-ports", f"{free_port()},{port}"],
            f"port {port} for HAProxy is in use": ["--port", str(port)],
            f"port {port} for PostgreSQL is in use": ["--port", "0", "--postgres-port", str(port)],
            "2 ports for 3 workers": ["--workers", "3", "--worker-ports", "8001,8002"],
        }
        for words, args in runs.items():
            run = cluster_up("--data", data, *args)
            lines = [line for line in run.stderr.splitlines() if line.strip()]
            assert run.returncode == 2 and len(lines) == 1 and words in lines[0], run.stderr
            assert "Traceback" not in run.stderr
        env_run = subprocess.run(  # the same from the environment
            [sys.executable, "-m", "sgmahjong", "cluster", "up", "--data", data], capture_output=True,
            text=True, timeout=60, check=False,
            env={**os.environ, "PYTHONPATH": str(ROOT), "SGMAHJONG_CLUSTER_PORT": "0",
                 "SGMAHJONG_CLUSTER_WORKER_PORTS": f"{port},{free_port()}"})
        assert env_run.returncode == 2 and f"port {port} for worker w1 is in use" in env_run.stderr
    assert not (tmp_path / "c" / "postgres").exists()  # nothing was started


def test_cluster_up_serves_on_the_fixed_ports_it_is_given(tmp_path: Path) -> None:
    import json
    import signal

    proxy, w1, w2, pg = (free_port() for _ in range(4))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SGMAHJONG_CLUSTER_POSTGRES_PORT": str(pg)}
    data = tmp_path / "fixed"
    proc = subprocess.Popen(
        [sys.executable, "-m", "sgmahjong", "cluster", "up", "--data", str(data), "--port", str(proxy),
         "--worker-ports", f"{w1},{w2}"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # printed once everything is up (or nothing, if it failed)
        assert line.startswith("sgmahjong cluster: "), (line, proc.stderr.read() if proc.stderr else "")
        info = json.loads((data / "cluster.json").read_text())
        assert info["port"] == proxy and [w["port"] for w in info["workers"]] == [w1, w2]
        assert f"127.0.0.1:{pg}/" in info["database"]
        assert httpx.get(f"http://127.0.0.1:{proxy}/api/health", timeout=10).status_code == 200
    finally:
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and "Traceback" not in err
