"""Write the signed checkpoints of stream heads out, as JSON, for safe keeping outside the
database (eventstore.checkpoints).

    python manage.py export_checkpoints                 # every checkpoint, to stdout
    python manage.py export_checkpoints --latest        # the latest of each stream
    python manage.py export_checkpoints --take          # sign the moved heads first
    python manage.py export_checkpoints --stream <id> --output heads.json
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

import eventstore


class Command(BaseCommand):
    help = "Export the signed checkpoints of stream heads as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--stream", help="one stream id")
        parser.add_argument("--latest", action="store_true", help="the latest of each stream")
        parser.add_argument("--take", action="store_true", help="sign the moved heads first")
        parser.add_argument("--output", help="a file (default: stdout)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["take"]:
            taken = eventstore.checkpoints_take(stream_id=options["stream"])
            self.stderr.write(f"{taken} checkpoints taken.")
        rows = eventstore.checkpoints_export(
            stream_id=options["stream"], latest_only=options["latest"]
        )
        text = json.dumps({"checkpoints": rows}, indent=2, sort_keys=True)
        if options["output"]:
            with open(options["output"], "w", encoding="utf-8") as out:
                out.write(text + "\n")
            self.stderr.write(f"{len(rows)} checkpoints written to {options['output']}.")
        else:
            self.stdout.write(text)
