"""Read models against a replay of their events: each difference named by table, row and
field, with the stored and the replayed value (`manage.py verify_projections`).

A projection's check reads its rows as stored, rebuilds them from the events in a savepoint
(the rebuild is the replay: the same code as every write), reads them again and rolls the
savepoint back; `records_differences` compares the two pictures. A picture is
{row key: {field: value}}, the key a natural one (a match id and hand number, a round and
table) so that rows written again under new ids still compare."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.db import transaction

Record = Mapping[str, Any]
Picture = Mapping[Any, Record]


@dataclass(frozen=True)
class RowDifference:
    """One difference between a read model and the replay of its events. `field` is ""
    when a whole row is in one and not the other (`stored`/`replayed` then say which)."""

    table: str
    row: str
    field: str
    stored: Any
    replayed: Any

    def __str__(self) -> str:
        if not self.field:
            if self.replayed is None:
                return f"{self.table} {self.row}: stored, but the events have no such row"
            return f"{self.table} {self.row}: missing; the events have it"
        return (
            f"{self.table} {self.row} {self.field}: stored {self.stored!r},"
            f" the events say {self.replayed!r}"
        )


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        # Ratings: the rebuild computes them in another order than the incremental path.
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    return bool(a == b)


def records_differences(
    table: str, stored: Picture, replayed: Picture, *, key_name: Callable[[Any], str] = str
) -> list[RowDifference]:
    """Every field that differs between the rows as stored and as replayed, and every row
    in one picture and not the other."""
    out = []
    for key in sorted(set(stored) | set(replayed), key=repr):
        old, new = stored.get(key), replayed.get(key)
        if old is None or new is None:
            out.append(RowDifference(table, key_name(key), "", old, new))
            continue
        for name in new:
            if not _same(old.get(name), new[name]):
                out.append(RowDifference(table, key_name(key), name, old.get(name), new[name]))
    return out


class _Rollback(Exception):
    pass


@contextmanager
def replay_in_savepoint() -> Any:
    """A savepoint rolled back at the end, whatever happened in it: a rebuild run to see
    what it writes, leaving the rows as they were."""
    try:
        with transaction.atomic():
            yield
            raise _Rollback
    except _Rollback:
        pass


def pictures_differences(
    pictures: Callable[[], Mapping[str, Picture]],
    rebuild: Callable[[], object],
    *,
    fix: bool = False,
    key_names: Mapping[str, Callable[[Any], str]] | None = None,
) -> list[RowDifference]:
    """The differences between the pictures before and after `rebuild` (the replay);
    kept (`fix`) or rolled back."""
    with transaction.atomic():
        before = pictures()
        if fix:
            rebuild()
            after = pictures()
        else:
            with replay_in_savepoint():
                rebuild()
                after = pictures()
    names = key_names or {}
    out: list[RowDifference] = []
    for table in before:
        out += records_differences(
            table, before[table], after[table], key_name=names.get(table, str)
        )
    return out
