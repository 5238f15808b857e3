"""Read an HGX 2 file into this installation as an individual tournament whose standings
are the file's: its players linked by federation id where a member list gave one, else
made anew under the file's names (in start-number order, so that the standings' last
tiebreak, the player id, orders them as the file does), each round imported as it was
played (tournaments.domain ImportRound: checked, never paired again), and the players
the file marks withdrawn withdrawn once it is over."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from core.errors import ValidationError
from core.transactions import write_service
from tournaments.domain import decide
from tournaments.domain.commands import ImportRound, Register, Withdraw
from tournaments.domain.events import PairingEntry, ResultEntry
from tournaments.exchange.hgx import ExchangeFormatError
from tournaments.exchange.imports import exchange_players
from tournaments.exchange.individual import (
    FORMATS,
    IndividualExchange,
    parse_individual,
)
from tournaments.models import Tournament
from tournaments.pairing.standings import BYE_BUCHHOLZ, BYE_POINTS, TIEBREAK_CHOICES
from tournaments.repository import tournament_load, tournament_save
from tournaments.services import tournament_create


def _file_error(problem: str) -> ValidationError:
    return ValidationError(
        "not a results exchange file: %(problem)s", code="exchange_file",
        params={"problem": problem},
    )  # fmt: skip


def _parsed(text: str) -> IndividualExchange:
    try:
        x = parse_individual(text)
    except ExchangeFormatError as exc:
        raise _file_error(str(exc)) from exc
    if x.format not in FORMATS:
        raise _file_error(f"022: {x.format!r} is not one of {', '.join(FORMATS)}")
    if any(t not in TIEBREAK_CHOICES for t in x.tiebreaks):
        raise _file_error("062: an unknown tiebreak")
    if x.bye_points not in BYE_POINTS or x.bye_buchholz not in BYE_BUCHHOLZ:
        raise _file_error("072: unknown bye settings")
    starts = {p.start for p in x.players}
    named = {s for g in x.games for s in (g.player1, g.player2, g.winner) if s is not None}
    if named - starts or x.rounds < 1:
        raise _file_error("a round names a start number with no 001 record")
    return x


def _round(x: IndividualExchange, number: int, ids: dict[int, int]) -> ImportRound:
    games = sorted((g for g in x.games if g.round == number), key=lambda g: g.table)
    pairings = tuple(
        PairingEntry(g.table, ids[g.player1], ids[g.player2] if g.player2 else None,
                     match_version=None)
        for g in games
    )  # fmt: skip
    results = tuple(
        ResultEntry(number, g.table, ids[g.player1], ids[g.player2] if g.player2 else None,
                    ids[g.winner] if g.winner is not None else None, g.games1, g.games2,
                    g.points1, g.points2, None, g.result)
        for g in games
    )  # fmt: skip
    return ImportRound(number=number, pairings=pairings, results=results, rounds=x.rounds)


@write_service
def tournament_exchange_import(*, text: str, by: AbstractBaseUser, name: str = "") -> Tournament:
    """A new finished tournament from an HGX 2 file; ValidationError (exchange_file) for a
    file that is not one, a domain error for a round the rules refuse; nothing written
    either way."""
    x = _parsed(text)
    tournament = tournament_create.in_tx(
        name=name or x.name or "?", format=x.format, created_by=by,
        rounds=x.rounds if x.format == "swiss" else None, check_in_required=False,
        play_mode="table", tiebreaks=list(x.tiebreaks), bye_points=x.bye_points,
        bye_buchholz=x.bye_buchholz,
    )  # fmt: skip
    ids = exchange_players(x)
    write = tournament_load(tournament_id=tournament.pk)
    commands: list = [Register(player=ids[p.start]) for p in x.players]
    commands += [_round(x, n, ids) for n in range(1, x.rounds + 1)]
    commands += [Withdraw(player=ids[p.start]) for p in x.players if p.withdrawn]
    for command in commands:
        tournament_save(write, decide(write.state, command), by=by)
    write.row.refresh_from_db()
    return write.row
