"""A table's hand entries (players enter hands on their phones, games.services.table_entries):
the one waiting at a table, and the latest whatever became of it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.models import Match, TableEntry

OPEN = (TableEntry.Status.PENDING, TableEntry.Status.DISPUTED)


def table_entry_open(*, match: Match) -> TableEntry | None:
    """The entry waiting at this table (pending or disputed), if any."""
    qs = TableEntry.objects.filter(match=match, status__in=OPEN)
    return qs.select_related("entered_by", "knocker").first()


def table_entries_open(*, match_ids: Iterable[Any]) -> dict[str, TableEntry]:
    """The open entries of these matches, by match id (as a string)."""
    qs = TableEntry.objects.filter(match_id__in=list(match_ids), status__in=OPEN)
    return {str(e.match_id): e for e in qs.select_related("entered_by", "knocker")}


def table_entry_latest(*, match: Match) -> TableEntry | None:
    """The table's latest entry, whatever became of it (the phones show a rejected one with
    the organiser's reason until a hand is entered again)."""
    qs = TableEntry.objects.filter(match=match).order_by("-pk")
    return qs.select_related("entered_by", "knocker", "decided_by").first()


def table_entries_latest(*, match_ids: Iterable[Any]) -> dict[str, TableEntry]:
    """The latest entry of each of these matches that has one, by match id (a string)."""
    latest: dict[str, TableEntry] = {}
    qs = TableEntry.objects.filter(match_id__in=list(match_ids)).order_by("pk")
    for entry in qs.select_related("entered_by", "knocker"):
        latest[str(entry.match_id)] = entry
    return latest


def table_entry_of(*, entry_id: int, match_id: Any) -> TableEntry | None:
    """One entry of the match, with who entered it and the knocker; None if there is none."""
    return (
        TableEntry.objects.select_related("entered_by", "knocker")
        .filter(pk=entry_id, match_id=match_id)
        .first()
    )


# An entry's statuses, for the apps that may not read games' models (tournaments' notices).
EntryStatus = TableEntry.Status
