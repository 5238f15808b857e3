"""A person erased from the matches (issue 34; tournaments.privacy runs the erasure): the
table entries' notes they wrote or that name them cleared, and the read models, snapshots
and remembered states of the match streams whose texts were erased or redacted rewritten
from the events, which now read without them."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q

import eventstore
from games.models import TableEntry
from games.projections.check import matches_differences
from games.repository import hand_results_forget, match_states_forget
from games.selectors.followed import match_followed_forget

MATCH_PREFIX = "match-"


def match_personal_data_erase_in_tx(
    *, player_id: int, terms: Iterable[str], stream_ids: Iterable[str]
) -> int:
    """In the caller's transaction; returns how many table-entry notes were cleared."""
    notes = Q(entered_by_id=player_id)
    for term in terms:
        notes |= Q(note__icontains=term)
    cleared = TableEntry.objects.filter(notes).exclude(note="").update(note="")
    matches = sorted(s for s in stream_ids if s.startswith(MATCH_PREFIX))
    for stream_id in matches:
        # A snapshot holds the state as folded from the texts then (a disposable cache).
        eventstore.snapshot_delete(stream_id=stream_id)
    if matches:
        matches_differences(stream_ids=matches, fix=True)
    # This process's remembered states hold the old texts too (other processes drop
    # theirs after MATCH_CACHE_IDLE_SECONDS: docs/operators/privacy.md).
    match_states_forget()
    hand_results_forget()
    match_followed_forget()
    return cleared
