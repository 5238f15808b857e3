"""A team event as an HGX 1 file (tournaments.exchange.hgx) and a finished individual
tournament as an HGX 2 file (a Swiss or round robin) or an HGX 3 file (a bracket's:
tournaments.exchange.individual and .bracket_records), with the players' names and
federation ids (where the federation's member list linked one)."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from core.errors import ConflictError
from players.models import Player
from tournaments.exchange.bracket_records import FORMATS as BRACKET_FORMATS
from tournaments.exchange.build import exchange_of
from tournaments.exchange.hgx import write
from tournaments.exchange.individual import FORMATS, exchange_of_tournament, write_individual
from tournaments.federation.selectors import federation_ids_of
from tournaments.models import Tournament
from tournaments.projections import tournament_state
from tournaments.teams.models import TeamEvent
from tournaments.teams.repository import team_event_state_of


def team_event_exchange_text(*, event: TeamEvent) -> str:
    state = team_event_state_of(event=event)
    ids = [p for t in state.teams.values() for p in t.roster]
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    return write(
        exchange_of(state, name=event.name, names=names, feds=federation_ids_of(player_ids=ids))
    )


def tournament_exchange_text(*, tournament: Tournament) -> str:
    """A finished Swiss or round robin as an HGX 2 file, a finished knockout, double
    elimination or Swiss with a top cut as an HGX 3 file (its bracket's records too); 409
    exchange_unsupported for one not finished."""
    state = tournament_state(tournament=tournament)
    if not state.finished or state.format not in (*FORMATS, *BRACKET_FORMATS):
        raise ConflictError(
            gettext_noop("only a finished tournament is written as an exchange file"),
            code="exchange_unsupported",
        )
    ids = sorted(state.paired)
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    return write_individual(
        exchange_of_tournament(
            state, name=tournament.name, names=names, feds=federation_ids_of(player_ids=ids)
        )
    )
