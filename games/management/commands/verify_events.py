"""Check the hash chains of stored events and name the first broken event.

    python manage.py verify_events                  # every stream
    python manage.py verify_events --match <uuid>   # the stream "match-<uuid>"
    python manage.py verify_events --stream <id>    # any one stream

    python manage.py verify_events --deep           # snapshots replayed too; says how many
                                                    # superseded ones it skipped, and why
    python manage.py verify_events --receipts FILE  # and the receipts a player kept

`--receipts`: a JSON file of receipts or anchors (the `receipt` of a match view, one or a
list of them, what `export_checkpoints` writes, kept webhook bodies or a tournament page's
anchors); each must still match the stored event it names. One line per anchor says which
it checked against, and whether it matches.

Exits with status 1 when a chain is broken (a changed, missing or extra event; a seal that
is wrong or missing where one is due, i.e. an event forged without the key; an event with
no writing transaction), when a stream ends before the version its record or a signed
checkpoint holds (its last events were deleted: the chain left is still valid), or when a
snapshot does not match the event it stands at (`--deep`: nor a replay of the stream), or
when a kept receipt is not ours or names an event the store no longer holds as it was.

Also exits with status 1, without calling anything forged, when seals, checkpoints or
snapshots were made with a chain key this install does not have (a restore without the
keys, a key left out of the keyring): "sealed with key K, which this install does not
have". Their hash chains are still checked; add the key to the keyring and run it again
(docs/operators/backup-restore.md, Key custody).
"""

from __future__ import annotations

import json
import sys
import uuid
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

import eventstore
from games.selectors import matches_cut_short, snapshots_check


