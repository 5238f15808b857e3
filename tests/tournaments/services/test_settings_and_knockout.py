"""Every organiser decision is an event: settings changes are logged with old and new
values, refused where the tournament has started; and a knockout correction cannot change
who advanced while the next match is in play."""

from __future__ import annotations

import datetime as dt

import pytest

import eventstore
from core.errors import ConflictError, PermissionDeniedError, ValidationError
from games.hand_entries import HandEntry
from games.services import match_rule
from players.models import Player
from tests.tournaments.helpers import record_gins, table_tournament
from tournaments import services
from tournaments.domain.errors import TournamentConflictError
from tournaments.models import Pairing, Tournament

pytestmark = pytest.mark.django_db


def _tournament(organiser, players, **kwargs) -> Tournament:
    kwargs.setdefault("rounds", 3 if kwargs.get("format", "swiss") == "swiss" else None)
    return table_tournament(organiser, players, start=False, **kwargs)


def _settings_events(tournament):
    events = eventstore.load(stream_id=tournament.stream_id)
    return [e for e in events if e.type == "SettingsChanged"]


def test_a_settings_change_is_logged_with_old_and_new_values(organiser):
    players = [Player.objects.create(name=n) for n in ("Ann", "Ben", "Cy", "Di")]
    tournament = _tournament(organiser, players)
    services.tournament_settings_change(
        tournament_id=tournament.pk,
        by=organiser,
        changes={
            "tiebreaks": ["match_wins", "head_to_head"],
            "turn_time": dt.timedelta(seconds=60),
        },
        reason="club rules",
    )
    [event] = _settings_events(tournament)
    changes = event.data["changes"]
    assert changes["tiebreaks"] == {"old": [], "new": ["match_wins", "head_to_head"]}
    assert changes["turn_time"] == {"old": None, "new": 60.0}
    assert event.data["reason"] == "club rules"
    # The same values again change nothing and write nothing.
    services.tournament_settings_change(
        tournament_id=tournament.pk,
        by=organiser,
        changes={"tiebreaks": ["match_wins", "head_to_head"]},
    )
    assert len(_settings_events(tournament)) == 1


def test_what_may_no_longer_change_after_the_start_is_refused(organiser):
    players = [Player.objects.create(name=n) for n in ("Ann", "Ben")]
    tournament = _tournament(organiser, players)
    services.tournament_start(tournament_id=tournament.pk, by=organiser)
    with pytest.raises(TournamentConflictError) as caught:
        services.tournament_settings_change(
            tournament_id=tournament.pk, by=organiser, changes={"ruleset": {"game_target": 50}}
        )
    assert caught.value.code == "setting_fixed"
    assert Tournament.objects.get(pk=tournament.pk).ruleset["game_target"] == 25
    # The schedule may change, and is logged.
    services.tournament_settings_change(
        tournament_id=tournament.pk, by=organiser, changes={"rounds_planned": 4}
    )
    assert _settings_events(tournament)[-1].data["changes"]["rounds_planned"] == {
        "old": 3,
        "new": 4,
    }
    with pytest.raises(ValidationError):
        services.tournament_settings_change(
            tournament_id=tournament.pk, by=organiser, changes={"rounds_planned": 0}
        )
    with pytest.raises(ValidationError) as caught:
        services.tournament_settings_change(
            tournament_id=tournament.pk, by=organiser, changes={"colour": "red"}
        )
    assert caught.value.code == "unknown_setting"
    with pytest.raises(ValidationError) as caught:
        services.tournament_settings_change(
            tournament_id=tournament.pk,
            by=organiser,
            changes={"round_duration": dt.timedelta(days=999_999_999)},
        )
    assert caught.value.code == "validation_error"
    assert caught.value.extra["reason"] == "out_of_range" and caught.value.extra["fields"]
    stranger = players[0].user
    if stranger is not None:
        with pytest.raises(PermissionDeniedError):
            services.tournament_settings_change(
                tournament_id=tournament.pk, by=stranger, changes={"name": "Mine"}
            )


def test_a_knockout_correction_cannot_change_who_advanced_while_they_play_on(
    organiser, django_capture_on_commit_callbacks
):
    players = [Player.objects.create(name=n) for n in "ABCD"]
    tournament = _tournament(organiser, players, format="knockout")
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament_id=tournament.pk, by=organiser)
    first = list(Pairing.objects.filter(round__tournament=tournament, round__number=1))
    for pairing in first:
        with django_capture_on_commit_callbacks(execute=True):
            record_gins(pairing.match_id, organiser, pairing.player1)
    final = Pairing.objects.get(round__tournament=tournament, round__number=2)
    assert final.status == "pending"
    pairing = first[0]
    with pytest.raises(ConflictError) as caught:
        match_rule(
            match_id=pairing.match_id,
            by=organiser,
            type="void_hand",
            reason="hand 2 was misdealt",
            hand_number=2,
        )
    assert caught.value.code == "dependent_match_in_play"
    assert str(final.match_id) in caught.value.message
    # A correction that leaves the winner as it was is allowed.
    match_rule(
        match_id=pairing.match_id,
        by=organiser,
        type="correct_hand",
        reason="more deadwood",
        hand_number=1,
        hand=HandEntry(
            knocker=pairing.player1.pk, gin=True, knocker_deadwood=0, defender_deadwood=40
        ),
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    __import__("django.db").db.connection.vendor != "postgresql", reason="concurrent writers"
)
def test_concurrent_repairs_with_the_same_version_repair_once(organiser):
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection

    from core.errors import application_error

    players = [Player.objects.create(name=n) for n in ("Ann", "Ben", "Cy", "Di")]
    tournament = _tournament(organiser, players)
    services.tournament_start(tournament_id=tournament.pk, by=organiser)
    version = Tournament.objects.get(pk=tournament.pk).version

    def repair(_: int) -> str:
        try:
            services.tournament_round_repair(
                tournament_id=tournament.pk,
                round_number=1,
                by=organiser,
                reason="double click",
                expected_version=version,
            )
            return "repaired"
        except TournamentConflictError as exc:  # a version conflict, as the API shows it
            error = application_error(exc)
            assert error is not None and error.code == "version_conflict"
            return "conflict"
        finally:
            connection.close()

    with ThreadPoolExecutor(8) as pool:
        outcomes = list(pool.map(repair, range(8)))
    assert sorted(outcomes) == ["conflict"] * 7 + ["repaired"]
    events = eventstore.load(stream_id=Tournament.objects.get(pk=tournament.pk).stream_id)
    assert [e.type for e in events].count("RoundRepaired") == 1
