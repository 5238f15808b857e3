"""Who may audit a match: the bundle of a finished match of a public tournament is for
anyone (anonymous too); of a private tournament only for its players, organisers and staff
(a 404 for anyone else, as every view of it); never a hidden card of a hand in play. And a
tournament's time limit for opening disputes."""

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone
from rest_framework.test import APIClient

from demo.bots import match_play_bots
from games.audit import match_replay_data
from games.models import Match
from tests.factories import UserFactory
from tests.games.audit.helpers import play_until_hand, tournament_match, verifier_run
from tests.helpers import token_client

pytestmark = pytest.mark.django_db


def _finish(match):
    return match_play_bots(match_id=match.id, bots_only=False)


def _audit(client, match):
    return client.get(f"/api/matches/{match.pk}/audit/")


def test_a_finished_public_tournament_match_is_for_anyone(alice, bob, organiser, tmp_path):
    _, match = tournament_match(organiser, [alice, bob], is_public=True)
    match = _finish(match)
    assert match.status == "finished"
    for client in (APIClient(), token_client(UserFactory())):
        response = _audit(client, match)
        assert response.status_code == 200, response.content
        body = response.json()
        assert all("deck" in c and c["deck"] for c in body["commitments"])
        assert body["hashed_to"] == len(body["events"])
        code, out = verifier_run(body, tmp_path)
        assert code == 0, out
    data = match_replay_data(match=match, user=AnonymousUser())
    assert data["may_download_bundle"] is True


def test_a_public_match_in_play_shows_no_hidden_card(alice, bob, organiser):
    _, match = tournament_match(organiser, [alice, bob], is_public=True)
    match = play_until_hand(match, 1)
    response = _audit(APIClient(), match)
    assert response.status_code == 403
    assert response.json()["error"]["reason"] == "bundle_forbidden"
    data = match_replay_data(match=match, user=AnonymousUser())
    assert data["may_download_bundle"] is False
    assert all(e["type"] != "HandDealt" for e in data["events"])  # cut before the live hand
    deal = next(
        e for e in __import__("eventstore").load(stream_id=match.stream_id) if e.type == "HandDealt"
    )
    assert deal.data["salt"] not in str(data)


def test_finished_hands_of_a_public_match_replay_in_full_for_spectators(alice, bob, organiser):
    _, match = tournament_match(organiser, [alice, bob], ruleset={"game_target": 500})
    match = play_until_hand(match, 3)
    data = match_replay_data(match=match, user=AnonymousUser())
    deals = [e for e in data["events"] if e["type"] == "HandDealt"]
    assert [e["data"]["hand_number"] for e in deals] == [1, 2]
    assert all("deck" in e["data"] for e in deals)
    hands = [e["table"]["hands"] for e in data["events"] if e["type"] == "CardDiscarded"]
    assert hands and all(None not in h.values() for h in hands)  # both hands shown
    live = [
        e
        for e in __import__("eventstore").load(stream_id=match.stream_id)
        if e.type == "HandDealt" and e.version > data["events"][-1]["version"]
    ]
    for e in live:
        assert e.data["salt"] not in str(data)


def test_a_finished_private_tournament_match_is_for_its_people_only(alice, bob, organiser):
    _, match = tournament_match(organiser, [alice, bob], is_public=False)
    match = _finish(match)
    staff = get_user_model().objects.create_user(username="staffer", password="x", is_staff=True)
    for client in (token_client(alice.user), token_client(organiser), token_client(staff)):
        assert _audit(client, match).status_code == 200
    assert _audit(APIClient(), match).status_code == 401  # signed out: not public
    response = _audit(token_client(UserFactory()), match)
    assert response.status_code == 404
    assert response.json()["error"]["reason"] == "match_not_found"


def test_a_friendly_match_is_for_its_people_only(alice, bob, bob_client):
    from tests.games.audit.helpers import finished_match

    match = finished_match(alice, bob, seed="friendly")
    assert _audit(bob_client, match).status_code == 200
    assert _audit(APIClient(), match).status_code == 401  # signed out: not public
    response = _audit(token_client(UserFactory()), match)
    assert response.status_code == 403
    assert response.json()["error"]["reason"] == "bundle_forbidden"


# --- the dispute window -------------------------------------------------------------------


def _dispute(client, match):
    return client.post(
        f"/api/matches/{match.pk}/disputes/", {"statement": "a misdeal"}, format="json"
    )


def test_a_dispute_after_the_window_is_refused(alice, bob, organiser, alice_client):
    _, match = tournament_match(organiser, [alice, bob], dispute_window=dt.timedelta(hours=1))
    match = _finish(match)
    assert _dispute(alice_client, match).status_code == 201
    Match.objects.filter(pk=match.pk).update(finished_at=timezone.now() - dt.timedelta(hours=2))
    version = Match.objects.get(pk=match.pk).version
    response = _dispute(alice_client, match)
    assert response.status_code == 409
    error = response.json()["error"]
    assert (error["code"], error["reason"]) == ("conflict", "dispute_window_closed")
    finished_at = response.json()["error"]["finished_at"]
    assert finished_at.endswith("Z") and "+00:00" not in finished_at
    assert Match.objects.get(pk=match.pk).version == version  # nothing written


def test_no_window_no_limit_and_none_while_in_play(alice, bob, organiser, alice_client):
    _, match = tournament_match(organiser, [alice, bob])  # no window
    match = _finish(match)
    Match.objects.filter(pk=match.pk).update(finished_at=timezone.now() - dt.timedelta(days=300))
    assert _dispute(alice_client, match).status_code == 201
    _, live = tournament_match(organiser, [alice, bob], dispute_window=dt.timedelta(seconds=1))
    live = play_until_hand(live, 1)
    assert _dispute(alice_client, live).status_code == 201


def test_the_window_is_a_setting(alice, bob, organiser, organiser_client):
    from core.errors import ValidationError
    from tournaments.services import tournament_settings_change

    tournament, _ = tournament_match(organiser, [alice, bob])
    changed = tournament_settings_change(
        tournament_id=tournament.pk, by=organiser, changes={"dispute_window": dt.timedelta(days=2)}
    )
    assert changed.dispute_window == dt.timedelta(days=2)  # also once started
    with pytest.raises(ValidationError):
        tournament_settings_change(
            tournament_id=tournament.pk, by=organiser, changes={"dispute_window": dt.timedelta(0)}
        )
    response = organiser_client.post(
        "/api/tournaments/",
        {"name": "Windowed", "format": "swiss", "rounds": 1, "dispute_window": "2 00:00:00"},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["dispute_window"] == "2 00:00:00"
    bad = organiser_client.post(
        "/api/tournaments/",
        {"name": "Bad", "format": "swiss", "rounds": 1, "dispute_window": "-01:00:00"},
        format="json",
    )
    assert bad.status_code == 400
    assert bad.json()["error"]["code"] in ("duration", "validation_error")
