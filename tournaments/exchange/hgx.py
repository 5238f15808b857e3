"""HGX 1: write and read the results exchange file (pure Python: no Django).

The format, line by line (docs/explanation/exchange-format.md; tools/check_exchange.py
reads it on its own, standard library only):

    HGX 1                                  the format and its version
    012 <name>                             the event's name
    022 <format>                           team_round_robin or team_swiss
    032 <rounds>                           rounds played
    042 <boards>                           boards per team match
    052 <win> <draw> <loss>                match points of a team match
    013 TTTT NAME(32) MMMM BBBB HHHHHH RRRR SSSS SSSS ...
        a team: number, name, match points, board points, Hollywood points, rank, then
        its roster's start numbers in board order
    015 RRR TTT AAAA BBBB                  a team match: round, table, team 1, team 2
                                           (0000: a bye to team 1)
    001 SSSS NAME(33) FEDID(12) TTTT       a player: start number, name, federation id,
        then one 25-character block per round from column 64:
        " OOOO TTT BB D R GG PPPPP": opponent's start number, table, board, dealer
        (d: dealt first, s: second), result (1 won, 0 lost, = no winner, + won by forfeit,
        - lost by forfeit), games won, Hollywood points; all blank: not at a board.

Names are written as given, cut to their field; every other field is right-aligned.
"""

from __future__ import annotations

from dataclasses import dataclass, field

VERSION = "HGX 1"
BLOCK = 25
FIRST_BLOCK = 64  # 0-based column where round 1's block starts


class ExchangeFormatError(ValueError):
    """A file that is not HGX 1 (the line and what is wrong)."""


@dataclass(frozen=True)
class XBoard:
    round: int
    table: int
    board: int
    player1: int  # start numbers: player1 is team 1's
    player2: int
    dealer: int  # start number
    winner: int | None
    games1: int
    games2: int
    points1: int
    points2: int
    forfeit: bool = False


@dataclass(frozen=True)
class XTeam:
    number: int
    name: str
    roster: tuple[int, ...]  # start numbers, board order
    match_points: int = 0
    board_points: int = 0
    hollywood_points: int = 0
    rank: int = 0


@dataclass(frozen=True)
class XPlayer:
    start: int
    name: str
    federation_id: str
    team: int


@dataclass
class Exchange:
    name: str
    format: str
    rounds: int
    boards: int
    match_points: tuple[int, int, int]
    teams: list[XTeam] = field(default_factory=list)
    players: list[XPlayer] = field(default_factory=list)
    matches: list[tuple[int, int, int, int | None]] = field(default_factory=list)
    results: list[XBoard] = field(default_factory=list)


def _result_char(won: bool | None, forfeit: bool) -> str:
    if won is None:
        return "="
    return ("+" if won else "-") if forfeit else ("1" if won else "0")


def write(x: Exchange) -> str:
    lines = [VERSION, f"012 {x.name}", f"022 {x.format}", f"032 {x.rounds}", f"042 {x.boards}"]
    lines.append("052 " + " ".join(str(p) for p in x.match_points))
    for t in x.teams:
        head = f"013 {t.number:4d} {t.name[:32]:<32} {t.match_points:4d} {t.board_points:4d}"
        head += f" {t.hollywood_points:6d} {t.rank:4d}"
        lines.append(head + "".join(f" {s:4d}" for s in t.roster))
    for r, table, a, b in x.matches:
        lines.append(f"015 {r:3d} {table:3d} {a:4d} {b or 0:4d}")
    blocks: dict[int, dict[int, str]] = {p.start: {} for p in x.players}
    for b in x.results:
        for me, other, games, points, won in (
            (b.player1, b.player2, b.games1, b.points1, b.winner == b.player1),
            (b.player2, b.player1, b.games2, b.points2, b.winner == b.player2),
        ):
            outcome = None if b.winner is None else won
            dealer = "d" if b.dealer == me else "s"
            blocks[me][b.round] = (
                f" {other:4d} {b.table:3d} {b.board:2d} {dealer} "
                f"{_result_char(outcome, b.forfeit)} {games:2d} {points:5d}"
            )
    for p in x.players:
        line = f"001 {p.start:4d} {p.name[:33]:<33} {p.federation_id[:12]:>12} {p.team:4d}"
        line = line.ljust(FIRST_BLOCK)
        for r in range(1, x.rounds + 1):
            line += blocks[p.start].get(r, " " * BLOCK)
        lines.append(line.rstrip())
    return "\n".join(lines) + "\n"


