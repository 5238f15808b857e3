"""Re-pairing, moving a deadline and starting the clock share one first step (decide's round-in-play
check): the caller organises the tournament and the round is in play. Each command
keeps its own message when the round is not in play."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from core.errors import NotFoundError, PermissionDeniedError, application_error
from tests.tournaments.helpers import forfeit_round, make_bots, make_tournament
from tournaments import services
from tournaments.domain.errors import TournamentConflictError

pytestmark = pytest.mark.django_db


def repair(t: Any, number: int, by: Any) -> Any:
    return services.tournament_round_repair(
        tournament_id=t.pk, round_number=number, by=by, reason="same club"
    )


def move(t: Any, number: int, by: Any) -> Any:
    return services.tournament_round_deadline_move(
        tournament_id=t.pk,
        round_number=number,
        deadline=timezone.now() + dt.timedelta(hours=2),
        by=by,
        reason="slow table",
    )


def clock(t: Any, number: int, by: Any) -> Any:
    return services.tournament_round_clock_start(
        tournament_id=t.pk, round_number=number, by=by, reason="play begins"
    )


COMMANDS = {
    "repair": (repair, "only a round in play can be re-paired"),
    "move": (move, "only a round in play has a deadline to move"),
    "clock": (clock, "only a round in play has a clock to start"),
}


@pytest.mark.parametrize("name", COMMANDS)
def test_a_round_not_in_play_is_a_conflict_with_the_commands_own_message(name, organiser, jobs):
    command, message = COMMANDS[name]
    t = make_tournament(organiser, make_bots(2), rounds=1)
    with pytest.raises(TournamentConflictError) as unpaired:
        command(t, 1, organiser)
    refused = application_error(unpaired.value)  # as the API shows it
    assert refused is not None
    assert (refused.message, refused.code) == (message, "conflict")
    assert refused.extra == {"reason": "round_not_in_play"}
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    with jobs():
        forfeit_round(t, organiser)
    with pytest.raises(TournamentConflictError) as completed:
        command(t, 1, organiser)
    refused = application_error(completed.value)
    assert refused is not None
    assert (refused.message, refused.code) == (message, "conflict")
    assert refused.extra == {"reason": "round_not_in_play"}


@pytest.mark.parametrize("name", COMMANDS)
def test_only_the_tournaments_organisers_may(name, organiser, jobs):
    command, _ = COMMANDS[name]
    t = make_tournament(organiser, make_bots(2), rounds=1)
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    stranger = get_user_model().objects.create_user(username="stranger")
    for by in (stranger, None):
        with pytest.raises(PermissionDeniedError):
            command(t, 1, by)
    with pytest.raises(NotFoundError):
        command(type(t)(pk=t.pk + 1000), 1, organiser)
    assert command(t, 1, organiser).number == 1