class Command(BaseCommand):
    help = "Verify the hash chains of stored events; name the first broken event."

    def add_arguments(self, parser: CommandParser) -> None:
        which = parser.add_mutually_exclusive_group()
        which.add_argument("--match", help="a match id: checks the stream match-<id>")
        which.add_argument("--stream", help="any stream id")
        parser.add_argument(
            "--deep", action="store_true", help="also replay each snapshot's stream to check it"
        )
        parser.add_argument(
            "--receipts", help="a JSON file of kept receipts (or exported checkpoints) to check"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        stream_id = options["stream"]
        if options["match"]:
            try:
                stream_id = f"match-{uuid.UUID(options['match'])}"
            except ValueError as exc:
                raise CommandError(f"Not a match id: {options['match']}") from exc
        total = eventstore.event_count(stream_id=stream_id)
        if stream_id is not None and total == 0:
            raise CommandError(f"No events in stream {stream_id}.")
        quiet = options["verbosity"] == 0
        with tqdm(total=total, unit="event", disable=quiet, file=sys.stderr) as bar:
            result = eventstore.verify(stream_id=stream_id, progress=bar.update)
        for broken in result.broken:
            self.stderr.write(
                f"BROKEN stream {broken.stream_id} at version {broken.version}"
                f" (position {broken.position}): {broken.reason}"
            )
        for key_id, seals, streams in result.missing_keys:
            self.stderr.write(
                f"MISSING KEY: {seals} seals and signatures in {streams} streams were"
                f" {eventstore.missing_key_reason(key_id)}; they are not checked (the hash"
                " chains are). Add that key to the keyring (EVENT_CHAIN_KEYS) and verify again."
            )
        cut = matches_cut_short(stream_id=stream_id)
        for cut_stream, head, recorded in cut:
            self.stderr.write(
                f"CUT SHORT stream {cut_stream} ends at version {head}; the match's record is"
                f" at version {recorded}: the last events were deleted"
            )
        # Other streams kept by a read model (tournaments), as their apps registered them.
        cut_others = eventstore.streams_cut_short(stream_id=stream_id)
        for cut_stream, head, recorded in cut_others:
            self.stderr.write(
                f"CUT SHORT stream {cut_stream} ends at version {head}; its record is at"
                f" version {recorded}: the last events were deleted"
            )
        cut = [*cut, *cut_others]
        bad_snapshots = snapshots_check(stream_id=stream_id, deep=options["deep"])
        unkeyed = [b for b in bad_snapshots if b.reason.startswith("sealed with key ")]
        superseded = [b for b in bad_snapshots if b.reason.startswith("superseded")]
        bad_snapshots = [b for b in bad_snapshots if b not in unkeyed and b not in superseded]
        if options["deep"]:
            self._say_skipped(superseded)
        if unkeyed:
            self.stderr.write(
                f"MISSING KEY: {len(unkeyed)} snapshots were {unkeyed[0].reason} (readers"
                " ignore them and read the events)"
            )
        for snapshot in bad_snapshots:
            self.stderr.write(
                f"BAD SNAPSHOT stream {snapshot.stream_id} {snapshot.kind} at version"
                f" {snapshot.version}: {snapshot.reason} (ignored by readers)"
            )
        mismatched = self._receipts_check(options["receipts"])
        if mismatched and result.ok and not cut and not bad_snapshots:
            raise CommandError(
                f"{len(mismatched)} kept receipts no longer match; first: stream"
                f" {mismatched[0].stream_id} version {mismatched[0].version}",
                returncode=1,
            )
        if cut and result.ok:
            raise CommandError(
                f"{len(cut)} streams cut short ({len(bad_snapshots)} bad snapshots); first:"
                f" {cut[0][0]}",
                returncode=1,
            )
        if bad_snapshots and result.ok:
            first_bad = bad_snapshots[0]
            raise CommandError(
                f"{len(bad_snapshots)} bad snapshots; first: stream {first_bad.stream_id}"
                f" version {first_bad.version}",
                returncode=1,
            )
        if not result.ok and not result.broken:
            missing = ", ".join(key_id for key_id, _, _ in result.missing_keys)
            raise CommandError(
                f"{result.reason}: the seals made with it cannot be checked here. Keys"
                f" needed: {missing}.",
                returncode=1,
            )
        if not result.ok:
            first = result.first_broken
            raise CommandError(
                f"{len(result.broken)} of {result.streams_checked} streams broken; first broken"
                f" event: stream {first.stream_id} version {first.version}"
                f" position {first.position}",
                returncode=1,
            )
        if unkeyed:
            raise CommandError(f"{len(unkeyed)} snapshots were {unkeyed[0].reason}.", returncode=1)
        self.stdout.write(
            f"OK: {result.events_checked} events in {result.streams_checked} streams verified."
        )
        if result.redacted:
            # Not forgery: a person was erased (docs/operators/privacy.md, "Old events").
            self.stdout.write(
                f"REDACTED: {result.redacted} events had personal data erased; a sealed"
                " Redacted record vouches for what each holds now."
            )

    def _say_skipped(self, superseded: list) -> None:
        """How many snapshots --deep skipped, and why (not a failure)."""
        reasons: dict[str, int] = {}
        for snapshot in superseded:
            reasons[snapshot.reason] = reasons.get(snapshot.reason, 0) + 1
        for reason, count in sorted(reasons.items()):
            self.stdout.write(f"SKIPPED {count} snapshots, {reason}")
        if superseded:
            self.stdout.write(
                f"skipped {len(superseded)} superseded snapshots in all (not a failure);"
                " manage.py prune_snapshots deletes them"
            )
        else:
            self.stdout.write("skipped 0 snapshots")

    def _receipts_check(self, path: str | None) -> list[eventstore.BrokenEvent]:
        if not path:
            return []
        try:
            with open(path, encoding="utf-8") as held:
                kept = json.load(held)
        except (OSError, ValueError) as exc:
            raise CommandError(f"Cannot read receipts from {path}: {exc}") from exc
        receipts = receipts_in(kept)
        mismatched = eventstore.receipts_check(receipts=receipts)
        for broken in mismatched:
            self.stderr.write(
                f"RECEIPT MISMATCH stream {broken.stream_id} at version {broken.version}:"
                f" {broken.reason}"
            )
        bad = {(b.stream_id, b.version) for b in mismatched}
        # Which anchors it checked against, each with its verdict.
        for r in receipts:
            at = (str(r.get("stream_id")), r.get("version"))
            self.stdout.write(
                f"ANCHOR stream {at[0]} version {at[1]} signed at {r.get('created_at')}:"
                f" {'MISMATCH' if at in bad else 'matches'}"
            )
        self.stdout.write(f"checked against {len(receipts)} anchors from {path}")
        return mismatched


def receipts_in(kept: Any) -> list[dict]:
    """Every signed checkpoint in what a reader kept: one receipt, a list of them, a saved
    match view (`receipt`), an `export_checkpoints` file (`checkpoints`), webhook bodies or
    a tournament page's anchors (`anchors`: the tournament's and its matches'), or a list
    of any of these."""
    if isinstance(kept, list):
        return [r for item in kept for r in receipts_in(item)]
    if not isinstance(kept, dict):
        return []
    if "signature" in kept and "stream_id" in kept:
        return [kept]
    out: list[dict] = []
    if "anchors" in kept:
        out += receipts_in(kept["anchors"])
    if "tournament" in kept and isinstance(kept["tournament"], dict):
        out += receipts_in(kept["tournament"])
    for key in ("matches", "checkpoints", "receipt"):
        if key in kept:
            out += receipts_in(kept[key])
    return out
