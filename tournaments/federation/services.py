"""Importing a federation's member list: each row linked to the player of its club whose
name is the same (the desk's matching: tournaments.ratings.selectors.names, case, diacritics, script
and order folded), and a report of what matched, what is new and what conflicts.

- matched: the row's club has exactly one player of that name (not linked to another
  federation id): the member is linked to them (a row already linked stays linked);
- new: no player of the club has a name like it: the member is kept, linked to nobody yet;
- conflict (nothing linked; a person decides on the desk): a name only like one or more
  players' (a typo?: `similar`), several players of the same name (`ambiguous`), a player
  linked to another federation id (`linked_elsewhere`), a federation id twice in the file
  (`duplicate_id`), a club not in the federation (`unknown_club`), a row without a
  federation id or a name (`incomplete`)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from core.errors import ValidationError
from core.transactions import write_service
from players.models import Club, Player, erased_name
from tournaments.federation.files import MemberRow
from tournaments.federation.models import Federation, Member
from tournaments.federation.projection import federation_rerate_in_tx
from tournaments.ratings.selectors.names import club_players, club_players_like, name_key


@dataclass
class MemberReport:
    matched: list[dict[str, Any]] = field(default_factory=list)
    new: list[dict[str, Any]] = field(default_factory=list)
    conflicts: list[dict[str, Any]] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        return {"matched": len(self.matched), "new": len(self.new),
                "conflicts": len(self.conflicts)}  # fmt: skip


class _DryRun(Exception):
    pass


def _line(row: MemberRow, **more: Any) -> dict[str, Any]:
    return {"line": row.line, "federation_id": row.federation_id, **more}


@write_service
def federation_members_import(
    *, federation: Federation, rows: list[MemberRow], dry_run: bool = False
) -> MemberReport:
    """Store the rows as the federation's members, linking who matches (module docstring).
    `dry_run`: the report only, nothing kept."""
    report = MemberReport()
    try:
        with transaction.atomic():
            _import(federation, rows, report)
            if dry_run:
                raise _DryRun
    except _DryRun:
        pass
    return report


def _import(federation: Federation, rows: list[MemberRow], report: MemberReport) -> None:
    clubs = {name_key(c.name): c for c in federation.clubs.all()}
    pools: dict[int, list[Player]] = {c.pk: club_players(club=c) for c in clubs.values()}
    ids = Counter(r.federation_id for r in rows)
    linked = dict(Member.objects.filter(federation=federation, player__isnull=False)
                  .values_list("player_id", "number"))  # fmt: skip
    for row in rows:
        if not row.federation_id or not row.name:
            report.conflicts.append(_line(row, reason="incomplete"))
            continue
        if ids[row.federation_id] > 1:
            report.conflicts.append(_line(row, reason="duplicate_id"))
            continue
        club = clubs.get(name_key(row.club))
        member, _ = Member.objects.update_or_create(
            federation=federation, number=row.federation_id,
            defaults={"name": row.name, "club_name": row.club, "birth_year": row.birth_year,
                      "country": row.country},
        )  # fmt: skip
        if club is None:
            report.conflicts.append(_line(row, reason="unknown_club"))
            continue
        if member.player_id is not None:
            report.matched.append(_line(row, player=member.player_id))
            continue
        _link(row, member, club, pools[club.pk], linked, report)


def _link(
    row: MemberRow,
    member: Member,
    club: Club,
    pool: list[Player],
    linked: dict[int, str],
    report: MemberReport,
) -> None:
    alike = club_players_like(club=club, name=row.name, candidates=pool, limit=10)
    same = [s for s in alike if s.same]
    if not alike:
        report.new.append(_line(row))
    elif len(same) > 1:
        report.conflicts.append(_line(row, reason="ambiguous",
                                      players=[s.player.pk for s in same]))  # fmt: skip
    elif not same:
        report.conflicts.append(_line(row, reason="similar",
                                      players=[s.player.pk for s in alike]))  # fmt: skip
    elif same[0].player.pk in linked:
        report.conflicts.append(_line(row, reason="linked_elsewhere", player=same[0].player.pk,
                                      other=linked[same[0].player.pk]))  # fmt: skip
    else:
        member.player = same[0].player
        member.save(update_fields=["player"])
        linked[member.player_id] = row.federation_id
        report.matched.append(_line(row, player=member.player_id))


@write_service
def federation_get_or_create(*, name: str, club_slugs: list[str]) -> Federation:
    """The federation of that name (made if new) with these clubs among its clubs."""
    federation, _ = Federation.objects.get_or_create(name=name)
    clubs = list(Club.objects.filter(slug__in=club_slugs))
    missing = set(club_slugs) - {c.slug for c in clubs}
    if missing:
        raise ValidationError("no such club: %(clubs)s", code="club",
                              params={"clubs": ", ".join(sorted(missing))})  # fmt: skip
    federation.clubs.add(*clubs)
    federation_rerate_in_tx(federation_id=federation.pk)  # its list now spans these clubs
    return federation


def federation_members_erase_in_tx(*, player_id: int) -> int:
    """A player erased (tournaments.privacy): the member lines linked to them keep their
    federation id and their link, but no name or birth year."""
    return Member.objects.filter(player_id=player_id).update(
        name=erased_name(player_id), birth_year=None
    )
