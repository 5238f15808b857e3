"""Signals other apps listen to. Sent only after the transaction that caused them commits
(STYLE 6), so a receiver never sees a state that could still roll back."""

from __future__ import annotations

from django.dispatch import Signal

# Sent with match_id=<UUID> once a match's MatchFinished event has been committed.
match_finished = Signal()

# Sent with match_id=<UUID> once a correction that put a finished match back in play (its
# MatchReopened event) has been committed: its result no longer stands.
match_reopened = Signal()
