"""Read an HGX 2 file, or an HGX 3 file (a bracket's, its seeds, slots, pairs kept apart
and withdrawals too), into this installation as an individual tournament whose standings
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
from tournaments.domain.commands import ForbidPair, ImportRound, Register, Withdraw
from tournaments.domain.events import PairingEntry, ResultEntry
from tournaments.exchange.bracket_records import FORMATS as BRACKET_FORMATS
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
    formats = BRACKET_FORMATS if x.bracket else FORMATS
    if x.format not in formats:
        raise _file_error(f"022: {x.format!r} is not one of {', '.join(formats)}")
    if x.bracket and x.format == "swiss" and x.bracket.top_cut not in (4, 8, 16):
        raise _file_error("092: a Swiss bracket is a top cut of 4, 8 or 16")
    if any(t not in TIEBREAK_CHOICES for t in x.tiebreaks):
        raise _file_error("062: an unknown tiebreak")
    if x.bye_points not in BYE_POINTS or x.bye_buchholz not in BYE_BUCHHOLZ:
        raise _file_error("072: unknown bye settings")
    starts = {p.start for p in x.players}
    named = {s for g in x.games for s in (g.player1, g.player2, g.winner) if s is not None}
    if x.bracket:
        b = x.bracket
        named |= {*b.seeds, *b.withdrawals, *(s for pair in b.forbidden for s in pair)}
    if named - starts or x.rounds < 1:
        raise _file_error("a round names a start number with no 001 record")
    return x


def _round(x: IndividualExchange, number: int, ids: dict[int, int]) -> ImportRound:
    games = sorted((g for g in x.games if g.round == number), key=lambda g: g.table)
    b = x.bracket
    slots = b.slots if b else {}
    pairings = tuple(
        PairingEntry(g.table, ids[g.player1], ids[g.player2] if g.player2 else None,
                     match_version=None, slot=slots.get((number, g.table)))
        for g in games
    )  # fmt: skip
    seeds: tuple[int, ...] = ()
    cut: tuple[int, ...] = ()
    if b and b.top_cut and number == b.swiss_rounds + 1:
        cut = tuple(ids[s] for s in b.seeds)
    elif b and not b.top_cut and number == 1:
        seeds = tuple(ids[s] for s in b.seeds)
    results = tuple(
        ResultEntry(number, g.table, ids[g.player1], ids[g.player2] if g.player2 else None,
                    ids[g.winner] if g.winner is not None else None, g.games1, g.games2,
                    g.points1, g.points2, None, g.result)
        for g in games
    )  # fmt: skip
    return ImportRound(number=number, pairings=pairings, results=results, rounds=x.rounds,
                       seeds=seeds, top_cut=cut)  # fmt: skip


@write_service
def tournament_exchange_import(*, text: str, by: AbstractBaseUser, name: str = "") -> Tournament:
    """A new finished tournament from an HGX 2 or 3 file; ValidationError (exchange_file) for a
    file that is not one, a domain error for a round the rules refuse; nothing written
    either way."""
    x = _parsed(text)
    b = x.bracket
    swiss_rounds = b.swiss_rounds if b and b.top_cut else x.rounds
    tournament = tournament_create.in_tx(
        name=name or x.name or "?", format=x.format, created_by=by,
        rounds=swiss_rounds if x.format == "swiss" else None, check_in_required=False,
        play_mode="table", tiebreaks=list(x.tiebreaks), bye_points=x.bye_points,
        bye_buchholz=x.bye_buchholz, bracket_reset=b.reset if b else True,
        top_cut=b.top_cut or None if b else None, third_place=b.third_place if b else False,
    )  # fmt: skip
    ids = exchange_players(x)
    write = tournament_load(tournament_id=tournament.pk)
    commands: list = [Register(player=ids[p.start]) for p in x.players]
    commands += [ForbidPair(players=(ids[p], ids[q])) for p, q in b.forbidden] if b else []
    rounds = [_round(x, n, ids) for n in range(1, x.rounds + 1)]
    withdrawals = [p.start for p in x.players if p.withdrawn]
    if b and x.format != "swiss":
        # A bracket's withdrawals before its last round, in their order: its walkovers are
        # then the source's when the last round's end asks whether the bracket is over.
        withdrawn = [Withdraw(player=ids[s]) for s in b.withdrawals]
        commands += [*rounds[:-1], *withdrawn, *rounds[-1:]]
    else:
        commands += rounds
        commands += [Withdraw(player=ids[s]) for s in (b.withdrawals if b else withdrawals)]
    for command in commands:
        tournament_save(write, decide(write.state, command), by=by)
    write.row.refresh_from_db()
    return write.row
