"""Instants far from now: a tournament's schedule is range-checked on input (starts_at,
round_starts: 2000-01-01 to 2999-12-31 UTC; README) with 400 validation_error,
`fields.<name>`, reason out_of_range, writing nothing; and the scheduling arithmetic never
raises, so a schedule stored before the check cannot leave a pairing pending for ever."""

from __future__ import annotations

import datetime as dt

import pytest

from core.errors import ValidationError
from players.models import Player
from tests.tournaments.helpers import FAST_RULES, forfeit_round, make_tournament
from tournaments import services
from tournaments.models import Pairing, Round, Tournament
from tournaments.selectors import round_start

pytestmark = pytest.mark.django_db


def _create(client, **fields):
    body = {"name": "Far", "format": "swiss", "rounds": 2, "ruleset": FAST_RULES, **fields}
    return client.post("/api/tournaments/", body, format="json")


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"starts_at": "0001-01-01T00:00:00", "time_zone": "Asia/Tokyo"}, "starts_at"),
        ({"starts_at": "0001-01-01T00:00:00Z"}, "starts_at"),
        ({"starts_at": "9999-12-31T23:00:00Z", "round_interval": "30 00:00:00"}, "starts_at"),
        ({"starts_at": "1999-12-31T23:59:59Z"}, "starts_at"),
        ({"starts_at": "3000-01-01T00:00:00Z"}, "starts_at"),
        ({"round_starts": ["2026-07-07T19:00:00Z", "9999-12-31T23:00:00Z"]}, "round_starts"),
        ({"round_starts": ["0001-01-01T00:00:00"], "time_zone": "Asia/Tokyo"}, "round_starts"),
    ],
)
def test_a_far_instant_is_400_with_the_field_named_and_writes_nothing(
    organiser_client, fields, field
):
    response = _create(organiser_client, **fields)
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "validation_error"
    assert field in error["fields"]
    assert not Tournament.objects.exists()


def test_the_edges_of_the_window_are_taken(organiser_client):
    early = _create(organiser_client, starts_at="2000-01-01T00:00:00Z")
    late = _create(organiser_client, starts_at="2999-12-31T23:00:00Z", round_interval="30 00:00:00")
    assert early.status_code == 201 and late.status_code == 201, (early.content, late.content)


def test_the_service_refuses_far_instants_for_every_caller(organiser):
    far = dt.datetime(9999, 12, 31, 23, tzinfo=dt.UTC)
    with pytest.raises(ValidationError) as refused:
        services.tournament_create(name="X", format="swiss", rounds=1, created_by=organiser,
                                   starts_at=far)  # fmt: skip
    assert refused.value.code == "validation_error"
    assert refused.value.extra["reason"] == "out_of_range"
    assert list(refused.value.extra["fields"]) == ["starts_at"]
    with pytest.raises(ValidationError) as refused:
        services.tournament_create(name="X", format="swiss", rounds=1, created_by=organiser,
                                   round_starts=[dt.datetime(1, 1, 2, tzinfo=dt.UTC)])  # fmt: skip
    assert list(refused.value.extra["fields"]) == ["round_starts"]
    assert not Tournament.objects.exists()
    tournament = make_tournament(organiser, [])
    version = tournament.version
    with pytest.raises(ValidationError) as refused:
        services.tournament_settings_change(
            tournament_id=tournament.pk, by=organiser, changes={"starts_at": far}
        )
    assert refused.value.extra["fields"] == {"starts_at": [refused.value.message]}
    tournament.refresh_from_db()
    assert tournament.version == version and tournament.starts_at is None


def test_round_start_past_the_calendar_is_no_scheduled_time():
    tournament = Tournament(
        starts_at=dt.datetime(9999, 12, 31, 23, tzinfo=dt.UTC),
        round_interval=dt.timedelta(days=30),
        round_starts=[],
    )
    assert round_start(tournament=tournament, number=1) == tournament.starts_at
    assert round_start(tournament=tournament, number=2) is None  # no OverflowError
    assert round_start(tournament=Tournament(round_starts=["not a time"]), number=1) is None


def test_a_stored_far_schedule_never_leaves_a_pairing_pending(organiser, jobs):
    players = [Player.objects.create(name=n) for n in ("Ann", "Ben")]
    tournament = make_tournament(organiser, players, rounds=2)
    # A schedule stored before instants were range-checked.
    Tournament.objects.filter(pk=tournament.pk).update(
        starts_at=dt.datetime(9999, 12, 31, 23, tzinfo=dt.UTC),
        round_interval=dt.timedelta(days=30),
    )
    with jobs():
        services.tournament_start(tournament_id=tournament.pk, by=organiser)
    with jobs():
        forfeit_round(tournament, organiser)  # the result job computes round 2's start
    pairing = Pairing.objects.get(round__tournament=tournament, round__number=1)
    assert pairing.status == "finished" and pairing.winner_id is not None
    assert Round.objects.get(tournament=tournament, number=1).status == "completed"


ADMIN_ADD = {
    "name": "Berlin open", "format": "swiss", "rounds_planned": "3", "play_mode": "table",
    "check_in_required": "on", "is_public": "on", "time_zone": "Asia/Tokyo",
    "starts_at_0": "2026-03-03", "starts_at_1": "19:30", "round_starts_text": "",
    "games": "3", "knock_limit": "8", "gin_bonus": "25", "undercut_bonus": "10",
    "game_target": "100", "game_bonus": "0", "box_bonus": "0", "tiebreak_1": "match_wins",
    "registrations-TOTAL_FORMS": "0", "registrations-INITIAL_FORMS": "0",
    "rounds-TOTAL_FORMS": "0", "rounds-INITIAL_FORMS": "0",
    "standings-TOTAL_FORMS": "0", "standings-INITIAL_FORMS": "0",
}  # fmt: skip


@pytest.mark.parametrize(
    "overrides",
    [
        {"starts_at_0": "9999-12-31", "starts_at_1": "23:00"},
        {"starts_at_0": "0001-01-01", "starts_at_1": "00:00"},
        {"round_starts_text": "2026-03-03 19:30\n9999-12-31 23:00"},
    ],
)
def test_the_admin_refuses_far_instants_with_a_form_error(client, overrides):
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.create_superuser(username="root", password="pw-root-123")
    client.force_login(admin)
    response = client.post("/admin/tournaments/tournament/add/", {**ADMIN_ADD, **overrides})
    assert response.status_code == 200  # the form again, with its error
    assert "errorlist" in response.content.decode()
    assert not Tournament.objects.exists()
    ok = client.post("/admin/tournaments/tournament/add/", ADMIN_ADD)
    assert ok.status_code == 302 and Tournament.objects.count() == 1
