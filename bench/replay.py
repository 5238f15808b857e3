"""Rebuilding everything from the events, against a plain read of the same rows.

1. Makes sure the database holds at least --matches finished bot matches and --events
   match events (builds the missing ones: seeded bot-vs-bot matches, decided in memory by
   the same session code as the services and committed one match per transaction).
2. Times a plain psycopg read of every match event row (the columns the store reads),
   then a full rebuild of every match's state and read models from the events
   (`games.projections.projections_rebuild`, as `manage.py rebuild_projections` runs it).
   Prints both and the ratio (target: rebuild <= 3 x plain read).
3. Times loading one match's state at its 20th hand against at its 1st (the snapshot
   taken at each deal bounds the events read; target ratio <= 1.3).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hg_replay_bench .venv/bin/python bench/replay.py
    (DATABASE_URL defaults to .../hg_matches_bench)
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/hg_matches_bench")

import django  # noqa: E402
import psycopg  # noqa: E402

from bench._db import ensure_database  # noqa: E402

ensure_database(os.environ["DATABASE_URL"])
django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.models import Sum  # noqa: E402
from tqdm import tqdm  # noqa: E402

import eventstore  # noqa: E402
from demo.bots import match_play_bots_batched  # noqa: E402
from games.models import Match  # noqa: E402
from games.projections import projections_rebuild  # noqa: E402
from games.selectors import match_state_at  # noqa: E402
from games.services import match_create  # noqa: E402
from players.models import Player  # noqa: E402

PLAIN_READ = (
    "SELECT position, stream_id, version, type, schema_version, data, metadata, recorded_at,"
    " hash FROM eventstore_event WHERE stream_id LIKE 'match-%%' ORDER BY position"
)


def finished_stats() -> tuple[int, int]:
    finished = Match.objects.filter(status=Match.Status.FINISHED, mode="online")
    return finished.count(), finished.aggregate(n=Sum("version"))["n"] or 0


def build(*, matches: int, events: int) -> None:
    have, have_events = finished_stats()
    if have >= matches and have_events >= events:
        print(f"database holds {have} finished matches, {have_events} events: no build")
        return
    bots = [Player.objects.get_or_create(name=f"Bench bot {i}", is_bot=True)[0] for i in range(16)]
    started = time.perf_counter()
    with tqdm(total=events, initial=have_events, unit=" events", desc="building") as bar:
        i = Match.objects.count()
        while have < matches or have_events < events:
            a, b = bots[i % 16], bots[(i * 7 + 3) % 16]
            if a == b:
                b = bots[(i + 1) % 16]
            match = match_create(player1=a, player2=b, seed=f"bench-{i}")
            match_play_bots_batched(match=match)
            match.refresh_from_db(fields=["version", "status"])
            have, have_events, i = have + 1, have_events + match.version, i + 1
            bar.update(match.version)
    print(
        f"built up to {have} matches, {have_events} events in {time.perf_counter() - started:.0f}s"
    )


def plain_read() -> tuple[float, int]:
    dsn = connection.get_connection_params()
    with (
        psycopg.connect(
            **{k: v for k, v in dsn.items() if k in ("dbname", "user", "host", "port", "password")}
        ) as conn,
        conn.cursor() as cur,
    ):
        started = time.perf_counter()
        cur.execute(PLAIN_READ)
        rows = cur.fetchall()
        return time.perf_counter() - started, len(rows)


def store_read() -> float:
    """Paging through the same events with the store's reader alone (no folding)."""
    started, after = time.perf_counter(), 0
    while page := eventstore.read_all(after_position=after, limit=50_000):
        after = page[-1].position
    return time.perf_counter() - started


def rebuild() -> tuple[float, int, int]:
    started = time.perf_counter()
    result = projections_rebuild(page_size=50_000)
    return time.perf_counter() - started, result.events, result.matches


def load_times(*, repeats: int) -> None:
    candidates = Match.objects.filter(status=Match.Status.FINISHED, hand_number__gte=20)
    match = candidates.order_by("-hand_number").first()
    if match is None:
        match = Match.objects.filter(status=Match.Status.FINISHED).order_by("-hand_number").first()
    events = eventstore.load(stream_id=match.stream_id)
    deals = {e.data["hand_number"]: e.version for e in events if e.type == "HandDealt"}
    late = min(20, max(deals))
    # The same point of play in both hands: ten events after the deal (or the hand's end).
    offset = 10
    v1 = min(deals[1] + offset, deals.get(2, deals[1] + offset + 1) - 1)
    v20 = min(deals[late] + offset, deals.get(late + 1, match.version + 1) - 1)
    k1, k20 = v1 - deals[1], v20 - deals[late]
    t1, t20 = _median_times(match, (v1, v20), repeats=repeats, records=False)
    print(
        f"load one match (median of {repeats}): at hand 1 (version {v1}, {k1} events after "
        f"the snapshot) {t1 * 1000:.2f} ms; at hand {late} (version {v20}, {k20} events after "
        f"the snapshot) {t20 * 1000:.2f} ms; ratio {t20 / t1:.2f} (target <= 1.3)"
    )
    # The finished-hand records are read only when looked at (views, audits): what that costs.
    r1, r20 = _median_times(match, (v1, v20), repeats=repeats, records=True)
    print(
        f"  the same, then reading the finished-hand records as a view does: hand 1 "
        f"{r1 * 1000:.2f} ms; hand {late} {r20 * 1000:.2f} ms; ratio {r20 / r1:.2f}"
    )


def _median_times(
    match: Match, versions: tuple[int, int], *, repeats: int, records: bool
) -> tuple[float, float]:
    timings: list[list[float]] = [[], []]
    for _ in range(repeats):
        for times, version in zip(timings, versions, strict=True):
            started = time.perf_counter()
            state, _ = match_state_at(match=match, version=version)
            if records:
                list(state.hand_results)
            times.append(time.perf_counter() - started)
    return statistics.median(timings[0]), statistics.median(timings[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--events", type=int, default=500_000)
    parser.add_argument("--repeats", type=int, default=3, help="timed runs of each; best kept")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("bench/replay.py measures PostgreSQL: set DATABASE_URL to a postgres:// URL")
    call_command("migrate", verbosity=0)
    build(matches=args.matches, events=args.events)
    count, events = finished_stats()
    total = Match.objects.count()
    print(f"matches: {total} ({count} finished bot matches), match events: {events}+")
    reads, rebuilds = [], []
    for _ in range(args.repeats):
        reads.append(plain_read())
        rebuilds.append(rebuild())
    read_s, read_rows = min(reads)
    rebuild_s, rebuild_events, rebuilt = min(rebuilds)
    assert read_rows == rebuild_events, (read_rows, rebuild_events)
    print(f"plain psycopg read of {read_rows} event rows: {read_s:.2f}s (best of {args.repeats})")
    print(
        f"full rebuild of {rebuilt} matches' state and read models from {rebuild_events} events:"
        f" {rebuild_s:.2f}s (best of {args.repeats})"
    )
    print(f"ratio rebuild / plain read: {rebuild_s / read_s:.2f} (target <= 3)")
    store_s = min(store_read() for _ in range(args.repeats))
    print(
        f"  breakdown: the store's read_all alone {store_s:.2f}s ({store_s / read_s:.2f} x plain);"
        f" decoding, engine evolve and projection writes {rebuild_s - store_s:.2f}s"
    )
    load_times(repeats=200)


if __name__ == "__main__":
    main()
