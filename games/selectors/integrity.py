"""Is a match's history intact: its hash chain, seals and checkpoints, a stream cut short
behind its record, snapshots that are not what a replay gives."""

from __future__ import annotations

from typing import Any

from django.db.models import F, OuterRef

import eventstore
from core.drift import RowDifference
from games import repository
from games.engine.events import event_from_dict
from games.engine.match import replay
from games.engine.state import state_from_dict, state_to_dict
from games.models import Match
from games.projections.check import matches_differences
from games.selectors.visibility import User, _may_audit, match_seat_for


def matches_cut_short(*, stream_id: str | None = None) -> list[tuple[str, int, int]]:
    """(stream id, last stored version, version the match's record holds) of every match
    (or of the one with `stream_id`) whose stream ends before its record says: its last
    events were deleted, which leaves a valid hash chain behind."""
    head = eventstore.stream_version_expression(OuterRef("stream_id"))
    matches = Match.objects.annotate(head=head)
    if stream_id is not None:
        matches = matches.filter(stream_id=stream_id)
    found = matches.filter(head__lt=F("version")).order_by("stream_id")
    return list(found.values_list("stream_id", "head", "version"))


def match_verify(*, match: Match, user: User | bool = False) -> dict[str, Any]:
    """Check the hash chain of the match's stream (seals and signed checkpoints too), and
    that it still ends where the match's record says it does: deleting the last events
    leaves a valid chain, which only the version kept in the read model gives away.
    With `user`: the receipt (a checkpoint: a version and its hash) only if that user may
    have it (`_may_have_head_hash`)."""
    result = eventstore.verify(stream_id=match.stream_id)
    cut = matches_cut_short(stream_id=match.stream_id)
    # The latest signed checkpoint of the stream: a receipt to keep, which a later rewrite
    # of the history can no longer match (eventstore.checkpoint_valid checks one).
    receipts = eventstore.checkpoints_export(stream_id=match.stream_id, latest_only=True)
    if user is not False and not _may_have_head_hash(user=user, match=match):  # type: ignore[arg-type]
        receipts = []
    receipt = {"receipt": receipts[0]} if receipts else {}
    if result.ok and cut:
        _, head, recorded = cut[0]
        return {
            "ok": False,
            "events": result.events_checked,
            "first_broken_version": head + 1,
            "reason": f"events {head + 1} to {recorded} are missing: the match's record is at"
            f" version {recorded}",
            **receipt,
        }
    if result.ok:
        return {"ok": True, "events": result.events_checked, **receipt}
    return {
        "ok": False,
        "events": result.events_checked,
        "first_broken_version": result.first_broken.version if result.first_broken else None,
        "reason": result.reason,
        **receipt,
    }


def _may_have_head_hash(*, user: User, match: Match) -> bool:
    """The hash of a recent event is for the match's players, organisers and staff, and for
    anyone else only once the match is finished: an onlooker who knew the hash of the event
    before could find a card drawn from the stock from its hash by trying the 52 candidates
    (its metadata and time are easy to guess)."""
    seat = match_seat_for(user=user, match=match)
    return match.status == Match.Status.FINISHED or _may_audit(user=user, match=match, seat=seat)


SUPERSEDED = "superseded"  # the reasons of snapshots skipped, not bad, begin so


def snapshots_check(*, stream_id: str | None = None, deep: bool = False) -> list[Any]:
    """Snapshots that do not match the event they stand at (their seal, eventstore), and
    with `deep` also the match snapshots whose state differs from a replay of the events up
    to their version (snapshots older than seals included). Readers ignore neither by
    themselves: a bad snapshot is deleted (`eventstore.snapshot_delete`) and rebuilt.

    With `deep`, superseded snapshots come too, with a reason beginning "superseded": of an
    older state shape (another kind, which readers ignore; or the current kind written
    before a field was added, which reads as the replay's state): skipped, not bad
    (`snapshots_superseded`; `manage.py prune_snapshots` deletes them)."""
    bad = list(eventstore.snapshots_check(stream_id=stream_id))
    if not deep:
        return bad
    return bad + snapshots_superseded(stream_id=stream_id, known=bad, bad_too=True)


def snapshots_superseded(
    *,
    stream_id: str | None = None,
    known: list[Any] = (),
    bad_too: bool = False,  # type: ignore[assignment]
) -> list[Any]:
    """The superseded snapshots (reason "superseded: ..."), and with `bad_too` the match
    snapshots whose state is not the replay's either way."""
    skip = {(b.stream_id, b.kind, b.version) for b in known}
    out = [
        eventstore.BadSnapshot(sid, kind, version, f"{SUPERSEDED}: of an older kind ({kind})")
        for sid, kind, version in eventstore.snapshots_superseded(stream_id=stream_id)
    ]
    stored = eventstore.snapshots_as_stored(kind=repository.SNAPSHOT_KIND, stream_id=stream_id)
    for sid, version, state in stored:
        if (sid, repository.SNAPSHOT_KIND, version) in skip:
            continue
        reason = _replay_problem(sid, version, state)
        if reason and (bad_too or reason.startswith(SUPERSEDED)):
            out.append(eventstore.BadSnapshot(sid, repository.SNAPSHOT_KIND, version, reason))
    return out


def _replay_problem(stream_id: str, version: int, state: dict) -> str:
    events = eventstore.load(stream_id=stream_id, up_to_version=version)
    replayed = eventstore.canonical_json(
        state_to_dict(replay(event_from_dict(e.type, e.data) for e in events))
    )
    if eventstore.canonical_json(state) == replayed:
        return ""
    try:  # an older shape of the same state: what a reader makes of it is the replay's
        read = eventstore.canonical_json(state_to_dict(state_from_dict(state)))
    except (KeyError, TypeError, ValueError):
        read = ""
    if read == replayed:
        return f"{SUPERSEDED}: an older shape of the state (it reads as the replay's)"
    return "its state is not the replay's"


def match_read_models_differences(*, stream_ids: list[str] | None = None) -> list[RowDifference]:
    """Each difference between the match read models (row, scoresheet, hands) and a replay
    of their events, which is rolled back: nothing changes."""
    return matches_differences(stream_ids=stream_ids, fix=False)
