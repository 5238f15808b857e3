"""Issue 26.3: outside anchors are routine. Every webhook delivery carries signed
checkpoints of the tournament's stream (at the delivered event) and of its finished
matches' heads; the public page shows them. A stream cut short with its checkpoints
deleted (which `verify_events` alone no longer sees) no longer matches the anchors a
receiver kept, and `verify_events --receipts` says which anchors it checked against."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

import eventstore
from eventstore.models import Checkpoint
from tests.tournaments.helpers import make_bots, record_gins, table_tournament
from tests.tournaments.webhooks.helpers import Receiver, receiving
from tournaments.models import Pairing, Tournament
from tournaments.webhooks import services as webhooks

pytestmark = pytest.mark.django_db


def verify_events(*args: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("verify_events", *args, stdout=out, stderr=err, verbosity=0)
    except CommandError as exc:
        return exc.returncode, err.getvalue() + out.getvalue()
    return 0, err.getvalue() + out.getvalue()


@pytest.fixture
def jobs(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def receiver(settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    settings.WEBHOOK_TIMEOUT_SECONDS = 5.0
    with receiving(Receiver()) as served:
        yield served


@pytest.fixture
def evening(organiser, jobs, receiver):
    """A public tournament at tables with a webhook: round 1 played at table 1 only."""
    players = make_bots(4, prefix="A")
    t = table_tournament(organiser, players, start=False, is_public=True)
    written = webhooks.webhook_create(tournament_id=t.pk, by=organiser, url=receiver.url)
    receiver.secret = written.secret
    with jobs():
        from tournaments import services

        services.tournament_start(tournament_id=t.pk, by=organiser)
    first = Pairing.objects.get(round__tournament=t, round__number=1, table=1)
    with jobs():
        record_gins(first.match_id, organiser, first.player1)
    t.refresh_from_db()
    return t, first


def _bodies(receiver: Receiver) -> list[dict]:
    return sorted(
        (got[0].body for got in receiver.by_event().values()), key=lambda b: b["position"]
    )


def test_each_delivery_carries_signed_anchors(evening, receiver):
    t, first = evening
    bodies = _bodies(receiver)
    assert bodies and all(got.signed for gots in receiver.by_event().values() for got in gots)
    for body in bodies:
        own = body["anchors"]["tournament"]
        assert own["stream_id"] == t.stream_id and own["version"] == body["position"]
        assert eventstore.checkpoint_valid(
            stream_id=own["stream_id"], version=own["version"], hash=own["hash"],
            signature=own["signature"],
        )  # fmt: skip
    # The result of the finished match comes with that match's head; the match still in
    # play (table 2) is never anchored (its head hash would help guess a draw).
    last = bodies[-1]
    assert last["type"] == "ResultRecorded"
    anchored = {a["stream_id"] for a in last["anchors"]["matches"]}
    assert anchored == {f"match-{first.match_id}"}
    head = eventstore.stream_version(stream_id=f"match-{first.match_id}")
    assert last["anchors"]["matches"][0]["version"] == head


def test_a_cut_with_its_checkpoints_deleted_is_named_by_the_kept_anchors(
    evening, receiver, tmp_path
):
    t, _ = evening
    kept = tmp_path / "webhooks.json"
    kept.write_text(json.dumps(_bodies(receiver)))
    code, text = verify_events("--receipts", str(kept))
    assert code == 0, text
    assert f"ANCHOR stream {t.stream_id} version {t.version} signed at" in text
    assert "matches" in text and "checked against" in text
    # The owner of the database cuts the tournament's last event, its checkpoints and the
    # row's version with it: the store alone verifies.
    with eventstore.immutability_suspended(), connection.cursor() as cursor:
        cursor.execute(
            "DELETE FROM eventstore_event WHERE stream_id = %s AND version = %s",
            [t.stream_id, t.version],
        )
    Checkpoint.objects.filter(stream_id=t.stream_id).delete()
    Tournament.objects.filter(pk=t.pk).update(version=t.version - 1)
    assert verify_events()[0] == 0
    code, text = verify_events("--receipts", str(kept))
    assert code == 1
    assert f"RECEIPT MISMATCH stream {t.stream_id} at version {t.version}" in text
    assert f"ANCHOR stream {t.stream_id} version {t.version} signed at" in text
    assert "MISMATCH" in text.split(f"ANCHOR stream {t.stream_id} version {t.version}")[1]


def test_the_public_page_shows_the_anchors(evening, client, tmp_path):
    t, first = evening
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert 'id="anchors"' in page
    head = eventstore.heads_sign(stream_ids=[t.stream_id])[0]
    assert head["hash"][:16] in page
    assert f"/matches/{first.match_id}/" in page
    # The JSON on the page is what the verifier reads.
    start = page.index("<pre")
    text = page[page.index(">", start) + 1 : page.index("</pre>", start)]
    import html

    saved = tmp_path / "page.json"
    saved.write_text(html.unescape(text))
    code, out = verify_events("--receipts", str(saved))
    assert code == 0 and "checked against 2 anchors" in out, out
