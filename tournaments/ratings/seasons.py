"""Season standings as a projection of the club's periods (placeholder until seasons)."""

from __future__ import annotations


def club_seasons_refresh_in_tx(*, club_id: int) -> None:
    """Recompute the standings of the club's seasons (in the caller's transaction)."""
