"""Import a federation's member list (CSV or XLSX) and print what matched, what is new and
what conflicts (tournaments.federation.services).

    python manage.py import_members members.xlsx --federation "Gin Federation" \\
        --clubs north-club south-club [--dry-run] [--json]"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.errors import ApplicationError
from tournaments.federation.files import member_rows
from tournaments.federation.services import federation_get_or_create, federation_members_import


class Command(BaseCommand):
    help = "Import a federation's member list (CSV/XLSX) and report matches, new and conflicts."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--federation", required=True, help="its name (made if new)")
        parser.add_argument("--clubs", nargs="*", default=[], help="club slugs to add to it")
        parser.add_argument("--dry-run", action="store_true", help="report only")
        parser.add_argument("--json", action="store_true", help="the whole report as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        try:
            rows = member_rows(content=path.read_bytes(), filename=path.name)
            federation = federation_get_or_create(
                name=options["federation"], club_slugs=options["clubs"]
            )
            report = federation_members_import(
                federation=federation, rows=rows, dry_run=options["dry_run"]
            )
        except (OSError, ApplicationError) as exc:
            raise CommandError(str(exc)) from exc
        if options["json"]:
            self.stdout.write(json.dumps(vars(report), indent=1))
            return
        counts = report.counts()
        self.stdout.write(
            f"{len(rows)} rows: {counts['matched']} matched, {counts['new']} new, "
            f"{counts['conflicts']} conflicts"
            + (" (dry run: nothing kept)" if options["dry_run"] else "")
        )
        for c in report.conflicts:
            self.stdout.write(f"  line {c['line']} {c['federation_id']}: {c['reason']}")
