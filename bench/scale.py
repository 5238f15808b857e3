"""The event store at 100k and at 10M stored events (issue 36): does it stay flat as it grows?

For each design of the event table, on a scratch database of its own (made afresh):
`partitioned` (as migrated: HASH on stream_id, eventstore migration 0005) and `plain` (the
same table unpartitioned, as before that migration). In a child process per design:

1. `migrate`, then a round-robin tournament played through the services
   (`manage.py simulate_tournament`): the template. Its events are real shapes: the
   tournament stream and its match streams.
2. Fill by `COPY` to --small events (default 100k): the template's rows again and again,
   each copy under new stream ids, interleaved copy by copy as many matches in play at once
   write them (a stream's events are spread over the heap, as in production), with positions
   after the template's. The copies keep the template's hashes and seals (their chains do
   not verify: they are ballast) and a tx_id older than any real transaction.
3. Measure: append p50/p99 (one event a transaction through `eventstore.append`, the real
   write path: head read, hash, seal, INSERT, commit; the events of a played match, to new
   streams); loading one match's stream (`eventstore.load`, a different copied match each
   time, p50/p99); rebuilding one tournament (the template's: its standings, rounds and
   registrations, and its matches' read models, from their events; median of 5); disk per
   event (`pg_total_relation_size` summed over the partitions, indexes and TOAST included,
   divided by the rows).
4. Fill on to --large events (default 10M, progress printed), measure again.

Then the large/small ratios per design (goal: within 1.2x), and the plain/partitioned ones.

    .venv/bin/python bench/scale.py [--large 10000000] [--small 100000]
        [--designs partitioned plain] [--keep]
    .venv/bin/python bench/scale.py --upgrade 2000000   # the time `migrate` takes to partition

DATABASE_URL: the PostgreSQL server (default postgres://postgres@127.0.0.1:5432); the
databases are hg_scale_bench_<design>, dropped at the end unless --keep. 10M events take about
15 GB of disk per design (bench/README.md).
"""

from __future__ import annotations

import argparse
import importlib
import io
import json
import os
import random
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVER = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/x").rsplit("/", 1)[0]
COLUMNS = "position, stream_id, version, type, schema_version, data, metadata, recorded_at, hash,"
COLUMNS += " tx_id, seal, key_id"
ANCIENT_TX = 3  # older than every real transaction: read_all would hand the copies out first


# --- the child: one design -------------------------------------------------------------------


def _setup(design: str, name: str) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.base"
    os.environ["DATABASE_URL"] = f"{SERVER}/hg_scale_bench_{name}"
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "true"  # the simulator's jobs run at once
    from bench._db import ensure_database

    ensure_database(os.environ["DATABASE_URL"], fresh=True)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    if design == "plain":
        _unpartition()
    call_command(
        "simulate_tournament", "--players", "4", "--format", "round_robin",
        "--game-target", "10", "--no-progress", stdout=io.StringIO(),
    )  # fmt: skip


def _unpartition() -> None:
    """The event table as it was before migration 0005 (one plain table), named as today:
    that migration's own way back, then the name."""
    from django.db import connection, transaction

    migration = importlib.import_module(
        "eventstore.migrations.0006_event_table_renamed_and_partitioned_by_stream"
    )
    with transaction.atomic(), connection.cursor() as cursor:
        for statement in migration.pg_backward():
            cursor.execute(statement)
        cursor.execute("ALTER TABLE games_storedevent RENAME TO eventstore_event")


def _sql(sql: str, params: list | None = None) -> list[tuple]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(sql, params or [])
        return cursor.fetchall() if cursor.description else []


