"""Read an HGX 1 file into this installation as a team event whose standings are the
file's: its teams registered with their rosters (players linked by federation id where a
member list gave one, else made anew under the file's names), each round imported as it
was played (tournaments.teams.domain ImportRound: checked, not re-paired)."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from core.errors import ValidationError
from core.transactions import write_service
from players.services import player_create_in_tx
from tournaments.exchange.hgx import Exchange, ExchangeFormatError, parse
from tournaments.federation.selectors import players_by_federation_id
from tournaments.teams.domain import decide
from tournaments.teams.domain.commands import CreateTeamEvent, ImportRound, RegisterTeam
from tournaments.teams.domain.events import BoardEntry, BoardResult, TeamPairingEntry
from tournaments.teams.models import TeamEvent
from tournaments.teams.repository import team_event_new, team_event_save
from tournaments.teams.services import require_creator


def exchange_players(x: Any) -> dict[int, int]:
    """Start number -> player id: by federation id where one links, else a new player (a
    team event's file or an individual tournament's: both list `players`)."""
    linked = players_by_federation_id(ids=[p.federation_id for p in x.players if p.federation_id])
    out = {}
    for p in x.players:
        found = linked.get(p.federation_id) if p.federation_id else None
        out[p.start] = found if found is not None else player_create_in_tx(name=p.name or "?").pk
    return out


def _round(x: Exchange, number: int, ids: dict[int, int]) -> ImportRound:
    pairings, results = [], []
    for r, table, a, b in sorted(x.matches):
        if r != number:
            continue
        boards = tuple(
            BoardEntry(xb.board, ids[xb.player1], ids[xb.player2], str(uuid.uuid4()),
                       ids[xb.dealer])
            for xb in x.results if xb.round == r and xb.table == table
        )  # fmt: skip
        pairings.append(TeamPairingEntry(table, a, b, boards))
    for xb in x.results:
        if xb.round == number:
            results.append(BoardResult(
                number, xb.table, xb.board, ids[xb.winner] if xb.winner else None,
                xb.games1, xb.games2, xb.points1, xb.points2,
                "forfeit" if xb.forfeit else "played",
            ))  # fmt: skip
    return ImportRound(number, tuple(pairings), tuple(results), x.rounds)


@write_service
def team_event_import(*, text: str, by: AbstractBaseUser, name: str = "") -> TeamEvent:
    """A new team event from an HGX 1 file; ValidationError (reason exchange_file) for a
    file that is not one, and nothing written."""
    require_creator(by, None)
    try:
        x = parse(text)
    except ExchangeFormatError as exc:
        raise ValidationError(
            "not a results exchange file: %(problem)s", code="exchange_file",
            params={"problem": str(exc)},
        ) from exc  # fmt: skip
    ids = exchange_players(x)
    write = team_event_new(name=name or x.name, format=x.format, club_id=None, created_by=by)
    create = CreateTeamEvent(format=x.format, name=name or x.name, club=None, boards=x.boards,
                             rounds=x.rounds, match_points=x.match_points)  # fmt: skip
    commands: list = [create]
    commands += [
        RegisterTeam(name=t.name, club=None, captain=None, roster=tuple(ids[s] for s in t.roster))
        for t in sorted(x.teams, key=lambda t: t.number)
    ]
    commands += [_round(x, n, ids) for n in range(1, x.rounds + 1)]
    for command in commands:
        team_event_save(write, decide(write.state, command), by=by)
    write.row.refresh_from_db()
    return write.row
