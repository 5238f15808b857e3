"""HGX 3: what a bracket adds to an individual tournament's exchange file (HGX 2; pure
Python, no Django). A knockout, a double elimination or a Swiss with a top cut is written as
HGX 3: HGX 2's records plus these (docs/explanation/exchange-format.md):

    092 <reset> <third place> <top cut> <Swiss rounds>
        the bracket's settings: a double elimination's grand final reset (1/0), a top
        cut's third-place match (1/0), its size (0: none) and its Swiss rounds (0: none)
    004 KKKK SSSS                          seed K is start number S (seed 1 first): a
                                           knockout's or a double elimination's seeds, a top
                                           cut's qualifiers
    005 RRR TTT SLOT                       round R's table T is the bracket's match SLOT
                                           (W1-1, L2-3, GF1, GF2; K1-1, 3P)
    006 SSSS SSSS                          a pair kept apart when the bracket was drawn
    007 NNNN SSSS                          the N-th withdrawal: start number S
    008 IIII SSSS SSSS                     a double elimination's first-round match I
                                           (W1-I): its two seats (0: empty, a bye)

A double elimination's match that needs no play (a bye, a walkover) has no table: the
bracket follows from the seeds, the results, the pairs kept apart and the withdrawals.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tournaments.domain.seeding import bracket_of, seeds_of
from tournaments.domain.state import TournamentState
from tournaments.exchange.hgx import ExchangeFormatError

VERSION = "HGX 3"
FORMATS = ("knockout", "double_elimination", "swiss")  # swiss: with a top cut
CODES = ("004", "005", "006", "007", "008")


@dataclass
class XBracket:
    reset: bool = True
    third_place: bool = False
    top_cut: int = 0
    swiss_rounds: int = 0
    seeds: list[int] = field(default_factory=list)  # start numbers, seed 1 first
    slots: dict[tuple[int, int], str] = field(default_factory=dict)  # (round, table) -> slot
    forbidden: list[tuple[int, int]] = field(default_factory=list)
    withdrawals: list[int] = field(default_factory=list)  # start numbers, in order
    first_round: list[tuple[int, int]] = field(default_factory=list)  # W1's seats (0: empty)


def is_bracket(state: TournamentState) -> bool:
    return state.format in ("knockout", "double_elimination") or bool(state.top_cut)


def bracket_of_state(state: TournamentState, start: dict[int, int]) -> XBracket:
    """A finished bracket's records, players by their start numbers (`start`)."""
    seeded = list(state.cut_seeds) if state.top_cut else seeds_of(state)
    first: list[tuple[int, int]] = []
    if state.format == "double_elimination":
        w1 = [m for m in bracket_of(state).matches if m.bracket == "W" and m.round == 1]
        first = [(start.get(m.players[0], 0), start.get(m.players[1], 0))
                 for m in sorted(w1, key=lambda m: m.index)]  # fmt: skip
    pairs = sorted(
        tuple(sorted((start[a], start[b])))
        for a, b in state.bracket_forbidden
        if a in start and b in start
    )
    return XBracket(
        reset=state.bracket_reset, third_place=state.third_place, top_cut=state.top_cut or 0,
        swiss_rounds=state.swiss_rounds or 0 if state.top_cut else 0,
        seeds=[start[p] for p in seeded if p in start],
        slots={(n, t.table): t.slot for n, r in sorted(state.rounds.items()) for t in r.tables
               if t.slot},
        forbidden=[(a, b) for a, b in pairs],
        withdrawals=[start[p] for p in state.withdrawals if p in start], first_round=first,
    )  # fmt: skip


def bracket_lines(b: XBracket) -> list[str]:
    lines = [f"092 {int(b.reset)} {int(b.third_place)} {b.top_cut} {b.swiss_rounds}"]
    lines += [f"004 {k:4d} {s:4d}" for k, s in enumerate(b.seeds, 1)]
    lines += [f"005 {r:3d} {t:3d} {slot}" for (r, t), slot in sorted(b.slots.items())]
    lines += [f"006 {a:4d} {c:4d}" for a, c in b.forbidden]
    lines += [f"007 {n:4d} {s:4d}" for n, s in enumerate(b.withdrawals, 1)]
    lines += [f"008 {i:4d} {a:4d} {c:4d}" for i, (a, c) in enumerate(b.first_round, 1)]
    return lines


def _ints(line: str, count: int) -> list[int]:
    fields = line[4:].split()
    if len(fields) != count:
        raise ExchangeFormatError(f"{line[:3]}: {count} fields")
    try:
        return [int(f) for f in fields]
    except ValueError as exc:
        raise ExchangeFormatError(f"{line[:3]}: not a number") from exc


def read_settings(b: XBracket, line: str) -> None:
    """A 092 record into `b`."""
    reset, third, cut, swiss = _ints(line, 4)
    b.reset, b.third_place, b.top_cut, b.swiss_rounds = reset == 1, third == 1, cut, swiss


def read_record(b: XBracket, line: str) -> None:
    """A 004 to 008 record into `b` (in file order: seeds, withdrawals, seats keep it)."""
    code = line[:3]
    if code == "005":
        fields = line[4:].split()
        if len(fields) != 3:
            raise ExchangeFormatError("005: round, table and slot")
        r, t = _ints(f"005 {fields[0]} {fields[1]}", 2)
        b.slots[(r, t)] = fields[2]
        return
    if code == "008":
        i, a, c = _ints(line, 3)
        if i != len(b.first_round) + 1:
            raise ExchangeFormatError(f"008: match {i} out of order")
        b.first_round.append((a, c))
        return
    a, c = _ints(line, 2)
    if code == "004":
        if a != len(b.seeds) + 1:
            raise ExchangeFormatError(f"004: seed {a} out of order")
        b.seeds.append(c)
    elif code == "006":
        b.forbidden.append((a, c))
    else:
        if a != len(b.withdrawals) + 1:
            raise ExchangeFormatError(f"007: withdrawal {a} out of order")
        b.withdrawals.append(c)
