"""The periodic jobs and the admin actions call the same services."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from core.models import OutboxMessage
from tests.tournaments.helpers import forfeit_round, make_bots, make_tournament
from tournaments import services, tasks
from tournaments.models import Registration, Round, Tournament
from tournaments.selectors import tournament_stream_events, tournaments_with_rounds_due

pytestmark = pytest.mark.django_db


def test_beat_pairs_rounds_at_their_start_times(organiser, jobs):
    start = timezone.now() - dt.timedelta(minutes=1)
    t = make_tournament(
        organiser, make_bots(4), rounds=2, starts_at=start, round_interval=dt.timedelta(hours=1)
    )
    with jobs():
        assert tasks.tournament_rounds_start_due.delay().get() == 1
    # Queued as every job is, through the outbox (relayed after its commit).
    (queued,) = OutboxMessage.objects.filter(task="tournaments.round_pair", args=[t.pk, 1])
    assert queued.sent_at is not None
    assert Round.objects.get(tournament=t, number=1).paired_by is None
    paired = [e for e in tournament_stream_events(tournament=t) if e.type == "RoundPaired"]
    assert paired[0].data["by"] is None  # the scheduler
    with jobs():
        forfeit_round(t, organiser)
    # Round 2 starts an hour after round 1: the ETA job came early and did nothing.
    assert not Round.objects.filter(tournament=t, number=2).exists()
    assert tournaments_with_rounds_due() == []
    later = start + dt.timedelta(hours=1, seconds=1)
    assert tournaments_with_rounds_due(now=later) == [(t.pk, 2)]


def test_a_start_time_with_too_few_players_is_not_due(organiser):
    t = make_tournament(organiser, make_bots(1), starts_at=timezone.now())
    assert tournaments_with_rounds_due() == []
    extra = make_bots(1, prefix="Late")[0]
    services.tournament_register(tournament_id=t.pk, player=extra, by=organiser)
    services.tournament_check_in(tournament_id=t.pk, player=extra, by=organiser)
    assert tournaments_with_rounds_due() == [(t.pk, 1)]


def test_the_deadline_job_counts_its_forfeits(organiser, jobs):
    t = make_tournament(organiser, make_bots(2), rounds=1, round_duration=dt.timedelta(minutes=1))
    with jobs():
        tasks.tournament_round_pair_task.delay(t.pk, 1).get()  # no start time: waits
    assert not Round.objects.filter(tournament=t).exists()
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    # The round was paired two minutes ago: its one-minute deadline has passed.
    past = timezone.now() - dt.timedelta(minutes=2)
    services.tournament_round_deadline_move(
        tournament_id=t.pk, round_number=1, deadline=past, by=organiser, reason="late"
    )
    with jobs():
        assert tasks.tournament_deadlines_enforce.delay().get() == 1
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED


@pytest.fixture
def admin_client(client):
    admin = get_user_model().objects.create_superuser(username="boss", password="pw-boss-123")
    client.force_login(admin)
    return client


def test_admin_actions_go_through_the_services(admin_client, organiser, jobs):
    players = make_bots(4)
    t = make_tournament(organiser, players, rounds=2)
    url = "/admin/tournaments/tournament/"
    with jobs():
        response = admin_client.post(
            url, {"action": "start_tournament", "_selected_action": [t.pk]}, follow=True
        )
    assert response.status_code == 200
    assert Round.objects.filter(tournament=t, number=1).exists()
    with jobs():
        admin_client.post(url, {"action": "repair_current_round", "_selected_action": [t.pk]})
    assert tournament_stream_events(tournament=t)[-1].type == "RoundRepaired"
    page = admin_client.get(f"{url}{t.pk}/change/")
    assert page.status_code == 200 and "Bot 01" in page.content.decode()
    form = admin_client.post(url, {"action": "withdraw_player", "_selected_action": [t.pk]})
    assert form.status_code == 200 and b"Withdraw" in form.content
    admin_client.post(
        url,
        {
            "action": "withdraw_player",
            "_selected_action": [t.pk],
            "apply": "1",
            "player": players[3].pk,
            "reason": "went home",
        },
    )
    reg = Registration.objects.get(tournament=t, player=players[3])
    assert reg.status == Registration.Status.WITHDRAWN
    last = tournament_stream_events(tournament=t)[-1]
    boss = get_user_model().objects.get(username="boss")
    assert last.type == "PlayerWithdrawn" and last.data["by"] == {"id": boss.pk}  # by id only
    added = admin_client.post(
        "/admin/tournaments/tournament/add/",
        {"name": "Admin cup", "format": "knockout", "play_mode": "online", "time_zone": "UTC",
         "ruleset": "{}", "round_starts": "[]", "tiebreaks": "[]", "is_public": "on",
         "check_in_required": "on",
         **{f"{p}-{k}": v for p in ("registrations", "rounds", "standings")
            for k, v in (("TOTAL_FORMS", "0"), ("INITIAL_FORMS", "0"))}},
    )  # fmt: skip
    assert added.status_code == 302, added.content.decode()[:2000]
    refused = admin_client.post(
        "/admin/tournaments/tournament/add/",
        {"name": "Bad", "format": "swiss", "play_mode": "online", "time_zone": "Mars/Base",
         "knock_limit": "ten", "tiebreak_1": "luck",
         **{f"{p}-{k}": v for p in ("registrations", "rounds", "standings")
            for k, v in (("TOTAL_FORMS", "0"), ("INITIAL_FORMS", "0"))}},
    )  # fmt: skip
    assert refused.status_code == 200  # the form again, with its errors
    errors = refused.context["adminform"].form.errors
    assert {"knock_limit", "tiebreak_1", "time_zone", "rounds_planned"} <= set(errors)
    assert not Tournament.objects.filter(name="Bad").exists()
    cup = Tournament.objects.get(name="Admin cup")
    assert tournament_stream_events(tournament=cup)[0].type == "TournamentCreated"
    assert cup.organisers.filter(username="boss").exists()
    round_page = admin_client.get(
        f"/admin/tournaments/round/{Round.objects.get(tournament=t).pk}/change/"
    )
    assert round_page.status_code == 200
    pairings_page = admin_client.get("/admin/tournaments/pairing/")
    assert pairings_page.status_code == 200 and "overdue" in pairings_page.content.decode()


def test_the_beat_schedule_names_registered_tasks():
    from django.conf import settings

    from config.celery import app

    app.loader.import_default_modules()  # what a starting worker imports (autodiscovery)
    names = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {"tournaments.rounds_start_due", "tournaments.deadlines_enforce"} <= names
    assert names <= set(app.tasks)
    for name in ("tournaments.round_pair", "tournaments.match_finished"):
        task = app.tasks[name]
        assert task.acks_late and task.autoretry_for and task.retry_backoff
