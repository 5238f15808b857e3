"""`manage.py rebuild_projections`: rebuild every match's read models from the stored
events alone (the same code as the incremental path), with a progress bar. An event that
cannot be folded (an unknown type, a malformed one, a gap in its stream) is reported with
its stream and position; the other streams are rebuilt, and the command exits with 1.
The other read models (tournaments, ratings) are rebuilt with them, each row compared, by
`manage.py verify_projections --rebuild`."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db.models import Sum
from tqdm import tqdm

from games.models import Match
from games.projections import projections_rebuild, streams_rebuild


class Command(BaseCommand):
    help = "Rebuild the match read models (summaries, scoresheets, hands) from the events."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--page-size", type=int, default=20_000)
        parser.add_argument("--no-progress", action="store_true")
        parser.add_argument(
            "--stream",
            action="append",
            dest="streams",
            help="only this match stream (repeatable), read stream by stream",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        # The read models' versions estimate the work (exact when they are up to date).
        expected = Match.objects.aggregate(n=Sum("version"))["n"] or None
        with tqdm(
            total=expected, unit=" events", disable=options["no_progress"], file=self.stderr._out
        ) as bar:
            if options["streams"]:
                result = streams_rebuild(stream_ids=options["streams"])
            else:
                result = projections_rebuild(progress=bar.update, page_size=options["page_size"])
        self.stdout.write(
            f"Rebuilt {result.matches} matches ({result.created} recreated, {result.hands} "
            f"hands) from {result.events} events in {time.perf_counter() - started:.1f}s."
            " Every other read model too: manage.py verify_projections --rebuild."
        )
        for stream_id, version, position, problem in result.problems:
            self.stderr.write(
                f"BAD EVENT stream {stream_id} version {version} (position {position}):"
                f" {problem}; this stream's read models were left as they were"
            )
        if result.problems:
            raise CommandError(
                f"{len(result.problems)} streams could not be rebuilt; first:"
                f" {result.problems[0][0]}",
                returncode=1,
            )
