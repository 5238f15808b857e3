"""Capacity and the waitlist (issue 40): beyond the places an entry waits; a withdrawal, a
raised capacity and a no-show promote the first waiting player, each by an event."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

import eventstore
from core.errors import ConflictError, PermissionDeniedError
from players.models import Player
from tournaments import services
from tournaments.domain.errors import TournamentConflictError
from tournaments.models import Registration, Tournament
from tournaments.serializers.rounds import waitlist_place
from tournaments.services import waitlist

pytestmark = pytest.mark.django_db


def _tournament(organiser: Any, capacity: int | None = 4) -> Tournament:
    t = services.tournament_create(
        name="Evening", format="swiss", rounds=3, created_by=organiser, check_in_required=True
    )
    if capacity is not None:
        waitlist.tournament_capacity_set(tournament_id=t.pk, by=organiser, capacity=capacity)
    return t


def _players(n: int) -> list[Player]:
    users = get_user_model().objects
    return [
        Player.objects.create(name=f"P{i}", user=users.create_user(username=f"p{i}"))
        for i in range(1, n + 1)
    ]


def _statuses(t: Tournament) -> dict[str, str]:
    return {r.player.name: r.status for r in Registration.objects.filter(tournament=t)}


def _types(t: Tournament) -> list[str]:
    return [e.type for e in eventstore.load(stream_id=t.stream_id)]


def _register_all(t: Tournament, players: list[Player]) -> None:
    for p in players:  # each player enters themselves
        services.tournament_register(tournament_id=t.pk, player=p, by=p.user)


def test_six_entries_for_four_places_and_a_withdrawal_promotes_the_first(organiser: Any) -> None:
    t = _tournament(organiser)
    players = _players(6)
    _register_all(t, players)
    assert _statuses(t) == {
        "P1": "registered", "P2": "registered", "P3": "registered", "P4": "registered",
        "P5": "waitlisted", "P6": "waitlisted",
    }  # fmt: skip
    assert _types(t).count("PlayerWaitlisted") == 2
    reg6 = Registration.objects.get(tournament=t, player=players[5])
    assert waitlist_place(reg6) == 2

    services.tournament_withdraw(tournament_id=t.pk, player=players[1], by=players[1].user)
    statuses = _statuses(t)
    assert statuses["P2"] == "withdrawn" and statuses["P5"] == "registered"
    assert statuses["P6"] == "waitlisted"
    promoted = [e for e in eventstore.load(stream_id=t.stream_id) if e.type == "PlayerPromoted"]
    assert [(e.data["player"], e.data["cause"]) for e in promoted] == [
        (players[4].pk, "withdrawal")
    ]
    assert waitlist_place(Registration.objects.get(tournament=t, player=players[5])) == 1


def test_a_no_show_past_the_deadline_promotes_the_next(organiser: Any) -> None:
    t = _tournament(organiser)
    players = _players(6)
    _register_all(t, players)
    for p in players[:3]:
        services.tournament_check_in(tournament_id=t.pk, player=p, by=organiser)
    deadline = timezone.now()
    waitlist.tournament_entry_rules_set(
        tournament_id=t.pk, by=organiser, changes={"check_in_deadline": deadline}
    )
    # Before the deadline: nothing.
    before = deadline - dt.timedelta(seconds=1)
    assert waitlist.tournament_no_shows_mark(tournament_id=t.pk, now=before) == 0
    later = timezone.now()
    assert waitlist.tournament_no_shows_mark(tournament_id=t.pk, now=later) == 1
    statuses = _statuses(t)
    assert statuses["P4"] == "withdrawn" and statuses["P5"] == "registered"
    assert Registration.objects.get(tournament=t, player=players[3]).no_show
    # The job again (a retry, beat's net): the promoted player has their own chance.
    assert waitlist.tournament_no_shows_mark(tournament_id=t.pk, now=later) == 0
    assert _statuses(t)["P5"] == "registered"

    # The desk takes the no-show back before round 1: their place went to P5, so they wait,
    # first on the list (they entered before P6), and the places stay within the capacity.
    waitlist.tournament_no_show_undo(tournament_id=t.pk, player=players[3], by=organiser)
    reg = Registration.objects.get(tournament=t, player=players[3])
    assert reg.status == "waitlisted" and not reg.no_show
    assert waitlist_place(reg) == 1
    statuses = _statuses(t)
    assert sum(1 for v in statuses.values() if v in ("registered", "checked_in")) == 4
    # A place more: the player taken back gets it, not P6.
    waitlist.tournament_capacity_set(tournament_id=t.pk, by=organiser, capacity=5)
    assert _statuses(t)["P4"] == "registered" and _statuses(t)["P6"] == "waitlisted"


def test_a_no_show_taken_back_while_a_place_is_free_is_registered(organiser: Any) -> None:
    t = _tournament(organiser)
    players = _players(3)
    _register_all(t, players)
    waitlist.tournament_entry_rules_set(
        tournament_id=t.pk, by=organiser, changes={"check_in_deadline": timezone.now()}
    )
    assert waitlist.tournament_no_shows_mark(tournament_id=t.pk, now=timezone.now()) == 3
    waitlist.tournament_no_show_undo(tournament_id=t.pk, player=players[0], by=organiser)
    reg = Registration.objects.get(tournament=t, player=players[0])
    assert reg.status == "registered" and not reg.no_show


def test_a_raised_capacity_promotes_and_approval_and_eligibility(organiser: Any, club: Any) -> None:
    t = _tournament(organiser, capacity=2)
    players = _players(4)
    _register_all(t, players[:3])
    assert _statuses(t)["P3"] == "waitlisted"
    waitlist.tournament_capacity_set(tournament_id=t.pk, by=organiser, capacity=3)
    assert _statuses(t)["P3"] == "registered"
    t.refresh_from_db()  # the row's capacity follows the event
    assert t.capacity == 3

    waitlist.tournament_entry_rules_set(
        tournament_id=t.pk, by=organiser, changes={"approval_required": True}
    )
    services.tournament_register(tournament_id=t.pk, player=players[3], by=players[3].user)
    assert _statuses(t)["P4"] == "requested"
    with pytest.raises(TournamentConflictError) as refused:
        services.tournament_check_in(tournament_id=t.pk, player=players[3], by=organiser)
    assert refused.value.code == "no_place"
    waitlist.tournament_entry_approve(tournament_id=t.pk, player=players[3], by=organiser)
    assert _statuses(t)["P4"] == "waitlisted"  # approved, but the places are taken

    other = _tournament(organiser, capacity=None)
    waitlist.tournament_entry_rules_set(
        tournament_id=other.pk, by=organiser, changes={"members_only": True}
    )
    before = len(_types(other))
    with pytest.raises(ConflictError) as not_member:
        services.tournament_register(tournament_id=other.pk, player=players[0], by=players[0].user)
    assert not_member.value.code == "not_eligible"
    assert not_member.value.extra == {"rule": "members_only"}
    assert len(_types(other)) == before  # nothing written
    waitlist.tournament_entry_rules_set(
        tournament_id=other.pk, by=organiser, changes={"self_registration": False}
    )
    with pytest.raises(PermissionDeniedError):
        services.tournament_register(tournament_id=other.pk, player=players[0], by=players[0].user)


def test_the_players_own_withdrawal_closes_at_its_deadline(organiser: Any) -> None:
    t = _tournament(organiser, capacity=None)
    (player,) = _players(1)
    _register_all(t, [player])
    waitlist.tournament_entry_rules_set(
        tournament_id=t.pk,
        by=organiser,
        changes={"withdraw_until": timezone.now() - dt.timedelta(minutes=1)},
    )
    with pytest.raises(ConflictError) as closed:
        services.tournament_withdraw(tournament_id=t.pk, player=player, by=player.user)
    assert closed.value.code == "withdraw_closed"
    # The organisers may still withdraw them.
    services.tournament_withdraw(tournament_id=t.pk, player=player, by=organiser)
    assert _statuses(t)["P1"] == "withdrawn"
