"""Read a results exchange file (HGX 2, or a bracket's HGX 3) as a new finished tournament
with the file's standings.

python manage.py import_tournament_exchange tournament-7.hgx --as organiser-username"""

from __future__ import annotations

from typing import Any

from tournaments.exchange.individual_imports import tournament_exchange_import
from tournaments.teams.management.commands.import_exchange import Command as ExchangeImport


class Command(ExchangeImport):
    help = "Import a results exchange file (HGX 2 or 3) as a new finished tournament."
    made = "tournament"

    def read(self, text: str, by: Any) -> Any:
        return tournament_exchange_import(text=text, by=by)
