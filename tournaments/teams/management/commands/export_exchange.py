"""Write a finished team event as a results exchange file (HGX 1).

python manage.py export_exchange 7 > event-7.hgx
python3 -I tools/check_exchange.py event-7.hgx"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.exchange.export import team_event_exchange_text
from tournaments.teams.models import TeamEvent


class Command(BaseCommand):
    help = "Write a team event as a results exchange file (HGX 1) on standard output."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event", type=int, help="the team event's id")

    def handle(self, *args: Any, **options: Any) -> None:
        event = TeamEvent.objects.filter(pk=options["event"]).first()
        if event is None:
            raise CommandError(f"no team event {options['event']}")
        self.stdout.write(team_event_exchange_text(event=event), ending="")
