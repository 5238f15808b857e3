"""Online play at club scale: matches in play with both players following their match
streams, bots moving through the API; and the play page's weight and server time.

1. Recreates the PostgreSQL database --db (default hg_bench_play), migrates it, creates
   --matches online matches (random deals) between 2 x --matches players with API tokens.
2. Starts uvicorn (config.asgi, --workers processes) on 127.0.0.1:--port, as `make run`
   and docker-compose's `live` service serve the streams.
3. From this process (loopback only): both players of every match follow
   GET /api/matches/{id}/stream/ (2 x --matches followers); one bot per match moves
   through POST /api/matches/{id}/actions/ (with an Idempotency-Key) after a pause drawn
   uniformly from 1-3 s (2 s on average), from its seat's view (the answer of its last
   move, a GET when the turn changed seats); a pinger calls GET /api/ping/ every 100 ms.
   For --seconds (the first --warmup not counted).
4. Prints: the time from a move's commit (its events' `recorded_at`, stamped in the
   committing transaction) to their arrival on the opponent's stream, p50/p99/max, beside
   GET /api/ping/'s p50/p99 in the same run; moves per second and errors; then the play
   page /play/{id}/: its weight (HTML + JS + CSS, each gzip-compressed as WhiteNoise serves
   them) and its server time (p50/p95 of 30 requests, idle and under the load above).

    .venv/bin/python bench/play.py [--matches 100] [--seconds 60] [--workers 2] [--split]

`--split`: the moves and pings go to gunicorn (config/gunicorn.py, --api-workers sync
workers) as docker-compose deploys the API, the streams stay on uvicorn.

Goal (issue 23, on the 2-core development machine): p99 under 300 ms with 100 matches in
play; page weight under 60 KB.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import gzip
import json
import os
import random
import resource
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PYTHON = str(ROOT / ".venv" / "bin" / "python")

from bench._db import ensure_database  # noqa: E402
from games.engine.melds import best_discard  # noqa: E402 - pure Python, no Django

PASSWORD = "bench-pass-1"  # noqa: S105 - a bench database's players

SETUP = """
import json
from games.services import match_create
from players.services import auth_token_issue, player_create
out = []
for i in range(MATCHES):
    pw = "PASSWORD" if i < 2 else None  # hashing 200 passwords takes a minute; tokens do
    a = player_create(name=f"A{i}", username=f"a{i}", password=pw)
    b = player_create(name=f"B{i}", username=f"b{i}", password=pw)
    m = match_create(player1=a, player2=b)
    out.append({"id": str(m.pk), "players": {
        str(a.pk): auth_token_issue(user=a.user).key,
        str(b.pk): auth_token_issue(user=b.user).key}})
