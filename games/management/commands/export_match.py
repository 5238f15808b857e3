"""Write a match's audit bundle (as GET /api/matches/{id}/audit/ gives it) to a file or stdout.

    python manage.py export_match <match-id>                       # to stdout
    python manage.py export_match <match-id> --output match.json
    python manage.py export_match <match-id> --as <username>       # as that user sees it

Without --as: a finished match only, in full (every hand is over, nothing is hidden). A match
in play is exported as one of its players or organisers sees it (`--as`), so no hidden card
of the hand in play leaves the server. Check the file with
`python3 -I tools/verify_match.py FILE`.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.errors import ApplicationError
from games.audit import match_bundle
from games.selectors import match_get


class Command(BaseCommand):
    help = "Write a match's audit bundle (for tools/verify_match.py) to a file or stdout."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_id", help="the match's id (a UUID)")
        parser.add_argument("--output", "-o", help="the file to write (default: stdout)")
        parser.add_argument(
            "--as", dest="username", help="export what this user may see (needed in play)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        user = None
        if options["username"]:
            user = get_user_model().objects.filter(username=options["username"]).first()
            if user is None:
                raise CommandError(f"no user {options['username']!r}")
        try:
            match = match_get(match_id=options["match_id"])
            bundle = match_bundle(match=match, user=user)
        except ApplicationError as exc:
            raise CommandError(f"{exc.message} ({exc.code})") from exc
        text = json.dumps(bundle, ensure_ascii=False, indent=1, default=str)
        if options["output"]:
            with open(options["output"], "w", encoding="utf-8") as f:
                f.write(text + "\n")
            self.stderr.write(
                f"match {match.pk}: {len(bundle['events'])} events written to {options['output']}"
            )
        else:
            self.stdout.write(text)
