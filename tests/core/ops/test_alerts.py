"""Issue 35: alerts a club sees. A round that cannot be paired, a job that failed for good,
beat silent: a banner on the desk for the tournament's organisers (in their language), an
e-mail to them and to ADMINS, and the metrics' count; resolved once the cause is gone."""

import datetime as dt

import pytest
from celery.signals import task_failure
from django.core import mail
from django.utils import timezone, translation

from core.alerts import alert_message
from core.heartbeats import BEAT, beat_heard, beat_watch, heartbeat_record
from core.models import Alert, Heartbeat
from tests.tournaments.helpers import forfeit_round, make_bots, make_tournament
from tournaments import services
from tournaments.models import Round
from tournaments.tasks import tournament_round_pair_task

pytestmark = pytest.mark.django_db


@pytest.fixture
def admins(settings):
    settings.ADMINS = [("Ops", "ops@example.org")]
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


@pytest.fixture
def tournament(organiser):
    organiser.email = "olive@example.org"
    organiser.save()
    t = make_tournament(organiser, make_bots(4), rounds=3)
    services.tournament_start(tournament_id=t.pk, by=organiser)
    return t


def test_a_round_the_scheduler_cannot_pair_is_on_the_desk_and_e_mailed(
    tournament, organiser, client, admins, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        assert tournament_round_pair_task(tournament.pk, 2) is False  # round 1 still in play
        tournament_round_pair_task(tournament.pk, 2)  # again (beat runs it every 30 s)
    (alert,) = Alert.objects.filter(resolved_at__isnull=True)
    assert alert.kind == "round_unpairable" and alert.tournament_id == tournament.pk
    assert {tuple(m.to) for m in mail.outbox} == {("olive@example.org",), ("ops@example.org",)}
    assert "Round 2 could not be paired" in mail.outbox[0].body  # once, not once a run

    client.force_login(organiser)
    page = client.get(f"/desk/{tournament.pk}/").content.decode()
    assert 'id="alerts"' in page and "Round 2 could not be paired" in page
    for language, words in (("de", "Runde 2"), ("ro", "Runda 2"), ("fa", "دور 2")):
        with translation.override(language):
            assert alert_message(alert).startswith(words)

    # Round 1 finished: round 2 paired, the alert is over and the banner gone.
    with django_capture_on_commit_callbacks(execute=True):  # results recorded by their jobs
        forfeit_round(tournament, organiser)
    services.tournament_round_pair(tournament_id=tournament.pk, round_number=2, by=organiser)
    assert Round.objects.filter(tournament=tournament, number=2).exists()
    assert not Alert.objects.filter(resolved_at__isnull=True).exists()
    assert 'id="alerts"' not in client.get(f"/desk/{tournament.pk}/").content.decode()


def test_a_job_failed_for_good_raises_one_alert(admins, django_capture_on_commit_callbacks):
    class Job:  # a task as Celery's signal hands it, run by a worker (not in process)
        name = "tournaments.results_reconcile"

        class request:  # noqa: N801
            is_eager = False

    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(2):
            task_failure.send(sender=Job, task_id="x", exception=ValueError("boom"), args=[])
    (alert,) = Alert.objects.all()
    assert alert.kind == "job_failed"
    assert "tournaments.results_reconcile" in alert_message(alert)
    assert [m.to for m in mail.outbox] == [["ops@example.org"]]


def test_beat_silent_is_an_alert_until_it_ticks_again(settings, admins):
    settings.READYZ_BEAT_SILENT_SECONDS = 60
    heartbeat_record(BEAT)
    beat_watch()
    assert not Alert.objects.exists()
    Heartbeat.objects.filter(name=BEAT).update(beat_at=timezone.now() - dt.timedelta(minutes=5))
    beat_watch()
    beat_watch()
    (alert,) = Alert.objects.filter(resolved_at__isnull=True)
    assert alert.kind == "beat_silent" and alert.tournament_id is None
    beat_heard()
    assert not Alert.objects.filter(resolved_at__isnull=True).exists()
