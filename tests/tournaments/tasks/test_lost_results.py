"""A lost `match_finished` job (a killed worker, the broker down at commit) never leaves a
round in play for ever: the write that committed answers as usual, and beat's reconciler
(or the organiser's "take the results") records the result."""

from __future__ import annotations

import pytest
from celery import current_app
from django.contrib.auth import get_user_model
from kombu.exceptions import OperationalError as BrokerDown

from core.errors import PermissionDeniedError
from players.models import Player
from tests.tournaments.helpers import record_gins, table_tournament
from tournaments import services
from tournaments.models import Pairing
from tournaments.tasks import tournament_results_reconcile_task

pytestmark = pytest.mark.django_db


def _finish(pairing, organiser):
    record_gins(pairing.match_id, organiser, pairing.player1)


def test_a_result_whose_job_was_lost_is_recorded_by_the_reconciler(
    organiser, monkeypatch, django_capture_on_commit_callbacks, caplog
):
    players = [Player.objects.create(name=n) for n in ("Ann", "Ben")]
    tournament = table_tournament(organiser, players)
    pairing = Pairing.objects.get(round__tournament=tournament, round__number=1)
    task = current_app.tasks["tournaments.match_finished"]

    def broker_down(*args, **kwargs):
        raise BrokerDown("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(task, "apply", broker_down)  # the outbox relay runs eager jobs so
    with django_capture_on_commit_callbacks(execute=True):
        _finish(pairing, organiser)  # no exception: the hands committed
    assert "could not queue tournaments.match_finished" in caplog.text
    pairing.refresh_from_db()
    assert pairing.status == "pending"  # the job was lost
    monkeypatch.undo()
    with django_capture_on_commit_callbacks(execute=True):
        assert tournament_results_reconcile_task.delay().get() == 1
    pairing.refresh_from_db()
    assert pairing.status == "finished" and pairing.winner_id == pairing.player1_id
    with django_capture_on_commit_callbacks(execute=True):
        assert tournament_results_reconcile_task.delay().get() == 0  # nothing more to do


def test_an_organiser_can_take_the_results_of_a_stuck_round(organiser, monkeypatch):
    players = [Player.objects.create(name=n) for n in ("Ann", "Ben")]
    tournament = table_tournament(organiser, players)
    pairing = Pairing.objects.get(round__tournament=tournament, round__number=1)
    from tournaments import jobs

    monkeypatch.setattr(jobs, "enqueue_in_tx", lambda **kwargs: None)  # every job lost
    _finish(pairing, organiser)
    assert Pairing.objects.get(pk=pairing.pk).status == "pending"
    taken = services.tournament_results_take(tournament_id=tournament.pk, by=organiser)
    assert taken == [pairing.pk]
    assert Pairing.objects.get(pk=pairing.pk).status == "finished"
    stranger = get_user_model().objects.create_user(username="stranger", password="pw-x-12345")
    with pytest.raises(PermissionDeniedError):
        services.tournament_results_take(tournament_id=tournament.pk, by=stranger)
