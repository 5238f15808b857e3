"""Exports of a tournament: its standings and results as CSV (the desk and the API), and the
whole tournament as JSON Lines (`manage.py export_tournament`), which
`tournaments.services.imports` reads back into another database.

The JSON Lines file, one JSON object a line (format version 1):

- `{"kind": "header", "format": "hollywood-gin/tournament-export", "version": 1, ...}`: when
  it was exported, the head (last version) of every stream it holds (`streams`), the rows
  the events need and cannot rebuild (`rows`: the users, clubs and players they name, the
  tournament with its registrations, rounds and pairings, as Django's serializer writes
  them), and the standings at export time (`standings`, for the importer to compare);
- one `{"kind": "event", ...}` per stored event of the tournament's stream and of each of
  its matches' streams, in the store's global order, as stored: stream id, version, type,
  schema version, data, metadata, recorded_at (UTC, microseconds, `Z`), the chain hash and
  the position it had here (`position`, for information only);
- `{"kind": "end", "events": N}`: a file cut short lacks it.

Accounts come without passwords, e-mail addresses, staff or group rights. Seals and signed
checkpoints are not exported: they are the exporting install's key's, and the importing
install seals the events with its own.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TextIO

from django.contrib.auth import get_user_model
from django.core import serializers as django_serializers
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_noop

import eventstore
from core.errors import NotFoundError

# Read here rather than through `eventstore.load`: the export copies the rows as stored (the
# schema version and data the hash covers, before any upcasting), streamed in the global
# order across many streams, which the store's readers do not offer.
from players.models import Club, Player
from tournaments.federation.models import Member
from tournaments.models import Pairing, Registration, Round, Standing, Tournament
from tournaments.selectors.reads import tournament_pairings, tournament_standings

FORMAT = "hollywood-gin/tournament-export"
FORMAT_VERSION = 1
# What of an account travels: no password, e-mail, staff flag or groups.
USER_FIELDS = ("username", "first_name", "last_name", "is_active", "date_joined")
MATCH_STREAM_PREFIX = "match-"


# --- CSV -------------------------------------------------------------------------------------


STANDINGS_COLUMNS = [
    "rank", "player_id", "player", "played", "match_wins", "games_won", "points_diff",
    "buchholz", "sonneborn_berger", "byes", "withdrawn", "place", "federation_id",
]  # fmt: skip


RESULTS_COLUMNS = [
    "round", "table", "player1", "player2", "status", "winner", "games1", "games2",
    "points1", "points2", "result", "match_id",
]  # fmt: skip


def tournament_standings_table(*, tournament: Tournament) -> tuple[list[str], list[list[Any]]]:
    """The standings as a table (columns, rows), in rank order: the CSV of the desk and the
    API; `place` is shared by players equal on every tiebreak; `federation_id` the
    player's in a federation's member list (the first federation's; blank: none)."""
    standings = tournament_standings(tournament=tournament)
    feds: dict[int, str] = {}
    members = Member.objects.filter(player_id__in=[s.player_id for s in standings])
    for player, number in members.order_by("federation", "pk").values_list("player_id", "number"):
        feds.setdefault(player, number)
    rows = [
        [
            s.rank,
            s.player_id,
            s.player.name,
            s.played,
            s.match_wins,
            s.games_won,
            s.points_diff,
            s.buchholz,
            s.sonneborn_berger,
            s.byes,
            s.withdrawn,
            s.place,  # type: ignore[attr-defined]
            feds.get(s.player_id, ""),
        ]  # fmt: skip
        for s in standings
    ]
    return list(STANDINGS_COLUMNS), rows


def tournament_results_table(*, tournament: Tournament) -> tuple[list[str], list[list[Any]]]:
    """Every pairing with its result as a table (columns, rows), by round and table; players
    by name, a bye with no second player: the CSV of the desk and the API."""
    rows = [
        [
            p.round.number,
            p.table,
            p.player1.name,
            p.player2.name if p.player2 else "",
            p.status,
            p.winner.name if p.winner else "",
            p.games1,
            p.games2,
            p.points1,
            p.points2,
            p.result_reason,
            str(p.match_id) if p.match_id else "",
        ]  # fmt: skip
        for p in tournament_pairings(tournament=tournament, round_number=None)
    ]
    return list(RESULTS_COLUMNS), rows


def csv_cell(value: Any) -> Any:
    """A text a spreadsheet would run as a formula (=, +, -, @) is written as text."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    if value is None:
        return ""
    return value


def csv_text(header: list[str], rows: Iterable[list[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows([csv_cell(v) for v in row] for row in rows)
    return out.getvalue()


def standings_csv(*, tournament: Tournament) -> str:
    """The standings as CSV: the columns of `tournament_standings_table`."""
    return csv_text(*tournament_standings_table(tournament=tournament))


def results_csv(*, tournament: Tournament) -> str:
    """Every pairing's result as CSV: the columns of `tournament_results_table`."""
    return csv_text(*tournament_results_table(tournament=tournament))


# --- the JSON Lines export -----------------------------------------------------------------


class ExportEncoder(DjangoJSONEncoder):
    """Django's encoder, but instants in UTC with their microseconds and a `Z`."""

    def default(self, o: Any) -> Any:
        if isinstance(o, dt.datetime):
            return utc_text(o)
        return super().default(o)


def utc_text(value: dt.datetime) -> str:
    return eventstore.format_recorded_at(value)


def json_line(value: dict[str, Any]) -> str:
    return json.dumps(value, cls=ExportEncoder, ensure_ascii=False, separators=(",", ":")) + "\n"


@dataclass(frozen=True)
class ExportResult:
    tournament_id: int
    streams: int
    events: int


def tournament_export(
    *,
    tournament_id: int,
    out: TextIO,
    chunk_size: int = 2000,
    progress: Callable[[int], None] | None = None,
    on_total: Callable[[int], None] | None = None,
) -> ExportResult:
    """Write the tournament `tournament_id` to `out` as JSON Lines (the module's docstring).

    The events are streamed (`chunk_size` rows at a time; a server-side cursor on
    PostgreSQL), never all held in memory. On PostgreSQL, as the outermost transaction, the
    export reads one snapshot (REPEATABLE READ), so the header and the events agree while
    play goes on. `on_total(n)` is told the number of events first; `progress(n)` after
    every n written.
    """
    with _snapshot():
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None:
            raise NotFoundError(gettext_noop("no tournament %(id)s"), params={"id": tournament_id})
        streams = _stream_heads(tournament)
        total = sum(streams.values())
        if on_total is not None:
            on_total(total)
        out.write(json_line(_header(tournament, streams)))
        written = 0
        for event in _events(list(streams), chunk_size):
            out.write(json_line(event))
            written += 1
            if progress is not None and written % 500 == 0:
                progress(500)
        if progress is not None and written % 500:
            progress(written % 500)
        out.write(json_line({"kind": "end", "events": written}))
    return ExportResult(tournament_id=tournament.pk, streams=len(streams), events=written)


class _snapshot:
    """One consistent read: REPEATABLE READ, READ ONLY where this is the outermost
    transaction on PostgreSQL; the caller's transaction otherwise."""

    def __enter__(self) -> None:
        self._atomic = transaction.atomic()
        outermost = not connection.in_atomic_block
        self._atomic.__enter__()
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")

    def __exit__(self, *exc: Any) -> None:
        self._atomic.__exit__(*exc)


def _match_ids_of(tournament: Tournament) -> list[str]:
    """Every match the tournament made: the pairings' and those its log names (a re-paired
    round's replaced matches have no pairing row any more)."""
    pairings = Pairing.objects.filter(round__tournament=tournament, match__isnull=False)
    ids = {str(m) for m in pairings.values_list("match_id", flat=True)}
    for event in eventstore.load(stream_id=tournament.stream_id):
        data = event.data
        for pairing in data.get("pairings") or ():
            if isinstance(pairing, dict) and pairing.get("match"):
                ids.add(str(pairing["match"]))
        ids.update(str(m) for m in data.get("replaced") or () if m)
        if isinstance(data.get("match"), str):
            ids.add(data["match"])
    return sorted(ids)


def _stream_heads(tournament: Tournament) -> dict[str, int]:
    """stream id -> its last version: the tournament's stream first, then its matches'."""
    wanted = [tournament.stream_id] + [
        f"{MATCH_STREAM_PREFIX}{m}" for m in _match_ids_of(tournament)
    ]
    heads = eventstore.stream_heads(stream_ids=wanted)
    return {s: heads[s] for s in wanted if s in heads}


def _events(stream_ids: list[str], chunk_size: int) -> Iterator[dict[str, Any]]:
    # The store's global order: (writing transaction, position) on PostgreSQL, the position
    # on SQLite (no transaction id there).
    for e in eventstore.streams_as_stored(stream_ids=stream_ids, chunk_size=chunk_size):
        yield {
            "kind": "event",
            "stream_id": e.stream_id,
            "version": e.version,
            "type": e.type,
            "schema_version": e.schema_version,
            "data": e.data,
            "metadata": e.metadata,
            "recorded_at": utc_text(e.recorded_at),
            "hash": e.hash,
            "position": e.position,
        }


def _header(tournament: Tournament, streams: dict[str, int]) -> dict[str, Any]:
    first_events = eventstore.first_metadata(
        stream_ids=[s for s in streams if s.startswith(MATCH_STREAM_PREFIX)]
    )
    registrations = [m.get("match") or {} for m in first_events]
    players = _players(tournament, registrations)
    clubs = Club.objects.filter(
        Q(pk=tournament.club_id) | Q(pk__in=players.values("club_id"))
    ).order_by("pk")
    users = _users(tournament, registrations, players, clubs)
    rows = [
        *_rows(users, fields=USER_FIELDS),
        *_rows(clubs),
        *_rows(players),
        *_rows(Tournament.objects.filter(pk=tournament.pk)),
        *_rows(Registration.objects.filter(tournament=tournament).order_by("pk")),
        *_rows(Round.objects.filter(tournament=tournament).order_by("pk")),
        *_rows(Pairing.objects.filter(round__tournament=tournament).order_by("pk")),
    ]
    return {
        "kind": "header",
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "exported_at": timezone.now(),
        "tournament": tournament.pk,
        "streams": streams,
        "rows": rows,
        "standings": standings_lines(tournament=tournament),
        # Words the events refer to, kept outside the log (eventstore.personal; erased ones
        # are not here): an import keeps them readable and their digests checkable.
        "texts": eventstore.personal_texts_export(stream_ids=list(streams)),
    }


# The export file's standings columns, in the file's order (format version 1: an older file
# holds them so; the importer compares its rebuilt standings with them): the projected
# standing columns (tournaments.projections.write.STANDING_COLUMNS) and the player, in an
# order of their own. A test holds the two to the same columns.
EXPORTED_STANDING_COLUMNS = (
    "rank", "player_id", "played", "match_wins", "games_won", "points_diff", "buchholz",
    "sonneborn_berger", "byes", "withdrawn",
)  # fmt: skip


def standings_lines(*, tournament: Tournament) -> list[list[Any]]:
    """The standings as plain rows, to compare an import's with the export's."""
    rows = Standing.objects.filter(tournament=tournament).order_by("rank", "player_id")
    return [list(row) for row in rows.values_list(*EXPORTED_STANDING_COLUMNS)]


def _players(tournament: Tournament, registrations: list[dict[str, Any]]) -> Any:
    in_matches = {r.get(k) for r in registrations for k in ("player1", "player2")} - {None}
    return (
        Player.objects.filter(
            Q(registrations__tournament=tournament)
            | Q(pk__in=Pairing.objects.filter(round__tournament=tournament).values("player1_id"))
            | Q(pk__in=Pairing.objects.filter(round__tournament=tournament).values("player2_id"))
            | Q(pk__in=in_matches)
        )
        .distinct()
        .order_by("pk")
    )


def _users(
    tournament: Tournament, registrations: list[dict[str, Any]], players: Any, clubs: Any
) -> Any:
    """Every account a row to import points at (club organisers included, so a club's
    organisers all travel with it)."""
    ids = {tournament.created_by_id}
    ids |= set(tournament.organisers.values_list("pk", flat=True))
    ids |= set(players.exclude(user=None).values_list("user_id", flat=True))
    ids |= set(Round.objects.filter(tournament=tournament).values_list("paired_by_id", flat=True))
    for registration in registrations:
        ids.add(registration.get("created_by"))
        ids.update(registration.get("organisers") or ())
    club_organisers = Club.organisers.through.objects.filter(club__in=clubs)
    ids |= set(club_organisers.values_list("user_id", flat=True))
    ids.discard(None)
    return get_user_model().objects.filter(pk__in=ids).order_by("pk")


def _rows(queryset: Any, fields: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """Rows as Django's serializer writes them: {"model", "pk", "fields"}."""
    if fields is None:
        return django_serializers.serialize("python", queryset)
    return django_serializers.serialize("python", queryset, fields=list(fields))
