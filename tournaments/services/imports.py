"""Import of a tournament exported by `tournaments.selectors.exports`
(`manage.py import_tournament`):
the rows the events need, then every event appended through the event store with the time
it was first recorded at, so that each stream's hash chain comes out exactly as exported
(checked event by event), then the read models rebuilt from the events by the same code as
`rebuild_projections` and `rebuild_standings`.

All or nothing, in one transaction. Refused, with nothing written, when the file is not
such an export, is cut short or altered (a hash that does not come out the same), or when
anything it holds already exists here (an id, a username, a club's name, a stream).

Nor does it link to anything already here (issue 32): every row's and every stream's
reference to an account, club, player, tournament, round or match is to one in the file
(`not_in_file` otherwise: an edited export pointing its tournament at this install's club
would have been rated in that club's list). The one exception is the operator's to make:
`link_club`, the id of a club here the tournament (and its players) may belong to, each
link reported in `ImportResult.linked`. A club's members not in the file are left out.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core import serializers as django_serializers
from django.core.management import call_command
from django.core.management.base import CommandError
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError
from django.db import DatabaseError, connection
from django.db.models import Q
from django.utils.translation import gettext_noop

import eventstore
from core.transactions import write_service
from games.selectors import match_outcomes
from players.models import Club, Player
from tournaments.models import Pairing, Registration, Round, Tournament
from tournaments.projections import pairing_results, standings_rebuild, tournament_state
from tournaments.selectors.exports import (
    FORMAT,
    FORMAT_VERSION,
    MATCH_STREAM_PREFIX,
    standings_lines,
)
from tournaments.services.import_events import (
    TournamentImportError,
    append_events,
    next_line,
)

# The order rows are saved in: what a row points at comes first. Rounds and pairings wait
# for the events (a pairing points at its match, which the match's events rebuild).
_BEFORE_EVENTS = ("auth.user", "players.club", "players.player", "tournaments.tournament",
                  "tournaments.registration")  # fmt: skip
_AFTER_EVENTS = ("tournaments.round", "tournaments.pairing")


@dataclass(frozen=True)
class ImportResult:
    tournament_id: int
    streams: int
    events: int
    users: int
    players: int
    standings_match: bool  # the standings rebuilt here are those of the export
    drift: list[str] = field(default_factory=list)  # where the rebuilt read models differ
    linked: list[str] = field(default_factory=list)  # rows linked to the club named to link


def tournament_import(
    *,
    lines: Iterable[str],
    progress: Callable[[int], None] | None = None,
    link_club: int | None = None,
) -> ImportResult:
    """Import one exported tournament from its JSON Lines (the module's docstring); raises
    TournamentImportError (nothing written) when it cannot. `link_club`: the id of a club
    here the file's rows may point at (the operator's explicit choice; reported)."""
    try:
        return _import(lines=iter(lines), progress=progress, link_club=link_club)
    except (DeserializationError, DatabaseError) as exc:
        # A row the file holds that this database refuses (all rolled back).
        message = gettext_noop("a row of the file was refused: %(error)s")
        raise TournamentImportError(message, code="bad_row", params={"error": exc}) from exc


@write_service
def _import(
    *, lines: Iterator[str], progress: Callable[[int], None] | None, link_club: int | None
) -> ImportResult:
    header = _header(next_line(lines, 1))
    rows = header["rows"]
    streams: dict[str, int] = header["streams"]
    _refuse_existing(rows, streams)
    links = _Links(rows, streams, link_club)
    rows = links.checked_rows()
    users = _save_rows([r for r in rows if r["model"] in _BEFORE_EVENTS])
    firsts: dict[str, dict[str, Any]] = {}
    events = append_events(lines, streams, progress, firsts)
    texts = [t for t in header.get("texts") or [] if t.get("stream_id") in streams]
    eventstore.personal_texts_import(texts=texts)  # words kept outside the log (issue 34)
    links.check_streams(firsts)
    _rebuild_matches(streams)
    _save_rows([r for r in rows if r["model"] in _AFTER_EVENTS])
    _reset_sequences()
    tournament = Tournament.objects.get(pk=header["tournament"])
    if tournament.version != streams.get(tournament.stream_id, 0):
        raise TournamentImportError(
            "the tournament's version is not its stream's last", code="bad_tournament"
        )
    drift = _drift(tournament)  # the exported rows against the events, before the rebuild
    standings_rebuild(tournament=tournament)  # every tournament row: the events' projection
    return ImportResult(
        tournament_id=tournament.pk,
        streams=len(streams),
        events=events,
        users=users.get("auth.user", 0),
        players=users.get("players.player", 0),
        standings_match=standings_lines(tournament=tournament) == header.get("standings"),
        drift=drift,
        linked=links.linked,
    )


def _header(line: dict[str, Any]) -> dict[str, Any]:
    if line.get("kind") != "header" or line.get("format") != FORMAT:
        raise TournamentImportError(
            gettext_noop("not a %(format)s file"), code="bad_format", params={"format": FORMAT}
        )
    if line.get("version") != FORMAT_VERSION:
        raise TournamentImportError(
            gettext_noop("export format version %(version)r; this install reads %(reads)s"),
            code="bad_format",
            params={"version": line.get("version"), "reads": FORMAT_VERSION},
        )
    streams, rows = line.get("streams"), line.get("rows")
    if (
        not isinstance(line.get("tournament"), int)
        or not isinstance(streams, dict)
        or not all(isinstance(k, str) and isinstance(v, int) and v > 0 for k, v in streams.items())
        or not isinstance(rows, list)
        or not all(isinstance(r, dict) and {"model", "pk", "fields"} <= set(r) for r in rows)
    ):
        raise TournamentImportError("the header is malformed", code="bad_format")
    allowed = {*_BEFORE_EVENTS, *_AFTER_EVENTS}
    unknown = sorted({str(r["model"]) for r in rows} - allowed)
    if unknown:
        raise TournamentImportError(
            gettext_noop("unexpected rows: %(models)s"),
            code="bad_format",
            params={"models": ", ".join(unknown)},
        )
    return line


def _refuse_existing(rows: list[dict[str, Any]], streams: dict[str, int]) -> None:
    """Nothing the file holds may exist here already: its ids, usernames, club names and
    slugs, streams."""
    models = {
        "auth.user": get_user_model(),
        "players.club": Club,
        "players.player": Player,
        "tournaments.tournament": Tournament,
        "tournaments.registration": Registration,
        "tournaments.round": Round,
        "tournaments.pairing": Pairing,
    }
    found = []
    for label, model in models.items():
        pks = [r["pk"] for r in rows if r["model"] == label]
        taken = sorted(model.objects.filter(pk__in=pks).values_list("pk", flat=True))
        if taken:
            found.append(f"{label} ids {taken[:5]}")
    usernames = [r["fields"].get("username") for r in rows if r["model"] == "auth.user"]
    taken_names = get_user_model().objects.filter(username__in=usernames)
    if taken_names.exists():
        found.append(f"usernames {sorted(taken_names.values_list('username', flat=True))[:5]}")
    clubs = [r["fields"] for r in rows if r["model"] == "players.club"]
    names, slugs = [c.get("name") for c in clubs], [c.get("slug") for c in clubs]
    if Club.objects.filter(Q(name__in=names) | Q(slug__in=slugs)).exists():
        found.append("clubs of the same name or slug")
    stored = [s for s in streams if eventstore.stream_version(stream_id=s) > 0]
    if stored:
        found.append(f"streams {stored[:3]}")
    if found:
        raise TournamentImportError(
            gettext_noop("import into an empty database: already here: %(found)s"),
            code="already_exists",
            params={"found": "; ".join(found)},
            status=409,
        )


# Each row's references: (field, the model it points at). Matches are the file's streams.
_REFERENCES = {
    "players.club": (("organisers", "auth.user"), ("members", "players.player")),
    "players.player": (("user", "auth.user"), ("club", "players.club")),
    "tournaments.tournament": (
        ("club", "players.club"), ("created_by", "auth.user"), ("organisers", "auth.user"),
    ),
    "tournaments.registration": (
        ("tournament", "tournaments.tournament"), ("player", "players.player"),
    ),
    "tournaments.round": (("tournament", "tournaments.tournament"), ("paired_by", "auth.user")),
    "tournaments.pairing": (
        ("round", "tournaments.round"), ("player1", "players.player"),
        ("player2", "players.player"), ("winner", "players.player"), ("match", "games.match"),
    ),
}  # fmt: skip


class _Links:
    """What the file's rows and streams point at must be in the file (or be the club the
    operator named to link); the module's docstring."""

    def __init__(self, rows: list[dict[str, Any]], streams: dict[str, int], club: int | None):
        self.rows, self.club, self.linked = rows, club, []
        self.ids: dict[str, set[Any]] = {}
        for row in rows:
            self.ids.setdefault(row["model"], set()).add(row["pk"])
        prefix = MATCH_STREAM_PREFIX
        self.ids["games.match"] = {s.removeprefix(prefix) for s in streams if s.startswith(prefix)}
        if club is not None:
            self.club_row = Club.objects.filter(pk=club).first()
            if self.club_row is None:
                raise TournamentImportError(
                    gettext_noop("no club with id %(club)s here to link to"),
                    code="club_not_found",
                    params={"club": club},
                )

    def checked_rows(self) -> list[dict[str, Any]]:
        """The rows, each reference checked; a club's members outside the file left out."""
        checked = []
        for row in self.rows:
            fields = dict(row["fields"])
            if row["model"] == "players.club":
                players = self.ids.get("players.player", set())
                fields["members"] = [m for m in fields.get("members") or () if m in players]
            for name, target in _REFERENCES.get(row["model"], ()):
                value = fields.get(name)
                for pk in value if isinstance(value, list) else [value]:
                    self._check(target, pk, f"{row['model']} {row['pk']} {name}")
            checked.append({**row, "fields": fields})
        return checked

    def check_streams(self, firsts: dict[str, dict[str, Any]]) -> None:
        """Who a stream's first event names: a match's players, creator and organisers; a
        tournament's club."""
        for stream_id, event in firsts.items():
            if stream_id.startswith(MATCH_STREAM_PREFIX):
                match = (event["metadata"] or {}).get("match") or {}
                for name in ("player1", "player2"):
                    self._check("players.player", match.get(name), f"{stream_id} {name}")
                for pk in [match.get("created_by"), *(match.get("organisers") or ())]:
                    self._check("auth.user", pk, f"{stream_id} organisers")
            elif event["type"] == "TournamentCreated":
                club = (event["data"] or {}).get("club")
                self._check("players.club", club, f"{stream_id} club")

    def _check(self, target: str, pk: Any, where: str) -> None:
        if pk is None or pk in self.ids.get(target, ()) or str(pk) in self.ids.get(target, ()):
            return
        if target == "players.club" and self.club is not None and pk == self.club:
            self.linked.append(f"{where} -> club {pk} ({self.club_row.name})")
            return
        raise _not_in_file(target, pk, where)


