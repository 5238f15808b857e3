"""Checking matches without trusting the server, and the whole store's hash chains.

1. Makes sure the database holds at least --matches finished bot matches (builds the
   missing ones as bench/replay.py does: seeded bot-vs-bot matches decided in memory and
   committed one match per transaction).
2. Writes the audit bundles of the --audit longest finished matches (most events;
   `games.audit.match_bundle` with user=None, what `manage.py export_match` writes) to a
   temporary directory, then runs `python3 -I tools/verify_match.py FILE` on each, as a
   subprocess from that directory (standard library only, outside the project): prints
   each match's events, hands, bundle size and seconds (the verifier's process, start to
   exit), its verdict, and the median and max.
   Each verifier run is repeated --repeats times, the best kept.
3. Times `manage.py verify_events` over the whole database (every stream's hash chain,
   seals, streams cut short, snapshots), run in this process with call_command: seconds
   and events/s, best of --repeats; and the hash chains alone (`eventstore.verify`).

    .venv/bin/python bench/verify.py
    (DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/hg_verify_bench; to reuse
    the replay bench's database: DATABASE_URL=postgres://postgres@127.0.0.1:5432/hg_matches_bench,
    which holds enough matches to build none)
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/hg_verify_bench")

import django  # noqa: E402

from bench._db import ensure_database  # noqa: E402

ensure_database(os.environ["DATABASE_URL"])
django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from tqdm import tqdm  # noqa: E402

import eventstore  # noqa: E402
from demo.bots import match_play_bots_batched  # noqa: E402
from games.audit import match_bundle  # noqa: E402
from games.models import Match  # noqa: E402
from games.services import match_create  # noqa: E402
from players.models import Player  # noqa: E402

VERIFIER = ROOT / "tools" / "verify_match.py"


def finished() -> object:
    return Match.objects.filter(status=Match.Status.FINISHED)


def build(*, matches: int) -> None:
    have = finished().count()
    if have >= matches:
        print(f"database holds {have} finished matches: no build")
        return
    bots = [Player.objects.get_or_create(name=f"Bench bot {i}", is_bot=True)[0] for i in range(16)]
    started, built_events = time.perf_counter(), 0
    with tqdm(total=matches, initial=have, unit=" matches", desc="building") as bar:
        i = Match.objects.count()
        while have < matches:
            a, b = bots[i % 16], bots[(i * 7 + 3) % 16]
            if a == b:
                b = bots[(i + 1) % 16]
            match = match_create(player1=a, player2=b, seed=f"bench-{i}")
            match_play_bots_batched(match=match)
            match.refresh_from_db(fields=["version", "status"])
            have, built_events, i = have + 1, built_events + match.version, i + 1
            bar.update(1)
    print(
        f"built up to {have} matches ({built_events} new events) in"
        f" {time.perf_counter() - started:.0f}s"
    )


def audit(*, count: int, python: str, repeats: int) -> None:
    longest = list(finished().order_by("-version", "id")[:count])
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for match in longest:
            started = time.perf_counter()
            bundle = match_bundle(match=match, user=None)
            path = Path(tmp) / f"match-{match.pk}.json"
            path.write_text(
                json.dumps(bundle, ensure_ascii=False, indent=1, default=str) + "\n",
                encoding="utf-8",
            )
            exported = time.perf_counter() - started
            seconds = float("inf")
            for _ in range(repeats):
                started = time.perf_counter()
                run = subprocess.run(
                    [python, "-I", str(VERIFIER), path.name],
                    cwd=tmp,
                    capture_output=True,
                    text=True,
                    check=False,
                )
                seconds = min(seconds, time.perf_counter() - started)
            verdict = next(
                (line for line in run.stdout.splitlines() if line.startswith("VERDICT")),
                f"no verdict (exit {run.returncode}): {run.stderr.strip()[-200:]}",
            )
            rows.append(
                (
                    str(match.pk)[:8],
                    len(bundle["events"]),
                    len(bundle["commitments"]),
                    path.stat().st_size,
                    exported,
                    seconds,
                    run.returncode,
                    verdict,
                )
            )
    print(f"tools/verify_match.py on the {len(rows)} longest finished matches ({python} -I):")
    print(f"  {'match':<8} {'events':>6} {'hands':>5} {'bundle':>9} {'export':>7} {'verify':>7}")
    for name, events, hands, size, exported, seconds, code, verdict in rows:
        print(
            f"  {name:<8} {events:>6} {hands:>5} {size / 1024:>7.0f}Ki {exported:>6.2f}s"
            f" {seconds:>6.2f}s  exit {code}: {verdict[:60]}"
        )
    times = [r[5] for r in rows]
    events = [r[1] for r in rows]
    passed = sum(1 for r in rows if r[6] == 0)
    print(
        f"  verify_match.py: median {statistics.median(times):.2f}s, max {max(times):.2f}s"
        f" per match; {sum(events) / sum(times):,.0f} events/s over all; {passed}/{len(rows)}"
        " passed"
    )
    bare = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        subprocess.run([python, "-I", "-c", "pass"], check=True)
        bare = min(bare, time.perf_counter() - started)
    print(
        f"  (each time the best of {repeats} runs; a bare"
        f" `{Path(python).name} -I -c pass`: {bare:.3f}s)"
    )
    exports = [r[4] for r in rows]
    print(
        f"  writing the bundle (match_bundle + JSON): median {statistics.median(exports):.2f}s,"
        f" max {max(exports):.2f}s"
    )


def verify_events(*, repeats: int) -> None:
    total = eventstore.event_count()
    times, out = [], io.StringIO()
    for _ in range(repeats):
        started = time.perf_counter()
        call_command("verify_events", verbosity=0, stdout=out, stderr=out)
        times.append(time.perf_counter() - started)
    best = min(times)
    chains = []
    for _ in range(repeats):
        started = time.perf_counter()
        result = eventstore.verify()
        chains.append(time.perf_counter() - started)
    assert result.ok and result.events_checked == total, result
    print(
        f"manage.py verify_events over the whole database ({total} events): {best:.2f}s,"
        f" {total / best:,.0f} events/s (best of {repeats}; median"
        f" {statistics.median(times):.2f}s); {out.getvalue().splitlines()[-1]}"
    )
    print(
        f"  of which the hash chains and seals (eventstore.verify alone): {min(chains):.2f}s,"
        f" {total / min(chains):,.0f} events/s; streams cut short and snapshots: the rest"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=50, help="finished matches to hold")
    parser.add_argument("--audit", type=int, default=10, help="longest matches to verify")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs of verify_events")
    parser.add_argument(
        "--python",
        default=getattr(sys, "_base_executable", None) or shutil.which("python3"),
        help="the python3 that runs the verifier (default: the one the venv was made from)",
    )
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("bench/verify.py measures PostgreSQL: set DATABASE_URL to a postgres:// URL")
    call_command("migrate", verbosity=0)
    build(matches=args.matches)
    count, events = finished().count(), eventstore.event_count()
    print(f"database {connection.settings_dict['NAME']}: {count} finished matches, {events} events")
    audit(count=args.audit, python=args.python, repeats=args.repeats)
    verify_events(repeats=args.repeats)


if __name__ == "__main__":
    main()
