"""GET /api/tournaments/{id}/stream/: the tournament's events as its events API shows them,
pushed as they are committed, in order, exactly once; resumable with Last-Event-ID."""

from __future__ import annotations

import datetime as dt
import threading
import time

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework.test import APIClient

import eventstore
from core import live
from tests.helpers import wait_until
from tests.live.helpers import Follower, Message, written
from tests.tournaments.helpers import forfeit_round, make_bots, make_tournament
from tournaments import selectors, services

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def organiser(transactional_db):
    from players.models import Club

    user = get_user_model().objects.create_user(username="org", password="pw-organiser")
    Club.objects.create(name="Gin Club", slug="gin-club").organisers.add(user)
    return user


def _register(tournament, organiser, players):
    for player in players:
        written(
            lambda p=player: services.tournament_register(
                tournament_id=tournament.pk, player=p, by=organiser
            )
        )


def test_a_follower_gets_each_event_committed_after_it_connected_in_order_once(server, organiser):
    tournament = make_tournament(organiser, [])
    url = f"{server}/api/tournaments/{tournament.pk}/stream/"
    follower = Follower(url, headers={"Last-Event-ID": str(tournament.version)})
    assert follower.status == 200
    assert follower.response.headers["content-type"].startswith("text/event-stream")
    bots = make_bots(6)
    _register(tournament, organiser, bots[:3])  # three commits, one event each
    got = follower.take(3)
    assert [m.id for m in got] == [2, 3, 4]
    assert [m.data["type"] for m in got] == ["PlayerRegistered"] * 3
    assert [m.data["data"]["player"] for m in got] == [b.pk for b in bots[:3]]
    follower.close()

    # Reconnect from the last id seen: the events committed meanwhile, and only those.
    _register(tournament, organiser, bots[3:5])
    again = Follower(url, headers={"Last-Event-ID": str(got[-1].id)})
    _register(tournament, organiser, bots[5:])
    resumed = again.take(3)
    assert [m.id for m in resumed] == [5, 6, 7]
    assert [m.data["data"]["player"] for m in resumed] == [b.pk for b in bots[3:]]
    # Nothing more (keep-alive comments come instead): nothing was sent twice.
    assert [m for m in again.until_idle() if m.event == "event"] == []
    again.close()


def test_the_stream_shows_what_the_events_api_shows_to_that_viewer(server, organiser):
    tournament = make_tournament(organiser, make_bots(2))
    api = APIClient().get(f"/api/tournaments/{tournament.pk}/events/").json()["results"]
    anonymous = Follower(f"{server}/api/tournaments/{tournament.pk}/stream/")
    streamed = [m.data for m in anonymous.take(len(api))]
    anonymous.close()
    assert streamed == api
    assert all(e["by"] in (None, {"role": "organiser"}, {"role": "player"}) for e in streamed)
    assert "organisers" not in streamed[0]["data"]


def test_a_private_tournament_is_404_to_strangers_and_bad_input_is_400(server, organiser):
    private = make_tournament(organiser, [], is_public=False)
    for headers in ({}, {"Authorization": "Token not-a-token"}):
        refused = Follower(f"{server}/api/tournaments/{private.pk}/stream/", headers=headers)
        assert refused.status in (401, 404)
        refused.response.read()
        assert refused.response.json()["error"]["code"] in ("not_found", "authentication_failed")
        refused.close()
    bad = Follower(f"{server}/api/tournaments/{private.pk}/stream/", headers={"Last-Event-ID": "x"})
    assert bad.status == 400
    bad.response.read()
    assert bad.response.json()["error"]["code"] == "validation_error"
    bad.close()


def test_an_idle_stream_sends_a_keep_alive_comment(server, organiser):
    tournament = make_tournament(organiser, [])
    follower = Follower(
        f"{server}/api/tournaments/{tournament.pk}/stream/",
        headers={"Last-Event-ID": str(tournament.version)},
    )
    assert follower.next().event == "standings"  # on connecting; then nothing but comments
    assert follower.until_idle() == []
    assert follower.comments >= 1
    follower.close()


def test_a_wsgi_server_refuses_streams_at_once_instead_of_holding_a_worker(organiser, client):
    tournament = make_tournament(organiser, [])
    response = client.get(f"/api/tournaments/{tournament.pk}/stream/")
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "stream_unavailable"
    assert client.get("/api/matches/x/stream/").status_code == 503


def test_the_public_page_follows_the_stream_from_the_version_it_shows(organiser, client):
    tournament = make_tournament(organiser, make_bots(2))
    tournament.refresh_from_db()
    html = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    stream = f"/api/tournaments/{tournament.pk}/stream/?after={tournament.version}"
    assert f'data-stream="{stream}"' in html and "web/live.js" in html