def _not_in_file(target: str, pk: Any, where: str) -> TournamentImportError:
    return TournamentImportError(
        gettext_noop(
            "%(where)s points at %(model)s %(pk)s, which is not in the file: an import links"
            " nothing already here unless the operator names the club (--link-club)"
        ),
        code="not_in_file",
        params={"where": where, "model": target, "pk": pk},
    )


def _save_rows(rows: list[dict[str, Any]]) -> dict[str, int]:
    """Save rows as exported (ids kept; accounts without a usable password)."""
    counts: dict[str, int] = {}
    for row in rows:
        if row["model"] == "auth.user":
            row = {**row, "fields": {**row["fields"], "password": make_password(None)}}
            for refused in ("is_staff", "is_superuser", "groups", "user_permissions"):
                row["fields"].pop(refused, None)
        for obj in django_serializers.deserialize("python", [row]):
            obj.save()
        counts[row["model"]] = counts.get(row["model"], 0) + 1
    return counts


def _rebuild_matches(streams: dict[str, int]) -> None:
    """The matches' read models from their events: `rebuild_projections --stream`, the
    command's own code (tournaments use games only through its selectors, services and
    signals), in this transaction, stream by stream (the global reader may not hand out
    this transaction's events yet while an older one runs)."""
    try:
        call_command(
            "rebuild_projections",
            *[f"--stream={s}" for s in streams if s.startswith(MATCH_STREAM_PREFIX)],
            no_progress=True,
            stdout=io.StringIO(),
        )
    except CommandError as exc:
        raise TournamentImportError(
            gettext_noop("a match could not be rebuilt: %(error)s"),
            code="bad_match",
            params={"error": exc},
        ) from exc
    prefix = MATCH_STREAM_PREFIX
    ids = [s.removeprefix(prefix) for s in streams if s.startswith(prefix)]
    missing = set(ids) - set(match_outcomes(match_ids=ids))
    if missing:
        raise TournamentImportError(
            gettext_noop("matches not rebuilt from their events: %(matches)s"),
            code="bad_match",
            params={"matches": sorted(missing)[:3]},
        )


def _reset_sequences() -> None:
    """Rows were saved with their ids: the next row made here must not reuse one."""
    models = [get_user_model(), Club, Player, Tournament, Registration, Round, Pairing]
    statements = connection.ops.sequence_reset_sql(no_style(), models)
    if statements:
        with connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)


def _drift(tournament: Tournament) -> list[str]:
    """Where the imported pairing rows disagree with the results folded from the events."""
    from_events = {
        key: (r.player1, r.player2, r.winner, r.games1, r.games2)
        for key, r in tournament_state(tournament=tournament).results.items()
    }
    rows = pairing_results(tournament=tournament)
    return [f"round {k[0]} table {k[1]}" for k in sorted(set(rows) | set(from_events))
            if rows.get(k) != from_events.get(k)]  # fmt: skip
