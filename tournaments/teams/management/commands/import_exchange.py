"""Read a results exchange file (HGX 1) as a new team event with the file's standings.

python manage.py import_exchange event-7.hgx --as organiser-username"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.errors import application_error, refusals
from tournaments.exchange.imports import team_event_import


class Command(BaseCommand):
    """Also the individual tournaments' command (import_tournament_exchange), with its own
    `read` and name of what is made."""

    help = "Import a results exchange file (HGX 1) as a new team event."
    made = "team event"

    def read(self, text: str, by: Any) -> Any:
        return team_event_import(text=text, by=by)

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--as", dest="username", required=True, help="an organiser's login")

    def handle(self, *args: Any, **options: Any) -> None:
        user = get_user_model().objects.filter(username=options["username"]).first()
        if user is None:
            raise CommandError(f"no user {options['username']!r}")
        try:
            made = self.read(options["file"].read_text("utf-8"), user)
        except (OSError, UnicodeDecodeError, *refusals()) as exc:
            raise CommandError(str(application_error(exc) or exc)) from exc
        self.stdout.write(f"imported as {self.made} {made.pk}: {made.name}\n")
