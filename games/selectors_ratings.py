"""What the games say about a match for a club's ratings, read from the match's own events:
how it ended (on the games, by resignation, by forfeit, cancelled, or not at all) and how
many hands ended in it (played or recorded; a voided hand does not count). Other apps use
this through `match_rating_facts` only; which matches are rated is theirs to decide.

(A module of its own beside `games.selectors` so that the selectors can be split into a
package without touching it: it becomes `games/selectors/ratings.py`.)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import eventstore

# The match events this fold reads (the store's type index finds them without the rest).
_TYPES = [
    "HandScored",
    "HandDrawn",
    "HandRecorded",
    "HandVoided",
    "MatchFinished",
    "MatchReopened",
    "MatchCancelled",
]
_CHUNK = 2000


@dataclass(frozen=True)
class MatchRatingFacts:
    match_id: str
    finish_reason: str  # "games" | "resigned" | "forfeit" | "cancelled" | "" (in play)
    hands_ended: int


def _fold(match_id: str, events: Iterable[eventstore.RecordedEvent]) -> MatchRatingFacts:
    ended: set[int] = set()
    reason = ""
    for event in events:
        data = event.data
        match event.type:
            case "HandScored" | "HandDrawn" | "HandRecorded":
                ended.add(data["hand_number"])
            case "HandVoided":
                ended.discard(data["hand_number"])  # a past hand voided (or the one in play)
            case "MatchFinished":
                reason = data["reason"]
            case "MatchReopened":
                reason = ""
            case "MatchCancelled":
                reason = "cancelled"
    return MatchRatingFacts(match_id, reason, len(ended))


def match_rating_facts(*, match_ids: Iterable[str]) -> dict[str, MatchRatingFacts]:
    """The facts of each of `match_ids` (by id, as a string), from its events alone (a match
    without such events: no finish reason, no hand)."""
    ids = [str(m) for m in match_ids]
    out: dict[str, MatchRatingFacts] = {}
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start : start + _CHUNK]
        by_stream: dict[str, list[eventstore.RecordedEvent]] = {f"match-{m}": [] for m in chunk}
        for event in eventstore.load_of_types(stream_ids=list(by_stream), types=_TYPES):
            by_stream[event.stream_id].append(event)
        for stream_id, events in by_stream.items():
            match_id = stream_id.removeprefix("match-")
            out[match_id] = _fold(match_id, events)
    return out
