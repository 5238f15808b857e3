"""Followers of one tournament stream (server-sent events) on one ASGI worker process.

1. Recreates the PostgreSQL database --db (default hg_bench_streams), migrates it, creates an
   organiser, a public tournament and --events players.
2. For each N of --followers (default 100,500,1000,2000): starts one uvicorn worker process
   serving config.asgi on 127.0.0.1:--port, opens N followers of
   GET /api/tournaments/{id}/stream/ from this process (asyncio sockets, loopback only,
   each resuming from the stream's current version), reads the server's resident memory
   before and after they connect, then has a second process commit --events registrations
   (one event per commit) at --rate per second, each stamped with its commit time.
3. Prints, per N: commit-to-delivery latency p50/p99 over every (follower, event), whether
   every follower got every event exactly once and in order, the server's memory per
   connection ((RSS with N followers - RSS with none) / N), its CPU time (utime + stime of
   /proc/<pid>/stat) from the first commit to the last delivery per event per follower,
   and its stop: SIGTERM sent with the N followers still connected, seconds until it
   exits, and the tasks it said it cancelled at its graceful timeout (--graceful).
4. Then the ratio of the p99 at the largest N to the p99 at the smallest, in this run.

    .venv/bin/python bench/streams.py [--followers 100,500,1000,2000] [--events 50] [--rate 10]

The server runs with this interpreter (a worktree without its own .venv measures its own
code with the venv it is run with), in the directory above this script, or in --root:
this script measures another tree's code (a worktree of the code before a change) as its
own. Latencies are from each event's commit (PostgreSQL's COMMIT returned to the
committer); the committer's service returns some milliseconds later (on-commit jobs),
printed as commit_to_return_p50_ms.

Target (issue 13): at 1,000 followers, p99 under 1 s and under 200 KB per connection, every
follower receiving every event exactly once, in order.
Target (issue 41): at 5,000 followers, p99 within 8x of the p99 at 100 in the same run,
under 100 KB a connection, the stop within the graceful timeout with no task cancelled.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parent.parent
ID_LINE = re.compile(rb"^id: (\d+)\r?$", re.M)
PYTHON = sys.executable

SETUP = """
import json
from players.models import Player
from players.services import player_create
from tournaments import services
org = player_create(name="Organiser", username="organiser", password="bench-pass-1").user
org.is_staff = True
org.save()
t = services.tournament_create(name="Bench", format="swiss", rounds=3, created_by=org)
ids = [Player.objects.create(name=f"P{i}").pk for i in range(EVENTS)]
print(json.dumps({"tournament": t.pk, "organiser": org.pk, "players": ids}))
"""

# Registrations at a steady rate; each printed with the time of its commit (PostgreSQL's
# COMMIT returned: the followers are notified then) and the time the service returned (its
# work after the commit: on-commit jobs, then the return; the latencies were measured
# from the return until 2026-12-02, which made them look shorter by that work, even < 0).
COMMIT = """
import json, sys, time
from django.contrib.auth import get_user_model
from django.db import connections
db, commits = connections["default"], []
real_commit = db._commit
def _commit(*args):
    real_commit(*args)
    commits.append(time.time())
db._commit = _commit
from players.models import Player
from tournaments import services
from tournaments.models import Tournament
org = get_user_model().objects.get(pk=ORG)
period = 1.0 / RATE
start = time.monotonic()
for n, pid in enumerate(PLAYERS):
    time.sleep(max(0.0, start + n * period - time.monotonic()))
    player = Player.objects.get(pk=pid)
    del commits[:]
    services.tournament_register(tournament_id=TID, player=player, by=org)
    returned = time.time()
    version = Tournament.objects.get(pk=TID).version
    print(json.dumps({"version": version, "t": commits[0], "returned": returned}), flush=True)
