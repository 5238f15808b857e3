"""Stored events cannot be changed or deleted: not by the model, not by its queryset, not
by raw SQL (database triggers); the admin is read-only."""

import pytest
from django.db import DatabaseError, connection, transaction

import eventstore
from eventstore import ImmutableEventError, NewEvent
from eventstore.models import StoredEvent

pytestmark = pytest.mark.django_db


def raw(sql: str) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql)


@pytest.fixture
def stored() -> StoredEvent:
    eventstore.append(stream_id="match-x", expected_version=0, events=[NewEvent("A", {"n": 1})] * 2)
    return StoredEvent.objects.get(stream_id="match-x", version=1)


def test_model_refuses_save_on_existing_and_delete(stored):
    stored.data = {"n": 2}
    with pytest.raises(ImmutableEventError):
        stored.save()
    with pytest.raises(ImmutableEventError):
        stored.delete()
    assert StoredEvent.objects.get(pk=stored.pk).data == {"n": 1}


@pytest.mark.parametrize(
    "change",
    [
        lambda qs: qs.update(type="B"),
        lambda qs: qs.delete(),
        lambda qs: qs.bulk_update(list(qs), ["type"]),
        lambda qs: qs.update_or_create(position=1, defaults={"type": "B"}),
    ],
)
def test_queryset_refuses_update_and_delete(stored, change):
    with pytest.raises(ImmutableEventError):
        change(StoredEvent.objects.filter(stream_id="match-x"))
    assert list(StoredEvent.objects.values_list("type", flat=True)) == ["A", "A"]


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE eventstore_event SET type = 'B' WHERE stream_id = 'match-x'",
        "UPDATE eventstore_event SET hash = 'x'",
        "DELETE FROM eventstore_event WHERE version = 2",
        "DELETE FROM eventstore_event",
    ],
)
def test_database_refuses_raw_update_and_delete(stored, sql):
    with pytest.raises(DatabaseError, match="append-only"):
        raw(sql)
    assert list(StoredEvent.objects.values_list("type", "version")) == [("A", 1), ("A", 2)]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="TRUNCATE is PostgreSQL's")
def test_database_refuses_truncate(stored):
    with pytest.raises(DatabaseError, match="append-only"):
        raw("TRUNCATE eventstore_event")
    assert StoredEvent.objects.count() == 2


def test_inserting_new_events_still_works_under_the_triggers(stored):
    eventstore.append(stream_id="match-x", expected_version=2, events=[NewEvent("C", {})])
    assert eventstore.stream_version(stream_id="match-x") == 3


def test_suspension_is_undone_after_the_block(stored):
    with eventstore.immutability_suspended(), connection.cursor() as cursor:
        cursor.execute("UPDATE eventstore_event SET type = 'B' WHERE version = 2")
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE eventstore_event SET type = 'C' WHERE version = 2")
    assert StoredEvent.objects.get(version=2).type == "B"


def test_suspension_is_rolled_back_with_an_error(stored):
    with pytest.raises(RuntimeError), eventstore.immutability_suspended():
        with connection.cursor() as cursor:
            cursor.execute("UPDATE eventstore_event SET type = 'B' WHERE version = 2")
        raise RuntimeError("boom")
    assert StoredEvent.objects.get(version=2).type == "A"
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM eventstore_event")


def test_admin_is_read_only(admin_client, stored):
    changelist = admin_client.get("/admin/eventstore/storedevent/?stream=match-x&type=A")
    assert changelist.status_code == 200
    assert b"match-x" in changelist.content
    assert admin_client.get("/admin/eventstore/storedevent/add/").status_code == 403
    detail = admin_client.get(f"/admin/eventstore/storedevent/{stored.pk}/change/")
    assert detail.status_code == 200
    assert b'name="_save"' not in detail.content
    delete = admin_client.post(
        f"/admin/eventstore/storedevent/{stored.pk}/delete/", {"post": "yes"}
    )
    assert delete.status_code == 403
    assert StoredEvent.objects.count() == 2
