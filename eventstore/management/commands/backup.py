"""Back the database up with pg_dump -Fc, and a manifest beside the dump (PostgreSQL only).

    python manage.py backup --output-dir /backups [--keep 14]

Writes DIR/hollywood-gin-<UTC timestamp>.dump and DIR/hollywood-gin-<UTC timestamp>
.manifest.json (eventstore.backups: schema, event count, a digest of the stream heads, the
ids of the chain keys the seals need, never the keys, the dump's sha256) and prints their
paths. `--keep N` then deletes all but the N newest backups in DIR. The chain keys are
not in the backup: keep them apart (docs/operators/backup-restore.md, Key custody).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from eventstore.backups import BackupError, backup_write, backups_prune


class Command(BaseCommand):
    help = "Back the database up (pg_dump -Fc) with a manifest; --keep N prunes older ones."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--output-dir", required=True, help="where the backups are kept")
        parser.add_argument("--keep", type=int, help="keep only the N newest backups there")

    def handle(self, *args: Any, **options: Any) -> None:
        keep = options["keep"]
        if keep is not None and keep < 1:
            raise CommandError("--keep must be 1 or more.")
        output_dir = Path(options["output_dir"])

        def progress(text: str) -> None:
            if options["verbosity"] > 0:
                print(text, file=sys.stderr, flush=True)

        try:
            backup = backup_write(output_dir=output_dir, progress=progress)
        except (BackupError, OSError) as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(str(backup.dump))
        self.stdout.write(str(backup.manifest))
        progress(f"backup written in {backup.seconds:.1f}s")
        if keep is not None:
            for path in backups_prune(output_dir=output_dir, keep=keep):
                progress(f"pruned {path}")
