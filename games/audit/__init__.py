"""Reads for auditing a match: the replay page's frames (the table after each event, as the
viewer may see it) and the audit bundle (every event with its hash, the commitments and the
encodings, for `tools/verify_match.py`).

Who audits: the match's players, its organisers and staff, always (with the hand in play
redacted as for them); anyone else who may see the match, when an app that groups matches
says the match is public (the match policy, games/policy.py: a match of a public tournament),
for the hands already over: the replay up to the hand in play, the bundle once the match is
finished (then no hand is in play, nothing is hidden any more).

What a viewer may see is decided by `selectors.match_events_for`, never again here: a hand's
cards are shown in full only when that selector gave this viewer its deal in full (deck and
salt), and an event's hash only when every event up to it was given in full (a hash covers
the whole event and, through `prev`, every earlier one: the hash of an event whose card was
hidden would let anyone find that card by trying the 52 candidates).

The modules: `access` (who audits), `events` (the events shown, with names and hashes),
`replay` (the replay page's data), `bundle` (the audit bundle), `cases` (dispute cases).
Every name below may be imported from `games.audit` itself."""

from games.audit.access import match_bundle_allowed, match_may_audit
from games.audit.bundle import BUNDLE_FORMAT, ENCODINGS, match_bundle
from games.audit.cases import (
    DISPUTE_EVENTS,
    disputes_open_by_match,
    disputes_open_for,
    disputes_open_sorted,
    match_disputes,
)
from games.audit.replay import match_replay_data

__all__ = [
    "BUNDLE_FORMAT",
    "DISPUTE_EVENTS",
    "ENCODINGS",
    "disputes_open_by_match",
    "disputes_open_for",
    "disputes_open_sorted",
    "match_bundle",
    "match_bundle_allowed",
    "match_disputes",
    "match_may_audit",
    "match_replay_data",
]
