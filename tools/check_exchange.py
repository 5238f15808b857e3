#!/usr/bin/env python3
"""Check a results exchange file (HGX 1: a team event; HGX 2: an individual tournament)
without trusting the server: Python 3.10+, standard library only.

    python3 -I tools/check_exchange.py event.hgx

The file comes from `manage.py export_exchange ID` (a team event) or `manage.py
export_tournament_exchange ID` (a Swiss or round robin);
docs/explanation/exchange-format.md describes both. Exit status 0 when every check passes,
1 when one fails (each failure is printed), 2 for a file that cannot be read.

An individual tournament (HGX 2; check_individual below):

  1. the form: the version line, the header records, the 001 and 002 records;
  2. the tables: each table named alike by both its players (opponent, table), player 1
     dealing first, results that agree, a bye alone at its table, nobody twice a round;
  3. the pairing rules: a round robin never pairs two players twice (and pairs every two
     once when nobody withdrew); a Swiss makes no more rematches in a round than the fewest
     any pairing of that round's players could (exactly, for up to 20 players); nobody has
     a second bye while someone paired that round has had none;
  4. the dealers: in a round robin each player deals first in half their matches (rounded
     either way); in a Swiss whoever deals first had dealt first no more often than the
     opponent before that round;
  5. the standings: recomputed from the results with the file's tiebreaks (062) and bye
     settings (072) — match wins, played, games won, points difference, Buchholz,
     Sonneborn-Berger, median Buchholz, byes, rank and shared place — and compared with
     every 002 record and the 001 ranks.

A team event (HGX 1) is checked for:

  1. the form: the version line, the header records, fixed fields that are numbers;
  2. the boards: each board named by both its players alike (opponent, table, board), one
     dealer, results that agree (one won, the other lost, or no winner on both);
  3. the team matches: every team once a round (a bye: team 0000), `boards` boards each,
     board k between the two teams' players, team 1's player listed first;
  4. the pairing rules: a team round robin meets every pair once; a team Swiss makes no
     more rematches in a round than the fewest any pairing of that round's teams could
     (computed here, exactly, for up to 20 teams); byes at most once a team until every
     team has had one;
  5. the dealers: on every team match team 1's player deals first on odd boards and team
     2's on even boards (the rules' alternation);
  6. the standings: recomputed from the board results (a team match won on board wins,
     then Hollywood points, then the board count; match points as the file's 052; bye:
     a won match with every board) and compared with each team's 013 line.
"""

from __future__ import annotations

import sys
from functools import cache

VERSION = "HGX 1"
VERSION_2 = "HGX 2"  # an individual tournament (HGX 1's team records are not in it)
BLOCK, FIRST = 25, 64


class Unreadable(Exception):
    pass


def num(text, where):
    try:
        return int(text)
    except ValueError:
        raise Unreadable(f"{where}: not a number: {text!r}") from None


def real(text, where):
    try:
        return float(text)
    except ValueError:
        raise Unreadable(f"{where}: not a number: {text!r}") from None


def read(text):
    lines = text.splitlines()
    if not lines or lines[0].strip() != VERSION:
        raise Unreadable(f"line 1: not {VERSION!r} or {VERSION_2!r}")
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


def min_rematches(teams, played):
    """The fewest rematches any pairing of `teams` (an even number) can have."""
    teams = tuple(sorted(teams))

    @cache
    def best(left):
        if not left:
            return 0
        a, rest = left[0], left[1:]
        return min(
            (frozenset((a, b)) in played) + best(rest[:i] + rest[i + 1 :])
            for i, b in enumerate(rest)
        )

    return best(teams)


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


def check(text):
    """The failures found in `text` (an empty list: the file passes)."""
    if text.split("\n", 1)[0].strip() == VERSION_2:
        return check_individual(text)
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


# --- HGX 2: an individual tournament -------------------------------------------------------


