"""A team event as an HGX 1 file (tournaments.exchange.hgx), with its players' names and
federation ids (where the federation's member list linked one)."""

from __future__ import annotations

from players.models import Player
from tournaments.exchange.build import exchange_of
from tournaments.exchange.hgx import write
from tournaments.federation.selectors import federation_ids_of
from tournaments.teams.models import TeamEvent
from tournaments.teams.repository import team_event_state_of


def team_event_exchange_text(*, event: TeamEvent) -> str:
    state = team_event_state_of(event=event)
    ids = [p for t in state.teams.values() for p in t.roster]
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    return write(
        exchange_of(state, name=event.name, names=names, feds=federation_ids_of(player_ids=ids))
    )
