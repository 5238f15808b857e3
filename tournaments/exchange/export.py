"""A team event as an HGX 1 file (tournaments.exchange.hgx), with its players' names and
federation ids (where the federation's member list linked one)."""

from __future__ import annotations

from players.models import Player
from tournaments.exchange.build import exchange_of
from tournaments.exchange.hgx import write
from tournaments.teams.models import TeamEvent
from tournaments.teams.projections import team_event_state


def federation_ids(player_ids: list[int]) -> dict[int, str]:
    """Each player's federation id where the federation's member list linked one."""
    if not hasattr(Player, "federation_id"):
        return {}
    rows = Player.objects.filter(pk__in=player_ids).values_list("pk", "federation_id")
    return {pk: fed or "" for pk, fed in rows}


def team_event_exchange_text(*, event: TeamEvent) -> str:
    state = team_event_state(event=event)
    ids = [p for t in state.teams.values() for p in t.roster]
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    return write(exchange_of(state, name=event.name, names=names, feds=federation_ids(ids)))
