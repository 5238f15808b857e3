"""Write a finished individual tournament as a results exchange file (HGX 2; a knockout's,
a double elimination's or a top cut's: HGX 3).

python manage.py export_tournament_exchange 7 > tournament-7.hgx
python3 -I tools/check_exchange.py tournament-7.hgx"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.errors import ApplicationError
from tournaments.exchange.export import tournament_exchange_text
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Write a finished tournament as a results exchange file (HGX 2 or 3) on standard output."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament", type=int, help="the tournament's id")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(pk=options["tournament"]).first()
        if tournament is None:
            raise CommandError(f"no tournament {options['tournament']}")
        try:
            text = tournament_exchange_text(tournament=tournament)
        except ApplicationError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from exc
        self.stdout.write(text, ending="")
