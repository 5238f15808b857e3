"""A soak: bot matches played against gunicorn for --minutes, watching for errors and for
worker memory that grows; with --tracemalloc, what grows.

1. Recreates the PostgreSQL database --db (default hg_bench_soak) and its players, as
   bench/api.py does, and starts gunicorn with bench/soak_gunicorn.py (config/gunicorn.py;
   by default with worker recycling off, --recycle keeps the deployed `max_requests`, which
   would hide a leak behind restarts).
2. --clients threads each play bot matches through POST /api/matches/{id}/actions/ (each
   seat from its own view, a new match when one ends) for --minutes (or --actions).
3. Samples every gunicorn worker's resident memory every --sample seconds; prints it at
   the start (after a warm-up of --warmup seconds), in the middle and at the end, the
   minute-by-minute series, throughput, and the count of answers by status (5xx: 0).
4. --tracemalloc (instead of 2-3): --matches bot matches played in this process through
   the services the API calls (a transaction per move, the players' views read), traced
   with tracemalloc from a baseline after --warm-matches; prints the traced memory and the
   growth by line at the middle and the end, and the largest growths' tracebacks.
5. --trace-workers DIR (with 2-3): tracemalloc in each gunicorn worker, a snapshot every
   --trace-every seconds (bench/soak_gunicorn.py); at the end each worker's traced memory
   and RSS over time and what grew from its second snapshot to its middle and last ones.
--game-target N: short matches (N points a game, ended when decided), many matches per
action, so that whatever a worker keeps per match shows sooner. --celery: the
environment's CELERY_BROKER_URL and one Celery worker (else tasks run eagerly in
gunicorn); CACHE_URL is the environment's either way. The slope of each worker's RSS over
the last third of the run says whether it levelled off (near 0).

    .venv/bin/python bench/soak.py [--minutes 20] [--clients 4] [--workers 3]
    .venv/bin/python bench/soak.py --tracemalloc --matches 300 --game-target 25 [--keep-db]
    .venv/bin/python bench/soak.py --celery --trace-workers /tmp/trace [--minutes 8]
"""

from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
import threading
import time
import tracemalloc
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

import api  # noqa: E402 (bench/api.py)
from api import ROOT, Stats, Table, _env, prepare  # noqa: E402

# The interpreter running this script and its gunicorn, so that a worktree without its own
# .venv runs its code with the main checkout's (bench/api.py assumes ROOT/.venv).
api.PYTHON = sys.executable
GUNICORN = str(Path(sys.executable).with_name("gunicorn"))


def worker_rss(server_pid: int) -> dict[int, int]:
    """Resident memory (KiB) of each gunicorn worker: the children of the arbiter."""
    out = {}
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(
                line.split(":", 1) for line in status.read_text().splitlines() if ":" in line
            )
        except OSError:
            continue
        if fields.get("PPid", "").strip() == str(server_pid):
            out[int(status.parent.name)] = int(fields.get("VmRSS", "0 kB").split()[0])
    return out


def describe(rss: dict[int, int]) -> str:
    mib = sorted(kib / 1024 for kib in rss.values())
    if not mib:
        return "no workers"
    return (
        f"{len(mib)} workers, {min(mib):.1f}-{max(mib):.1f} MiB RSS"
        f" (each: {', '.join(f'{m:.0f}' for m in mib)}), total {sum(mib):.1f} MiB"
    )


class ShortTable(Table):
    """A client whose matches may be short (--game-target): more matches per action, so
    that what the workers keep per match (states, deal plans, hand records) shows."""

    game_target = 0

    def new_match(self, n: int) -> tuple[str, list[dict | None]]:
        with httpx.Client(
            base_url=self.base, headers={"Authorization": f"Token {self.organiser}"}
        ) as org:
            body: dict[str, Any] = {"player1": self.pair[0]["id"], "player2": self.pair[1]["id"]}
            if self.game_target:
                body["ruleset"] = {"game_target": self.game_target, "end_when_decided": True}
            created = self._timed_other(org.post, "/api/matches/", json=body).json()
        url = f"/api/matches/{created['id']}/"
        views = [self._timed_other(h.get, url).json() for h in self.http]
        return url, views


def existing(db: str) -> dict[str, Any]:
    """--keep-db: the organiser and the pairs of players of an earlier soak's database, with
    their tokens (as `prepare` made them), instead of making it again (minutes when busy)."""
    import psycopg

    with psycopg.connect(f"postgresql://postgres@127.0.0.1:5432/{db}") as c:
        rows = c.execute(
            "SELECT u.username, t.key, p.id FROM authtoken_token t"
            " JOIN auth_user u ON u.id = t.user_id LEFT JOIN players_player p ON p.user_id = u.id"
        ).fetchall()
    by_name = {name: (key, pid) for name, key, pid in rows}
    pairs = []
    for i in range(len(rows)):
        seats = [by_name.get(f"c{i}s{seat}") for seat in (1, 2)]
        if None in seats:
            break
        pairs.append([{"id": pid, "token": key} for key, pid in seats])  # type: ignore[misc]
    return {"organiser": by_name["organiser"][0], "pairs": pairs}


