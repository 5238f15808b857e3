"""Reading: one stream's events (`load`), every stream's in the global order (`read_all`),
the checkpoints of the followers of that order, and counts by stream or type."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, F, Max, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_noop

from eventstore._shared import READ_FIELDS, read_pg, read_rows, stream_head
from eventstore.errors import InvalidEventError
from eventstore.models import StoredEvent, Subscription
from eventstore.records import RecordedEvent

# --- reading -------------------------------------------------------------------------------


def stream_version(*, stream_id: str) -> int:
    """The stream's latest version; 0 when the stream has no events."""
    return stream_head(stream_id)[0]


def stream_version_expression(stream_id: Any) -> Coalesce:
    """A stream's latest version (0 when it has no events) as a query expression, for a
    query of another table whose rows name a stream: `stream_id` is usually
    `OuterRef("stream_id")`."""
    last = StoredEvent.objects.filter(stream_id=stream_id).order_by("-version")
    return Coalesce(Subquery(last.values("version")[:1]), 0)


def load(
    *, stream_id: str, after_version: int = 0, up_to_version: int | None = None
) -> list[RecordedEvent]:
    """The stream's events after `after_version` (up to `up_to_version`), upcast, in order."""
    if connection.vendor == "postgresql":
        where, params = "stream_id = %s AND version > %s", [stream_id, after_version]
        if up_to_version is not None:
            where, params = where + " AND version <= %s", [*params, up_to_version]
        return read_pg(f"{where} ORDER BY version", params)
    rows = StoredEvent.objects.filter(stream_id=stream_id, version__gt=after_version)
    if up_to_version is not None:
        rows = rows.filter(version__lte=up_to_version)
    return read_rows(rows.order_by("version"))


def load_of_types(*, stream_ids: list[str], types: list[str]) -> list[RecordedEvent]:
    """The events of these types in these streams, upcast, by stream then version: a few
    kinds of event of many streams without reading the rest of them (the type index)."""
    if not stream_ids or not types:
        return []
    rows = StoredEvent.objects.filter(stream_id__in=list(stream_ids), type__in=list(types))
    return read_rows(rows.order_by("stream_id", "version"))


def read_all(*, after_position: int, limit: int = 1000) -> list[RecordedEvent]:
    """Events of every stream after the event at `after_position` (0: from the start), in
    global order, upcast. A follower checkpoints the position of the last event it got.

    Gap-safe without a global lock. On PostgreSQL the global order is (tx_id, position):
    the writing transaction's id, then the position. A position is taken when a row is
    inserted but only becomes visible at commit, so positions alone appear out of order;
    instead only events of transactions older than every transaction still running are
    handed out. Such a transaction has ended, and any transaction that commits later has
    a larger id than all of them, so nothing can ever appear before a checkpoint. (The
    reader's own transaction counts as ended for its own events, and transactions of
    other databases on the same server are not waited for.) A long transaction that has
    written to this database holds followers back until it ends. On SQLite writers are
    serialised until commit, so the position is the order.
    """
    if connection.vendor == "postgresql":
        after_tx = _tx_of(after_position)
        with connection.cursor() as cursor:
            # pg_stat_activity is cached per transaction; the horizon needs it fresh.
            cursor.execute("SELECT pg_stat_clear_snapshot()")
        return read_pg(_PG_READ_ALL, [after_tx, after_position, limit])
    rows = StoredEvent.objects.filter(position__gt=after_position).order_by("position")
    return read_rows(rows[:limit])


def _tx_of(position: int) -> int:
    """The tx_id of the event at `position` (0 for position 0): half of a checkpoint."""
    if position == 0:
        return 0
    found = StoredEvent.objects.filter(position=position).values_list("tx_id", flat=True)
    if not found:
        raise InvalidEventError(
            gettext_noop("No stored event at position %(position)s."), position=position
        )
    return found[0] or 0


def _global_order_key(position: int) -> tuple[int, int]:
    if connection.vendor != "postgresql":
        return (0, position)
    return (_tx_of(position), position)


