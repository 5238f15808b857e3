"""Streams cut short: a stream whose last events were deleted leaves a valid hash chain
behind, which only a version recorded elsewhere gives away (a read model's, a signed
checkpoint's). Apps that keep a stream's version in a read model register a function
giving (stream id, recorded version) pairs; the store compares them with the heads."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.db.models import Max

from eventstore.models import StoredEvent

RecordedHeads = Callable[..., Iterable[tuple[str, int]]]
_recorded_heads: dict[str, RecordedHeads] = {}


def recorded_heads_register(name: str, heads: RecordedHeads) -> None:
    """Register `heads(stream_id=None | id)`: (stream id, version its read model holds)."""
    _recorded_heads[name] = heads


def streams_cut_short(*, stream_id: str | None = None) -> list[tuple[str, int, int]]:
    """(stream id, last stored version, version recorded elsewhere) of every registered
    stream (or of the one) whose stored events end before the recorded version."""
    recorded: dict[str, int] = {}
    for heads in _recorded_heads.values():
        for sid, version in heads(stream_id=stream_id):
            recorded[sid] = max(version, recorded.get(sid, 0))
    if not recorded:
        return []
    stored = StoredEvent.objects.values("stream_id").annotate(head=Max("version"))
    if stream_id is not None or len(recorded) < 1000:
        stored = stored.filter(stream_id__in=list(recorded))
    heads_now = {row["stream_id"]: row["head"] for row in stored}
    found = [
        (sid, heads_now.get(sid, 0), version)
        for sid, version in recorded.items()
        if heads_now.get(sid, 0) < version
    ]
    return sorted(found)