def server_env(args: argparse.Namespace) -> dict[str, str]:
    """bench/api.py's environment (base settings, --db, no broker: tasks eager), with
    --celery the environment's CELERY_BROKER_URL (and CACHE_URL, as every run keeps)."""
    env = _env(args.db)
    if args.celery:
        if not os.environ.get("CELERY_BROKER_URL"):
            raise SystemExit("--celery: set CELERY_BROKER_URL (and CACHE_URL) to yours")
        env["CELERY_BROKER_URL"] = os.environ["CELERY_BROKER_URL"]
    if not args.recycle:
        env["SOAK_MAX_REQUESTS"] = "0"
    if args.trace_workers:
        Path(args.trace_workers).mkdir(parents=True, exist_ok=True)
        for old in Path(args.trace_workers).glob("*"):
            old.unlink()
        env["SOAK_TRACE_DIR"] = str(Path(args.trace_workers).resolve())
        env["SOAK_TRACE_EVERY"] = str(args.trace_every)
    return env


def start_celery(args: argparse.Namespace) -> subprocess.Popen:
    """--celery: one Celery worker on the same database, broker and cache as gunicorn."""
    celery = str(Path(GUNICORN).with_name("celery"))
    cmd = [celery, "-A", "config", "worker", "--loglevel=WARNING", "--concurrency=1"]
    return subprocess.Popen(cmd, cwd=ROOT, env=server_env(args) | {"SOAK_TRACE_DIR": ""})


def start_server(args: argparse.Namespace) -> subprocess.Popen:
    cmd = [GUNICORN, "-c", "bench/soak_gunicorn.py", "config.wsgi:application"]
    cmd += ["--bind", f"127.0.0.1:{args.port}", "--log-level", "warning"]
    cmd += ["--workers", str(args.workers)]
    server = subprocess.Popen(cmd, cwd=ROOT, env=server_env(args))
    deadline, last = time.monotonic() + 300, ""
    while time.monotonic() < deadline and server.poll() is None:
        try:
            answer = httpx.get(f"http://127.0.0.1:{args.port}/healthz", timeout=5)
            if answer.status_code == 200:
                return server
            last = f"{answer.status_code} {answer.text[:200]}"
        except httpx.HTTPError as exc:
            last = repr(exc)
        time.sleep(0.5)
    server.kill()
    raise SystemExit(f"gunicorn did not start (exit {server.poll()}; last: {last})")


