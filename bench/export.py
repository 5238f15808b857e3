"""Exporting a whole tournament as JSON Lines and importing it into another database.

1. Makes sure the database holds a finished Swiss tournament of --players bots over
   --rounds rounds (`demo.simulation.tournament_simulate`, built once and reused).
2. Measures the memory of a bare `manage.py check` process (the baseline: Django and the
   project imported, nothing done), then runs `manage.py export_tournament <id> -o FILE`
   --repeats times, each in its own process: prints events exported, the file's size,
   seconds (the command's own process, start to exit, and the export function alone timed
   in this process), events/s and the process's peak resident memory (`ru_maxrss` of that
   child, from `os.wait4`) against the baseline.
3. Imports the file --repeats times, each into a freshly dropped and created second
   database (migrated first, not timed) with `manage.py import_tournament FILE` in its own
   process: prints seconds, events/s and peak memory, and whether the standings match: the
   importer's own check (rebuilt standings against those in the file's header) and the
   Standing rows of both databases compared row by row (by player name).

    .venv/bin/python bench/export.py --players 16 --rounds 4
    (DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/hg_export_bench, the
    import database to .../hg_import_bench: --import-url; both on the same server)
"""

from __future__ import annotations

import argparse
import io
import logging
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/hg_export_bench")

import django  # noqa: E402
import psycopg  # noqa: E402

from bench._db import database_name, ensure_database, libpq  # noqa: E402

IMPORT_URL = "postgres://postgres@127.0.0.1:5432/hg_import_bench"
STANDING_ROWS = (
    "SELECT p.name, s.rank, s.match_wins, s.played, s.games_won, s.points_diff, s.buchholz,"
    " s.sonneborn_berger, s.byes, s.withdrawn FROM tournaments_standing s"
    " JOIN players_player p ON p.id = s.player_id WHERE s.tournament_id = %s"
    " ORDER BY s.rank, p.name"
)


ensure_database(os.environ["DATABASE_URL"])
django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from demo.simulation import tournament_simulate  # noqa: E402
from tournaments.models import Tournament  # noqa: E402
from tournaments.selectors.exports import tournament_export  # noqa: E402


def run_measured(args: list[str], *, url: str) -> tuple[float, int, str]:
    """Run `manage.py ARGS` with DATABASE_URL=url: (wall seconds, peak RSS in KiB, stdout).
    The peak is that child's own `ru_maxrss` (Linux: KiB), read with `os.wait4`."""
    env = {**os.environ, "DATABASE_URL": url}
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, str(ROOT / "manage.py"), *args], stdout=out, stderr=err, env=env
        )
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        text, errors = out.read().decode(), err.read().decode()
    if child.returncode != 0:
        sys.exit(f"manage.py {' '.join(args)} failed ({child.returncode}):\n{text}{errors}")
    return seconds, usage.ru_maxrss, text


def tournament_get(*, players: int, rounds: int) -> Tournament:
    name = f"Export bench: Swiss, {players} bots, {rounds} rounds"
    found = Tournament.objects.filter(name=name, status=Tournament.Status.FINISHED).first()
    if found is not None:
        print(f"tournament {found.pk} ({name}) is there: no build")
        return found
    started = time.perf_counter()
    tournament = tournament_simulate(
        players=players, format="swiss", rounds=rounds, name=name, prefix="Export bot"
    )
    print(f"built tournament {tournament.pk} ({name}) in {time.perf_counter() - started:.0f}s")
    return tournament


def mib(kib: float) -> str:
    return f"{kib / 1024:.0f} MiB"


def standing_rows(url: str, tournament_id: int) -> list[tuple]:
    with psycopg.connect(libpq(url)) as c:
        return c.execute(STANDING_ROWS, [tournament_id]).fetchall()


