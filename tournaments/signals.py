"""Signals of the tournaments app. Sent only after the transaction that caused them commits
(STYLE 6), so a receiver never sees a state that could still roll back."""

from __future__ import annotations

from django.dispatch import Signal

# Sent with tournament_id=<int> once events appended to the tournament's stream committed.
tournament_events_committed = Signal()
