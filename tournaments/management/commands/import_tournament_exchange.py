"""Read a results exchange file (HGX 2) as a new finished tournament with the file's
standings.

python manage.py import_tournament_exchange tournament-7.hgx --as organiser-username"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.errors import application_error, refusals
from tournaments.exchange.individual_imports import tournament_exchange_import


class Command(BaseCommand):
    help = "Import a results exchange file (HGX 2) as a new finished tournament."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--as", dest="username", required=True, help="an organiser's login")

    def handle(self, *args: Any, **options: Any) -> None:
        user = get_user_model().objects.filter(username=options["username"]).first()
        if user is None:
            raise CommandError(f"no user {options['username']!r}")
        try:
            tournament = tournament_exchange_import(
                text=options["file"].read_text("utf-8"), by=user
            )
        except (OSError, UnicodeDecodeError, *refusals()) as exc:
            raise CommandError(str(application_error(exc) or exc)) from exc
        self.stdout.write(f"imported as tournament {tournament.pk}: {tournament.name}\n")
