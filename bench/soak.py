"""A short soak: a bounded number of game actions against gunicorn as deployed, to watch
for errors and for worker memory that grows.

1. Recreates the PostgreSQL database --db (default hg_bench_soak) and its players, as
   bench/api.py does, and starts gunicorn with config/gunicorn.py (workers recycle after
   `max_requests` plus a jitter, staggered).
2. --clients threads each play bot matches through POST /api/matches/{id}/actions/ until
   --actions actions in all have been made (a few hundred by default: minutes at most).
3. Prints throughput, the error count (any answer that is not the expected 201), and each
   gunicorn worker's resident memory at the start and at the end.

    .venv/bin/python bench/soak.py [--actions 600] [--clients 8] [--workers N]
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from api import Stats, Table, prepare, start_server  # noqa: E402 (bench/api.py, beside this)


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


def show(label: str, rss: dict[int, int]) -> None:
    mib = [kib / 1024 for kib in rss.values()]
    if mib:
        print(
            f"worker memory {label}: {len(mib)} workers, {min(mib):.1f}-{max(mib):.1f} MiB RSS,"
            f" total {sum(mib):.1f} MiB"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=600, help="actions in all (bounded)")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--db", default="hg_bench_soak")
    parser.add_argument("--max-seconds", type=float, default=300.0, help="stop anyway after")
    args = parser.parse_args()

    print(f"preparing database {args.db} ...", flush=True)
    data = prepare(args.db, args.clients, async_commit=False)
    server = start_server(args.db, args.port, args.workers, "sync")
    base = f"http://127.0.0.1:{args.port}"
    stats = Stats()
    try:
        for pair in data["pairs"]:  # warm every worker a little
            httpx.get(f"{base}/api/ping/", headers={"Authorization": f"Token {pair[0]['token']}"})
        start_rss = worker_rss(server.pid)
        tables = [Table(base, pair, data["organiser"], stats) for pair in data["pairs"]]
        deadline = time.monotonic() + args.max_seconds

        def play(table: Table) -> None:
            while len(stats.latencies) < args.actions and time.monotonic() < deadline:
                errors = len(stats.errors)
                table.play(time.monotonic() + 0.5)
                if len(stats.errors) > errors:
                    table.latest = None  # after an error, go on with a new match

        threads = [threading.Thread(target=play, args=(t,)) for t in tables]
        started = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started
        end_rss = worker_rss(server.pid)
    finally:
        server.terminate()
        server.wait(timeout=30)

    done = len(stats.latencies)
    ms = sorted(x * 1000 for x in stats.latencies)
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))] if ms else 0.0
    print(
        f"{done} actions by {args.clients} clients in {elapsed:.1f} s: {done / elapsed:.0f}"
        f" actions/s, p50 {ms[len(ms) // 2] if ms else 0:.1f} ms, p99 {p99:.1f} ms;"
        f" {sum(t.matches for t in tables)} matches, {stats.other} other requests"
    )
    print(f"errors: {len(stats.errors)}" + (f"; first: {stats.errors[0]}" if stats.errors else ""))
    show("at start", start_rss)
    show("at end", end_rss)


if __name__ == "__main__":
    main()