class Filler:
    """Copies of the template's rows by COPY, under new stream ids, interleaved."""

    def __init__(self, table: str = "eventstore_event") -> None:
        from django.db import connection

        self.connection, self.table = connection, table
        self.template = _sql(f"SELECT {COLUMNS} FROM {table} ORDER BY position")
        self.position = max(row[0] for row in self.template)
        self.count = len(self.template)
        self.copies = 0
        self.match_streams: list[str] = []

    def fill_to(self, target: int) -> None:
        per_chunk = max(1, 100_000 // len(self.template))  # copies in play at once
        started, start_count = time.monotonic(), self.count
        while self.count < target:
            copies = min(per_chunk, -(-(target - self.count) // len(self.template)))
            self._copy_chunk(copies)
            rate = (self.count - start_count) / (time.monotonic() - started)
            print(f"  filled {self.count:,} events ({rate:,.0f}/s)", file=sys.stderr, flush=True)
        _sql(f"ANALYZE {self.table}")

    def _copy_chunk(self, copies: int) -> None:
        # after the last position given, the measured appends' included
        self.position = _sql(f"SELECT max(position) FROM {self.table}")[0][0]
        names = []
        for _ in range(copies):
            self.copies += 1
            streams = sorted({r[1] for r in self.template})
            names.append(
                {
                    sid: _renamed(sid, uuid.UUID(int=self.copies * 1000 + n))
                    for n, sid in enumerate(streams)
                }
            )
        for renamed in names:
            self.match_streams += [v for v in renamed.values() if v.startswith("match-")]
        with self.connection.cursor() as cursor:
            raw = cursor.cursor  # the psycopg cursor, for COPY
            with raw.copy(f"COPY {self.table} ({COLUMNS}) FROM STDIN") as copy:
                for row in self.template:
                    for renamed in names:
                        self.position += 1
                        copy.write_row(
                            (self.position, renamed[row[1]], *row[2:5], _jsonb(row[5]),
                             _jsonb(row[6]), row[7], row[8], ANCIENT_TX, *row[10:])
                        )  # fmt: skip
        self.count += copies * len(self.template)
        _sql(
            "SELECT setval(pg_get_serial_sequence(%s, 'position'), %s)",
            [self.table, self.position],
        )


def _renamed(stream_id: str, suffix: uuid.UUID) -> str:
    kind = stream_id.split("-", 1)[0]
    return f"{kind}-{suffix}"


def _jsonb(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _ms(seconds: list[float]) -> tuple[float, float]:
    ordered = sorted(seconds)
    return (
        statistics.median(ordered) * 1000,
        ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000,
    )


class Measurer:
    """One batch of each measurement at a time, so that the parent can interleave the
    databases' batches: a busy machine then slows both sizes alike."""

    def __init__(self, filler: Filler) -> None:
        from eventstore import NewEvent
        from tournaments.models import Tournament

        self.filler, self.batches = filler, 0
        streams = {r[1] for r in filler.template}
        self.matches = sorted(sid for sid in streams if sid.startswith("match-"))
        longest = max(self.matches, key=lambda sid: sum(r[1] == sid for r in filler.template))
        self.moves = [
            NewEvent(r[3], _decoded(r[5]), _decoded(r[6]), schema_version=r[4])
            for r in filler.template
            if r[1] == longest
        ]
        self.tournament = Tournament.objects.get()
        self.random = random.Random(0)

    def batch(self, appends: int = 60, loads: int = 40) -> dict:
        from django.db import transaction

        import eventstore
        from games.projections.rebuild import streams_rebuild
        from tournaments.projections.rebuild import standings_rebuild

        self.batches += 1
        out: dict[str, list[float]] = {"append": [], "load": [], "rebuild": []}
        for n in range(appends):
            stream_id = f"match-append-{self.batches}-{n // len(self.moves)}"
            version = n % len(self.moves)
            started = time.perf_counter()
            with transaction.atomic():
                eventstore.append(
                    stream_id=stream_id, expected_version=version, events=[self.moves[version]]
                )
            out["append"].append(time.perf_counter() - started)
        for stream_id in self.random.choices(self.filler.match_streams, k=loads):
            started = time.perf_counter()
            assert eventstore.load(stream_id=stream_id)
            out["load"].append(time.perf_counter() - started)
        started = time.perf_counter()
        with transaction.atomic():
            standings_rebuild(tournament=self.tournament)
            streams_rebuild(stream_ids=self.matches)
        out["rebuild"].append(time.perf_counter() - started)
        return out


def disk() -> dict:
    (rows,) = _sql("SELECT count(*) FROM eventstore_event")[0]
    (size,) = _sql(
        "SELECT COALESCE((SELECT sum(pg_total_relation_size(relid))"
        " FROM pg_partition_tree('eventstore_event')), pg_total_relation_size('eventstore_event'))"
    )[0]  # a plain table has no partition tree
    return {"events": rows, "bytes_per_event": int(size) / rows}


def _decoded(value: object) -> dict:
    return json.loads(value) if isinstance(value, str) else value  # type: ignore[return-value]


def upgrade(events: int) -> None:
    """The time `migrate` takes to move a store of `events` events into the partitioned table
    (eventstore 0005): the store made as the release before it left it, then migrated."""
    from django.core.management import call_command

    _setup("upgrade", "upgrade")
    call_command("migrate", "eventstore", "0004", verbosity=0)
    Filler("games_storedevent").fill_to(events)
    started = time.monotonic()
    call_command("migrate", "eventstore", verbosity=0)
    took = time.monotonic() - started
    (rows,) = _sql("SELECT count(*) FROM eventstore_event")[0]
    load = os.getloadavg()[0]
    print(json.dumps({"design": "upgrade", "events": rows, "seconds": took, "load_average": load}))


def child(design: str, size: int) -> None:
    """Fill one database, say `ready`, then answer the parent's commands on stdin:
    `batch` (one batch of measurements, as JSON), `disk`, `quit`."""
    if design == "upgrade":
        upgrade(size)
        return
    _setup(design, f"{design}_{size}")
    filler = Filler()
    filler.fill_to(size)
    measurer = Measurer(filler)
    print("ready", flush=True)
    for line in sys.stdin:
        command = line.strip()
        if command == "batch":
            print(json.dumps(measurer.batch()), flush=True)
        elif command == "disk":
            print(json.dumps(disk()), flush=True)
        else:
            return


# --- the parent: the table -------------------------------------------------------------------

FIGURES = [
    ("append p50 (ms)", "append_p50_ms"),
    ("append p99 (ms)", "append_p99_ms"),
    ("load a match p50 (ms)", "load_p50_ms"),
    ("load a match p99 (ms)", "load_p99_ms"),
    ("rebuild a tournament (ms)", "rebuild_ms"),
    ("disk per event (bytes)", "bytes_per_event"),
]


def summary(samples: dict[str, list[float]], sized: dict) -> dict:
    append_p50, append_p99 = _ms(samples["append"])
    load_p50, load_p99 = _ms(samples["load"])
    return {
        **sized,
        "append_p50_ms": append_p50,
        "append_p99_ms": append_p99,
        "load_p50_ms": load_p50,
        "load_p99_ms": load_p99,
        "rebuild_ms": statistics.median(samples["rebuild"]) * 1000,
    }


def report(results: dict[tuple[str, str], dict], designs: list[str]) -> None:
    for design in designs:
        small, large = results[(design, "small")], results[(design, "large")]
        sizes = f"{small['events']:,} vs {large['events']:,} events"
        print(f"\n{design}: {sizes}")
        print(f"  {'':28} {'small':>10} {'large':>10} {'large/small':>12}")
        for title, key in FIGURES:
            ratio = large[key] / small[key]
            print(f"  {title:28} {small[key]:10.2f} {large[key]:10.2f} {ratio:11.2f}x")
    if len(designs) == 2:
        print(f"\n{designs[1]}/{designs[0]} at each size")
        for title, key in FIGURES:
            ratios = [
                results[(designs[1], size)][key] / results[(designs[0], size)][key]
                for size in ("small", "large")
            ]
            print(f"  {title:28} small {ratios[0]:.2f}x  large {ratios[1]:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--large", type=int, default=10_000_000)
    parser.add_argument("--small", type=int, default=100_000)
    parser.add_argument(
        "--designs", nargs="+", default=["partitioned", "plain"], choices=["partitioned", "plain"]
    )
    parser.add_argument("--rounds", type=int, default=8, help="interleaved batches per database")
    parser.add_argument("--keep", action="store_true", help="keep the scratch databases")
    parser.add_argument(
        "--upgrade", type=int, metavar="EVENTS",
        help="instead: time the upgrade (migrate) of a store of EVENTS events into partitions",
    )  # fmt: skip
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--size", type=int, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child:
        child(options.child, options.size)
        return
    if options.upgrade:
        upgraded(options.upgrade, keep=options.keep)
        return
    print(f"load average at start: {os.getloadavg()[0]:.1f}", flush=True)
    sizes = {"small": options.small, "large": options.large}
    children = {
        (design, label): subprocess.Popen(
            [sys.executable, __file__, "--child", design, "--size", str(size)],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        for design in options.designs
        for label, size in sizes.items()
    }  # filled side by side; the fill's progress goes to stderr
    try:
        for process in children.values():
            assert process.stdout and process.stdout.readline().strip() == "ready"
        print(f"filled; load average {os.getloadavg()[0]:.1f}", flush=True)
        samples = {key: {"append": [], "load": [], "rebuild": []} for key in children}
        order = list(children)
        for round_ in range(options.rounds + 1):  # round 0 warms every connection up
            random.Random(round_).shuffle(order)
            for key in order:
                batch = json.loads(_ask(children[key], "batch"))
                if round_:
                    for name, values in batch.items():
                        samples[key][name] += values
            print(f"  round {round_} of {options.rounds} done;"
                  f" load average {os.getloadavg()[0]:.1f}", flush=True)  # fmt: skip
        results = {
            key: summary(samples[key], json.loads(_ask(process, "disk")))
            for key, process in children.items()
        }
    finally:
        for process in children.values():
            if process.poll() is None and process.stdin:
                process.stdin.write("quit\n")
                process.stdin.close()
            process.wait()
        if not options.keep:
            for design, label in children:
                _drop(f"hg_scale_bench_{design}_{sizes[label]}")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    report(results, options.designs)


def _ask(process: subprocess.Popen, command: str) -> str:
    assert process.stdin and process.stdout
    process.stdin.write(command + "\n")
    process.stdin.flush()
    return process.stdout.readline()


def upgraded(events: int, *, keep: bool) -> None:
    done = subprocess.run(
        [sys.executable, __file__, "--child", "upgrade", "--size", str(events)],
        cwd=ROOT, stdout=subprocess.PIPE, text=True, check=True,
    )  # fmt: skip
    if not keep:
        _drop("hg_scale_bench_upgrade")
    row = json.loads(done.stdout.splitlines()[-1])
    print(f"upgrade of {row['events']:,} events into the partitioned table:"
          f" {row['seconds']:.1f} s (load average {row['load_average']:.1f})")  # fmt: skip


def _drop(name: str) -> None:
    import psycopg

    from bench._db import libpq

    with psycopg.connect(libpq(f"{SERVER}/postgres"), autocommit=True) as c:
        c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
