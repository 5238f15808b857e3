"""A hung broker (it accepts connections and never answers) holds no request: the jobs a
write calls for are recorded in the outbox with it, the relay after commit gives up within
its short timeout (and then pauses), the write answers, and the drain sends the jobs once
the broker is back.

Pointing the app at the hung server leaves kombu state behind in the process (pools,
connections half open) that stalled the real-worker tests run after it. So with a real
broker configured (CI), these tests run in a pytest process of their own
(`test_the_hung_broker_tests_in_a_process_of_their_own`: its own environment, jobs eager
there, its own test database), which ends with them; without one (`make test` on SQLite)
they run here as well."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from celery import current_app

from core import outbox
from core.models import OutboxMessage
from games.services import match_rule
from tests.tournaments.helpers import make_bots, make_tournament
from tournaments import services
from tournaments.models import Pairing, Round

# Set in the pytest process of their own that the test below starts.
OWN_PROCESS = os.environ.get("HG_HUNG_BROKER_OWN_PROCESS") == "1"
REAL_BROKER = bool(os.environ.get("CELERY_BROKER_URL"))
ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.reliability, pytest.mark.django_db]
here = pytest.mark.skipif(
    REAL_BROKER and not OWN_PROCESS,
    reason="with a real broker configured: run in a process of their own (below)",
)


def _own_database(url: str) -> str:
    """The same server, another database (pytest-django makes `test_<name>` of it), so the
    two test runs never share one."""
    base, _, rest = url.rpartition("/")
    name, sep, query = rest.partition("?")
    return f"{base}/{name}_hung{sep}{query}"


@pytest.mark.skipif(not REAL_BROKER or OWN_PROCESS, reason="they run in this process")
def test_the_hung_broker_tests_in_a_process_of_their_own() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL", "CACHE_URL")}
    env["HG_HUNG_BROKER_OWN_PROCESS"] = "1"
    if env.get("DATABASE_URL"):
        env["DATABASE_URL"] = _own_database(env["DATABASE_URL"])
    result = subprocess.run(  # noqa: S603 - our own interpreter and test file
        [sys.executable, "-m", "pytest", str(Path(__file__).relative_to(ROOT)),
         "-p", "no:randomly", "-p", "no:cacheprovider"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    report = result.stdout[-4000:] + result.stderr[-2000:]
    assert result.returncode == 0, report
    assert "2 passed" in result.stdout, report


class HungServer(str):
    """The hung server's URL, and the connections it has accepted so far."""

    accepted: list[socket.socket]


@pytest.fixture
def hung_broker() -> Iterator[HungServer]:
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
    url = HungServer(f"redis://127.0.0.1:{server.getsockname()[1]}/0")
    url.accepted = held
    yield url
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    server.close()


@contextmanager
def patched(owner: Any, name: str, value: Any) -> Iterator[None]:
    saved = getattr(owner, name)
    setattr(owner, name, value)
    try:
        yield
    finally:
        setattr(owner, name, saved)


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


@here
def test_a_final_move_answers_while_the_broker_hangs(
    organiser: Any, hung_broker: HungServer, django_capture_on_commit_callbacks: Any
) -> None:
    with broker_pointed_at(hung_broker):
        _final_move_while_the_broker_hangs(
            organiser, hung_broker, django_capture_on_commit_callbacks
        )


def _final_move_while_the_broker_hangs(
    organiser: Any, hung_broker: HungServer, django_capture_on_commit_callbacks: Any
) -> None:
    t = make_tournament(organiser, make_bots(2), rounds=2)
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament_id=t.pk, by=organiser)
    # The start's own jobs (the players' notices) met the hung broker first and paused the
    # relay; the move is what is measured here, from a relay that tries again.
    outbox.relay_resume()
    pairing = Pairing.objects.get(round__tournament=t, round__number=1)
    publishing: list[float] = []  # how long each try to publish to the broker took
    publish = outbox._publish

    def timed(message: Any) -> None:
        began = time.monotonic()
        try:
            publish(message)
        finally:
            publishing.append(time.monotonic() - began)

    began = time.monotonic()
    with patched(outbox, "_publish", timed), django_capture_on_commit_callbacks(execute=True):
        match_rule(match_id=pairing.match_id, by=organiser, type="forfeit",
                   player=pairing.player1, reason="left")  # fmt: skip
    took = time.monotonic() - began
    # The broker never answered: the job waits in the outbox. The write waited on it only
    # for the relay's own timeout (about a second to connect, one to publish; generous
    # bounds, for a busy machine), never the broker's 30 s.
    assert publishing and max(publishing) < 3 * outbox.RELAY_TIMEOUT + 10, publishing
    assert took < 30, took
    waiting = OutboxMessage.objects.filter(task="tournaments.match_finished", sent_at=None)
    assert waiting.count() == 1
    assert waiting.get().last_error  # why it is still waiting
    # Later writes do not even try while the relay pauses: not one more connection to the
    # hung server (a condition, not a stopwatch: it holds on a busy machine too).
    tried = len(hung_broker.accepted)
    with django_capture_on_commit_callbacks(execute=True):
        outbox.enqueue_in_tx(task="tournaments.results_reconcile", args=())
    assert len(hung_broker.accepted) == tried
    assert _unsent().count() == 2


def _unsent() -> Any:
    """The jobs waiting in the outbox, but the players' notices (queued by every pairing)."""
    return OutboxMessage.objects.filter(sent_at=None).exclude(task="tournaments.notices_send")


@here
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
    assert _unsent().count() == 1  # the hung broker's
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
