"""Helpers of the tournament domain's tests."""

from __future__ import annotations

from dataclasses import replace

from tournaments.domain.events import RoundPaired


def with_match_ids(events, counter):
    """What the service does: a match id for every real pair of a (re-)paired round
    (`counter[0]`, the last id given, goes up by one a match)."""
    out = []
    for e in events:
        if isinstance(e, RoundPaired):
            pairings = []
            for p in e.pairings:
                if p.player2 is not None:
                    counter[0] += 1
                    p = replace(p, match=f"m{counter[0]}", match_version=2)
                pairings.append(p)
            e = replace(e, pairings=tuple(pairings))
        out.append(e)
    return out
