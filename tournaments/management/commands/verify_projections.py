"""Compare every read model with a replay of its events and name each difference.

    python manage.py verify_projections            # report only (exit 1 on any difference)
    python manage.py verify_projections --rebuild  # rebuild every projected row, and say
                                                   # what the rebuild put right

The read models, each rebuilt from its events in a savepoint that is rolled back (the
rebuild is the replay: the code every write runs), read before and after, compared row by
row and field by field (core.drift):

- matches (games): the match row (status, winner, version, the scoresheet's totals ...),
  the games of its scoresheet, its hand rows;
- tournaments: the tournament row, registrations, rounds, pairings, standings;
- club ratings: the rating periods, current ratings, rating history, season standings;
- team events: the event row, its teams, team matches, boards and team standings.

Each difference is one line: the table, the row (by its natural key), the field, the stored
value and the value the events give. Matches first, then tournaments (whose results come
from their matches' events), then ratings (from both)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.drift import RowDifference, pictures_differences
from games.selectors import match_read_models_differences
from games.services import match_read_models_rebuild
from tournaments.federation.rebuild import federation_ratings_differences
from tournaments.models import Tournament
from tournaments.projections import (
    PICTURE_KEY_NAMES,
    projected_pictures,
    tournament_rebuild_in_tx,
)
from tournaments.ratings.rebuild import ratings_differences
from tournaments.teams.projections import team_events_differences


def tournaments_differences(*, fix: bool = False) -> list[RowDifference]:
    out: list[RowDifference] = []
    for tournament in Tournament.objects.order_by("pk"):
        out += pictures_differences(
            lambda t=tournament: projected_pictures(tournament=t),
            lambda t=tournament: tournament_rebuild_in_tx(tournament=t),
            fix=fix,
            key_names=PICTURE_KEY_NAMES,
        )
    return out


class Command(BaseCommand):
    help = "Compare every read model with a replay of its events; name each difference."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--rebuild", action="store_true", help="rebuild every projected row from the events"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        fix = options["rebuild"]
        found: list[RowDifference] = []
        for what, check in (
            ("match", match_read_models_rebuild if fix else match_read_models_differences),
            ("tournament", lambda: tournaments_differences(fix=fix)),
            ("rating", lambda: ratings_differences(fix=fix)),
            ("federation rating", lambda: federation_ratings_differences(fix=fix)),
            ("team event", lambda: team_events_differences(fix=fix)),
        ):
            differences = check()
            for difference in differences:
                self.stderr.write(f"{'REBUILT' if fix else 'DIFFERS'} {difference}")
            self.stdout.write(f"{what} read models: {len(differences)} differences")
            found += differences
        if found and not fix:
            raise CommandError(
                f"{len(found)} read-model rows differ from a replay of their events; first:"
                f" {found[0]}",
                returncode=1,
            )
        verdict = "rebuilt from the events" if fix else "match a replay of their events"
        self.stdout.write(f"OK: every read model {verdict}.")
