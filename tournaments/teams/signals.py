"""Signals of team events. Sent only after the transaction that caused them commits
(STYLE 6), so a receiver never sees a state that could still roll back."""

from __future__ import annotations

from django.dispatch import Signal

# Sent with event_id=<int> once events appended to the team event's stream committed.
team_event_events_committed = Signal()
