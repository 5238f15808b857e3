"""Delete superseded snapshots: of an older state shape (another kind of a registered
family, which readers ignore, or the current kind written before a field was added). They
are a cache: readers replay the events and save new ones as they go.

    python manage.py prune_snapshots            # delete them, say how many
    python manage.py prune_snapshots --dry-run  # only say how many

Snapshots that fail their check (`verify_events --deep`: BAD SNAPSHOT) are not touched:
they are evidence; delete them once looked into (eventstore.snapshot_delete).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

import eventstore
from games.selectors import snapshots_superseded


class Command(BaseCommand):
    help = "Delete superseded snapshots (older state shapes); --dry-run only counts them."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dry-run", action="store_true", help="count, delete nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        superseded = snapshots_superseded()
        reasons: dict[str, int] = {}
        for snapshot in superseded:
            reasons[snapshot.reason] = reasons.get(snapshot.reason, 0) + 1
        for reason, count in sorted(reasons.items()):
            self.stdout.write(f"{count} snapshots {reason}")
        if options["dry_run"]:
            self.stdout.write(f"{len(superseded)} superseded snapshots (dry run: none deleted)")
            return
        keys = [(s.stream_id, s.kind, s.version) for s in superseded]
        deleted = eventstore.snapshots_delete(keys=keys)
        self.stdout.write(f"deleted {deleted} superseded snapshots")
