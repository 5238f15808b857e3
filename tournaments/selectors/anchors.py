"""Outside anchors of a tournament's history: signed checkpoints (eventstore.heads_sign,
the key the database does not hold) of its own stream and of its finished matches' heads,
handed out routinely — in every webhook delivery and on the tournament's public page — so
that copies are kept outside the install. A stream cut short or rewritten later (its own
checkpoints deleted with it) no longer matches what a receiver kept:
`manage.py verify_events --receipts FILE` checks them and names each anchor it checked.

Only finished matches are anchored: the head hash of a match in play would let anyone who
also knew the hash before it try the 52 cards a draw could have been (games.selectors,
`_may_have_head_hash`); a finished match's head hides nothing."""

from __future__ import annotations

from typing import Any

import eventstore
from games.selectors import match_outcomes
from tournaments.models import Pairing, Tournament

MATCH_STREAM_PREFIX = "match-"


def tournament_anchors(*, tournament: Tournament, version: int | None = None) -> dict[str, Any]:
    """{"tournament": the tournament stream's signed checkpoint (at `version`, else its
    head), "matches": the signed heads of its finished matches}, each in the shape
    `export_checkpoints` writes (stream_id, version, hash, signature, created_at)."""
    match_ids = (
        Pairing.objects.filter(round__tournament=tournament)
        .exclude(match=None)
        .order_by("round__number", "table")
        .values_list("match_id", flat=True)
    )
    finished = _finished_streams([str(m) for m in match_ids])
    own = tournament.stream_id
    signed = eventstore.heads_sign(
        stream_ids=[own, *finished], versions={own: version} if version is not None else None
    )
    mine = [a for a in signed if a["stream_id"] == own]
    return {
        "tournament": mine[0] if mine else None,
        "matches": [a for a in signed if a["stream_id"] != own],
    }


def event_anchor(*, event: eventstore.RecordedEvent) -> dict[str, Any] | None:
    """The signed checkpoint of a stream at one of its events (no query: its hash is at
    hand)."""
    return eventstore.receipt_sign(
        stream_id=event.stream_id, version=event.version, digest=event.hash
    )


def _finished_streams(ids: list[str]) -> list[str]:
    outcomes = match_outcomes(match_ids=ids)
    return [
        f"{MATCH_STREAM_PREFIX}{mid}"
        for mid in ids
        if mid in outcomes and outcomes[mid].status == "finished"
    ]


def match_anchors(*, match_ids: list[str]) -> list[dict[str, Any]]:
    """The signed heads of those of the matches that are finished (a team event's boards)."""
    finished = _finished_streams(match_ids)
    return eventstore.heads_sign(stream_ids=finished) if finished else []
