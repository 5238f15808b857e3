"""Issue 32, item 9: `verify_projections` reports nothing on data nobody touched. A player
registered and never checked in gave `DIFFERS tournaments_registration … registered_at`
(an `auto_now_add` stamped the row at write time, not the event's time), and a verifier
that cries wolf is one people stop running. After each scenario of the suite's simulations,
it exits 0."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from tests.reliability.helpers import make_organiser
from tournaments import services

pytestmark = pytest.mark.django_db

FAST = ("--game-target", "25", "--ruleset", '{"end_when_decided": true}', "--no-progress")


def _verified() -> str:
    out, err = StringIO(), StringIO()
    call_command("verify_projections", stdout=out, stderr=err)  # CommandError on a difference
    assert err.getvalue() == "", err.getvalue()
    return out.getvalue()


def test_a_player_registered_and_never_checked_in_verifies(make_player):
    organiser = make_organiser("verifyorg")
    tournament = services.tournament_create(
        name="Registered only", format="swiss", rounds=2, created_by=organiser
    )
    for player in (make_player(), make_player(), make_player()):
        services.tournament_register(tournament_id=tournament.pk, player=player, by=organiser)
    assert "OK" in _verified()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)  # the rounds are paired by jobs run at commit
@pytest.mark.parametrize(
    "arguments",
    [
        ("--players", "5", "--format", "swiss", "--rounds", "3"),
        ("--players", "9", "--format", "swiss", "--rounds", "2", "--top-cut", "4"),
        ("--players", "4", "--format", "round_robin"),
        ("--players", "5", "--format", "knockout"),
        ("--players", "5", "--format", "double_elimination"),
        ("--teams", "4", "--format", "team_swiss", "--boards", "2"),  # a team tournament
    ],
    ids=lambda a: "-".join(a[1::2]),
)
def test_every_simulated_format_verifies(arguments):
    call_command("simulate_tournament", *arguments, *FAST, stdout=StringIO())
    assert "OK" in _verified()
