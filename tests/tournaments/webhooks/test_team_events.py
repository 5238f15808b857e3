"""A team tournament's webhooks (issue 39): its team event's events (teams registered,
lineups, rounds paired, board results) become signed deliveries as a tournament's do, each
at its version in the team event's stream; the event-type filter and the reconciler work
the same; a team event of no tournament has no webhooks to feed."""

from __future__ import annotations

import pytest

from tests.tournaments.webhooks.helpers import Receiver
from tournaments import services
from tournaments.teams import services as teams
from tournaments.teams.models import TeamEvent
from tournaments.webhooks import services as webhooks
from tournaments.webhooks.models import Delivery, WebhookEndpoint

pytestmark = pytest.mark.django_db


@pytest.fixture
def team_tournament(organiser):
    return services.tournament_create(
        name="League night", format="team_swiss", created_by=organiser, boards=2, rounds=1
    )


@pytest.fixture
def rosters(make_player):
    return [[make_player().pk for _ in range(2)] for _ in range(2)]


def _register(tournament, organiser, receiver: Receiver, **kwargs) -> WebhookEndpoint:
    written = webhooks.webhook_create(
        tournament_id=tournament.pk, by=organiser, url=receiver.url, **kwargs
    )
    receiver.secret = written.secret
    return written.endpoint


def _sides(event: TeamEvent, organiser, rosters, jobs) -> None:
    with jobs():
        for n, roster in enumerate(rosters, 1):
            teams.team_register(
                event_id=event.pk, name=f"Side {n}", roster=roster, by=organiser, by_rating=False
            )


def test_a_team_tournament_s_webhook_sends_its_team_event_s_events(
    organiser, team_tournament, rosters, fast_webhooks, receiver, jobs
):
    event = TeamEvent.objects.get(tournament=team_tournament)
    endpoint = _register(team_tournament, organiser, receiver)
    assert endpoint.cursor == event.version == 1  # from now on: after TeamEventCreated
    _sides(event, organiser, rosters, jobs)
    with jobs():
        teams.team_round_pair(event_id=event.pk, round_number=1, by=organiser)
    event.refresh_from_db()
    got = sorted(receiver.received, key=lambda r: r.position)
    assert [r.body["type"] for r in got] == ["TeamRegistered", "TeamRegistered", "TeamRoundPaired"]
    assert [r.position for r in got] == list(range(2, event.version + 1))
    assert all(r.signed for r in got)
    body = got[0].body
    assert body["tournament"] == team_tournament.pk and body["stream"] == event.stream_id
    assert body["data"]["roster"] == rosters[0] and body["by"] is None
    assert body["anchors"]["tournament"]["stream_id"] == event.stream_id
    endpoint.refresh_from_db()
    assert endpoint.cursor == event.version
    assert set(Delivery.objects.values_list("status", flat=True)) == {"delivered"}


def test_only_the_chosen_team_event_types_are_sent(
    organiser, team_tournament, rosters, fast_webhooks, receiver, jobs
):
    event = TeamEvent.objects.get(tournament=team_tournament)
    _register(team_tournament, organiser, receiver, event_types=["TeamRoundPaired"])
    _sides(event, organiser, rosters, jobs)
    assert receiver.received == []
    with jobs():
        teams.team_round_pair(event_id=event.pk, round_number=1, by=organiser)
    assert [r.body["type"] for r in receiver.received] == ["TeamRoundPaired"]


def test_team_events_whose_job_was_lost_are_sent_by_the_reconciler(
    organiser, team_tournament, rosters, fast_webhooks, receiver, jobs, monkeypatch
):
    from tournaments import jobs as queue

    event = TeamEvent.objects.get(tournament=team_tournament)
    _register(team_tournament, organiser, receiver)
    monkeypatch.setattr(queue, "enqueue_in_tx", lambda **kwargs: None)  # the broker is down
    _sides(event, organiser, rosters, jobs)
    assert not Delivery.objects.exists() and receiver.received == []
    monkeypatch.undo()
    with jobs():
        webhooks.webhooks_reconcile()
    assert sorted(r.position for r in receiver.received) == [2, 3]


def test_a_team_event_of_no_tournament_feeds_no_webhook(
    organiser, team_tournament, rosters, fast_webhooks, receiver, jobs
):
    _register(team_tournament, organiser, receiver)
    alone = teams.team_event_create(
        name="Friendly", format="team_swiss", created_by=organiser, boards=2
    )
    _sides(alone, organiser, rosters, jobs)
    assert receiver.received == [] and not Delivery.objects.exists()
