"""A federation's monthly rating report: the list as it stood at the end of a month, as CSV
or as the fixed-field HGXR file (docs/explanation/exchange-format.md).

    python manage.py federation_report --federation "Gin Federation" --month 2026-11 [--hgx]"""

from __future__ import annotations

import re
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.federation.models import Federation
from tournaments.federation.selectors import (
    federation_report_csv,
    federation_report_hgx,
    federation_report_months,
)


class Command(BaseCommand):
    help = "Write a federation's monthly rating report (CSV, or HGXR with --hgx)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--federation", required=True, help="its name")
        parser.add_argument("--month", help="YYYY-MM (default: the latest rated month)")
        parser.add_argument("--hgx", action="store_true", help="the HGXR file, not CSV")

    def handle(self, *args: Any, **options: Any) -> None:
        federation = Federation.objects.filter(name=options["federation"]).first()
        if federation is None:
            raise CommandError(f"no federation {options['federation']!r}")
        months = federation_report_months(federation_id=federation.pk)
        month = options["month"] or (months[0] if months else None)
        if month is None or not re.fullmatch(r"\d{4}-(0[1-9]|1[0-2])", month):
            raise CommandError("no rated month yet" if month is None else "--month YYYY-MM")
        write = federation_report_hgx if options["hgx"] else federation_report_csv
        self.stdout.write(write(federation=federation, month=month), ending="")
