"""Issue 33: superseded snapshots (an older state shape) are skipped by `verify_events
--deep`, which says how many and why and exits 0 when only those were skipped;
`manage.py prune_snapshots` deletes them; a snapshot that is not the replay's still fails.
Migration eventstore 0004 purges the unsealed snapshots of before seals."""

from __future__ import annotations

import importlib
import io

import pytest
from django.apps import apps as global_apps
from django.core.management import CommandError, call_command

import eventstore
from eventstore.models import Snapshot
from games.repository import SNAPSHOT_KIND
from tests.factories import MatchFactory

pytestmark = pytest.mark.django_db


def run(*args: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command(*args, stdout=out, stderr=err, verbosity=0)
    except CommandError as exc:
        return exc.returncode, out.getvalue() + err.getvalue() + str(exc)
    return 0, out.getvalue() + err.getvalue()


@pytest.fixture
def older_shapes():
    """A match with two superseded snapshots: its latest one written again without a key
    the state has gained since (as 46cbc18's lacked `disputes`), and one of an older kind."""
    match = MatchFactory()
    latest = Snapshot.objects.filter(stream_id=match.stream_id, kind=SNAPSHOT_KIND).latest(
        "version"
    )
    older = {k: v for k, v in latest.state.items() if k != "disputes"}
    assert older != latest.state
    eventstore.snapshot_save(
        stream_id=match.stream_id, version=latest.version, state=older, kind=SNAPSHOT_KIND
    )
    eventstore.snapshot_save(
        stream_id=match.stream_id, version=latest.version, state={"old": 1}, kind="match-state-v0"
    )
    return match, latest.version


def test_deep_verification_skips_superseded_snapshots_says_so_and_passes(older_shapes):
    code, output = run("verify_events", "--deep")
    assert code == 0, output
    assert "SKIPPED 1 snapshots, superseded: an older shape of the state" in output
    assert "SKIPPED 1 snapshots, superseded: of an older kind (match-state-v0)" in output
    assert "skipped 2 superseded snapshots" in output


def test_a_snapshot_that_is_not_the_replay_s_still_fails(older_shapes):
    match, version = older_shapes
    state = Snapshot.objects.get(stream_id=match.stream_id, kind=SNAPSHOT_KIND, version=version)
    hands = state.state["hands"]
    changed = {**state.state, "hands": [hands[1], hands[0]]}  # the cards dealt swapped
    eventstore.snapshot_save(
        stream_id=match.stream_id, version=version, state=changed, kind=SNAPSHOT_KIND
    )
    code, output = run("verify_events", "--deep")
    assert code == 1
    assert "its state is not the replay's" in output


def test_prune_snapshots_deletes_the_superseded_ones_only(older_shapes):
    match, version = older_shapes
    before = Snapshot.objects.count()
    assert "2 superseded snapshots (dry run" in run("prune_snapshots", "--dry-run")[1]
    assert Snapshot.objects.count() == before
    assert "deleted 2 superseded snapshots" in run("prune_snapshots")[1]
    assert Snapshot.objects.count() == before - 2
    assert not Snapshot.objects.filter(kind="match-state-v0").exists()
    assert run("verify_events", "--deep")[1].count("skipped 0 snapshots") == 1


def test_the_migration_purges_the_unsealed_snapshots_of_before_seals():
    match = MatchFactory()
    Snapshot.objects.filter(stream_id=match.stream_id).update(seal=None)  # as before seals
    eventstore.snapshot_save(stream_id="other", version=0, state={}, kind="k")
    sealed = Snapshot.objects.filter(seal__isnull=False).count()
    migration = importlib.import_module("eventstore.migrations.0004_purge_unsealed_snapshots")
    migration.purge_unsealed(global_apps, None)
    assert not Snapshot.objects.filter(seal__isnull=True).exists()
    assert Snapshot.objects.count() == sealed