def _utc(text):
    assert text.endswith("Z"), text
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_on_connecting_the_standings_and_the_round_clock_come_once(server, organiser):
    tournament = make_tournament(organiser, make_bots(2), round_duration=dt.timedelta(minutes=30))
    services.tournament_start(tournament_id=tournament.pk, by=organiser)
    tournament.refresh_from_db()
    follower = Follower(
        f"{server}/api/tournaments/{tournament.pk}/stream/",
        headers={"Last-Event-ID": str(tournament.version)},
    )
    first = follower.next()
    assert first.event == "standings" and first.id is None  # resuming stays on the events
    assert first.data["version"] == tournament.version
    api = APIClient().get(f"/api/tournaments/{tournament.pk}/standings/").json()
    assert first.data["results"] == api["results"] and first.data["tiebreaks"] == api["tiebreaks"]
    clock = first.data["clock"]
    assert (clock["round"], clock["status"]) == (1, "paired")
    starts, ends = _utc(clock["starts_at"]), _utc(clock["ends_at"])
    assert ends - starts == dt.timedelta(minutes=30)
    assert 0 < clock["seconds_left"] <= 30 * 60
    assert follower.until_idle() == []  # once: nothing happened since
    follower.close()


def test_a_result_brings_the_new_standings_and_the_clock(server, organiser):
    bots = make_bots(2)
    tournament = make_tournament(organiser, bots, rounds=1)
    services.tournament_start(tournament_id=tournament.pk, by=organiser)
    tournament.refresh_from_db()
    follower = Follower(
        f"{server}/api/tournaments/{tournament.pk}/stream/",
        headers={"Last-Event-ID": str(tournament.version)},
    )
    before = follower.take(1, event="standings")[0].data
    assert all(row["match_wins"] == 0 for row in before["results"])
    forfeit_round(tournament, organiser)  # the winner: table 1's player1
    events = follower.take(3)
    assert [m.data["type"] for m in events] == [
        "ResultRecorded", "RoundCompleted", "TournamentFinished",
    ]  # fmt: skip
    after = follower.take(1, event="standings")[0].data
    tournament.refresh_from_db()
    assert after["version"] == tournament.version == events[-1].id
    api = APIClient().get(f"/api/tournaments/{tournament.pk}/standings/").json()["results"]
    assert after["results"] == api
    winner = events[0].data["data"]["winner"]
    assert [(r["player"], r["match_wins"]) for r in after["results"]][0] == (winner, 1)
    clock = after["clock"]
    assert (clock["round"], clock["status"], clock["seconds_left"]) == (1, "completed", None)
    assert clock["next_round_at"] is None and clock["ends_at"] is None
    follower.close()


def test_before_round_one_the_clock_says_when_it_is_scheduled(server, organiser):
    tournament = make_tournament(
        organiser, [], starts_at=dt.datetime(2030, 5, 1, 17, 30, tzinfo=dt.UTC)
    )
    follower = Follower(f"{server}/api/tournaments/{tournament.pk}/stream/")
    standings = follower.take(1, event="standings")[0].data
    assert standings["results"] == []
    assert standings["clock"]["round"] is None
    assert standings["clock"]["next_round_at"] == "2030-05-01T17:30:00Z"
    follower.close()


def _next_event(follower: Follower, within: float) -> Message:
    """The next `event` message (standings skipped); AssertionError if none `within` s."""
    deadline = time.monotonic() + within
    while True:
        message = follower.next(within=max(deadline - time.monotonic(), 0.1))
        if message.event == "event":
            return message


@pytest.mark.skipif(connection.vendor != "postgresql", reason="woken by NOTIFY (PostgreSQL)")
def test_a_follower_is_never_given_a_read_begun_before_a_commit_it_was_not_woken_for(
    server, organiser, monkeypatch
):
    """Two wall screens reconnect from the same Last-Event-ID; a player registers between
    the first one's read and the second one's connecting. The second must not be handed
    the first one's read (begun before that commit): no notification is left to wake it,
    and it would show the tournament without the new player until the next commit."""
    tournament, walk_in = make_tournament(organiser, []), make_bots(1)[0]
    seen, key = tournament.version, tournament.stream_id
    url = f"{server}/api/tournaments/{tournament.pk}/stream/"
    wake = live.waker(eventstore.NOTIFY_CHANNEL)
    # The first follower's read is held once it has read the events (and before the
    # standings), until the second follower has asked for its own.
    queried, go = threading.Event(), threading.Event()
    standings = selectors.tournament_standings

    def held_standings(**kwargs):
        if not queried.is_set():
            queried.set()
            assert go.wait(120)
        return standings(**kwargs)

    monkeypatch.setattr(selectors, "tournament_standings", held_standings)
    reads = []
    read_again_if_failed = live._read_again_if_failed

    async def counted(read, after, pause):
        reads.append(after)
        return await read_again_if_failed(read, after, pause)

    monkeypatch.setattr(live, "_read_again_if_failed", counted)

    first = Follower(url, headers={"Last-Event-ID": str(seen)})
    try:
        wait_until("the first follower's read", queried.is_set)
        wait_until("the server to listen", wake.listening)
        woken = wake.wakes_of(key)
        services.tournament_register(tournament_id=tournament.pk, player=walk_in, by=organiser)
        wait_until("the commit's notification", lambda: wake.wakes_of(key) > woken)
        second = Follower(url, headers={"Last-Event-ID": str(seen)})
        try:
            wait_until("the second follower's read", lambda: len(reads) >= 2)
            go.set()
            for follower in (second, first):
                registered = _next_event(follower, within=60)
                assert (registered.id, registered.data["type"]) == (seen + 1, "PlayerRegistered")
        finally:
            second.close()
    finally:
        go.set()
        first.close()
