"""`manage.py import_tournament FILE`: a tournament exported by `export_tournament`, into a
database that holds none of it (`tournaments.services.imports`): its events appended with their
hashes as exported, its read models rebuilt from them. All or nothing. It links nothing
already here, unless `--link-club ID` names a club it may belong to (each link listed)."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from tournaments.services.imports import TournamentImportError, tournament_import


class Command(BaseCommand):
    help = "Import a tournament from an export_tournament file (into an empty database)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the JSON Lines file ('-': stdin)")
        parser.add_argument("--no-progress", action="store_true")
        parser.add_argument(
            "--link-club",
            type=int,
            metavar="ID",
            help="the id of a club here the tournament may belong to (else an import links"
            " nothing already here); every link is listed",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        quiet = options["no_progress"] or options["verbosity"] == 0
        name = options["file"]
        try:
            source = sys.stdin if name == "-" else Path(name).open(encoding="utf-8")  # noqa: SIM115
        except OSError as exc:
            raise CommandError(f"cannot read {name}: {exc}") from exc
        try:
            with tqdm(unit=" events", disable=quiet, file=sys.stderr) as bar:
                result = tournament_import(
                    lines=source, progress=bar.update, link_club=options["link_club"]
                )
        except TournamentImportError as exc:
            raise CommandError(f"{exc.code}: {exc.message} (nothing was imported)") from exc
        except UnicodeDecodeError as exc:
            message = "bad_line: the file is not UTF-8 text (nothing was imported)"
            raise CommandError(message) from exc
        finally:
            if source is not sys.stdin:
                source.close()
        self.stdout.write(
            f"Imported tournament {result.tournament_id}: {result.events} events in"
            f" {result.streams} streams, {result.players} players, {result.users} accounts"
            f" (no passwords) in {time.perf_counter() - started:.1f}s; standings "
            + ("as exported." if result.standings_match else "DIFFER from the export's.")
        )
        for link in result.linked:
            self.stdout.write(f"LINKED {link}")
        for where in result.drift:
            self.stderr.write(f"DRIFT {where}: the pairing row differs from the events")
