"""The match read models against a replay of their events (`manage.py verify_projections`):
the match row (its summary: state, winner, version, ...), the games of its scoresheet and
its hand rows, each difference named by table, row and field (core.drift)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import eventstore
from core.drift import RowDifference, pictures_differences
from games.models import Match, MatchHand
from games.projections.hands import HAND_FIELDS
from games.projections.rebuild import STREAM_PREFIX, streams_rebuild
from games.projections.summary import SUMMARY_FIELDS

_FIRST_EVENT = "MatchStarted"
MATCH_TABLE = Match._meta.db_table
SCORESHEET = f"{MATCH_TABLE}.scoresheet"  # the games of the match row's scoresheet
HAND_TABLE = MatchHand._meta.db_table
_ROW_FIELDS = [f if f not in ("turn_player", "winner") else f + "_id" for f in SUMMARY_FIELDS]


def _match_record(match: Match) -> dict[str, Any]:
    record = {f: getattr(match, f) for f in _ROW_FIELDS if f != "scoresheet"}
    sheet = match.scoresheet or {}
    record["scoresheet games_won"] = sheet.get("games_won")
    record["scoresheet totals"] = sheet.get("totals")
    record["scoresheet games"] = len(sheet.get("games") or [])
    return record


def _pictures(stream_ids: list[str]) -> dict[str, dict[Any, dict[str, Any]]]:
    matches = list(Match.objects.filter(stream_id__in=stream_ids).order_by("pk"))
    hands = MatchHand.objects.filter(match__in=[m.pk for m in matches]).order_by(
        "match_id", "hand_number"
    )
    return {
        MATCH_TABLE: {str(m.pk): _match_record(m) for m in matches},
        SCORESHEET: {
            (str(m.pk), n): {k: v for k, v in game.items() if k != "game"}
            for m in matches
            for n, game in enumerate((m.scoresheet or {}).get("games") or [], 1)
        },
        HAND_TABLE: {
            (str(h.match_id), h.hand_number): {f: getattr(h, f) for f in HAND_FIELDS} for h in hands
        },
    }


_KEY_NAMES = {
    MATCH_TABLE: lambda key: f"match {key}",
    SCORESHEET: lambda key: f"match {key[0]} game {key[1]}",
    HAND_TABLE: lambda key: f"match {key[0]} hand {key[1]}",
}


def match_stream_ids() -> list[str]:
    """Every match stream: those of the match rows and those the store holds (a row that
    was deleted has its stream still)."""
    rows = set(Match.objects.values_list("stream_id", flat=True))
    stored = eventstore.streams_with_type(type=_FIRST_EVENT).values_list("stream_id", flat=True)
    return sorted(rows | {s for s in stored if s.startswith(STREAM_PREFIX)})


def matches_differences(
    *, stream_ids: Iterable[str] | None = None, fix: bool = False, chunk: int = 200
) -> list[RowDifference]:
    """Each difference between the match read models and a rebuild from their events
    (rolled back unless `fix`), a chunk of matches at a time."""
    streams = sorted(stream_ids) if stream_ids is not None else match_stream_ids()
    out: list[RowDifference] = []
    for start in range(0, len(streams), chunk):
        part = streams[start : start + chunk]
        out += pictures_differences(
            lambda part=part: _pictures(part),
            lambda part=part: streams_rebuild(stream_ids=part, newer_too=True),
            fix=fix,
            key_names=_KEY_NAMES,
        )
    return out
