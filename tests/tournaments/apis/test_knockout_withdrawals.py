"""A knockout table both of whose players withdraw before the round is played: re-paired,
the table is left empty and the bracket keeps its slots (through the services, the API and
the public page), its neighbour's winner going on by a bye."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.helpers import forfeit_round, make_bots, make_tournament
from tournaments import services
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db


def _tables(t: Any, number: int) -> list[tuple[int, int | None]]:
    rows = Pairing.objects.filter(round__tournament=t, round__number=number).order_by("table")
    return [(p.player1_id, p.player2_id) for p in rows]


def test_an_emptied_first_round_table_keeps_the_bracket_where_the_seeds_put_it(
    client: Any, api_client: Any, organiser: Any, jobs: Any
) -> None:
    bots = make_bots(8, prefix="KO")
    t = make_tournament(organiser, bots, format="knockout", rounds=None)
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    seed = {r.seed: r.player for r in t.registrations.all()}
    ids = {s: p.pk for s, p in seed.items()}
    assert _tables(t, 1) == [(ids[1], ids[8]), (ids[4], ids[5]), (ids[2], ids[7]), (ids[3], ids[6])]
    for s in (4, 5):
        services.tournament_withdraw(tournament_id=t.pk, player=seed[s], by=organiser)
    with jobs():
        services.tournament_round_repair(
            tournament_id=t.pk, round_number=1, by=organiser, reason="two left"
        )
    # No re-seeding of the six left: the other tables stay as they were.
    assert _tables(t, 1) == [(ids[1], ids[8]), (ids[2], ids[7]), (ids[3], ids[6])]
    with jobs():
        forfeit_round(t, organiser, winner_seat=0)
    t.refresh_from_db()
    assert _tables(t, 2) == [(ids[1], None), (ids[2], ids[3])]  # seed 1 by a bye
    data = api_client.get(f"/api/tournaments/{t.pk}/bracket/").json()
    by_id = {m["id"]: m for m in data["matches"]}
    assert (by_id["K1-2"]["status"], by_id["K1-2"]["players"]) == ("empty", [None, None])
    assert (by_id["K2-1"]["status"], by_id["K2-1"]["winner"]) == ("bye", ids[1])
    assert by_id["K3-1"]["players"] == [ids[1], None] and data["problems"] == []
    page = client.get(f"/tournaments/{t.pk}/")
    assert page.status_code == 200 and 'data-match="K1-2"' in page.content.decode()
    with jobs():
        forfeit_round(t, organiser, winner_seat=0)
    with jobs():
        forfeit_round(t, organiser, winner_seat=1)  # the final: seed 2 beats seed 1
    t.refresh_from_db()
    assert t.status == "finished"
    ranked = list(t.standings.order_by("rank").values_list("player_id", flat=True))
    assert ranked[:2] == [ids[2], ids[1]]
    data = api_client.get(f"/api/tournaments/{t.pk}/bracket/").json()
    assert data["champion"] == ids[2] and data["places"][:2] == [[ids[2]], [ids[1]]]
