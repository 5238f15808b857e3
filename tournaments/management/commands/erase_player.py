"""Erase a player (issue 34; docs/operators/privacy.md): their name, login, e-mail, codes,
tokens, sessions and the words they wrote, and others' words that name them; their
results stay, under "Erased player #N". Cannot be undone.

    python manage.py erase_player 42 --reason "member's request of 2026-12-01"
    python manage.py erase_player 42 --by alice      # recorded as erased by that user
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.errors import application_error, refusals
from tournaments.privacy.services import player_erase


class Command(BaseCommand):
    help = "Erase a player's personal data (results kept under 'Erased player #N')."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("player_id", type=int)
        parser.add_argument("--reason", default="", help="why (kept; erasable like any text)")
        parser.add_argument("--by", help="the username of who erases (default: the system)")

    def handle(self, *args: Any, **options: Any) -> None:
        by = None
        if options["by"]:
            by = get_user_model().objects.filter(username=options["by"]).first()
            if by is None:
                raise CommandError(f"no user {options['by']!r}")
        try:
            done = player_erase(player_id=options["player_id"], by=by, reason=options["reason"])
        except refusals() as exc:
            error = application_error(exc)
            assert error is not None  # a refusal
            raise CommandError(f"{error.code}: {error.message}") from exc
        self.stdout.write(
            f"erased player {done.player_id}: {done.texts_erased} texts erased,"
            f" {done.events_redacted} old events redacted in {done.streams} streams"
            f" (event {done.event_position})"
        )
