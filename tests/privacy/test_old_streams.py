"""Streams written before personal data left the log (3.0 and before): a tournament event
holding a member's username in `by`, a dispute statement in clear. Erasing her redacts
them under a sealed Redacted record: the chains, seals and the audit bundle still verify,
and a row changed after the redaction is still caught."""

from __future__ import annotations

import copy
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

import eventstore
from eventstore import NewEvent
from games.audit import match_bundle
from games.models import Match
from games.services import match_create, match_read_models_rebuild
from players.models import Club
from players.services import player_create
from tests.games.audit.helpers import tamper_event, verifier_run
from tests.privacy.helpers import EMAIL, NAME, USERNAME
from tests.tournaments.helpers import make_bots
from tournaments import repository, services
from tournaments.privacy.services import player_erase
from tournaments.selectors import tournament_events

pytestmark = pytest.mark.django_db


@pytest.fixture
def old_streams(monkeypatch):
    organiser = get_user_model().objects.create_user(username="orga", password="pw")
    club = Club.objects.create(name="Gin Club", slug="gin-club")
    club.organisers.add(organiser)
    ana = player_create(name=NAME, username=USERNAME, password="secret-pass-1", email=EMAIL)
    club.members.add(ana)
    # The code of 3.0: the decider's username beside their id in every tournament event.
    monkeypatch.setattr(
        repository,
        "actor",
        lambda user: None if user is None else {"id": user.pk, "username": user.username},
    )
    tournament = services.tournament_create(
        name="Old", format="swiss", rounds=2, created_by=organiser
    )
    services.tournament_register(tournament_id=tournament.pk, player=ana, by=ana.user)
    monkeypatch.undo()
    bot = make_bots(1)[0]
    match = match_create(player1=ana, player2=bot, mode="table", organisers=[organiser])
    # A dispute as 3.0 stored it: her words and her request id in clear.
    eventstore.append(
        stream_id=match.stream_id,
        expected_version=match.version,
        events=[
            NewEvent(
                type="DisputeOpened",
                data={"dispute": 1, "seat": 0, "hand_number": None,
                      "statement": f"I am {USERNAME}, {NAME}."},
                metadata={"actor": f"player:{ana.pk}", "request_id": "r-1", "ruling_by": None},
            )
        ],
    )  # fmt: skip
    match_read_models_rebuild(stream_ids=[match.stream_id])
    return organiser, ana, tournament, Match.objects.get(pk=match.pk)


def test_old_events_hold_her_username_until_she_is_erased(old_streams):
    organiser, ana, tournament, match = old_streams
    held = eventstore.events_naming(terms=[USERNAME])
    assert {e.stream_id for e in held} == {tournament.stream_id, match.stream_id}
    assert eventstore.verify().ok

    player_erase(player_id=ana.pk, by=organiser, reason="her request")

    assert eventstore.events_naming(terms=[USERNAME, NAME, EMAIL]) == []
    result = eventstore.verify()
    assert result.ok, result.reason
    assert result.redacted == 2
    out = io.StringIO()
    call_command("verify_events", verbosity=0, stdout=out, stderr=io.StringIO())
    assert "REDACTED: 2 events" in out.getvalue()
    streams = [f"redactions-{tournament.stream_id}", f"redactions-{match.stream_id}"]
    records = {
        e.data["stream_id"]: e.data
        for e in eventstore.load_of_types(stream_ids=streams, types=["Redacted"])
    }
    assert records[tournament.stream_id]["events"][0]["removed"] == ["data.by.username"]
    assert records[match.stream_id]["events"][0]["removed"] == [
        "data.statement",
        "metadata.request_id",
    ]
    assert records[match.stream_id]["by"] == f"user:{organiser.pk}"
    registered = [e for e in tournament_events(tournament=tournament, viewer=organiser)
                  if e["type"] == "PlayerRegistered"]  # fmt: skip
    assert registered[0]["by"]["username"] == f"erased-{ana.user.pk}"


def test_the_bundle_of_a_redacted_match_verifies_and_a_later_change_is_caught(
    old_streams, tmp_path
):
    organiser, ana, _, match = old_streams
    player_erase(player_id=ana.pk, by=organiser)
    bundle = json.loads(json.dumps(match_bundle(match=match, user=organiser), default=str))
    assert bundle["redactions"][0]["removed"] == ["data.statement", "metadata.request_id"]
    status, output = verifier_run(bundle, tmp_path)
    assert status == 0, output
    assert "personal data erased" in output

    forged = copy.deepcopy(bundle)
    forged["events"][-1]["data"]["hand_number"] = 2
    assert verifier_run(forged, tmp_path)[0] == 1

    version = bundle["redactions"][0]["version"]
    tamper_event(
        stream_id=match.stream_id,
        version=version,
        data={"dispute": 1, "seat": 1, "hand_number": None, "statement": ""},
    )
    result = eventstore.verify(stream_id=match.stream_id)
    assert not result.ok
    assert "hash mismatch" in result.reason