def export(tournament: Tournament, path: Path, *, repeats: int, url: str) -> int:
    in_process, walls, peaks = [], [], []
    for _ in range(repeats):
        with path.open("w", encoding="utf-8", newline="\n") as out:
            started = time.perf_counter()
            result = tournament_export(tournament_id=tournament.pk, out=out)
            in_process.append(time.perf_counter() - started)
    for _ in range(repeats):
        wall, peak, _ = run_measured(
            ["export_tournament", str(tournament.pk), "-o", str(path), "--no-progress"], url=url
        )
        walls.append(wall)
        peaks.append(peak)
    events, best, wall = result.events, min(in_process), min(walls)
    print(
        f"export: {events} events in {result.streams} streams, file {path.stat().st_size:,}"
        f" bytes ({path.stat().st_size / events:.0f} bytes/event)"
    )
    print(
        f"  export function in process: {best:.2f}s, {events / best:,.0f} events/s"
        f" (best of {repeats}; median {statistics.median(in_process):.2f}s)"
    )
    print(
        f"  manage.py export_tournament process, start to exit: {wall:.2f}s,"
        f" {events / wall:,.0f} events/s (best of {repeats})"
    )
    return max(peaks)


def import_(path: Path, tournament: Tournament, *, events: int, repeats: int, url: str) -> int:
    walls, own, peaks, verdicts, same_rows = [], [], [], [], []
    exported = standing_rows(os.environ["DATABASE_URL"], tournament.pk)
    for _ in range(repeats):
        ensure_database(url, fresh=True)
        run_measured(["migrate", "--verbosity", "0"], url=url)
        wall, peak, text = run_measured(["import_tournament", str(path), "--no-progress"], url=url)
        walls.append(wall)
        peaks.append(peak)
        found = re.search(r" in ([\d.]+)s; standings (as exported|DIFFER)", text)
        if found is None:
            sys.exit(f"unexpected import_tournament output: {text}")
        own.append(float(found[1]))
        verdicts.append(found[2] == "as exported")
        same_rows.append(standing_rows(url, tournament.pk) == exported)
    wall, inside = min(walls), min(own)
    print(
        f"import into a fresh database ({database_name(url)}, dropped, created and migrated"
        f" before each run): {events} events"
    )
    print(
        f"  manage.py import_tournament process, start to exit: {wall:.2f}s,"
        f" {events / wall:,.0f} events/s (best of {repeats}; median"
        f" {statistics.median(walls):.2f}s)"
    )
    print(
        f"  the command's own time (it prints it, 0.1 s resolution): {inside:.1f}s,"
        f" {events / inside:,.0f} events/s"
    )
    print(
        f"  standings: importer's check {'as exported' if all(verdicts) else 'DIFFER'}"
        f" ({sum(verdicts)}/{repeats} runs); Standing rows of both databases"
        f" ({len(exported)} rows) {'identical' if all(same_rows) else 'DIFFER'}"
        f" ({sum(same_rows)}/{repeats} runs)"
    )
    return max(peaks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=3, help="timed runs of each; best kept")
    parser.add_argument("--import-url", default=IMPORT_URL, help="the database imported into")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("bench/export.py measures PostgreSQL: set DATABASE_URL to a postgres:// URL")
    if database_name(args.import_url) == connection.settings_dict["NAME"]:
        sys.exit("the import database must not be the export database")
    call_command("migrate", verbosity=0, stdout=io.StringIO())
    logging.getLogger("celery").setLevel(logging.WARNING)  # eager pairing jobs' chatter
    tournament = tournament_get(players=args.players, rounds=args.rounds)
    url = os.environ["DATABASE_URL"]
    baselines = [run_measured(["check"], url=url) for _ in range(args.repeats)]
    base_wall, base_peak = min(b[0] for b in baselines), max(b[1] for b in baselines)
    print(
        f"baseline: a bare manage.py check process, {base_wall:.2f}s start to exit,"
        f" peak RSS {mib(base_peak)}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "tournament.jsonl"
        export_peak = export(tournament, path, repeats=args.repeats, url=url)
        events = sum(1 for _ in path.open(encoding="utf-8")) - 2
        print(
            f"  peak RSS of the export process: {mib(export_peak)}"
            f" ({mib(export_peak - base_peak)} over the baseline; ru_maxrss via os.wait4)"
        )
        import_peak = import_(
            path, tournament, events=events, repeats=args.repeats, url=args.import_url
        )
        print(
            f"  peak RSS of the import process: {mib(import_peak)}"
            f" ({mib(import_peak - base_peak)} over the baseline)"
        )


if __name__ == "__main__":
    main()
