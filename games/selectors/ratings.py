"""What the games say about a match for a club's ratings, read from the match's own events:
how it ended (on the games, by resignation, by forfeit, cancelled, or not at all) and how
many hands ended in it (played or recorded; a voided hand does not count). Other apps use
this through `match_rating_facts` only; which matches are rated is theirs to decide.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

import eventstore
from games.models import Match, MatchHand

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


@dataclass(frozen=True)
class PlayerMatchStats:
    """A player's game statistics over some matches (the hands read model, a projection of
    the match events): hands won, gins, undercuts, the deadwood left when knocking (gins
    included, at 0), games won."""

    matches: int
    hands: int
    hands_won: int
    gins: int
    undercuts: int
    knocks: int
    knock_deadwood_total: int
    games_won: int

    @property
    def average_knock_deadwood(self) -> float | None:
        return self.knock_deadwood_total / self.knocks if self.knocks else None


def player_match_stats(*, player_id: int, match_ids: Iterable[Any]) -> PlayerMatchStats:
    """The statistics of `player_id` over the finished hands of `match_ids` (voided hands
    and hands played after a corrected end do not count)."""
    ids = list(match_ids)
    hands = MatchHand.objects.filter(match_id__in=ids, voided=False, after_end=False).exclude(
        kind__in=[MatchHand.Kind.VOID, MatchHand.Kind.UNFINISHED]
    )
    rows = list(hands.values_list("kind", "knocker_id", "winner_id", "knocker_deadwood"))
    knocks = [r for r in rows if r[1] == player_id and r[0] != MatchHand.Kind.DRAW]
    games = 0
    matches = Match.objects.filter(pk__in=ids).filter(
        Q(player1_id=player_id) | Q(player2_id=player_id)
    )
    for p1, g1, g2 in matches.values_list("player1_id", "games_won_p1", "games_won_p2"):
        games += g1 if p1 == player_id else g2
    return PlayerMatchStats(
        matches=len(ids),
        hands=len(rows),
        hands_won=sum(1 for r in rows if r[2] == player_id),
        gins=sum(1 for r in rows if r[0] == MatchHand.Kind.GIN and r[1] == player_id),
        undercuts=sum(1 for r in rows if r[0] == MatchHand.Kind.UNDERCUT and r[2] == player_id),
        knocks=len(knocks),
        knock_deadwood_total=sum(r[3] or 0 for r in knocks),
        games_won=games,
    )
