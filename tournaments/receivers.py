"""Reactions to other apps' signals. A receiver only queues a job; the logic is in services."""

from __future__ import annotations

from typing import Any


def on_match_finished(sender: Any, match_id: Any, **kwargs: Any) -> None:
    """games.signals.match_finished (sent after the match's commit): record the result."""
    from games.selectors import match_outcomes
    from tournaments import jobs
    from tournaments.models import Pairing

    # A cancelled match (its round re-paired) has no result to record, and its pairing
    # has been replaced anyway.
    if not Pairing.objects.filter(match_id=match_id).exists():
        return  # a friendly match, not part of any tournament
    outcome = match_outcomes(match_ids=[match_id]).get(str(match_id))
    if outcome is None or outcome.finish_reason == "cancelled":
        return  # cancelled by a re-pairing: its pairing has been replaced anyway
    jobs.match_finished_on_commit(match_id=match_id)


def on_match_reopened(sender: Any, match_id: Any, **kwargs: Any) -> None:
    """games.signals.match_reopened (after commit): the match's result no longer stands."""
    from tournaments import jobs
    from tournaments.models import Pairing

    if Pairing.objects.filter(match_id=match_id).exists():
        jobs.match_reopened_on_commit(match_id=match_id)


def on_dispute_opening(
    sender: Any, match_id: Any, finished_at: Any, at: Any, **kwargs: Any
) -> None:
    """games.signals.dispute_opening (inside the dispute's transaction): a tournament with
    a dispute window refuses a dispute opened later than that after the match ended."""
    if finished_at is None:
        return  # in play (or back in play after a correction): no time limit yet
    from tournaments.selectors import match_dispute_window

    window = match_dispute_window(match_id=match_id)
    if window is not None and at > finished_at + window:
        from games.errors import DisputeWindowClosedError

        raise DisputeWindowClosedError(
            f"disputes on this match had to be opened within {window} of its end"
            f" ({finished_at.isoformat().replace('+00:00', 'Z')})",
            extra={
                "finished_at": finished_at.isoformat().replace("+00:00", "Z"),
                "window": window.total_seconds(),
            },
        )


def on_match_result_changing(sender: Any, match_id: Any, winner_before: Any, **kwargs: Any) -> None:
    """games.signals.match_result_changing: in a knockout, the winner of this match plays
    on; while that next match is in play its players cannot change under it."""
    from tournaments.selectors import knockout_dependent_match_in_play

    dependent = knockout_dependent_match_in_play(match_id=match_id, winner=winner_before)
    if dependent is not None:
        from core.errors import ConflictError

        round_number, table, dependent_id = dependent
        raise ConflictError(
            f"the winner of this match plays round {round_number}, table {table} (match"
            f" {dependent_id}), which is in play: cancel or finish that match first",
            code="dependent_match_in_play",
            extra={"match": str(dependent_id), "round": round_number, "table": table},
        )
