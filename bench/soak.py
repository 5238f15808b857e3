"""A soak: bot matches played against gunicorn for --minutes, watching for errors and for
worker memory that grows, with tracemalloc in the workers to say what grows.

1. Recreates the PostgreSQL database --db (default hg_bench_soak) and its players, as
   bench/api.py does, and starts gunicorn with bench/soak_gunicorn.py (config/gunicorn.py;
   by default with worker recycling off, --recycle keeps the deployed `max_requests`, which
   would hide a leak behind restarts).
2. --clients threads each play bot matches through POST /api/matches/{id}/actions/ (each
   seat from its own view, a new match when one ends) for --minutes (or --actions).
3. Samples every gunicorn worker's resident memory every --sample seconds; prints it at
   the start (after a warm-up of --warmup seconds), in the middle and at the end, the
   minute-by-minute series, throughput, and the count of answers by status (5xx: 0).
4. --tracemalloc: each worker traces its allocations from a warm baseline and writes its
   growth (by line and the top tracebacks) every SOAK_TRACE_EVERY requests; the soak prints
   the largest worker's at the end. (Tracing slows the workers and adds to their RSS: run
   it to find what grows, and without it to measure.)

    .venv/bin/python bench/soak.py [--minutes 20] [--clients 4] [--workers 3] [--tracemalloc]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from api import GUNICORN, ROOT, Stats, Table, _env, prepare  # noqa: E402 (bench/api.py)


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


def start_server(args: argparse.Namespace, trace_dir: str | None) -> subprocess.Popen:
    cmd = [GUNICORN, "-c", "bench/soak_gunicorn.py", "config.wsgi:application"]
    cmd += ["--bind", f"127.0.0.1:{args.port}", "--log-level", "warning"]
    cmd += ["--workers", str(args.workers)]
    env = _env(args.db)
    if not args.recycle:
        env["SOAK_MAX_REQUESTS"] = "0"
    if trace_dir:
        env["SOAK_TRACE_DIR"] = trace_dir
    server = subprocess.Popen(cmd, cwd=ROOT, env=env)
    deadline, last = time.monotonic() + 120, ""
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
    parser.add_argument("--tracemalloc", action="store_true")
    args = parser.parse_args()

    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    print(f"preparing database {args.db} ...", flush=True)
    data = prepare(args.db, args.clients, async_commit=False)
    trace_dir = tempfile.mkdtemp(prefix="soak-trace-") if args.tracemalloc else None
    server = start_server(args, trace_dir)
    base = f"http://127.0.0.1:{args.port}"
    stats = Stats()
    crashes: list[str] = []
    samples: list[tuple[float, dict[int, int]]] = []
    loads: list[float] = []
    stop = threading.Event()
    try:
        for pair in data["pairs"]:  # every worker's imports and connection
            httpx.get(f"{base}/api/ping/", headers={"Authorization": f"Token {pair[0]['token']}"})
        tables = [Table(base, pair, data["organiser"], stats) for pair in data["pairs"]]
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
        growth = sorted(Path(trace_dir).glob("*.txt")) if trace_dir else []
        growth_texts = [p.read_text() for p in growth]
    finally:
        stop.set()
        server.terminate()
        server.wait(timeout=30)

    done = len(stats.latencies)
    ms = sorted(x * 1000 for x in stats.latencies)
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))] if ms else 0.0
    print(
        f"{done} actions by {args.clients} clients on {args.workers} workers in {elapsed:.0f} s:"
        f" {done / elapsed:.0f} actions/s, p50 {ms[len(ms) // 2] if ms else 0:.1f} ms,"
        f" p99 {p99:.1f} ms; {sum(t.matches for t in tables)} matches,"
        f" {stats.other} other requests; recycling {'as deployed' if args.recycle else 'off'}"
        f"{'; tracemalloc on' if args.tracemalloc else ''}"
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
    if growth_texts:
        biggest = max(growth_texts, key=lambda text: float(text.split("traced ")[1].split()[0]))
        print("tracemalloc, the worker that traced the most:")
        print(biggest)


if __name__ == "__main__":
    main()
