"""Signals other apps listen to. Sent only after the transaction that caused them commits
(STYLE 6), so a receiver never sees a state that could still roll back."""

from __future__ import annotations

from django.dispatch import Signal

# Sent with match_id=<UUID> once a match's MatchFinished event has been committed.
match_finished = Signal()

# Sent with match_id=<UUID> once a correction that put a finished match back in play (its
# MatchReopened event) has been committed: its result no longer stands.
match_reopened = Signal()

# Sent INSIDE the transaction of a ruling that would change a finished match's winner (or
# put it back in play), with match_id, winner_before and winner_after (player ids; None for
# no winner): a receiver refuses the change by raising a domain error (core.errors), which
# rolls the ruling back. Receivers must not write.
match_result_changing = Signal()

# Sent INSIDE the transaction of a player opening a dispute, with match_id, finished_at
# (when the match ended; None while it is in play) and at (now): a receiver refuses it by
# raising a domain error, e.g. games.errors.DisputeWindowClosedError when the tournament's
# time limit for disputes has passed. Receivers must not write.
dispute_opening = Signal()
