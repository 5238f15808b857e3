"""The desk's reads of dispute cases, shared by the round page (its count) and the
disputes pages (web.desk.disputes)."""

from __future__ import annotations

from typing import Any

from core.errors import PermissionDeniedError
from games.audit import disputes_open_by_match, disputes_open_sorted, match_disputes
from tournaments.selectors import tournament_pairing_list


def tournament_disputes_open(*, tournament: Any, user: Any) -> list[dict[str, Any]]:
    """The open disputes of the tournament's matches that `user` may answer, oldest first,
    each with its pairing (round, table, players). Read from the dispute events of the
    tournament's matches only (`disputes_open_by_match`): the round page asks on every
    refresh."""
    pairings = {
        str(p.match_id): p
        for p in tournament_pairing_list(tournament=tournament, round_number=None)
        if p.match_id
    }
    cases = disputes_open_by_match(match_ids=list(pairings), user=user)
    return [{**case, "pairing": pairings[case["match"]]} for case in disputes_open_sorted(cases)]


def match_disputes_open(*, match: Any, user: Any) -> list[dict[str, Any]]:
    """The match's open disputes, or none for a user who may not see them (an organiser of
    the tournament who is not one of the match's)."""
    try:
        return match_disputes(match=match, user=user, status="open")
    except PermissionDeniedError:
        return []
