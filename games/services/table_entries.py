"""Players enter their table's hands on their phones (as bridge clubs' table terminals
do): one player enters a hand, the opponent confirms it, or disputes it and an organiser
decides. Only a confirmed or accepted entry becomes a hand of the match, recorded by the
same service as the desk's (`match_record_hand_in_tx`, the same rules), with who entered
and who confirmed it in the event's metadata. Writes here; the two reads at the end."""

from __future__ import annotations

import uuid

from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

import eventstore
from core.errors import (
    ConflictError,
    NotFoundError,
    PermissionDeniedError,
    ValidationError,
    VersionConflictError,
)
from core.text import free_text_check
from core.transactions import write_service
from games import repository
from games.engine.match import decide
from games.hand_entries import HandEntry
from games.models import Match, TableEntry
from games.selectors import user_can_organise_match
from games.selectors.table_entries import OPEN
from games.services import match_record_hand_in_tx
from games.signals import table_entry_changed
from players.models import Player


def _closed(entry: TableEntry) -> ConflictError:
    """An entry no longer waiting for its opponent: its state in the reader's words."""
    return ConflictError(
        gettext_noop("the entry is no longer open: %(status)s"),
        code="closed",
        params={"status": entry.get_status_display()},
    )


def _announce(match: Match) -> None:
    """Wake the followers of the match's stream (games/streams.py sends them the table's
    entry as an `entry` message): a NOTIFY in this transaction, so at its commit and never
    for a rollback, as the event store's appends do. On SQLite followers poll anyway."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [eventstore.NOTIFY_CHANNEL, match.stream_id])


def _told(entry: TableEntry, before: str) -> None:
    """After commit, tell the other apps the entry changed (its players' notices)."""
    match_id, entry_id, status = entry.match_id, entry.pk, entry.status
    transaction.on_commit(
        lambda: table_entry_changed.send(
            sender=TableEntry, match_id=match_id, entry_id=entry_id, status=status, before=before
        )
    )


@write_service
def table_entry_submit(
    *,
    match_id: uuid.UUID | str,
    player: Player,
    hand: HandEntry,
) -> TableEntry:
    """A player of a table match enters the next hand. It is checked against the rules now
    (the same engine decision as recording it, nothing stored in the match) and waits for
    the opponent. One open entry a table at a time."""
    write = repository.match_lock(match_id=match_id)  # serialises the two phones
    match = write.match
    if match.seat_of(player.pk) is None:
        raise PermissionDeniedError("you are not a player in this match", code="not_a_player")
    if match.mode != "table":
        raise ValidationError("only a table match records hands", code="not_table_mode")
    if match.status != "in_progress":
        raise ConflictError("the match is over", code="match_finished")
    if TableEntry.objects.filter(match=match, status__in=OPEN).exists():
        raise ConflictError(
            "a hand entered at this table waits for confirmation", code="entry_open"
        )
    decide(write.state, hand.action(match))  # a rule error here: nothing is written
    _announce(match)
    entry = TableEntry(match=match, version=write.version, entered_by=player)
    entry.set_entry(hand)
    entry.save(force_insert=True)
    _told(entry, "")
    return entry


def _entry_lock(entry_id: int) -> TableEntry:
    try:
        return (
            TableEntry.objects.select_for_update(of=("self",))
            .select_related("match", "entered_by", "knocker")
            .get(pk=entry_id)
        )
    except (TableEntry.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFoundError("no such entry", code="entry_not_found") from exc


def _opponent_check(entry: TableEntry, player: Player) -> None:
    if entry.match.seat_of(player.pk) is None:
        raise PermissionDeniedError("you are not a player in this match", code="not_a_player")
    if player.pk == entry.entered_by_id:
        raise PermissionDeniedError(
            "the opponent confirms or disputes a hand, not who entered it", code="own_entry"
        )
    if entry.status != TableEntry.Status.PENDING:
        raise _closed(entry)


def _record(entry: TableEntry, *, by: AbstractBaseUser, confirmed_by: Player | None) -> bool:
    """Record the entry as a hand of the match; False when the scoresheet moved on since it
    was entered (the entry is stale and nothing is recorded)."""
    try:
        match_record_hand_in_tx(
            match_id=entry.match_id,
            by=by,
            hand=entry.as_entry(),
            expected_version=entry.version,
            entered_by=entry.entered_by,
            confirmed_by=confirmed_by,
        )
    except VersionConflictError:
        return False
    return True


def _close(entry: TableEntry, status: str, by: AbstractBaseUser | None, note: str = "") -> None:
    before = entry.status
    entry.status, entry.decided_by, entry.decided_at = status, by, timezone.now()
    _told(entry, before)
    if note:
        entry.note = note
    entry.save(update_fields=["status", "decided_by", "decided_at", "note"])
    _announce(entry.match)


@write_service
def table_entry_confirm(*, entry_id: int, player: Player, version: int | None = None) -> TableEntry:
    """The opponent confirms the entry they were shown (by its id and, from a page, the
    scoresheet version it was entered against: another is refused, 409 `entry_changed`):
    the hand is recorded (entered and confirmed by whom in the event). If the scoresheet
    changed since the entry, it is marked stale instead."""
    entry = _entry_lock(entry_id)
    _opponent_check(entry, player)
    if version is not None and version != entry.version:
        raise ConflictError(
            gettext_noop("the entry changed since it was shown: confirm the one there is now"),
            code="entry_changed",
        )
    if player.user is None:
        raise PermissionDeniedError("confirm from your own login", code="no_login")
    recorded = _record(entry, by=player.user, confirmed_by=player)
    _close(entry, TableEntry.Status.CONFIRMED if recorded else TableEntry.Status.STALE, None)
    return entry


@write_service
def table_entry_dispute(*, entry_id: int, player: Player, note: str) -> TableEntry:
    """The opponent disputes: nothing is recorded; an organiser decides."""
    if not isinstance(note, str) or not note.strip():
        raise ValidationError("say what is wrong with the entry", code="note_required")
    free_text_check(note, "note")
    entry = _entry_lock(entry_id)
    _opponent_check(entry, player)
    entry.status, entry.note = TableEntry.Status.DISPUTED, note.strip()
    entry.save(update_fields=["status", "note"])
    _told(entry, TableEntry.Status.PENDING)
    _announce(entry.match)
    return entry


@write_service
def table_entry_withdraw(*, entry_id: int, player: Player) -> TableEntry:
    """Who entered a hand may take it back while it waits."""
    entry = _entry_lock(entry_id)
    if player.pk != entry.entered_by_id:
        raise PermissionDeniedError("only who entered it may withdraw it", code="not_yours")
    if entry.status != TableEntry.Status.PENDING:
        raise _closed(entry)
    _close(entry, TableEntry.Status.WITHDRAWN, None)
    return entry


@write_service
def table_entry_decide(
    *, entry_id: int, by: AbstractBaseUser, accept: bool, note: str = ""
) -> TableEntry:
    """An organiser settles an open entry (pending or disputed): accepted, it is recorded
    with the organiser as who confirmed it; rejected, nothing is recorded."""
    free_text_check(note, "note")
    entry = _entry_lock(entry_id)
    _may_settle(entry, by)
    if not accept:
        _close(entry, TableEntry.Status.REJECTED, by, note)
        return entry
    _accept(entry, by, note)
    return entry


def _may_settle(entry: TableEntry, by: AbstractBaseUser) -> None:
    """An organiser of the match settles an open entry (pending or disputed)."""
    if not user_can_organise_match(user=by, match=entry.match):
        raise PermissionDeniedError("only an organiser of this match may do this")
    if entry.status not in OPEN:
        raise _closed(entry)


def _accept(entry: TableEntry, by: AbstractBaseUser, note: str) -> None:
    """Recorded as entered, the organiser as who confirmed it (stale if the sheet moved on)."""
    recorded = _record(entry, by=by, confirmed_by=None)
    _close(entry, TableEntry.Status.ACCEPTED if recorded else TableEntry.Status.STALE, by, note)


def _entry_text(entry: TableEntry) -> str:
    if entry.drawn:
        return "drawn"
    kind = "gin" if entry.gin else "knock"
    name = entry.knocker.name if entry.knocker else "?"
    return f"{name} {kind}, deadwood {entry.knocker_deadwood} / {entry.defender_deadwood}"


@write_service
def table_entry_amend(
    *,
    entry_id: int,
    by: AbstractBaseUser,
    hand: HandEntry,
    note: str = "",
) -> TableEntry:
    """An organiser settles an open entry (pending or disputed) with the right values
    instead of accepting the wrong ones: the amended hand is recorded (checked by the same
    rules; who entered it and the organiser in the event's metadata) and the entry keeps
    what was entered in its note. Stale (nothing recorded) if the scoresheet moved on."""
    entry = _entry_lock(entry_id)
    _amend_in_tx(entry, by, note, hand)
    return entry


def _amend_in_tx(entry: TableEntry, by: AbstractBaseUser, note: str, hand: HandEntry) -> None:
    _may_settle(entry, by)
    hand.action(entry.match)  # the shape checked before anything changes
    was = _entry_text(entry)
    entry.set_entry(hand)
    recorded = _record(entry, by=by, confirmed_by=None)
    entry.save(update_fields=["drawn", "gin", "knocker", "knocker_deadwood", "defender_deadwood"])
    text = f"entered as: {was}" + (f"; {note.strip()}" if note and note.strip() else "")
    status = TableEntry.Status.AMENDED if recorded else TableEntry.Status.STALE
    _close(entry, status, by, text)


def table_entry_settle_in_tx(
    *,
    entry: TableEntry,
    by: AbstractBaseUser,
    hand: HandEntry,
    note: str = "",
) -> None:
    """The desk's sheet settles an open entry (locked by the caller) with the hand of its
    row: as entered, it is accepted; otherwise amended (games.services.sheet)."""
    if hand.values() != entry.as_entry().values():
        _amend_in_tx(entry, by, note, hand)
        return
    _may_settle(entry, by)
    _accept(entry, by, note)