"""


def _env(db: str) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{db}",
        "DEBUG": "false",
        "CONN_MAX_AGE": "600",
        "LOG_LEVEL": "WARNING",
        "CELERY_BROKER_URL": "",
    }


def _shell(db: str, code: str) -> str:
    return subprocess.run(
        [PYTHON, "manage.py", "shell", "-c", code],
        cwd=ROOT, env=_env(db), check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip


def prepare(db: str, events: int) -> dict:
    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
        c.execute(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')
        c.execute(f'CREATE DATABASE "{db}"')
    subprocess.run(
        [PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT, env=_env(db), check=True,
    )  # fmt: skip
    return json.loads(_shell(db, SETUP.replace("EVENTS", str(events))).strip().splitlines()[-1])


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def _version(db: str, tid: int) -> int:
    with psycopg.connect(f"postgresql://postgres@127.0.0.1:5432/{db}") as c:
        return c.execute(
            "SELECT version FROM tournaments_tournament WHERE id = %s", [tid]
        ).fetchone()[0]


def _request(tid: int, after: int) -> bytes:
    return (
        f"GET /api/tournaments/{tid}/stream/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Accept: text/event-stream\r\nLast-Event-ID: {after}\r\n\r\n"
    ).encode()


class _Follower(asyncio.Protocol):
    """One follower, read as its bytes arrive: the `id:` lines of what came, stamped with
    the time they came (a StreamReader and a readline() per line cost the bench more than
    the server spends per message: at 5,000 followers the readers set the latency)."""

    def __init__(self, request: bytes) -> None:
        loop = asyncio.get_running_loop()
        self.request = request
        self.got: list[tuple[int, float]] = []
        self.head: bytes | None = b""  # the response's head until it is whole
        self.tail = b""  # a line cut by a read, until the next
        self.ready = loop.create_future()
        self.closed = loop.create_future()
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        transport.write(self.request)  # type: ignore[attr-defined]

    def data_received(self, data: bytes) -> None:
        now = time.time()
        if self.head is not None:
            self.head += data
            end = self.head.find(b"\r\n\r\n")
            if end < 0:
                return
            if b" 200 " not in self.head.split(b"\r\n", 1)[0]:
                self.ready.set_exception(RuntimeError(self.head[:200]))
                return
            data, self.head = self.head[end + 4 :], None
            self.ready.set_result(True)
        # Each message is inside one chunk of the chunked framing.
        data = self.tail + data
        cut = data.rfind(b"\n") + 1
        data, self.tail = data[:cut], data[cut:]
        for found in ID_LINE.finditer(data):
            self.got.append((int(found.group(1)), now))

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.ready.done():
            self.ready.set_exception(ConnectionError("closed before the response"))
        if not self.closed.done():
            self.closed.set_result(None)


def _readers(pipe: Any, port: int, tid: int) -> None:
    """A reader process: opens the followers it is told to, reports their deliveries."""
    with contextlib.suppress(ImportError):
        import uvloop  # the bench's own loop: its readers' cost is not the server's

        uvloop.install()
    asyncio.run(_readers_main(pipe, port, tid))


async def _open(port: int, tid: int, n: int, after: int) -> list[_Follower]:
    """`n` followers of the stream from `after`, each once its response's head came."""
    loop = asyncio.get_running_loop()
    gate = asyncio.Semaphore(100)

    async def open_one() -> _Follower:
        async with gate:
            follower = _Follower(_request(tid, after))
            await loop.create_connection(lambda: follower, "127.0.0.1", port)
            await asyncio.wait_for(follower.ready, 60)
            return follower

    return list(await asyncio.gather(*(open_one() for _ in range(n))))


async def _readers_main(pipe: Any, port: int, tid: int) -> None:
    loop = asyncio.get_running_loop()

    async def recv() -> Any:
        return await loop.run_in_executor(None, pipe.recv)

    while (order := await recv()) is not None:
        followers = await _open(port, tid, *order)
        pipe.send("connected")
        expected = await recv()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(len(f.got) < expected for f in followers):
            await asyncio.sleep(0.05)
        pipe.send([f.got for f in followers])
        await recv()  # the server has been told to stop: its streams end
        await asyncio.wait([f.closed for f in followers], timeout=15)
        for follower in followers:
            if follower.transport is not None:
                follower.transport.close()
        pipe.send("closed")