def trace_in_process(args: argparse.Namespace) -> None:
    """--tracemalloc: bot matches played in this process through the services the API
    calls (games.services.match_act, one transaction per move, each move's view read as
    the API answers it), traced with tracemalloc from a warm baseline; the growth by line
    (and the largest growths' tracebacks) at the middle and at the end. In process, not in
    a gunicorn worker: a snapshot of a worker on a busy machine took longer than its
    timeout. With --keep-db the database of an earlier soak is played on again."""
    for key, value in _env(args.db).items():
        os.environ[key] = value
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from demo.bots import match_play_bots
    from games.selectors import match_view_for
    from games.services import match_create
    from players.models import Player

    players = list(Player.objects.order_by("pk"))
    pairs = list(zip(players[::2], players[1::2], strict=False))
    ruleset = {"game_target": args.game_target, "end_when_decided": True}
    played = [0, 0]  # matches, moves

    def play(matches: int) -> None:
        for n in range(matches):
            a, b = pairs[(played[0] + n) % len(pairs)]
            match = match_create(
                player1=a, player2=b, ruleset=ruleset if args.game_target else None
            )
            done = match_play_bots(match_id=match.pk, bots_only=False)
            for seat in (a, b):
                match_view_for(match=done, user=seat.user)
            played[1] += done.version
        played[0] += matches

    tracemalloc.start(int(os.environ.get("SOAK_TRACE_FRAMES", "6")))
    play(args.warm_matches)
    gc.collect()
    baseline = tracemalloc.take_snapshot()
    print(f"traced after {played[0]} matches (warm): {_traced()}", flush=True)
    ignore = [tracemalloc.Filter(False, tracemalloc.__file__)]
    for label in ("middle", "end"):
        play(args.matches // 2)
        gc.collect()
        snapshot = tracemalloc.take_snapshot().filter_traces(ignore)
        print(f"-- {label}: {played[0]} matches, {played[1]} events; {_traced()}", flush=True)
        for stat in [s for s in snapshot.compare_to(baseline, "lineno") if s.size_diff > 0][:12]:
            frame = stat.traceback[0]
            print(
                f"{stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+7d} blocks"
                f"  {frame.filename.replace(str(ROOT) + '/', '')}:{frame.lineno}"
            )
        if label == "end":
            for stat in snapshot.compare_to(baseline, "traceback")[:3]:
                print(f"{stat.size_diff / 1024:+9.1f} KiB, allocated at:")
                for line in stat.traceback.format()[-12:]:
                    print(f"      {line.replace(str(ROOT) + '/', '')}")


def _traced() -> str:
    current, peak = tracemalloc.get_traced_memory()
    return f"traced {current / 2**20:.1f} MiB (peak {peak / 2**20:.1f} MiB)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=20.0)
    parser.add_argument("--actions", type=int, default=0, help="stop after (0: no limit)")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--db", default="hg_bench_soak")
    parser.add_argument("--sample", type=float, default=10.0, help="seconds between samples")
    parser.add_argument("--warmup", type=float, default=30.0, help="seconds before 'start'")
    parser.add_argument("--recycle", action="store_true", help="keep max_requests as deployed")
    parser.add_argument(
        "--tracemalloc", action="store_true", help="find what grows: in process, traced"
    )
    parser.add_argument("--matches", type=int, default=300, help="--tracemalloc: matches")
    parser.add_argument("--warm-matches", type=int, default=50, help="--tracemalloc: first")
    parser.add_argument("--keep-db", action="store_true", help="play on --db as it is")
    parser.add_argument(
        "--game-target", type=int, default=0, help="short matches (e.g. 25 points; 0: the rules')"
    )
    parser.add_argument(
        "--celery", action="store_true", help="the environment's broker, and a Celery worker"
    )
    parser.add_argument("--trace-workers", default="", help="dir: tracemalloc in each worker")
    parser.add_argument("--trace-every", type=float, default=60.0, help="seconds per snapshot")
    args = parser.parse_args()

    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    print(f"preparing database {args.db} ...", flush=True)
    if args.tracemalloc and args.keep_db:
        trace_in_process(args)
        return
    data = existing(args.db) if args.keep_db else prepare(args.db, args.clients, False)
    if args.tracemalloc:
        trace_in_process(args)
        return
    print(
        f"database {args.db}; cache {os.environ.get('CACHE_URL') or 'local memory'};"
        f" broker {os.environ.get('CELERY_BROKER_URL') if args.celery else 'none (eager)'}",
        flush=True,
    )
    worker = start_celery(args) if args.celery else None
    server = start_server(args)
    base = f"http://127.0.0.1:{args.port}"
    stats = Stats()
    crashes: list[str] = []
    samples: list[tuple[float, dict[int, int]]] = []
    loads: list[float] = []
    progress: list[tuple[float, int, float]] = []  # (seconds, actions so far, load average)
    stop = threading.Event()
    try:
        for pair in data["pairs"]:  # every worker's imports and connection
            httpx.get(f"{base}/api/ping/", headers={"Authorization": f"Token {pair[0]['token']}"})
        tables = [ShortTable(base, pair, data["organiser"], stats) for pair in data["pairs"]]
        for table in tables:
            table.game_target = args.game_target
        started = time.monotonic()
        deadline = started + args.minutes * 60

        def play(table: Table) -> None:
            while not stop.is_set() and time.monotonic() < deadline:
                if args.actions and len(stats.latencies) >= args.actions:
                    return
                errors = len(stats.errors)
                try:
                    table.play(time.monotonic() + 0.5)
                except (httpx.HTTPError, ValueError, KeyError) as exc:  # a body not a view
                    crashes.append(repr(exc))
                    table.latest = None
                if len(stats.errors) > errors:
                    table.latest = None  # after an error, go on with a new match

        def sample() -> None:
            while not stop.wait(args.sample):
                samples.append((time.monotonic() - started, worker_rss(server.pid)))
                loads.append(os.getloadavg()[0])
                progress.append((time.monotonic() - started, len(stats.latencies), loads[-1]))

        threads = [threading.Thread(target=play, args=(t,)) for t in tables]
        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        stop.set()
        elapsed = time.monotonic() - started
        samples.append((elapsed, worker_rss(server.pid)))
    finally:
        stop.set()
        server.terminate()
        server.wait(timeout=30)
        if worker is not None:
            worker.terminate()
            worker.wait(timeout=60)

    done = len(stats.latencies)
    ms = sorted(x * 1000 for x in stats.latencies)
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))] if ms else 0.0
    print(
        f"{done} actions by {args.clients} clients on {args.workers} workers in {elapsed:.0f} s:"
        f" {done / elapsed:.0f} actions/s, p50 {ms[len(ms) // 2] if ms else 0:.1f} ms,"
        f" p99 {p99:.1f} ms; {sum(t.matches for t in tables)} matches,"
        f" {stats.other} other requests; recycling {'as deployed' if args.recycle else 'off'}"
    )
    if loads:
        print(f"load average (1 min) during the soak: {min(loads):.1f}-{max(loads):.1f}")
    by_status = ", ".join(f"{code}: {n}" for code, n in sorted(stats.statuses.items()))
    fivexx = sum(n for code, n in stats.statuses.items() if code >= 500)
    print(f"answers by status: {by_status}; 5xx: {fivexx}")
    print(f"errors: {len(stats.errors)}" + (f"; first: {stats.errors[0]}" if stats.errors else ""))
    if crashes:
        print(f"client crashes: {len(crashes)}; first: {crashes[0]}")
    warm = [s for s in samples if s[0] >= args.warmup] or samples
    if warm:
        for label, (t, rss) in (
            ("start", warm[0]),
            ("middle", warm[len(warm) // 2]),
            ("end", warm[-1]),
        ):
            print(f"worker memory at {label} ({t / 60:.1f} min): {describe(rss)}")
        print("minute by minute (max worker MiB):", end="")
        minute = -1
        for t, rss in warm:
            if int(t // 60) != minute and rss:
                minute = int(t // 60)
                print(f" {minute}:{max(rss.values()) / 1024:.0f}", end="")
        print()
        print("minute by minute (actions that minute, load average):", end="")
        last_of: dict[int, tuple[int, float]] = {}  # minute: (actions by its end, load)
        for t, actions, load in progress:
            last_of[int(t // 60)] = (actions, load)
        before = 0
        for minute, (actions, load) in sorted(last_of.items()):
            print(f" {minute}:{actions - before}/{load:.0f}", end="")
            before = actions
        print()
        print(slope_of_last_third(warm))
    if args.trace_workers:
        compare_worker_snapshots(Path(args.trace_workers))


def slope_of_last_third(warm: list[tuple[float, dict[int, int]]]) -> str:
    """The least-squares slope of each worker's RSS over the last third of the samples: a
    level series is near 0."""
    last = [s for s in warm if s[0] >= warm[0][0] + 2 * (warm[-1][0] - warm[0][0]) / 3]
    pids = sorted({pid for _, rss in last for pid in rss})
    slopes = []
    for pid in pids:
        points = [(t / 60, rss[pid] / 1024) for t, rss in last if pid in rss]
        if len(points) < 3:
            continue
        mx = sum(x for x, _ in points) / len(points)
        my = sum(y for _, y in points) / len(points)
        sxx = sum((x - mx) ** 2 for x, _ in points)
        slopes.append(sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else 0.0)
    if not slopes:
        return "slope over the last third: too few samples"
    span = (last[-1][0] - last[0][0]) / 60
    each = ", ".join(f"{m:+.2f}" for m in slopes)
    return f"slope over the last third ({span:.1f} min), MiB a minute per worker: {each}"


def compare_worker_snapshots(folder: Path) -> None:
    """--trace-workers: for each worker, the traced memory and RSS over time, then what grew
    between its second snapshot (warm) and its middle and last ones, by line and by
    traceback."""
    ignore = [
        tracemalloc.Filter(False, tracemalloc.__file__),
        tracemalloc.Filter(False, "<frozen importlib._bootstrap*>"),
    ]
    for log in sorted(folder.glob("*.log")):
        pid = log.stem
        rows = [line.split() for line in log.read_text().splitlines()]
        print(f"-- worker {pid}: n, seconds, traced MiB, RSS MiB:")
        series = (f"{n} {t}s {int(b) / 2**20:.1f} {int(r) / 1024:.0f}" for n, t, b, r in rows)
        print("   " + "; ".join(series))
        snaps = sorted(folder.glob(f"{pid}-*.snap"))
        if len(snaps) < 3:
            continue
        base = tracemalloc.Snapshot.load(str(snaps[1])).filter_traces(ignore)
        for label, path in (("middle", snaps[len(snaps) // 2]), ("last", snaps[-1])):
            later = tracemalloc.Snapshot.load(str(path)).filter_traces(ignore)
            print(f"   {label} ({path.stem}) against {snaps[1].stem}, by line:")
            for stat in [s for s in later.compare_to(base, "lineno") if s.size_diff > 0][:15]:
                frame = stat.traceback[0]
                print(
                    f"   {stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+7d} blocks"
                    f"  {frame.filename.replace(str(ROOT) + '/', '')}:{frame.lineno}"
                )
        print("   the largest growths, by traceback:")
        for stat in later.compare_to(base, "traceback")[:6]:
            print(f"   {stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+7d} blocks, at:")
            for line in stat.traceback.format()[-24:]:
                print(f"        {line.replace(str(ROOT) + '/', '')}")


if __name__ == "__main__":
    main()
