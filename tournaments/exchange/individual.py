"""HGX 2: an individual tournament's exchange file (pure Python: no Django). HGX 2 is
HGX 1 (tournaments.exchange.hgx: team events, still written and read as HGX 1) plus the
records of an individual tournament; a bracket's (a knockout, a double elimination, a Swiss
with a top cut) is HGX 3: these records and tournaments.exchange.bracket_records';
docs/explanation/exchange-format.md says them all.

    HGX 2
    012 <name>
    022 <format>                           swiss or round_robin
    032 <rounds>                           rounds played
    062 <tiebreak> <tiebreak> ...          the standings' tiebreak order
    072 <bye points> <bye Buchholz>        win|nothing  nothing|virtual_opponent
    001 SSSS NAME(33) FEDID(12) RRRR       a player: start number, name, federation id,
        rank, then one 25-character block per round from column 65, as HGX 1's:
        " OOOO TTT BB D R GG PPPPP" (board always 1; a bye: opponent 0, dealer "-",
        result "U"); all blank: not paired that round
    002 SSSS RRRR PPPP WWW PPP GGG DDDDDD BBBBB.B SSSSS.S MMMMM.M YY W
        a player's standing: start number, rank, place, match wins, played, games won,
        points difference, Buchholz, Sonneborn-Berger, median Buchholz, byes, withdrawn
        (1/0)

Start numbers follow the source installation's player ids (the standings' last tiebreak),
so a reader that keeps their order keeps the standings' order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tournaments.domain.seeding import seeds_of
from tournaments.domain.standings import standings_of, tiebreak_order
from tournaments.domain.state import TournamentState
from tournaments.exchange.bracket_records import (
    CODES,
    XBracket,
    bracket_lines,
    bracket_of_state,
    is_bracket,
    read_record,
    read_settings,
)
from tournaments.exchange.bracket_records import VERSION as BRACKET_VERSION
from tournaments.exchange.hgx import ExchangeFormatError

VERSION = "HGX 2"
FORMATS = ("swiss", "round_robin")  # HGX 2's; a bracket's: bracket_records.FORMATS
BLOCK, FIRST_BLOCK = 25, 64
_CHARS = {"played": ("1", "0"), "forfeit": ("+", "-")}


@dataclass(frozen=True)
class XGame:
    """A table of a round: start numbers (player2 None: a bye); player1 deals first."""

    round: int
    table: int
    player1: int
    player2: int | None
    winner: int | None
    games1: int = 0
    games2: int = 0
    points1: int = 0
    points2: int = 0
    result: str = "played"  # played, forfeit, bye


@dataclass(frozen=True)
class XEntrant:
    start: int
    name: str
    federation_id: str
    rank: int = 0
    place: int = 0
    match_wins: int = 0
    played: int = 0
    games_won: int = 0
    points_diff: int = 0
    buchholz: float = 0.0
    sonneborn_berger: float = 0.0
    median_buchholz: float = 0.0
    byes: int = 0
    withdrawn: bool = False


@dataclass
class IndividualExchange:
    name: str
    format: str
    rounds: int
    tiebreaks: tuple[str, ...]
    bye_points: str = "win"
    bye_buchholz: str = "nothing"
    players: list[XEntrant] = field(default_factory=list)
    games: list[XGame] = field(default_factory=list)
    bracket: XBracket | None = None  # a bracket's records: the file is HGX 3


def exchange_of_tournament(
    state: TournamentState, *, name: str, names: dict[int, str], feds: dict[int, str]
) -> IndividualExchange:
    """A finished tournament's state as HGX 2, a bracket's as HGX 3 (its standings as the
    domain computes them)."""
    # A double elimination's seed who never sat at a table (a bye, then a withdrawal) is a
    # player of the file too, unranked (rank 0): the bracket needs every seed.
    unseated = set(seeds_of(state)) - state.paired
    if state.format != "double_elimination":
        unseated = set()
    start = {p: i for i, p in enumerate(sorted(state.paired | unseated), 1)}
    x = IndividualExchange(name=name, format=state.format, rounds=state.current_round,
                           tiebreaks=tuple(tiebreak_order(state)), bye_points=state.bye_points,
                           bye_buchholz=state.bye_buchholz)  # fmt: skip
    withdrawn = state.withdrawn
    for s in standings_of(state):
        x.players.append(XEntrant(
            start[s.player], names.get(s.player, ""), feds.get(s.player, ""), s.rank, s.place,
            s.match_wins, s.played, s.games_won, s.points_diff, s.buchholz, s.sonneborn_berger,
            s.median_buchholz, s.byes, s.player in withdrawn,
        ))  # fmt: skip
    x.players += [XEntrant(start[p], names.get(p, ""), feds.get(p, ""), withdrawn=p in withdrawn)
                  for p in unseated]  # fmt: skip
    x.players.sort(key=lambda p: p.start)
    for (number, _), r in sorted(state.results.items()):
        x.games.append(XGame(
            number, r.table, start[r.player1], start[r.player2] if r.player2 else None,
            start[r.winner] if r.winner is not None else None, r.games1, r.games2, r.points1,
            r.points2, "bye" if r.player2 is None else r.result or "played",
        ))  # fmt: skip
    if is_bracket(state):
        x.bracket = bracket_of_state(state, start)
    return x


def _block(g: XGame, me: int) -> str:
    if g.player2 is None:
        return f" {0:4d} {g.table:3d} {0:2d} - U {g.games1:2d} {g.points1:5d}"
    first = me == g.player1
    other, games, points = (g.player2, g.games1, g.points1) if first else (g.player1, g.games2,
                                                                          g.points2)  # fmt: skip
    won, lost = _CHARS.get(g.result, _CHARS["played"])
    result = "=" if g.winner is None else won if g.winner == me else lost
    dealer = "d" if first else "s"
    return f" {other:4d} {g.table:3d} {1:2d} {dealer} {result} {games:2d} {points:5d}"


def write_individual(x: IndividualExchange) -> str:
    lines = [BRACKET_VERSION if x.bracket else VERSION, f"012 {x.name}", f"022 {x.format}",
             f"032 {x.rounds}", "062 " + " ".join(x.tiebreaks),
             f"072 {x.bye_points} {x.bye_buchholz}"]  # fmt: skip
    records = bracket_lines(x.bracket) if x.bracket else []
    lines += records[:1]  # 092, a header
    blocks: dict[int, dict[int, str]] = {p.start: {} for p in x.players}
    for g in x.games:
        for me in (g.player1, g.player2):
            if me is not None:
                blocks[me][g.round] = _block(g, me)
    for p in x.players:
        line = f"001 {p.start:4d} {p.name[:33]:<33} {p.federation_id[:12]:>12} {p.rank:4d}"
        line = line.ljust(FIRST_BLOCK)
        for r in range(1, x.rounds + 1):
            line += blocks[p.start].get(r, " " * BLOCK)
        lines.append(line.rstrip())
    for p in x.players:
        lines.append(
            f"002 {p.start:4d} {p.rank:4d} {p.place:4d} {p.match_wins:3d} {p.played:3d}"
            f" {p.games_won:3d} {p.points_diff:6d} {p.buchholz:7.1f} {p.sonneborn_berger:7.1f}"
            f" {p.median_buchholz:7.1f} {p.byes:2d} {int(p.withdrawn)}"
        )
    return "\n".join(lines + records[1:]) + "\n"


def _int(text: str, where: str) -> int:
    try:
        return int(text)
    except ValueError as exc:
        raise ExchangeFormatError(f"{where}: not a number: {text!r}") from exc


def _float(text: str, where: str) -> float:
    try:
        return float(text)
    except ValueError as exc:
        raise ExchangeFormatError(f"{where}: not a number: {text!r}") from exc


def parse_individual(text: str) -> IndividualExchange:  # noqa: C901 - one record a branch
    lines = text.splitlines()
    if not lines or lines[0].strip() not in (VERSION, BRACKET_VERSION):
        raise ExchangeFormatError(f"line 1: not {VERSION!r} or {BRACKET_VERSION!r}")
    bracket = XBracket() if lines[0].strip() == BRACKET_VERSION else None
    head: dict[str, str] = {}
    players: dict[int, XEntrant] = {}
    standing: dict[int, list[str]] = {}
    blocks: dict[tuple[int, int], dict[int, list[str]]] = {}
    for n, line in enumerate(lines[1:], start=2):
        code, where = line[:3], f"line {n}"
        if code in ("012", "022", "032", "062", "072"):
            head[code] = line[4:].strip()
        elif code == "001":
            start = _int(line[4:8], where)
            players[start] = XEntrant(start, line[9:42].rstrip(), line[43:55].strip(),
                                      _int(line[56:60], where))  # fmt: skip
            r = 0
            while FIRST_BLOCK + BLOCK * r < len(line):
                block = line[FIRST_BLOCK + BLOCK * r : FIRST_BLOCK + BLOCK * (r + 1)]
                r += 1
                if not block.strip():
                    continue
                f = block.split()
                if len(f) != 7:
                    raise ExchangeFormatError(f"{where}: round {r}: seven fields")
                blocks.setdefault((r, _int(f[1], where)), {})[start] = f
        elif code == "002":
            f = line[4:].split()
            if len(f) != 12:
                raise ExchangeFormatError(f"{where}: twelve fields")
            standing[_int(f[0], where)] = f
        elif bracket is not None and code in ("092", *CODES):
            try:
                (read_settings if code == "092" else read_record)(bracket, line)
            except ExchangeFormatError as exc:
                raise ExchangeFormatError(f"{where}: {exc}") from exc
            head.setdefault(code, "")
        elif line.strip():
            raise ExchangeFormatError(f"{where}: unknown record {code!r}")
    for code in ("022", "032", "062", "072", *(("092",) if bracket else ())):
        if code not in head:
            raise ExchangeFormatError(f"no {code} record")
    bye = head["072"].split()
    if len(bye) != 2:
        raise ExchangeFormatError("072: bye points and bye Buchholz")
    x = IndividualExchange(name=head.get("012", ""), format=head["022"],
                           rounds=_int(head["032"], "032"), tiebreaks=tuple(head["062"].split()),
                           bye_points=bye[0], bye_buchholz=bye[1], bracket=bracket)  # fmt: skip
    for start in sorted(players):
        p, f = players[start], standing.get(start)
        if f is None:
            raise ExchangeFormatError(f"player {start}: no 002 record")
        w = f"player {start}"
        x.players.append(XEntrant(
            start, p.name, p.federation_id, _int(f[1], w), _int(f[2], w), _int(f[3], w),
            _int(f[4], w), _int(f[5], w), _int(f[6], w), _float(f[7], w), _float(f[8], w),
            _float(f[9], w), _int(f[10], w), f[11] == "1",
        ))  # fmt: skip
    x.games = [_game(r, t, sides) for (r, t), sides in sorted(blocks.items())]
    return x


def _game(r: int, table: int, sides: dict[int, list[str]]) -> XGame:
    where = f"round {r} table {table}"
    if len(sides) == 1:
        ((start, f),) = sides.items()
        if f[4] != "U":
            raise ExchangeFormatError(f"{where}: one player and no bye")
        return XGame(r, table, start, None, start, _int(f[5], where), 0, _int(f[6], where), 0,
                     "bye")  # fmt: skip
    if len(sides) != 2:
        raise ExchangeFormatError(f"{where}: two players")
    (s1, f1), (s2, f2) = sorted(sides.items(), key=lambda kv: kv[1][3] != "d")
    if f1[3] != "d" or f2[3] != "s" or _int(f1[0], where) != s2 or _int(f2[0], where) != s1:
        raise ExchangeFormatError(f"{where}: the two players do not name each other")
    pair = (f1[4], f2[4])
    outcomes = {("1", "0"): s1, ("0", "1"): s2, ("+", "-"): s1, ("-", "+"): s2, ("=", "="): None}
    if pair not in outcomes:
        raise ExchangeFormatError(f"{where}: results {pair[0]}/{pair[1]} disagree")
    return XGame(r, table, s1, s2, outcomes[pair], _int(f1[5], where), _int(f2[5], where),
                 _int(f1[6], where), _int(f2[6], where),
                 "forfeit" if "+" in pair else "played")  # fmt: skip