def read_individual(text):
    lines = text.splitlines()
    head, players, standing = {}, {}, {}
    for n, line in enumerate(lines[1:], start=2):
        code, where = line[:3], f"line {n}"
        if code in ("012", "022", "032", "062", "072"):
            head[code] = line[4:].strip()
        elif code == "001":
            start = num(line[4:8], where)
            blocks = {}
            for r in range(1, (len(line) - FIRST + BLOCK - 1) // BLOCK + 1):
                block = line[FIRST + BLOCK * (r - 1) : FIRST + BLOCK * r]
                if block.strip():
                    f = block.split()
                    if len(f) != 7:
                        raise Unreadable(f"{where}: round {r}: seven fields")
                    blocks[r] = (num(f[0], where), num(f[1], where), num(f[2], where), f[3],
                                 f[4], num(f[5], where), num(f[6], where))  # fmt: skip
            players[start] = {"rank": num(line[56:60], where), "blocks": blocks}
        elif code == "002":
            f = line[4:].split()
            if len(f) != 12:
                raise Unreadable(f"{where}: twelve fields")
            values = [num(v, where) for v in f[:7]]
            values += [real(v, where) for v in f[7:10]]
            values += [num(f[10], where), num(f[11], where)]
            standing[values[0]] = values[1:]
        elif line.strip():
            raise Unreadable(f"{where}: unknown record {code!r}")
    for code in ("022", "032", "062", "072"):
        if code not in head:
            raise Unreadable(f"no {code} record")
    if set(standing) != set(players):
        raise Unreadable("a player without both a 001 and a 002 record")
    bye = head["072"].split()
    if len(bye) != 2:
        raise Unreadable("072: bye points and bye Buchholz")
    return {"format": head["022"], "rounds": num(head["032"], "032"),
            "tiebreaks": head["062"].split(), "bye_points": bye[0], "bye_buchholz": bye[1],
            "players": players, "standing": standing}  # fmt: skip


def games_of(x, bad):
    """round -> [(table, player1, player2 or None, winner or None, g1, g2, p1, p2)]."""
    rounds = {}
    outcomes = {("1", "0"): 1, ("0", "1"): 2, ("+", "-"): 1, ("-", "+"): 2, ("=", "="): 0}
    for start, p in sorted(x["players"].items()):
        for r, (other, table, _board, dealer, result, games, points) in p["blocks"].items():
            if other == 0:
                if result != "U" or dealer != "-":
                    bad(f"round {r}: player {start} has no opponent and no bye")
                rounds.setdefault(r, []).append((table, start, None, start, games, 0, points, 0))
                continue
            mine = x["players"].get(other, {}).get("blocks", {}).get(r)
            if mine is None or mine[0] != start or mine[1] != table:
                bad(f"round {r}: player {start} names {other} at table {table}, who does not"
                    " name them back")  # fmt: skip
                continue
            if {dealer, mine[3]} != {"d", "s"}:
                bad(f"round {r} table {table}: not one dealer")
            if (result, mine[4]) not in outcomes:
                bad(f"round {r} table {table}: results {result}/{mine[4]} disagree")
                continue
            if dealer != "d":
                continue  # written once, from the first dealer's (player 1's) side
            side = outcomes[(result, mine[4])]
            winner = (None, start, other)[side]
            rounds.setdefault(r, []).append(
                (table, start, other, winner, games, mine[5], points, mine[6])
            )
    for r, tables in rounds.items():
        seated = [p for t in tables for p in t[1:3] if p is not None]
        if len(seated) != len(set(seated)):
            bad(f"round {r}: a player at two tables")
        if sorted(t[0] for t in tables) != list(range(1, len(tables) + 1)):
            bad(f"round {r}: tables are not 1 to {len(tables)}")
    return rounds


def check_individual_pairings(x, rounds, bad):
    played, byes, first, real = set(), {}, {}, {}
    for r in sorted(rounds):
        tables = rounds[r]
        pairs = [frozenset(t[1:3]) for t in tables if t[2] is not None]
        again = sum(1 for p in pairs if p in played)
        seated = [p for t in tables for p in t[1:3] if p is not None]
        if x["format"] == "round_robin" and again:
            bad(f"round {r}: a round robin pairs a rematch")
        elif again and len(seated) <= 20:
            fewest = min_rematches([p for t in tables if t[2] for p in t[1:3]], frozenset(played))
            if again > fewest:
                bad(f"round {r}: {again} rematches where {fewest} would do")
        for t in tables:
            if t[2] is None:
                if byes.get(t[1]) and any(not byes.get(p) for p in seated):
                    bad(f"round {r}: player {t[1]} has a second bye before everyone had one")
                byes[t[1]] = byes.get(t[1], 0) + 1
                continue
            one, two = t[1], t[2]
            if x["format"] == "swiss" and first.get(one, 0) > first.get(two, 0):
                bad(f"round {r} table {t[0]}: player {one} deals first, having dealt first"
                    f" more often than player {two}")  # fmt: skip
        for t in tables:
            if t[2] is not None:
                first[t[1]] = first.get(t[1], 0) + 1
                for p in t[1:3]:
                    real[p] = real.get(p, 0) + 1
        played |= set(pairs)
    if x["format"] == "round_robin":
        for p, g in sorted(real.items()):
            if first.get(p, 0) not in (g // 2, (g + 1) // 2):
                bad(f"player {p} deals first in {first.get(p, 0)} of {g} matches")
        n = len(x["players"])
        if not any(s[-1] for s in x["standing"].values()) and len(played) != n * (n - 1) // 2:
            bad("the round robin does not pair every two players once")


def individual_standings(x, rounds):
    """start -> [rank, place, wins, played, games, diff, bh, sb, mbh, byes]."""
    bye_wins = x["bye_points"] == "win"
    t = {p: {"w": 0, "pl": 0, "g": 0, "d": 0, "y": 0, "opp": [], "beat": [], "drew": [],
             "yr": []} for p in x["players"]}  # fmt: skip
    results = [(r, *g) for r in sorted(rounds) for g in sorted(rounds[r])]
    for r, _table, p1, p2, winner, g1, g2, h1, h2 in results:
        t[p1]["g"] += g1
        t[p1]["d"] += h1 - h2
        if p2 is None:
            t[p1]["y"] += 1
            t[p1]["yr"].append(r)
            t[p1]["w"] += 1 if bye_wins else 0
            continue
        t[p2]["g"] += g2
        t[p2]["d"] += h2 - h1
        for me, other in ((p1, p2), (p2, p1)):
            t[me]["pl"] += 1
            t[me]["opp"].append(other)
        if winner is None:
            t[p1]["drew"].append(p2)
            t[p2]["drew"].append(p1)
        else:
            t[winner]["w"] += 1
            t[winner]["beat"].append(p2 if winner == p1 else p1)
    wins = {p: v["w"] for p, v in t.items()}
    last = max(rounds, default=0)
    rows = {}
    for p, v in t.items():
        opp = [float(wins[o]) for o in v["opp"]]
        if x["bye_buchholz"] == "virtual_opponent":
            for yr in v["yr"]:
                before = sum(1 for r, _t, a, b, w, *_ in results
                             if r < yr and w == p and (b is not None or bye_wins))  # fmt: skip
                opp.append(before + (0 if bye_wins else 1) + 0.5 * (last - yr))
        bh = float(sum(opp))
        mbh = bh - max(opp) - min(opp) if len(opp) >= 3 else bh
        sb = float(sum(wins[o] for o in v["beat"]) + sum(wins[o] for o in v["drew"]) / 2)
        rows[p] = {"match_wins": v["w"], "played": v["pl"], "games_won": v["g"],
                   "points_diff": v["d"], "buchholz": bh, "sonneborn_berger": sb,
                   "median_buchholz": mbh, "byes": v["y"]}  # fmt: skip
    keys = {p: [] for p in t}
    for tb in x["tiebreaks"]:
        if tb == "head_to_head":
            groups = {}
            for p, k in keys.items():
                groups.setdefault(tuple(k), set()).add(p)
            for members in groups.values():
                for p in members:
                    keys[p].append(sum(1 for b in t[p]["beat"] if b in members))
        else:
            for p in t:
                keys[p].append(rows[p][tb])
    order = sorted(t, key=lambda p: (*(-k for k in keys[p]), p))
    out, place = {}, 0
    for i, p in enumerate(order, 1):
        if i == 1 or keys[p] != keys[order[i - 2]]:
            place = i
        r = rows[p]
        out[p] = [
            i,
            place,
            r["match_wins"],
            r["played"],
            r["games_won"],
            r["points_diff"],
            r["buchholz"],
            r["sonneborn_berger"],
            r["median_buchholz"],
            r["byes"],
        ]
    return out


def check_individual(text):
    """The failures found in an HGX 2 file (an empty list: it passes)."""
    problems = []
    x = read_individual(text)
    if x["format"] not in ("swiss", "round_robin"):
        return [f"022: {x['format']!r} is not swiss or round_robin"]
    known = {"match_wins", "games_won", "points_diff", "buchholz", "sonneborn_berger",
             "median_buchholz", "head_to_head"}  # fmt: skip
    if set(x["tiebreaks"]) - known:
        return [f"062: unknown tiebreaks {sorted(set(x['tiebreaks']) - known)}"]
    rounds = games_of(x, problems.append)
    check_individual_pairings(x, rounds, problems.append)
    names = ("rank", "place", "match wins", "played", "games won", "points difference",
             "Buchholz", "Sonneborn-Berger", "median Buchholz", "byes")  # fmt: skip
    for p, want in sorted(individual_standings(x, rounds).items()):
        said = x["standing"][p][:10]
        for name, a, b in zip(names, said, want, strict=True):
            if abs(a - b) > 1e-6:
                problems.append(f"player {p}: the file says {name} {a}; its results make {b}")
        if x["players"][p]["rank"] != want[0]:
            problems.append(f"player {p}: the 001 rank is not the 002 rank")
    return problems


def main(argv):
    if len(argv) != 2:
        print("usage: check_exchange.py FILE", file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            problems = check(f.read())
    except (OSError, UnicodeDecodeError, Unreadable, IndexError) as exc:
        print(f"unreadable: {exc}", file=sys.stderr)
        return 2
    for p in problems:
        print(f"FAIL {p}")
    print("OK: every check passed" if not problems else f"{len(problems)} checks failed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
