"""Issue 14 item 2 and the workers: a job whose worker died comes back in minutes, the
checkpoint job is on beat and runs twice harmlessly, gunicorn workers recycle staggered."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest
from django.conf import settings

from config.celery import app

ROOT = Path(__file__).resolve().parents[2]


def test_the_redis_visibility_timeout_is_minutes_not_an_hour():
    timeout = app.conf.broker_transport_options["visibility_timeout"]
    assert 60 <= timeout <= 900
    assert app.conf.task_acks_late and app.conf.task_reject_on_worker_lost


@pytest.mark.django_db
def test_the_checkpoint_job_is_on_beat_and_idempotent():
    import eventstore
    from eventstore import NewEvent

    app.loader.import_default_modules()
    assert "eventstore.checkpoints_take" in app.tasks
    schedule = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "eventstore.checkpoints_take" in schedule
    eventstore.append(stream_id="s", expected_version=0, events=[NewEvent("A", {}, {})])
    job = app.tasks["eventstore.checkpoints_take"]
    assert job.apply().get() == 1
    assert job.apply().get() == 0  # a second delivery signs nothing more


def test_gunicorn_workers_recycle_staggered():
    conf = runpy.run_path(str(ROOT / "config" / "gunicorn.py"))
    assert conf["max_requests"] > 0 and 0 < conf["max_requests_jitter"] < conf["max_requests"]