def _int(text: str, where: str) -> int:
    try:
        return int(text)
    except ValueError as exc:
        raise ExchangeFormatError(f"{where}: not a number: {text!r}") from exc


def parse(text: str) -> Exchange:
    lines = text.splitlines()
    if not lines or lines[0].strip() != VERSION:
        raise ExchangeFormatError(f"line 1: not {VERSION!r}")
    head: dict[str, str] = {}
    x = Exchange(name="", format="", rounds=0, boards=0, match_points=(2, 1, 0))
    rows: list[tuple[int, str]] = []
    for n, line in enumerate(lines[1:], start=2):
        code, rest = line[:3], line[4:]
        if code in ("012", "022", "032", "042", "052"):
            head[code] = rest.strip()
        elif code in ("013", "015", "001"):
            rows.append((n, line))
        elif line.strip():
            raise ExchangeFormatError(f"line {n}: unknown record {code!r}")
    x.name, x.format = head.get("012", ""), head.get("022", "")
    x.rounds, x.boards = _int(head.get("032", ""), "032"), _int(head.get("042", ""), "042")
    points = [_int(p, "052") for p in head.get("052", "").split()]
    if len(points) != 3:
        raise ExchangeFormatError("052: three match points (win, draw, loss)")
    x.match_points = (points[0], points[1], points[2])
    found: dict[tuple[int, int], dict[int, tuple[int, str, str, int, int]]] = {}
    for n, line in rows:
        where = f"line {n}"
        if line.startswith("013"):
            fields = line[41:].split()
            nums = [_int(f, where) for f in fields]
            x.teams.append(XTeam(_int(line[4:8], where), line[9:41].rstrip(), tuple(nums[4:]),
                                 *nums[:4]))  # fmt: skip
        elif line.startswith("015"):
            r, t, a, b = (_int(f, where) for f in line[4:].split())
            x.matches.append((r, t, a, b or None))
        else:
            start = _int(line[4:8], where)
            x.players.append(XPlayer(start, line[9:42].rstrip(), line[43:55].strip(),
                                     _int(line[56:60], where)))  # fmt: skip
            for r in range(1, x.rounds + 1):
                block = line[FIRST_BLOCK + BLOCK * (r - 1) : FIRST_BLOCK + BLOCK * r]
                if not block.strip():
                    continue
                f = block.split()
                if len(f) != 7:
                    raise ExchangeFormatError(f"{where}: round {r}: seven fields")
                other, table, board = (_int(v, where) for v in f[:3])
                key = (r, table * 100 + board)
                found.setdefault(key, {})[start] = (other, f[3], f[4], _int(f[5], where),
                                                    _int(f[6], where))  # fmt: skip
    x.results = _boards(x, found)
    return x


def _boards(x: Exchange, found: dict) -> list[XBoard]:
    team_of = {p.start: p.team for p in x.players}
    first = {(r, t): a for r, t, a, _ in x.matches}
    out = []
    for (r, key), sides in sorted(found.items()):
        table, board = divmod(key, 100)
        if len(sides) != 2:
            raise ExchangeFormatError(f"round {r} table {table} board {board}: two players")
        (s1, v1), (s2, v2) = sorted(sides.items())
        if team_of.get(s2) == first.get((r, table)):
            (s1, v1), (s2, v2) = (s2, v2), (s1, v1)
        winner = s1 if v1[2] in "1+" else s2 if v2[2] in "1+" else None
        out.append(XBoard(r, table, board, s1, s2, s1 if v1[1] == "d" else s2, winner,
                          v1[3], v2[3], v1[4], v2[4], v1[2] in "+-"))  # fmt: skip
    return out
