"""The games app's announcements that tell a tournament match's players something
(issue 40). A receiver only queues a job (tournaments.notices.services does the rest)."""

from __future__ import annotations

from typing import Any

from games.selectors.table_entries import EntryStatus
from tournaments import jobs
from tournaments.models import Pairing
from tournaments.notices.services import CASE_RULED, CONFIRM, ENTRY_RULED, ENTRY_RULINGS


def _in_a_tournament(match_id: Any) -> bool:
    return Pairing.objects.filter(match_id=match_id).exists()


def on_table_entry_changed(
    sender: Any, match_id: Any, entry_id: int, status: str, before: str, **kwargs: Any
) -> None:
    """games.signals.table_entry_changed: a new entry waits for the opponent; a disputed
    one was settled by an organiser."""
    if status == EntryStatus.PENDING and not before:
        what = CONFIRM
    elif before == EntryStatus.DISPUTED and status in ENTRY_RULINGS:
        what = ENTRY_RULED
    else:
        return
    if _in_a_tournament(match_id):
        jobs.match_notices_on_commit(match_id=match_id, what=what, ref=entry_id)


def on_dispute_resolved(sender: Any, match_id: Any, version: int, **kwargs: Any) -> None:
    """games.signals.dispute_resolved: a dispute case was ruled on or dismissed."""
    if _in_a_tournament(match_id):
        jobs.match_notices_on_commit(match_id=match_id, what=CASE_RULED, ref=version)
