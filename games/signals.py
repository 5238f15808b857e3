"""Signals other apps listen to. They only announce what has committed: each is sent after
the transaction that caused it commits (STYLE 6), so a receiver never sees a state that
could still roll back, and no receiver can refuse anything. What another app decides
about a match (may its result change, may a dispute open, who may see it) is asked of the
MatchPolicy (games/policy.py), never of a signal."""

from __future__ import annotations

from django.dispatch import Signal

# Sent with match_id=<UUID> once a match's MatchFinished event has been committed.
match_finished = Signal()

# Sent with match_id=<UUID> once a correction that put a finished match back in play (its
# MatchReopened event) has been committed: its result no longer stands.
match_reopened = Signal()

# Sent with match_id=<UUID>, entry_id=<int>, status=<the entry's new status> and
# before=<its status before, "" for a new entry> once a change to a hand entered at the
# table (games.services.table_entries) has been committed.
table_entry_changed = Signal()

# Sent with match_id=<UUID> and version=<the DisputeResolved event's stream version> once a
# dispute case's resolution (a ruling or a dismissal) has been committed.
dispute_resolved = Signal()
