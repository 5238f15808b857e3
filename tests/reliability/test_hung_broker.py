"""A hung broker (it accepts connections and never answers) holds no request: the jobs a
write calls for are recorded in the outbox with it, the relay after commit gives up within
its short timeout (and then pauses), the write answers, and the drain sends the jobs once
the broker is back."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from celery import current_app

from core import outbox
from core.models import OutboxMessage
from games.services import match_rule
from tests.tournaments.helpers import make_bots, make_tournament
from tournaments import services
from tournaments.models import Pairing, Round

pytestmark = [
    pytest.mark.reliability,
    pytest.mark.django_db,
    # With a real broker configured (CI), pointing the app at the hung server leaves
    # kombu state behind that stalls the real-worker tests after it (open follow-up): run
    # these where jobs are otherwise eager (`make test` without CELERY_BROKER_URL).
    pytest.mark.skipif(
        bool(os.environ.get("CELERY_BROKER_URL")),
        reason="stalls later real-worker tests when a real broker is configured",
    ),
]


@pytest.fixture
def hung_broker() -> Iterator[str]:
    """A TCP server on this machine that accepts every connection and never answers."""
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
                held.append(conn)  # read nothing, answer nothing
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"redis://127.0.0.1:{server.getsockname()[1]}/0"
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    server.close()


@contextmanager
def broker_pointed_at(url: str) -> Iterator[None]:
    """Celery publishing to `url`, jobs not eager; as before afterwards. Celery reads the
    environment's CELERY_BROKER_URL before its own setting, so both are pointed there."""
    app = current_app._get_current_object()
    conf = app.conf
    saved = conf.broker_url, conf.broker_write_url, conf.task_always_eager
    saved_env = os.environ.get("CELERY_BROKER_URL")
    # The app's pools as they are: set aside (not closed), so what this test makes on the
    # hung server is its own, and put back afterwards for the tests after it.
    pools = app._pool, app.amqp._producer_pool
    app._pool, app.amqp._producer_pool = None, None
    os.environ["CELERY_BROKER_URL"] = url
    conf.broker_url, conf.broker_write_url, conf.task_always_eager = url, None, False
    try:
        yield
    finally:
        if saved_env is None:
            os.environ.pop("CELERY_BROKER_URL", None)
        else:
            os.environ["CELERY_BROKER_URL"] = saved_env
        conf.broker_url, conf.broker_write_url, conf.task_always_eager = saved
        app._pool, app.amqp._producer_pool = pools


@pytest.fixture
def broker_at(hung_broker: str) -> Iterator[None]:
    with broker_pointed_at(hung_broker):
        yield


def test_a_final_move_answers_while_the_broker_hangs(
    organiser: Any, broker_at: None, django_capture_on_commit_callbacks: Any
) -> None:
    t = make_tournament(organiser, make_bots(2), rounds=2)
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament_id=t.pk, by=organiser)
    pairing = Pairing.objects.get(round__tournament=t, round__number=1)
    began = time.monotonic()
    with django_capture_on_commit_callbacks(execute=True):
        match_rule(match_id=pairing.match_id, by=organiser, type="forfeit",
                   player=pairing.player1, reason="left")  # fmt: skip
    took = time.monotonic() - began
    # The broker never answered: the job waits in the outbox, and the write did not wait
    # the broker's 30 s (a generous bound: the relay's own timeout is about a second).
    assert took < 3 * outbox.RELAY_TIMEOUT + 10
    waiting = OutboxMessage.objects.filter(task="tournaments.match_finished", sent_at=None)
    assert waiting.count() == 1
    assert waiting.get().last_error  # why it is still waiting
    # Later writes do not even try while the relay pauses: each answers at once.
    began = time.monotonic()
    with django_capture_on_commit_callbacks(execute=True):
        outbox.enqueue_in_tx(task="tournaments.results_reconcile", args=())
    assert time.monotonic() - began < outbox.RELAY_TIMEOUT


def test_the_drain_sends_what_the_hung_broker_missed(
    organiser: Any, hung_broker: str, django_capture_on_commit_callbacks: Any
) -> None:
    t = make_tournament(organiser, make_bots(2), rounds=2)
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament_id=t.pk, by=organiser)
    pairing = Pairing.objects.get(round__tournament=t, round__number=1)
    with broker_pointed_at(hung_broker), django_capture_on_commit_callbacks(execute=True):
        match_rule(match_id=pairing.match_id, by=organiser, type="forfeit",
                   player=pairing.player1, reason="left")  # fmt: skip
    assert OutboxMessage.objects.filter(sent_at=None).count() == 1  # the hung broker's
    assert not Round.objects.filter(tournament=t, number=2).exists()
    # The broker is back (here: jobs in process); the drain sends the missed job, whose
    # recording of the result pairs round 2.
    OutboxMessage.objects.update(created_at=OutboxMessage.objects.first().created_at.replace(
        year=2020))  # fmt: skip
    outbox.relay_resume()
    with django_capture_on_commit_callbacks(execute=True):
        assert outbox.outbox_drain() >= 1
    assert not OutboxMessage.objects.filter(sent_at=None).exists()
    pairing.refresh_from_db()
    assert pairing.status == "finished"
    assert Round.objects.filter(tournament=t, number=2).exists()
