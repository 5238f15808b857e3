"""What tournaments decide about their matches: the games' `MatchPolicy` (games/policy.py),
named by the setting GAMES_MATCH_POLICY (config/settings/base.py). Reads only; a refusal
is a domain error, which rolls back the match's command."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_noop

from core.errors import ConflictError
from games.errors import DisputeWindowClosedError
from games.policy import MatchPolicy
from tournaments.selectors import (
    knockout_dependent_match_in_play,
    match_dispute_window,
    match_in_public_tournament,
    matches_hidden_from,
)


def _iso(at: dt.datetime) -> str:
    return at.isoformat().replace("+00:00", "Z")


class TournamentMatchPolicy(MatchPolicy):
    """A knockout's result stands while the winner's next match is in play; a tournament's
    dispute window closes disputes; a private tournament's matches are hidden from who may
    not see it; a public tournament's are for anyone to read."""

    def check_result_change(
        self, *, match_id: Any, winner_before: int | None, winner_after: int | None
    ) -> None:
        """In a knockout the winner of this match plays on; while that next match is in
        play its players cannot change under it."""
        dependent = knockout_dependent_match_in_play(match_id=match_id, winner=winner_before)
        if dependent is None:
            return
        round_number, table, dependent_id = dependent
        raise ConflictError(
            gettext_noop(
                "the winner of this match plays round %(round)s, table %(table)s (match"
                " %(match)s), which is in play: cancel or finish that match first"
            ),
            code="dependent_match_in_play",
            params={"round": round_number, "table": table, "match": dependent_id},
            extra={"match": str(dependent_id), "round": round_number, "table": table},
        )

    def check_dispute_open(
        self, *, match_id: Any, finished_at: dt.datetime | None, at: dt.datetime
    ) -> None:
        """A tournament with a dispute window refuses a dispute opened later than that
        after the match ended."""
        if finished_at is None:
            return  # in play (or back in play after a correction): no time limit yet
        window = match_dispute_window(match_id=match_id)
        if window is None or at <= finished_at + window:
            return
        raise DisputeWindowClosedError(
            gettext_noop(
                "disputes on this match had to be opened within %(window)s of its end (%(end)s)"
            ),
            params={"window": window, "end": _iso(finished_at)},
            extra={"finished_at": _iso(finished_at), "window": window.total_seconds()},
        )

    def matches_hidden_from(self, *, user: Any) -> QuerySet:
        """The matches of the private tournaments `user` may not see."""
        return matches_hidden_from(user=user)

    def match_is_public(self, *, match_id: Any) -> bool:
        """A match of a public tournament."""
        return match_in_public_tournament(match_id=match_id)
