"""Read replicas on a real hot standby (issue 36): a writer reads its own writes while the
standby's replay is paused, another reader is served the paused (stale) copy and catches up
once replay resumes, and with the standby stopped the primary answers everything.

Slow: it copies the test cluster with pg_basebackup. Skipped, saying why, when PostgreSQL's
tools are missing or the primary does not allow replication (its configuration is never
changed here); then the last test runs them against a cluster made for them."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connections
from django.test import override_settings
from rest_framework.test import APIClient

from core import replicas
from tests.core.helpers import Cluster, Standby, replication_refused
from tests.helpers import wait_until
from tests.tournaments.helpers import FAST_RULES, make_bots

# replica1 (the standby) is declared a mirror of default: the test's flush leaves it alone.
pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True, databases=["default", "replica1"]),
]


@pytest.fixture(scope="module")
def standby(django_db_setup: Any, django_db_blocker: Any) -> Iterator[Standby]:
    """A hot standby of the cluster, made after the test database exists (so it has it)."""
    primary = connections["default"].settings_dict
    if primary["ENGINE"] != "django.db.backends.postgresql":
        pytest.skip("replicas need PostgreSQL (DATABASE_URL)")
    made = Standby(primary)
    why = made.why_not() or made.create()
    if why:
        made.remove()
        pytest.skip(f"no standby: {why}")
    replica = {**primary, "HOST": "127.0.0.1", "PORT": str(made.port)}
    replica.update(TEST={"MIRROR": "default"}, OPTIONS={"connect_timeout": 2})
    connections.settings["replica1"] = replica
    try:
        yield made
    finally:
        connections["replica1"].close()
        del connections["replica1"]
        del connections.settings["replica1"]
        made.remove()


@pytest.fixture
def with_replica(standby: Standby) -> Iterator[Standby]:
    """`replica1` = the standby, the router and the middleware installed, as
    DATABASE_REPLICA_URL would; checked on every request (no cached health)."""
    middleware = list(settings.MIDDLEWARE)
    middleware.insert(1, "core.replicas.ReplicaReadsMiddleware")
    replicas._states.clear()
    try:
        with override_settings(
            MIDDLEWARE=middleware,
            DATABASE_ROUTERS=["core.replicas.ReplicaRouter"],
            DATABASE_REPLICA_CHECK_SECONDS=0,
            DATABASE_REPLICA_MAX_LAG_SECONDS=120,
        ):
            yield standby
    finally:
        replicas._states.clear()
        if standby.sql("SELECT pg_is_wal_replay_paused()"):
            standby.resume()


def client_of(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def registered(client: APIClient, tid: int) -> int:
    answer = client.get(f"/api/tournaments/{tid}/registrations/")
    assert answer.status_code == 200, answer.content
    return int(answer.json()["count"])


def test_a_writer_reads_its_writes_on_a_paused_standby_and_others_catch_up(
    with_replica: Standby, organiser: Any
) -> None:
    standby = with_replica
    writer, other = client_of(organiser), client_of(organiser)
    created = writer.post(
        "/api/tournaments/",
        {"name": "Replica Swiss", "format": "swiss", "rounds": 2, "ruleset": FAST_RULES},
        format="json",
    )
    assert created.status_code == 201, created.json()
    tid = created.json()["id"]
    position = created[replicas.HEADER]
    assert replicas.lsn_parse(position) is not None
    assert writer.cookies[replicas.COOKIE].value == position
    wait_until("the standby to replay the create", lambda: standby.replayed_past(position))
    assert registered(other, tid) == 0

    standby.pause()
    bot = make_bots(1)[0]
    reg = writer.post(f"/api/tournaments/{tid}/registrations/", {"player": bot.pk}, format="json")
    assert reg.status_code == 201, reg.json()
    assert not standby.replayed_past(reg[replicas.HEADER])
    # The writer (its cookie) is served by the primary; a client without it by the standby,
    # which is stale while paused; the same client, sending the header back, sees it too.
    assert registered(writer, tid) == 1
    assert registered(other, tid) == 0
    other.credentials(HTTP_X_READ_AFTER=reg[replicas.HEADER])
    assert registered(other, tid) == 1
    other.credentials()

    standby.resume()
    wait_until("the standby to catch up", lambda: registered(other, tid) == 1)
    assert registered(writer, tid) == 1  # now from the standby: it has replayed past it

    # The standby stopped: everything still answers, from the primary.
    standby.stop()
    try:
        assert registered(other, tid) == 1
        assert registered(writer, tid) == 1
        second = make_bots(1, prefix="Late")[0]
        late = writer.post(
            f"/api/tournaments/{tid}/registrations/", {"player": second.pk}, format="json"
        )
        assert late.status_code == 201, late.json()
        assert registered(other, tid) == 2
        assert standby.primary  # the standby's own settings are untouched by stopping it
    finally:
        standby.start()


def points_listed(client: APIClient, match_id: str, player: int) -> int:
    """The player's Hollywood points in the match list (a read model: a replica's read)."""
    answer = client.get(f"/api/matches/?player={player}")
    assert answer.status_code == 200, answer.content
    (listed,) = (m for m in answer.json()["results"] if m["id"] == match_id)
    return int(listed["points"].get(str(player), 0))


def test_a_scorer_sees_the_hand_it_recorded_on_a_paused_standby(
    with_replica: Standby, organiser: Any, alice: Any, bob: Any
) -> None:
    standby = with_replica
    scorer, watcher = client_of(organiser), client_of(organiser)
    body = {"player1": alice.id, "player2": bob.id, "mode": "table"}
    match = scorer.post("/api/matches/", body, format="json")
    assert match.status_code == 201, match.json()
    match_id = match.json()["id"]
    wait_until("the standby to replay it", lambda: standby.replayed_past(match[replicas.HEADER]))
    standby.pause()
    entry = {"knocker": alice.id, "gin": False, "knocker_deadwood": 4, "defender_deadwood": 30}
    hand = scorer.post(f"/api/matches/{match_id}/hands/", entry, format="json")
    assert hand.status_code == 201, hand.json()
    # The match view replays the event store, which reads the primary (core/replicas.py).
    assert len(scorer.get(f"/api/matches/{match_id}/").json()["hands"]) == 1
    assert points_listed(scorer, match_id, alice.id) == 26
    assert points_listed(watcher, match_id, alice.id) == 0  # as stale as the pause
    standby.resume()
    wait_until("the watcher to catch up", lambda: points_listed(watcher, match_id, alice.id) == 26)


@pytest.mark.django_db(transaction=False)
def test_on_a_cluster_of_its_own_when_the_test_cluster_refuses_replication() -> None:
    """The tests above need a primary that allows replication. When the test cluster does
    not (Debian's default pg_hba.conf), they run in a child pytest against a cluster made
    for them (initdb on a free port), and must pass there; its configuration is left alone."""
    primary = connections["default"].settings_dict
    if primary["ENGINE"] != "django.db.backends.postgresql":
        pytest.skip("replicas need PostgreSQL (DATABASE_URL)")
    why = Standby(primary).why_not()
    if why:
        pytest.skip(f"no standby: {why}")
    if not replication_refused(primary):
        pytest.skip("the test cluster allows replication: the tests above ran on it")
    cluster = Cluster()
    try:
        cluster.start()
        child = subprocess.run(  # noqa: S603
            [sys.executable, "-m", "pytest", __file__, "-p", "no:cacheprovider", "-rs",
             "-k", "not cluster_of_its_own"],
            env={**os.environ, "DATABASE_URL": cluster.url("hg_standby")},
            cwd=Path(__file__).resolve().parents[2],
            capture_output=True, text=True, timeout=900, check=False,
        )  # fmt: skip
    finally:
        cluster.remove()
    assert child.returncode == 0, child.stdout[-4000:] + child.stderr[-2000:]
    assert "2 passed" in child.stdout and "skipped" not in child.stdout, child.stdout[-2000:]
