"""What a tournament's live stream reads after each commit: the read side's copy of followed
streams (the write repository keeps none of it).

One read per commit is shared by every follower in the process (tournaments.streams). The
process keeps a copy of each followed stream and reads only the events from the copy's head
on, whose hash must still match (a stream rewritten since is read again in full). The
copies are a `core.memo.Memo`: at most FOLLOWED_STREAMS (a club runs one or two at a time;
a long one's stream is some hundreds of events), the least recently followed going first,
and none not followed for settings.MATCH_CACHE_IDLE_SECONDS.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings

import eventstore
from core.errors import NotFoundError
from core.memo import Memo
from eventstore import RecordedEvent
from tournaments.models import Tournament


@dataclass(frozen=True)
class TournamentFollowed:
    """A tournament as its live stream's followers need it after a commit: the row (with
    its club) and the whole stream, read after the row."""

    tournament: Tournament
    events: tuple[RecordedEvent, ...]


def tournament_followed(*, tournament_id: Any) -> TournamentFollowed:
    """The tournament's row and its stream up to the latest commit, for the stream's
    followers (from this process's copy, see the module's doc). NotFoundError if there is
    no such tournament."""
    try:
        row = Tournament.objects.select_related("club").get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFoundError("no such tournament") from exc
    stream_id = row.stream_id
    known = _FOLLOWED.get(stream_id) or ()
    if known:
        head = known[-1]
        events = eventstore.load(stream_id=stream_id, after_version=head.version - 1)
        if events and events[0].version == head.version and events[0].hash == head.hash:
            every = (*known, *events[1:])
        else:
            every = tuple(eventstore.load(stream_id=stream_id))  # rewritten: read anew
    else:
        every = tuple(eventstore.load(stream_id=stream_id))
    _FOLLOWED.put(stream_id, every)
    return TournamentFollowed(tournament=row, events=every)


def tournament_followed_forget() -> None:
    """Forget every followed stream's copy (tests)."""
    _FOLLOWED.clear()


FOLLOWED_STREAMS = 64
_FOLLOWED: Memo[str, tuple[RecordedEvent, ...]] = Memo(
    maxsize=lambda: FOLLOWED_STREAMS, idle=lambda: settings.MATCH_CACHE_IDLE_SECONDS
)