async def run_one(
    n: int, args: argparse.Namespace, setup: dict, players: list, readers: list
) -> dict:
    tid = setup["tournament"]
    loop = asyncio.get_running_loop()
    env = {**_env(args.db), "LIVE_KEEPALIVE_SECONDS": "15"}
    server_log = tempfile.TemporaryFile(mode="w+")  # noqa: SIM115 (closed in `finally`)
    server = subprocess.Popen(
        [PYTHON, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
         "--port", str(args.port), "--workers", "1", "--no-access-log", "--log-level",
         "info", "--backlog", "4096", "--timeout-graceful-shutdown", str(args.graceful),
         "--http", args.http, "--loop", args.loop],
        cwd=ROOT, env={**env, "DJANGO_SETTINGS_MODULE": "config.settings.base"},
        stdout=server_log, stderr=subprocess.STDOUT,
    )  # fmt: skip

    async def each(message: Any) -> list:
        """Send `message` to every reader process and gather their answers."""
        for pipe in readers:
            pipe.send(message)
        return [await loop.run_in_executor(None, pipe.recv) for pipe in readers]

    stop_s = None
    logs: list[list[tuple[int, float]]] = []
    try:
        for _ in range(100):
            try:
                _, w = await asyncio.open_connection("127.0.0.1", args.port)
                w.close()
                break
            except OSError:
                await asyncio.sleep(0.1)
        after = _version(args.db, tid)
        # One follower first: the server's code and caches warm, its LISTEN open.
        warm = _Follower(_request(tid, after))
        await loop.create_connection(lambda: warm, "127.0.0.1", args.port)
        await asyncio.wait_for(warm.ready, 30)
        await asyncio.sleep(1.0)
        rss0 = _rss_kb(server.pid)
        shares = [n // len(readers) + (i < n % len(readers)) for i in range(len(readers))]
        for pipe, share in zip(readers, shares, strict=True):
            pipe.send((share, after))
        for pipe in readers:
            await loop.run_in_executor(None, pipe.recv)  # "connected"
        await asyncio.sleep(2.0)
        rss1 = _rss_kb(server.pid)
        code = (
            COMMIT.replace("ORG", str(setup["organiser"]))
            .replace("RATE", str(args.rate))
            .replace("TID", str(tid))
            .replace("PLAYERS", json.dumps(players))
        )
        cpu0 = _cpu_seconds(server.pid)
        committer = await asyncio.create_subprocess_exec(
            PYTHON, "manage.py", "shell", "-c", code, cwd=ROOT, env=_env(args.db),
            stdout=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, _ = await committer.communicate()
        commits, lags = {}, []
        for line in out.decode().splitlines():
            if line.startswith("{"):
                row = json.loads(line)
                commits[row["version"]] = row["t"]
                lags.append(row["returned"] - row["t"])
        expected = sorted(commits)
        logs = [log for part in await each(len(expected)) for log in part]
        cpu1 = _cpu_seconds(server.pid)  # from the first commit to the last delivery
        # The stop, with every follower still connected: each stream ends with a retry hint.
        stopped = time.monotonic()
        server.send_signal(signal.SIGTERM)
        await loop.run_in_executor(None, server.wait, args.graceful + 30)
        stop_s = time.monotonic() - stopped
        await each("close")
        if warm.transport is not None:
            warm.transport.close()
    finally:
        if server.poll() is None:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
        server_log.seek(0)
        output = server_log.read()
        server_log.close()
    cancelled = sum(int(n) for n in re.findall(r"Cancel (\d+) running task", output))
    latencies = [t - commits[v] for log in logs for v, t in log if v in commits]
    exact = sum(1 for log in logs if expected and [v for v, _ in log] == expected)
    latencies.sort()
    return {
        "followers": n,
        "events": len(expected),
        "exactly_once_in_order": f"{exact}/{n}",
        "p50_ms": round(statistics.median(latencies) * 1000, 1) if latencies else None,
        "p99_ms": round(latencies[int(0.99 * (len(latencies) - 1))] * 1000, 1)
        if latencies
        else None,
        "max_ms": round(latencies[-1] * 1000, 1) if latencies else None,
        "commit_to_return_p50_ms": round(statistics.median(lags) * 1000, 1) if lags else None,
        "rss_before_mb": round(rss0 / 1024, 1),
        "rss_after_mb": round(rss1 / 1024, 1),
        "kb_per_connection": round((rss1 - rss0) / n, 1),
        "cpu_us_per_event_per_follower": round((cpu1 - cpu0) / (len(expected) * n) * 1e6, 1)
        if expected
        else None,
        "stop_s": round(stop_s, 2) if stop_s is not None else None,
        "tasks_cancelled_at_stop": cancelled,
    }


def main() -> None:
    global ROOT
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--followers", default="100,500,1000,2000")
    parser.add_argument("--events", type=int, default=50)
    parser.add_argument("--rate", type=float, default=10.0)
    parser.add_argument("--db", default="hg_bench_streams")
    parser.add_argument(
        "--root", default=str(ROOT), help="the tree whose code is served (e.g. the code before)"
    )
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--graceful", type=int, default=10, help="the server's graceful timeout")
    parser.add_argument("--http", default="auto", help="uvicorn's --http (auto, h11, httptools)")
    parser.add_argument("--loop", default="auto", help="uvicorn's --loop (auto, asyncio, uvloop)")
    parser.add_argument(
        "--readers", type=int, default=2, help="processes reading the followers' streams"
    )
    args = parser.parse_args()
    ROOT = Path(args.root).resolve()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the server inherits it
    sizes = [int(x) for x in args.followers.split(",")]
    setup = prepare(args.db, args.events * len(sizes))
    print(f"serving {ROOT}")
    print(
        f"cores: {os.cpu_count()}; one uvicorn worker (--http {args.http} --loop {args.loop});"
        f" {args.events} events at {args.rate}/s"
    )
    print(f"load average before: {os.getloadavg()}", flush=True)
    context = multiprocessing.get_context("spawn")
    readers, processes = [], []
    for _ in range(args.readers):
        ours, theirs = context.Pipe()
        process = context.Process(target=_readers, args=(theirs, args.port, setup["tournament"]))
        process.start()
        readers.append(ours)
        processes.append(process)
    rows = []
    try:
        for i, n in enumerate(sizes):
            players = setup["players"][i * args.events : (i + 1) * args.events]
            rows.append(asyncio.run(run_one(n, args, setup, players, readers)))
            print(json.dumps(rows[-1]), flush=True)
    finally:
        for pipe, process in zip(readers, processes, strict=True):
            with contextlib.suppress(OSError):
                pipe.send(None)
            process.join(10)
            if process.is_alive():
                process.kill()
    if len(rows) > 1 and rows[0]["p99_ms"] and rows[-1]["p99_ms"]:
        ratio = rows[-1]["p99_ms"] / rows[0]["p99_ms"]
        print(f"p99 at {sizes[-1]} / p99 at {sizes[0]}: {ratio:.1f}x")
    print(f"load average after: {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    main()
