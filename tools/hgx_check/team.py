"""HGX 1, a team event: read the file, check its boards, pairings, dealers and standings
(tools/check_exchange.py says what is checked)."""

from __future__ import annotations

from .common import BLOCK, FIRST, Unreadable, min_rematches, num

VERSION = "HGX 1"


def read(text):
    lines = text.splitlines()
    if not lines or lines[0].strip() != VERSION:
        raise Unreadable("line 1: not 'HGX 1', 'HGX 2' or 'HGX 3'")
    head, teams, matches, players = {}, {}, [], {}
    for n, line in enumerate(lines[1:], start=2):
        code, where = line[:3], f"line {n}"
        if code in ("012", "022", "032", "042", "052"):
            head[code] = line[4:].strip()
        elif code == "013":
            f = [num(v, where) for v in line[41:].split()]
            teams[num(line[4:8], where)] = {
                "name": line[9:41].rstrip(),
                "mp": f[0],
                "bp": f[1],
                "hp": f[2],
                "rank": f[3],
                "roster": f[4:],
            }
        elif code == "015":
            r, t, a, b = (num(v, where) for v in line[4:].split())
            matches.append((r, t, a, b))
        elif code == "001":
            start = num(line[4:8], where)
            blocks = {}
            rounds = (len(line) - FIRST + BLOCK - 1) // BLOCK
            for r in range(1, max(rounds, 0) + 1):
                block = line[FIRST + BLOCK * (r - 1) : FIRST + BLOCK * r]
                if block.strip():
                    f = block.split()
                    if len(f) != 7:
                        raise Unreadable(f"{where}: round {r}: seven fields")
                    blocks[r] = (
                        num(f[0], where),
                        num(f[1], where),
                        num(f[2], where),
                        f[3],
                        f[4],
                        num(f[5], where),
                        num(f[6], where),
                    )
            players[start] = {"team": num(line[56:60], where), "blocks": blocks}
        elif line.strip():
            raise Unreadable(f"{where}: unknown record {code!r}")
    for code in ("022", "032", "042", "052"):
        if code not in head:
            raise Unreadable(f"no {code} record")
    points = [num(v, "052") for v in head["052"].split()]
    if len(points) != 3:
        raise Unreadable("052: three match points")
    return {
        "format": head["022"],
        "rounds": num(head["032"], "032"),
        "boards": num(head["042"], "042"),
        "points": points,
        "teams": teams,
        "matches": matches,
        "players": players,
    }


def boards_of(x, bad):
    """(round, table, board) -> (player1, player2, dealer, winner, p1 points, p2 points)."""
    out = {}
    first = {(r, t): a for r, t, a, _ in x["matches"]}
    for start, p in x["players"].items():
        for r, (other, table, board, dealer, result, _games, points) in p["blocks"].items():
            mine = x["players"].get(other, {}).get("blocks", {}).get(r)
            if mine is None or mine[0] != start or mine[1:3] != (table, board):
                bad(
                    f"round {r}: player {start} names {other} at table {table} board {board},"
                    " who does not name them back"
                )
                continue
            if dealer not in "ds" or {dealer, mine[3]} != {"d", "s"}:
                bad(f"round {r} table {table} board {board}: not one dealer")
            if result not in "10=+-" or (result, mine[4]) not in (
                ("1", "0"),
                ("0", "1"),
                ("=", "="),
                ("+", "-"),
                ("-", "+"),
            ):
                bad(f"round {r} table {table} board {board}: results {result}/{mine[4]} disagree")
            if p["team"] != first.get((r, table)):
                continue  # written once, from team 1's side
            winner = start if result in "1+" else other if mine[4] in "1+" else None
            d = start if dealer == "d" else other
            out[(r, table, board)] = (start, other, d, winner, points, mine[6])
    return out