# The horizon H: the oldest transaction of this database that may still be running when
# the statement's snapshot was taken: the least of the snapshot's in-progress ids (less
# those of backends known to be connected to another database; an id whose database is
# unknown counts), else the snapshot's xmax (no id from xmax on had ended). Every id below
# H has ended. A visible event with tx_id = H can only be the reader's own transaction's
# (the snapshot leaves it out of the in-progress ids), and it may then be handed out too:
# nothing can appear before it. pg_stat_activity shows 32-bit xids, hence the modulo.
_PG_HORIZON = (
    "(SELECT COALESCE(min(x::text::bigint),"
    " pg_snapshot_xmax(pg_current_snapshot())::text::bigint)"
    " FROM pg_snapshot_xip(pg_current_snapshot()) AS x"
    " WHERE x::text::bigint %% 4294967296 NOT IN (SELECT a.backend_xid::text::bigint"
    " FROM pg_stat_activity AS a WHERE a.backend_xid IS NOT NULL"
    " AND a.datid <> (SELECT oid FROM pg_database WHERE datname = current_database())))"
)
_PG_READ_ALL = (
    "tx_id IS NOT NULL AND (tx_id, position) > (%s, %s) AND tx_id <= "
    + _PG_HORIZON
    + " ORDER BY tx_id, position LIMIT %s"
)


def subscription_position(*, name: str) -> int:
    """The last global position the follower `name` has processed (0 if none)."""
    found = Subscription.objects.filter(name=name).values_list("position", flat=True).first()
    return found or 0


def subscription_advance(*, name: str, position: int) -> None:
    """Move the follower's checkpoint forward to the event at `position` (never backwards
    in the global order of `read_all`, which is not the order of positions)."""
    with transaction.atomic():
        sub, created = Subscription.objects.select_for_update().get_or_create(
            name=name, defaults={"position": position}
        )
        if not created and _global_order_key(position) > _global_order_key(sub.position):
            sub.position = position
            sub.save(update_fields=["position", "updated_at"])


def streams_as_stored(*, stream_ids: list[str], chunk_size: int = 2000) -> Iterator[RecordedEvent]:
    """Every event of these streams exactly as stored (no upcasting, so each hash still
    matches its data), in the store's global order: writing transaction, then position
    (position alone on SQLite). Read in chunks, never all at once: for exports."""
    rows = (
        StoredEvent.objects.filter(stream_id__in=stream_ids)
        .order_by("tx_id", "position")
        .values_list(*READ_FIELDS)
    )
    for row in rows.iterator(chunk_size=chunk_size):
        yield RecordedEvent(*row)


def stream_heads(*, stream_ids: list[str]) -> dict[str, int]:
    """stream id -> its last version, for those of `stream_ids` that hold any event."""
    return dict(
        StoredEvent.objects.filter(stream_id__in=stream_ids)
        .values("stream_id")
        .annotate(head=Max("version"))
        .values_list("stream_id", "head")
    )


def first_metadata(*, stream_ids: list[str]) -> list[dict]:
    """The metadata of each stream's first event (a match's registration lives there)."""
    rows = StoredEvent.objects.filter(stream_id__in=stream_ids, version=1)
    return [m or {} for m in rows.values_list("metadata", flat=True)]


def event_count(*, stream_id: str | None = None) -> int:
    """How many events the store holds (in one stream, with `stream_id`)."""
    events = StoredEvent.objects.all()
    if stream_id is not None:
        events = events.filter(stream_id=stream_id)
    return events.count()


def streams_with_type(*, type: str, more_than: str | None = None) -> QuerySet:  # noqa: A002
    """The ids of the streams holding an event of `type` (with `more_than`: more events of
    `type` than of `more_than`), as a subquery for another table's rows that name a stream:
    `Match.objects.filter(stream_id__in=streams_with_type(type="DisputeOpened"))`. One
    look-up by the type index, grouped by stream when counting."""
    if more_than is None:
        return StoredEvent.objects.filter(type=type).values("stream_id")
    counts = (
        StoredEvent.objects.filter(type__in=(type, more_than))
        .values("stream_id")
        .annotate(
            of_type=Count("pk", filter=Q(type=type)), of_other=Count("pk", filter=Q(type=more_than))
        )
    )
    return counts.filter(of_type__gt=F("of_other")).values("stream_id")
