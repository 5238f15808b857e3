"""Issue 24: a check-in made by mistake is undone at the desk, as an event of the tournament
(PlayerCheckInUndone), only before the player's first pairing; the API does the same."""

from __future__ import annotations

import pytest

from core.errors import PermissionDeniedError
from tests.tournaments.helpers import make_bots, make_tournament
from tournaments import services
from tournaments.domain.errors import TournamentConflictError
from tournaments.models import Registration
from tournaments.repository import tournament_load
from tournaments.selectors import tournament_stream_events

pytestmark = pytest.mark.django_db


def _types(t) -> list[str]:
    return [e.type for e in tournament_stream_events(tournament=t)]


def test_undoing_a_check_in_registers_the_player_again_and_logs_it(organiser):
    players = make_bots(3)
    t = make_tournament(organiser, players)
    reg = services.tournament_check_in_undo(
        tournament_id=t.pk, player=players[0], by=organiser, reason="tapped the wrong row"
    )
    assert reg.status == "registered" and reg.checked_in_at is None
    last = tournament_stream_events(tournament=t)[-1]
    assert last.type == "PlayerCheckInUndone" and last.data["player"] == players[0].pk
    assert last.data["reason"] == "tapped the wrong row"
    # Undoing twice changes nothing; the folded state agrees with the row.
    before = len(_types(t))
    services.tournament_check_in_undo(tournament_id=t.pk, player=players[0], by=organiser)
    assert len(_types(t)) == before
    state = tournament_load(tournament_id=t.pk).state
    assert state.entries[players[0].pk].status == "registered"
    # Checked in again, then the start pairs them.
    services.tournament_check_in(tournament_id=t.pk, player=players[0], by=organiser)
    assert Registration.objects.get(tournament=t, player=players[0]).status == "checked_in"


def test_an_undone_player_is_not_paired_in_round_one(organiser, jobs):
    players = make_bots(5)
    t = make_tournament(organiser, players)
    services.tournament_check_in_undo(tournament_id=t.pk, player=players[4], by=organiser)
    with jobs():
        round_ = services.tournament_start(tournament_id=t.pk, by=organiser)
    paired = {p for pg in round_.pairings.all() for p in (pg.player1_id, pg.player2_id)}
    assert players[4].pk not in paired


def test_a_paired_or_withdrawn_player_s_check_in_is_not_undone(organiser, jobs):
    players = make_bots(4)
    t = make_tournament(organiser, players)
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    with pytest.raises(TournamentConflictError) as paired:
        services.tournament_check_in_undo(tournament_id=t.pk, player=players[0], by=organiser)
    assert "withdraw them instead" in paired.value.message
    services.tournament_withdraw(tournament_id=t.pk, player=players[1], by=organiser)
    with pytest.raises(TournamentConflictError):
        services.tournament_check_in_undo(tournament_id=t.pk, player=players[1], by=organiser)


def test_only_the_player_or_an_organiser_undoes_it(organiser, make_player):
    stranger = make_player("Sam")
    players = make_bots(2)
    t = make_tournament(organiser, players)
    with pytest.raises(PermissionDeniedError):
        services.tournament_check_in_undo(tournament_id=t.pk, player=players[0], by=stranger.user)


def test_the_api_undoes_a_check_in_and_refuses_a_paired_player(organiser, organiser_client, jobs):
    players = make_bots(3)
    t = make_tournament(organiser, players)
    url = f"/api/tournaments/{t.pk}/registrations/check-in/undo/"
    response = organiser_client.post(url, {"player": players[2].pk}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "registered"
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    refused = organiser_client.post(url, {"player": players[0].pk}, format="json")
    assert refused.status_code == 409
    assert refused.json()["error"]["reason"] == "already_paired"
    long_reason = organiser_client.post(url, {"player": players[0].pk, "reason": "x" * 2001},
                                        format="json")  # fmt: skip
    assert long_reason.status_code == 400