def check_pairings(x, bad):
    byes, played, rounds = {}, set(), {}
    for r, t, a, b in x["matches"]:
        rounds.setdefault(r, []).append((t, a, b))
    every = set(x["teams"])
    for r in sorted(rounds):
        seen = [v for _, a, b in rounds[r] for v in (a, b) if v]
        if sorted(seen) != sorted(every):
            bad(f"round {r}: not every team exactly once")
        paired = [frozenset((a, b)) for _, a, b in rounds[r] if b]
        again = sum(1 for p in paired if p in played)
        if x["format"] == "team_swiss" and again and len(seen) - len(byes) <= 21:
            field = [v for _, a, b in rounds[r] for v in (a, b) if v and b]
            fewest = min_rematches(field, frozenset(played))
            if again > fewest:
                bad(f"round {r}: {again} rematches where {fewest} would do")
        elif x["format"] == "team_round_robin" and again:
            bad(f"round {r}: a round robin pairs a rematch")
        played |= set(paired)
        for _, a, b in rounds[r]:
            if not b:
                if a in byes and len(byes) < len(every):
                    bad(f"round {r}: team {a} has a second bye before every team had one")
                byes[a] = byes.get(a, 0) + 1
    if x["format"] == "team_round_robin" and len(played) != len(every) * (len(every) - 1) // 2:
        bad("the round robin does not pair every two teams once")


def check_boards(x, boards, bad):
    team = {s: p["team"] for s, p in x["players"].items()}
    for r, t, a, b in x["matches"]:
        if not b:
            continue
        here = sorted(k[2] for k in boards if k[:2] == (r, t))
        if here != list(range(1, x["boards"] + 1)):
            bad(f"round {r} table {t}: boards {here}, not 1 to {x['boards']}")
        for k in here:
            p1, p2, dealer, *_ = boards[(r, t, k)]
            if (team[p1], team[p2]) != (a, b):
                bad(f"round {r} table {t} board {k}: not team {a}'s player against team {b}'s")
            if dealer != (p1 if k % 2 else p2):
                bad(f"round {r} table {t} board {k}: the dealer does not alternate")


def standings(x, boards):
    win, draw, loss = x["points"]
    acc = {t: [0, 0, 0] for t in x["teams"]}
    n = x["boards"]
    for r, t, a, b in x["matches"]:
        if not b:
            acc[a][0] += win
            acc[a][1] += n
            continue
        s = {a: [0, 0, 0], b: [0, 0, 0]}  # board wins, points, board count
        for k in range(1, n + 1):
            p1, p2, _, winner, h1, h2 = boards.get((r, t, k), (0, 0, 0, None, 0, 0))
            s[a][1] += h1
            s[b][1] += h2
            side = a if winner == p1 and winner else b if winner == p2 and winner else None
            if side:
                s[side][0] += 1
                s[side][2] += n - k + 1
        for me, them in ((a, b), (b, a)):
            mp = win if s[me] > s[them] else loss if s[me] < s[them] else draw
            acc[me][0] += mp
            acc[me][1] += s[me][0]
            acc[me][2] += s[me][1]
    order = sorted(acc, key=lambda t: (-acc[t][0], -acc[t][1], -acc[t][2], t))
    return {t: (*acc[t], rank) for rank, t in enumerate(order, 1)}


def check_team(text):
    """The failures found in an HGX 1 file (an empty list: it passes)."""
    problems = []
    x = read(text)
    boards = boards_of(x, problems.append)
    check_pairings(x, problems.append)
    check_boards(x, boards, problems.append)
    for t, (mp, bp, hp, rank) in sorted(standings(x, boards).items()):
        line = x["teams"][t]
        if (line["mp"], line["bp"], line["hp"], line["rank"]) != (mp, bp, hp, rank):
            problems.append(
                f"team {t}: the file says {line['mp']} MP, {line['bp']} BP, {line['hp']} points,"
                f" rank {line['rank']}; its results make {mp}, {bp}, {hp}, rank {rank}"
            )
    return problems
