"""Who audits a match: its players, organisers and staff always; anyone who may see a
public match (the match policy says so) for the hands already over."""

from __future__ import annotations

from games.models import Match
from games.selectors import (
    User,
    match_is_public,
    match_seat_for,
    match_visible_to,
    user_can_organise_match,
)


def match_may_audit(*, user: User, match: Match) -> bool:
    """The match's players, its organisers and staff: they get ended hands in full."""
    if match_seat_for(user=user, match=match) is not None:
        return True
    return user_can_organise_match(user=user, match=match)


def _public_reader(*, user: User, match: Match) -> bool:
    """Not an auditor, but may see the match's hands once over: the match is public (a
    match policy says so: games/policy.py) and visible to `user`."""
    return match_is_public(match=match) and match_visible_to(user=user, match=match)


def match_bundle_allowed(*, user: User, match: Match) -> bool:
    """Who may download the audit bundle: the match's players, organisers and staff; and
    anyone (anonymous too) who may see a finished public match."""
    if match_may_audit(user=user, match=match):
        return True
    return match.status == Match.Status.FINISHED and _public_reader(user=user, match=match)
