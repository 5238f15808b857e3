"""`manage.py export_tournament <id> [-o FILE]`: the tournament's decision log and every
match's events as JSON Lines (`tournaments.selectors.exports`), streamed, with a progress bar on
stderr. Without -o the file goes to stdout."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from core.errors import ApplicationError
from tournaments.selectors.exports import tournament_export


class Command(BaseCommand):
    help = "Export a tournament (its log, every match's events, the rows they need) as JSON Lines."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament_id", type=int)
        parser.add_argument("-o", "--output", help="the file to write (default: stdout)")
        parser.add_argument("--chunk-size", type=int, default=2000)
        parser.add_argument("--no-progress", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        path = options["output"]
        quiet = options["no_progress"] or options["verbosity"] == 0
        with tqdm(unit=" events", disable=quiet, file=sys.stderr) as bar:

            def total(n: int) -> None:
                bar.total = n
                bar.refresh()

            try:
                if path:
                    with Path(path).open("w", encoding="utf-8", newline="\n") as out:
                        result = self._export(options, out, bar, total)
                else:
                    result = self._export(options, self.stdout._out, bar, total)
            except ApplicationError as exc:
                raise CommandError(f"{exc.code}: {exc.message}") from exc
        if path:
            self.stdout.write(
                f"Exported tournament {result.tournament_id}: {result.events} events in"
                f" {result.streams} streams to {path} in {time.perf_counter() - started:.1f}s."
            )

    def _export(self, options: dict[str, Any], out: Any, bar: Any, total: Any) -> Any:
        return tournament_export(
            tournament_id=options["tournament_id"],
            out=out,
            chunk_size=options["chunk_size"],
            progress=bar.update,
            on_total=total,
        )