print(json.dumps(out))
"""


def _env(db: str) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{db}",
        "DEBUG": "false",
        # Under ASGI each request runs in a thread of its own: persistent connections would
        # pile up one per thread (past max_connections); the live service closes them.
        "CONN_MAX_AGE": "0",
        "LOG_LEVEL": "WARNING",
        "CELERY_BROKER_URL": "",
        "THROTTLE_ANON": "100000/min",
        "LIVE_KEEPALIVE_SECONDS": "15",
    }


def prepare(db: str, matches: int) -> list[dict[str, Any]]:
    ensure_database(f"postgres://postgres@127.0.0.1:5432/{db}", fresh=True)
    subprocess.run(
        [PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT, env=_env(db), check=True,
    )  # fmt: skip
    code = SETUP.replace("MATCHES", str(matches)).replace("PASSWORD", PASSWORD)
    out = subprocess.run(
        [PYTHON, "manage.py", "shell", "-c", code],
        cwd=ROOT, env=_env(db), check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    return json.loads(out.strip().splitlines()[-1])


def _pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * (len(ordered) - 1)))] * 1000, 1)


class Run:
    def __init__(self, warmup_until: float, stop_at: float) -> None:
        self.warmup_until, self.stop_at = warmup_until, stop_at
        self.counted_from = time.time() + (warmup_until - time.monotonic())  # wall clock
        self.mover_of: dict[tuple[str, int], str] = {}  # (match, version) -> who moved
        self.arrivals: list[tuple[str, str, int, float, float]] = []
        self.ping: list[float] = []
        self.moves = 0
        self.errors: list[str] = []


async def follow(
    port: int, match: str, player: str, token: str, run: Run, ready: asyncio.Event
) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 22)
    writer.write(
        f"GET /api/matches/{match}/stream/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Accept: text/event-stream\r\nAuthorization: Token {token}\r\n\r\n".encode()
    )
    await writer.drain()
    status = await reader.readline()
    if b" 200 " not in status:
        raise RuntimeError(status)
    while (await reader.readline()) not in (b"\r\n", b""):
        pass
    ready.set()
    kind = b""
    try:
        # Chunked framing lines interleave, but each message is inside one chunk.
        while line := await reader.readline():
            if line.startswith(b"event: "):
                kind = line[7:].strip()
            elif line.startswith(b"data: ") and kind == b"event":
                now = time.time()
                row = json.loads(line[6:])
                recorded = dt.datetime.fromisoformat(row["recorded_at"]).timestamp()
                run.arrivals.append((match, player, row["version"], recorded, now))
    finally:
        writer.close()


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """A quick bot on the seat's view: knock when it may, pass the upcard, draw from the
    stock, discard the card leaving the least deadwood."""
    actions = view["legal_actions"]
    knocks = [a for a in actions if a["type"] == "knock"]
    if knocks:
        return knocks[0]
    if {"type": "pass"} in actions:
        return {"type": "pass"}
    if {"type": "draw", "source": "stock"} in actions:
        return {"type": "draw", "source": "stock"}
    discards = {a["card"] for a in actions if a["type"] == "discard"}
    card, _ = best_discard(view["your_cards"])
    return {"type": "discard", "card": card if card in discards else sorted(discards)[0]}


async def _view(http: httpx.AsyncClient, match: str, auth: dict, run: Run) -> dict | None:
    response = await http.get(f"/api/matches/{match}/", headers=auth)
    if response.status_code != 200:
        run.errors.append(f"GET {response.status_code} {response.text[:160]}")
        return None
    return response.json()


async def mover(http: httpx.AsyncClient, match: dict[str, Any], run: Run) -> None:
    tokens = match["players"]
    auth = {p: {"Authorization": f"Token {t}"} for p, t in tokens.items()}
    first = next(iter(tokens))
    view = await _view(http, match["id"], auth[first], run)
    seat_player = first
    while time.monotonic() < run.stop_at:
        await asyncio.sleep(random.uniform(1.0, 3.0))
        if view is None:
            view = await _view(http, match["id"], auth[seat_player], run)
            continue
        if view.get("status") != "in_progress":
            return
        turn = str(view["turn"])
        if turn != seat_player:
            seat_player = turn
            view = await _view(http, match["id"], auth[turn], run)
            if view is None:
                continue
        before = view["version"]
        action = {**choose(view), "expected_version": before}
        headers = {**auth[turn], "Idempotency-Key": str(uuid.uuid4())}
        response = await http.post(
            f"/api/matches/{match['id']}/actions/", json=action, headers=headers
        )
        if response.status_code != 201:
            run.errors.append(f"POST {response.status_code} {response.text[:160]}")
            view = await _view(http, match["id"], auth[turn], run)
            continue
        view = response.json()
        for v in range(before + 1, view["version"] + 1):
            run.mover_of[(match["id"], v)] = turn
        run.moves += time.monotonic() >= run.warmup_until


async def pinger(http: httpx.AsyncClient, token: str, run: Run) -> None:
    while time.monotonic() < run.stop_at:
        started = time.perf_counter()
        response = await http.get("/api/ping/", headers={"Authorization": f"Token {token}"})
        if response.status_code == 200 and time.monotonic() >= run.warmup_until:
            run.ping.append(time.perf_counter() - started)
        await asyncio.sleep(0.1)


async def page_times(
    base: str, match: str, username: str, n: int = 30
) -> tuple[list[float], bytes]:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        await http.get("/desk/login/")
        token = http.cookies.get("csrftoken")
        await http.post(
            "/desk/login/",
            data={"username": username, "password": PASSWORD, "csrfmiddlewaretoken": token},
            headers={"Referer": f"{base}/desk/login/"},
        )
        times, body = [], b""
        for _ in range(n):
            started = time.perf_counter()
            response = await http.get(f"/play/{match}/")
            times.append(time.perf_counter() - started)
            if response.status_code != 200 or b'id="play"' not in response.content:
                raise RuntimeError(f"play page: {response.status_code} {response.text[:200]}")
            body = response.content
        return times, body


def page_weight(html: bytes) -> dict[str, Any]:
    static = ROOT / "web" / "static" / "play"
    parts = {"html": html}
    for name in ("play.js", "melds.js", "drag.js", "play.css"):
        parts[name] = (static / name).read_bytes()
    sizes = {k: len(gzip.compress(v, 6)) for k, v in parts.items()}
    return {
        "gzip_bytes": sizes,
        "total_kb": round(sum(sizes.values()) / 1024, 1),
        "raw_kb": round(sum(map(len, parts.values())) / 1024, 1),
    }


async def main_async(args: argparse.Namespace, matches: list[dict[str, Any]]) -> dict[str, Any]:
    base = f"http://127.0.0.1:{args.port}"
    api_base = base
    extra: list[subprocess.Popen] = []
    if args.split:
        # As docker-compose deploys it: the API on gunicorn's sync workers, the streams on
        # uvicorn; the same database.
        api_base = f"http://127.0.0.1:{args.port + 1}"
        extra.append(
            subprocess.Popen(
                [
                    str(ROOT / ".venv" / "bin" / "gunicorn"),
                    "-c",
                    "config/gunicorn.py",
                    "config.wsgi:application",
                    "--bind",
                    f"127.0.0.1:{args.port + 1}",
                    "--log-level",
                    "warning",
                    "--workers",
                    str(args.api_workers),
                ],
                cwd=ROOT,
                env={**_env(args.db), "CONN_MAX_AGE": "600"},
            )  # fmt: skip
        )
    server = subprocess.Popen(
        [PYTHON, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
         "--port", str(args.port), "--workers", str(args.workers), "--no-access-log",
         "--log-level", "warning", "--backlog", "4096", "--timeout-graceful-shutdown", "2"],
        cwd=ROOT, env=_env(args.db),
    )  # fmt: skip
    try:
        for port in (args.port, args.port + 1) if args.split else (args.port,):
            for _ in range(300):
                try:
                    _, w = await asyncio.open_connection("127.0.0.1", port)
                    w.close()
                    break
                except OSError:
                    await asyncio.sleep(0.1)
        idle, html = await page_times(api_base, matches[0]["id"], "a0")
        now = time.monotonic()
        run = Run(warmup_until=now + args.warmup + 5, stop_at=now + args.seconds + 5)
        ready = []
        followers = []
        for m in matches:
            for player, token in m["players"].items():
                event = asyncio.Event()
                ready.append(event)
                followers.append(
                    asyncio.create_task(follow(args.port, m["id"], player, token, run, event))
                )
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in ready)), 120)
        limits = httpx.Limits(max_connections=args.matches + 10)
        async with httpx.AsyncClient(base_url=api_base, timeout=30, limits=limits) as http:
            some_token = next(iter(matches[0]["players"].values()))
            load = [asyncio.create_task(mover(http, m, run)) for m in matches]
            load.append(asyncio.create_task(pinger(http, some_token, run)))
            await asyncio.sleep(args.seconds / 2)
            busy, _ = await page_times(api_base, matches[1]["id"], "a1")
            await asyncio.gather(*load, return_exceptions=True)
        await asyncio.sleep(2.0)  # the last moves' events arrive
        for task in followers:
            task.cancel()
        await asyncio.gather(*followers, return_exceptions=True)
    finally:
        for process in (server, *extra):
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
    latencies = [
        arrived - recorded
        for match, player, version, recorded, arrived in run.arrivals
        if run.mover_of.get((match, version)) not in (None, player) and recorded >= run.counted_from
    ]
    seconds = args.seconds - args.warmup
    return {
        "load_average_1m_at_end": round(os.getloadavg()[0], 1),
        "matches": args.matches,
        "followers": 2 * args.matches,
        "workers": args.workers,
        "api": f"gunicorn, {args.api_workers} sync workers" if args.split else "the same uvicorn",
        "moves_per_s": round(run.moves / seconds, 1),
        "errors": len(run.errors),
        "first_errors": sorted(set(run.errors))[:5],
        "deliveries_to_opponents": len(latencies),
        "move_to_opponent_p50_ms": _pct(latencies, 0.5),
        "move_to_opponent_p99_ms": _pct(latencies, 0.99),
        "move_to_opponent_max_ms": _pct(latencies, 1.0),
        "ping_p50_ms": _pct(run.ping, 0.5),
        "ping_p99_ms": _pct(run.ping, 0.99),
        "page": page_weight(html),
        "page_server_ms_idle": {"p50": _pct(idle, 0.5), "p95": _pct(idle, 0.95)},
        "page_server_ms_under_load": {"p50": _pct(busy, 0.5), "p95": _pct(busy, 0.95)},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--split", action="store_true", help="the API on gunicorn (as deployed), streams on uvicorn"
    )
    parser.add_argument("--api-workers", type=int, default=3)
    parser.add_argument("--db", default="hg_bench_play")
    parser.add_argument("--port", type=int, default=8767)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    matches = prepare(args.db, args.matches)
    print(f"cores: {os.cpu_count()}; uvicorn workers: {args.workers}; {args.matches} matches")
    result = asyncio.run(main_async(args, matches))
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
