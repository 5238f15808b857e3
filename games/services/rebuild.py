"""The match read models written again from their events, saying what differed."""

from __future__ import annotations

from core.drift import RowDifference
from games.projections.check import matches_differences


def match_read_models_rebuild(*, stream_ids: list[str] | None = None) -> list[RowDifference]:
    """Rebuild every match's read models (or those of `stream_ids`) from the events; each
    difference the rebuild put right."""
    return matches_differences(stream_ids=stream_ids, fix=True)
